package config

import (
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
// safe for concurrent use, and it holds what it keeps until it is dropped.
type ModuleCache struct {
	mu      sync.Mutex
	modules map[moduleKey]*cachedModule
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
}

// fileDigest is one configuration file as a module was made from it.
type fileDigest struct {
	file configFile
	sum  [sha256.Size]byte
}

// digests fingerprints files by their sources, in the order given.
func digests(files []configFile, srcs [][]byte) []fileDigest {
	out := make([]fileDigest, len(files))
	for i, f := range files {
		out[i] = fileDigest{file: f, sum: sha256.Sum256(srcs[i])}
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
		c.mu.Unlock()
		<-cm.done
		if cm.mod == nil {
			// The decode that was to fill it did not finish.
			return decode()
		}
		return cm.mod, copyDiagnostics(cm.diags)
	}
	cm = &cachedModule{files: files, done: make(chan struct{})}
	if c.modules == nil {
		c.modules = map[moduleKey]*cachedModule{}
	}
	c.modules[key] = cm
	c.mu.Unlock()
	defer func() {
		if cm.mod == nil {
			// decode panicked or was cancelled: keep nothing for key.
			c.mu.Lock()
			if c.modules[key] == cm {
				delete(c.modules, key)
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
