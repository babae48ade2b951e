package config

import (
	"container/list"
	"crypto/sha256"
	"path/filepath"
	"slices"
	"sync"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

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
// by, since file names in source ranges and path.module follow that path;
// the first load by a new path copies the parse kept for another path with
// its ranges renamed, which takes about an eighth of the time of parsing.
// A file with the same name and contents as one of a kept module in
// another directory is copied from that parse too.
//
// Loads running at the same time that need the same directory wait for
// the first one to decode it, and a load needing a file that another load
// is parsing at that moment (by name and contents) waits for that parse
// and copies it. The modules a cache hands out are shared by
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
	// paths lists the kept modules of each directory, by every path it
	// was reached by: a load by a new path copies a kept parse.
	paths map[dirKey][]*cachedModule
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

// dirKey is a module directory, whatever path it is reached by.
type dirKey struct {
	abs     string
	dialect dialect.Dialect
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
	// parsed are the files as parsed, before decoding, for a load of
	// the directory by another path to copy (see relocator).
	parsed []parsedFile
	key    moduleKey
	size   int64         // source bytes of the files
	use    *list.Element // its place in ModuleCache.recent; nil once dropped
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
// files, and otherwise makes it and keeps it, replacing what was kept for
// key before: parse parses the i-th file, unless the same files are kept
// as reached by another path, or the same file is kept or being parsed
// for another directory (see sameContents), whose parse is copied; decode
// makes the module of the parsed files. Loads of the same files at the
// same time wait for the first one's decode instead of each decoding the
// directory.
func (c *ModuleCache) load(key moduleKey, files []fileDigest, parse func(i int) parsedFile, decode func([]parsedFile) (*Module, hcl.Diagnostics)) (*Module, hcl.Diagnostics) {
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
			return decode(parseAll(files, parse))
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
		c.paths = map[dirKey][]*cachedModule{}
	}
	from := c.sameFiles(key, files)
	var donors []keptParse
	if from == nil {
		donors = c.sameContents(key.dialect, files)
	}
	c.modules[key] = cm
	dk := dirKey{key.abs, key.dialect}
	c.paths[dk] = append(c.paths[dk], cm)
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
	parsed := make([]parsedFile, len(files))
	var todo, waiting []int
	for i, f := range files {
		if from != nil {
			if p, ok := from.parsed[i].relocate(from.files[i].file.Path, f.file.Path); ok {
				parsed[i] = p
				continue
			}
		} else if d := donors[i]; d.path != "" {
			if p, ok := d.parsed.relocate(d.path, f.file.Path); ok {
				parsed[i] = p
				continue
			}
		} else if d.making != nil && !f.file.JSON { // JSON is not copied
			waiting = append(waiting, i)
			continue
		}
		todo = append(todo, i)
	}
	parseEach(parsed, todo, func(i int) int64 { return files[i].size }, parse)
	// The files another load is parsing are copied once it is done,
	// unless it did not finish; it never waits for this load, which it
	// did not see (a load waits only for those made before it).
	todo = todo[:0]
	for _, i := range waiting {
		d := donors[i]
		<-d.making.done
		if d.making.parsed != nil {
			from := d.making.files[d.index].file.Path
			if p, ok := d.making.parsed[d.index].relocate(from, files[i].file.Path); ok {
				parsed[i] = p
				continue
			}
		}
		todo = append(todo, i)
	}
	parseEach(parsed, todo, func(i int) int64 { return files[i].size }, parse)
	mod, diags := decode(parsed)
	if !interrupted(diags) {
		cm.mod, cm.diags, cm.parsed = mod, copyDiagnostics(diags), parsed
	}
	return mod, diags
}

// parseAll parses every file.
func parseAll(files []fileDigest, parse func(i int) parsedFile) []parsedFile {
	parsed := make([]parsedFile, len(files))
	parseEach(parsed, indexes(len(parsed)), func(i int) int64 { return files[i].size }, parse)
	return parsed
}

// sameFiles is a module kept for the directory of key as reached by
// another path, made from the same files, whose parse a load of key can
// copy; nil when there is none. c.mu is held.
func (c *ModuleCache) sameFiles(key moduleKey, files []fileDigest) *cachedModule {
	for _, cm := range c.paths[dirKey{key.abs, key.dialect}] {
		select {
		case <-cm.done:
		default:
			continue // still being made
		}
		if cm.parsed == nil || len(cm.files) != len(files) {
			continue
		}
		same := true
		for i, f := range files {
			if !sameFile(cm.files[i], f) {
				same = false
				break
			}
		}
		if same {
			return cm
		}
	}
	return nil
}

// keptParse is the parse of a file kept in the cache, and the path it
// was parsed with; the zero value when there is none. When the file is
// in a module still being made, making is that module and index the
// file's place in it instead.
type keptParse struct {
	parsed parsedFile
	path   string
	making *cachedModule
	index  int
}

// sameContents finds, for each of files, a kept parse of a file with the
// same name and the same content in any directory, whose parse a load can
// copy instead of parsing the file again: the same file is often in many
// directories of a repository (the generated variables.tf and outputs.tf
// of wrapper modules, fixtures linking a module's files), a quarter to a
// half of the bytes of several published ones. A file of a module another
// load is making is found too, to be copied once that load is done: two
// roots of a scan in flight at once often load two copies of a module
// (the repository's own and the one its examples call), and each parsed
// all of it before. c.mu is held.
func (c *ModuleCache) sameContents(d dialect.Dialect, files []fileDigest) []keptParse {
	out := make([]keptParse, len(files))
	left := len(files)
	for _, cm := range c.modules {
		if left == 0 {
			break
		}
		if cm.key.dialect != d {
			continue
		}
		making := false
		select {
		case <-cm.done:
		default:
			making = true
		}
		if !making && cm.parsed == nil {
			continue
		}
		for i, f := range files {
			if out[i].path != "" || making && out[i].making != nil {
				continue
			}
			for j, g := range cm.files {
				if !sameFile(g, f) {
					continue
				}
				if making {
					// Parsed by another load now: waiting for
					// it costs less than parsing it again.
					out[i] = keptParse{making: cm, index: j}
				} else {
					out[i] = keptParse{parsed: cm.parsed[j], path: g.file.Path}
					left--
				}
				break
			}
		}
	}
	return out
}

// sameFile reports whether two files parse alike but for their names:
// the same content, syntax, override status and base name.
func sameFile(g, f fileDigest) bool {
	return g.sum == f.sum && g.file.JSON == f.file.JSON && g.file.Override == f.file.Override && filepath.Base(g.file.Path) == filepath.Base(f.file.Path)
}

// relocate is a copy of the parsed file, parsed with the name from, as
// though it had been parsed with the name to: false when it cannot be
// copied (it is not native syntax, or holds what relocator does not know).
func (p parsedFile) relocate(from, to string) (parsedFile, bool) {
	body, ok := p.body.(*hclsyntax.Body)
	if !ok {
		return parsedFile{}, false
	}
	r := &relocator{from: from, to: to}
	out := parsedFile{body: r.body(body), diags: r.diags(p.diags)}
	return out, !r.unknown
}

// ForgetRoot drops what the cache keeps of the directory dir loaded as a
// root module (Load or LoadModule of "." with Options.WorkDir dir, in
// either dialect); the same directory loaded as a module other modules
// call, by a relative path, stays. A caller that will not load that root
// again, as a scan once it has evaluated the root, leaves the room to the
// modules roots share: a root module is not shared.
func (c *ModuleCache) ForgetRoot(dir string) {
	c.dropEach(dir, func(abs string, d dialect.Dialect) []*cachedModule {
		if cm := c.modules[moduleKey{abs: abs, dir: ".", sourceDir: ".", dialect: d}]; cm != nil {
			return []*cachedModule{cm}
		}
		return nil
	})
}

// Forget drops what the cache keeps of the module directory dir, however
// it was reached (as a root or called by any path) and in either dialect:
// a caller that knows nothing will load dir again, as a scan whose later
// roots do not reach it, frees the memory at once rather than when the
// bound pushes it out.
func (c *ModuleCache) Forget(dir string) {
	c.dropEach(dir, func(abs string, d dialect.Dialect) []*cachedModule {
		return slices.Clone(c.paths[dirKey{abs, d}])
	})
}

// dropEach drops the kept modules pick lists for the directory dir (made
// absolute) in each dialect; pick runs with c.mu held.
func (c *ModuleCache) dropEach(dir string, pick func(abs string, d dialect.Dialect) []*cachedModule) {
	if abs, err := filepath.Abs(dir); err == nil {
		dir = abs
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, d := range []dialect.Dialect{dialect.Terraform, dialect.Tofu} {
		for _, cm := range pick(dir, d) {
			c.drop(cm)
		}
	}
}

// drop forgets a kept module; c.mu is held. Loads already waiting for it
// still get it.
func (c *ModuleCache) drop(cm *cachedModule) {
	if c.modules[cm.key] == cm {
		delete(c.modules, cm.key)
	}
	dk := dirKey{cm.key.abs, cm.key.dialect}
	if i := slices.Index(c.paths[dk], cm); i >= 0 {
		c.paths[dk] = slices.Delete(c.paths[dk], i, i+1)
		if len(c.paths[dk]) == 0 {
			delete(c.paths, dk)
		}
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
