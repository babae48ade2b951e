package funcs

import (
	"io/fs"
	"sync"
	"time"

	"github.com/zclconf/go-cty/cty"
)

// DefaultCacheBytes is what a Cache keeps at most when its MaxBytes is 0.
const DefaultCacheBytes = 64 << 20

// Cache keeps what file functions read and compute for every evaluation
// given it (Options.Cache), so that evaluations of many root modules that
// read the same files (a scan of a repository whose roots call the same
// modules) read each file, parse each template, list each fileset
// directory and decode each jsondecode or yamldecode document once, not
// once per root.
//
// What depends only on a text (a template's parse, a document's decoded
// value, which template variable names are valid) is kept by that text and
// is always right. A file's text is kept by its real path with its size
// and modification time, and read again when either changed; a directory
// listing of fileset is kept by directory and pattern for the life of the
// cache: drop the cache when files may be added or removed. Evaluations
// that read from an fs.FS (Options.FS) share only what depends on texts.
// In console mode files are read at every call, as without a cache.
//
// MaxBytes bounds what it keeps, counted by the texts (a decoded document's
// value takes several times its text); past it, what was kept longest is
// dropped. Each table still checks every path against its own sandbox
// before it uses what the cache kept. The zero value is ready to use and
// safe for concurrent use.
type Cache struct {
	// MaxBytes bounds the bytes of texts kept; 0 means DefaultCacheBytes.
	// Half of it goes to file texts, a quarter to decoded documents and
	// the rest to template parses, fileset listings and names. Set it
	// before the cache is first used.
	MaxBytes int64

	once        sync.Once
	texts       memo[fileText]
	templates   memo[parsedTemplate]
	decoded     decodeCache
	filesets    memo[[]cty.Value]
	identifiers memo[bool]
}

// fileText is a file's text and what says it has not changed since.
type fileText struct {
	text string
	size int64
	mod  time.Time
}

// init sets the bounds of the cache's parts on first use.
func (c *Cache) init() *Cache {
	c.once.Do(func() {
		total := int(c.MaxBytes)
		if total <= 0 {
			total = DefaultCacheBytes
		}
		for _, m := range []struct {
			evict *bool
			limit *int
			share int
		}{
			{&c.texts.evict, &c.texts.limit, total / 2},
			{&c.decoded.results.evict, &c.decoded.results.limit, total / 4},
			{&c.templates.evict, &c.templates.limit, total / 8},
			{&c.filesets.evict, &c.filesets.limit, total / 16},
			{&c.identifiers.evict, &c.identifiers.limit, total / 16},
		} {
			*m.evict, *m.limit = true, max(m.share, 1)
		}
	})
	return c
}

// text is the text kept for the file at resolved (a real path) when the
// file, as stat describes it now, is the one that was read.
func (c *Cache) text(resolved string, fi fs.FileInfo) (string, bool) {
	t, ok := c.texts.get(resolved)
	if !ok || t.size != fi.Size() || !t.mod.Equal(fi.ModTime()) {
		return "", false
	}
	return t.text, true
}

// putText keeps the text read from the file at resolved.
func (c *Cache) putText(resolved, text string, fi fs.FileInfo) {
	c.texts.put(resolved, fileText{text: text, size: fi.Size(), mod: fi.ModTime()}, len(text))
}
