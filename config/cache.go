package config

import (
	"container/list"
	"crypto/sha256"
	"slices"
	"sync"

	"github.com/hashicorp/hcl/v2"

	"github.com/tfeval/tfeval/dialect"
)

// ModuleCache keeps the modules that loads have read, so that a later load
// in the same process skips parsing and decoding any module directory
// whose configuration files are unchanged. A tool that evaluates many root
// modules calling the same shared modules, an editor evaluating again after
// every change, or a test evaluating one module with many sets of inputs
// then parses each module once.
//
// Every load still lists each directory and reads each of its
// configuration files, and uses a kept module only when the same files
// (by name) have the same contents (by SHA-256): an edited, added, removed
// or renamed file is never answered from the cache, whatever its
// modification time says. A directory is kept once per path it is reached
// by, since file names in source ranges and path.module follow that path.
//
// Loads running at the same time that need the same directory wait for
// the first one to decode it. The modules a cache hands out are shared by
// every load that gets them, and by concurrent evaluations of those loads:
// they must not be modified. A directory whose files could not all be
// read is not kept. The zero value is an empty cache ready to use; it is
// safe for concurrent use, and it holds what it keeps until it is dropped,
// or with MaxBytes set, until newer modules need the room.
type ModuleCache struct {
	// MaxBytes, when positive, bounds the configuration source bytes of
	// the modules kept: past it, the modules used least recently are
	// dropped (a loaded module takes about fifteen times its source in
	// memory). Set it before the cache is first used.
	MaxBytes int64

	mu      sync.Mutex
	modules map[moduleKey]*cachedModule
	// recent orders the kept modules by their last use, latest first,
	// and size is their source bytes, when MaxBytes bounds them.
	recent list.List
	size   int64
}

// moduleKey is a module directory as one load reaches it.
type moduleKey struct {
	// abs is the directory's absolute path: which files are read. Symbolic
	// links are left as they are, since the files are compared anyway.
	abs string
	// dir and sourceDir are the path it was reached by: how the module's
	// file names and path.module are written. Each path has its own
	// entry, so loads alternating between two paths do not evict each
	// other.
	dir, sourceDir string
	dialect        dialect.Dialect
}

// loadedModule is a directory's module with the diagnostics of reading it.
type loadedModule struct {
	mod   *Module
	diags hcl.Diagnostics
}

// cachedModule is one directory's loadModule result and the files it was
// made from; the result is set before done is closed.
type cachedModule struct {
	files []fileDigest
	done  chan struct{}
	loadedModule
	key  moduleKey
	size int64         // source bytes of the files
	use  *list.Element // its place in ModuleCache.recent; nil once dropped
}

// fileDigest is one configuration file as a module was made from it.
type fileDigest struct {
	file configFile
	sum  [sha256.Size]byte
	size int64
}

// digests fingerprints files by their sources, in the order given.
func digests(files []configFile, srcs [][]byte) []fileDigest {
	out := make([]fileDigest, len(files))
	for i, f := range files {
		out[i] = fileDigest{file: f, sum: sha256.Sum256(srcs[i]), size: int64(len(srcs[i]))}
	}
	return out
}

// load returns the module kept for key when it was made from the same
// files, and otherwise makes it with decode and keeps it, replacing what
// was kept for key before. Loads of the same files at the same time wait
// for the first one's decode instead of each decoding the directory.
func (c *ModuleCache) load(key moduleKey, files []fileDigest, decode func() (*Module, hcl.Diagnostics)) (*Module, hcl.Diagnostics) {
	c.mu.Lock()
	cm := c.modules[key]
	if cm != nil && slices.Equal(cm.files, files) {
		if cm.use != nil {
			c.recent.MoveToFront(cm.use)
		}
		c.mu.Unlock()
		<-cm.done
		if cm.mod == nil {
			// The decode that was to fill it did not finish.
			return decode()
		}
		return cm.mod, copyDiagnostics(cm.diags)
	}
	if cm != nil {
		c.drop(cm)
	}
	cm = &cachedModule{files: files, done: make(chan struct{}), key: key}
	for _, f := range files {
		cm.size += f.size
	}
	if c.modules == nil {
		c.modules = map[moduleKey]*cachedModule{}
	}
	c.modules[key] = cm
	if c.MaxBytes > 0 {
		cm.use = c.recent.PushFront(cm)
		c.size += cm.size
		for c.size > c.MaxBytes && c.recent.Len() > 1 {
			c.drop(c.recent.Back().Value.(*cachedModule))
		}
	}
	c.mu.Unlock()
	defer func() {
		if cm.mod == nil {
			// decode panicked or was cancelled: keep nothing for key.
			c.mu.Lock()
			if c.modules[key] == cm {
				c.drop(cm)
			}
			c.mu.Unlock()
		}
		close(cm.done)
	}()
	mod, diags := decode()
	if !interrupted(diags) {
		cm.mod, cm.diags = mod, copyDiagnostics(diags)
	}
	return mod, diags
}

// drop forgets a kept module; c.mu is held. Loads already waiting for it
// still get it.
func (c *ModuleCache) drop(cm *cachedModule) {
	if c.modules[cm.key] == cm {
		delete(c.modules, cm.key)
	}
	if cm.use != nil {
		c.recent.Remove(cm.use)
		cm.use = nil
		c.size -= cm.size
	}
}

// interrupted reports whether a decode stopped because its load was
// cancelled: what it made is not the module, and is not kept.
func interrupted(diags hcl.Diagnostics) bool {
	for _, d := range diags {
		if d.Summary == "Loading cancelled" {
			return true
		}
	}
	return false
}

// copyDiagnostics copies a list of diagnostics and each diagnostic in it,
// so that what a caller appends to or changes is not seen by the next load.
func copyDiagnostics(diags hcl.Diagnostics) hcl.Diagnostics {
	if diags == nil {
		return nil
	}
	out := make(hcl.Diagnostics, len(diags))
	for i, d := range diags {
		c := *d
		c.Subject, c.Context = copyRange(d.Subject), copyRange(d.Context)
		out[i] = &c
	}
	return out
}

func copyRange(r *hcl.Range) *hcl.Range {
	if r == nil {
		return nil
	}
	c := *r
	return &c
}
