package scan

import (
	"bytes"
	"cmp"
	"context"
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/bmatcuk/doublestar"
	"github.com/hashicorp/hcl/v2"

	"github.com/tfeval/tfeval/config"
	"github.com/tfeval/tfeval/dialect"
	"github.com/tfeval/tfeval/internal/limit"
	"github.com/tfeval/tfeval/internal/parallel"
	"github.com/tfeval/tfeval/internal/sandbox"
)

// DefaultMaxDirs is the number of directories Find visits at most when
// Options.MaxDirs is 0.
const DefaultMaxDirs = 1_000_000

// Options say what Find looks for and where it may look.
type Options struct {
	// Dialect decides which files are configuration files: .tofu and
	// .tofu.json count only in OpenTofu.
	Dialect dialect.Dialect
	// AllDirs makes every module directory a root, as tflint --recursive
	// does; otherwise a directory another one calls through a local source
	// is not a root.
	AllDirs bool
	// Exclude are glob patterns of directories not to scan, with ** for any
	// number of directories, matched against each directory's
	// slash-separated path relative to the scanned directory; a pattern
	// without a slash matches a directory of that name at any depth.
	// "examples", "**/test" and "legacy/*" are such patterns.
	Exclude []string
	// WorkDir is what a relative directory is relative to; "" means the
	// process working directory.
	WorkDir string
	// Sandbox, when not empty, is the directory outside which nothing is
	// read (relative to WorkDir when not absolute).
	Sandbox string
	// FS, when not nil, is where directories are listed and files read
	// from, as tfeval's Options.FS.
	FS fs.FS
	// Cache, when not nil, keeps the modules Find reads to decide which
	// directories are roots; evaluating the roots with the same cache then
	// does not parse them again.
	Cache *config.ModuleCache
	// Context, when done, stops the walk with an error.
	Context context.Context
	// MaxDirs bounds the directories visited; 0 means DefaultMaxDirs.
	MaxDirs int
}

// Tree is what Find found below a directory.
type Tree struct {
	// Dir is the scanned directory, absolute.
	Dir string
	// ModuleDirs are the module directories, slash-separated and relative
	// to Dir ("." for Dir itself), in path order.
	ModuleDirs []string
	// Roots are the module directories that are roots, in path order.
	Roots []string

	// calls are, for each module directory (by its index in ModuleDirs),
	// those it calls through a local source; nil with Options.AllDirs,
	// which does not look for calls.
	calls [][]int
}

// LastReached lists, for each root (by its index in Roots), the module
// directories (absolute paths) it reaches through local module sources,
// itself included, that no later root reaches: once the roots up to it
// are done, nothing later in the scan loads them again, and a cache kept
// for the scan may drop them. Module sources that are not local (or not
// yet installed) are not followed, so a directory only they reach is in
// no list. Without the calls (Options.AllDirs) each root lists itself.
func (t *Tree) LastReached() [][]string {
	index := make(map[string]int, len(t.ModuleDirs))
	for i, d := range t.ModuleDirs {
		index[d] = i
	}
	last := make([]int, len(t.ModuleDirs))
	for i := range last {
		last[i] = -1
	}
	seen := make([]int, len(t.ModuleDirs)) // the root+1 that last visited it
	var visit func(r, d int)
	visit = func(r, d int) {
		if seen[d] == r+1 {
			return
		}
		seen[d] = r + 1
		last[d] = r
		if t.calls != nil {
			for _, c := range t.calls[d] {
				visit(r, c)
			}
		}
	}
	for r, root := range t.Roots {
		if d, ok := index[root]; ok {
			visit(r, d)
		}
	}
	out := make([][]string, len(t.Roots))
	for d, r := range last {
		if r >= 0 {
			out[r] = append(out[r], filepath.Join(t.Dir, filepath.FromSlash(t.ModuleDirs[d])))
		}
	}
	return out
}

// Find walks the tree below dir and returns its module directories and
// its roots. Problems of the walk are warnings (an unreadable directory,
// a link not followed) or, when nothing could be scanned, errors: dir is
// not a directory, lies outside the sandbox, holds too many directories
// or the context is done.
func Find(dir string, opts Options) (*Tree, hcl.Diagnostics) {
	w := &walker{opts: opts}
	if opts.MaxDirs <= 0 {
		w.opts.MaxDirs = DefaultMaxDirs
	}
	for _, p := range opts.Exclude {
		if _, err := doublestar.Match(p, "x"); err != nil || p == "" {
			return nil, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Invalid exclude pattern", Detail: fmt.Sprintf("%q is not a valid glob pattern.", p)}}
		}
	}
	workDir := opts.WorkDir
	if opts.FS != nil && !filepath.IsAbs(workDir) {
		workDir = filepath.Join(sandbox.FSRoot, filepath.FromSlash(workDir))
	} else if abs, err := filepath.Abs(workDir); err == nil {
		workDir = abs
	}
	box, err := sandbox.NewFS(opts.FS, opts.Sandbox, workDir)
	if err != nil {
		return nil, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Invalid sandbox directory", Detail: fmt.Sprintf("The directory given as the sandbox cannot be used: %s.", err)}}
	}
	w.box = box
	abs := filepath.Clean(filepath.Join(workDir, filepath.FromSlash(dir)))
	if filepath.IsAbs(dir) {
		abs = filepath.Clean(dir)
	}
	w.tree = &Tree{Dir: abs}
	if fi, err := box.Stat(abs); err != nil || !fi.IsDir() {
		return nil, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "No such directory", Detail: fmt.Sprintf("%s is not a directory that can be read.", dir)}}
	}
	if ok, err := box.Contains(abs); err != nil || !ok {
		return nil, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Directory outside the sandbox", Detail: fmt.Sprintf("%s is outside the directory tfeval may read (%s).", dir, box.Root())}}
	}
	real, err := box.RealPath(abs)
	if err != nil {
		real = abs
	}
	w.realRoot = real
	if !w.walk(abs, ".", real) {
		return nil, w.diags
	}
	if opts.AllDirs {
		w.tree.Roots = slices.Clone(w.tree.ModuleDirs)
	} else {
		w.tree.Roots = w.roots()
	}
	return w.tree, w.diags
}

// walker is the state of one Find.
type walker struct {
	opts     Options
	box      sandbox.Dir
	tree     *Tree
	realRoot string // the scanned directory's real path
	visited  int
	diags    hcl.Diagnostics
}

// walk visits the directory abs (rel from the tree's top, real its real
// path) and those below it, in name order; false when the walk must stop.
func (w *walker) walk(abs, rel, real string) bool {
	if ctx := w.opts.Context; ctx != nil && ctx.Err() != nil {
		w.diags = append(w.diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Scan cancelled", Detail: fmt.Sprintf("The scan stopped before it had listed every directory below %s: %s.", w.tree.Dir, context.Cause(ctx))})
		return false
	}
	if w.visited++; w.visited > w.opts.MaxDirs {
		w.diags = append(w.diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Too many directories", Detail: fmt.Sprintf("The tree below %s has more than %d directories; leave some out with -exclude, or scan a directory further down.", w.tree.Dir, w.opts.MaxDirs)})
		return false
	}
	entries, err := w.box.ReadDir(abs)
	if err != nil {
		if rel == "." {
			w.diags = append(w.diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Unreadable directory", Detail: fmt.Sprintf("Cannot list %s: %s.", w.tree.Dir, describe(err))})
			return false
		}
		w.diags = append(w.diags, &hcl.Diagnostic{Severity: hcl.DiagWarning, Summary: "Unreadable directory", Detail: fmt.Sprintf("Cannot list %s, so the module directories in it are not scanned: %s.", rel, describe(err))})
		return true
	}
	module := false
	for _, e := range entries {
		// A configuration file may be a link, as Terraform reads it.
		if !e.IsDir() && config.IsConfigFile(e.Name(), w.opts.Dialect) {
			module = true
			break
		}
	}
	if module {
		w.tree.ModuleDirs = append(w.tree.ModuleDirs, rel)
	}
	for _, e := range entries {
		name := e.Name()
		childRel := path.Join(rel, name)
		if strings.HasPrefix(name, ".") || w.excluded(childRel, name) {
			continue
		}
		childAbs := filepath.Join(abs, name)
		if e.Type()&fs.ModeSymlink != 0 {
			w.link(childAbs, childRel, real)
			continue
		}
		if !e.IsDir() {
			continue
		}
		if !w.walk(childAbs, childRel, filepath.Join(real, name)) {
			return false
		}
	}
	return true
}

// link reports a symbolic link found at abs in the directory whose real
// path is parent, when it names a directory and so would be followed by a
// tool that follows links: one leading out of the tree or the sandbox, or
// to a directory it is inside of (a loop). Others name directories that
// are scanned in place.
func (w *walker) link(abs, rel, parent string) {
	fi, err := w.box.Stat(abs)
	if err != nil || !fi.IsDir() {
		return
	}
	target, err := w.box.RealPath(abs)
	if err != nil {
		return
	}
	inBox, _ := w.box.Contains(abs)
	switch {
	case !inBox || !sandbox.Within(w.realRoot, target):
		w.diags = append(w.diags, &hcl.Diagnostic{Severity: hcl.DiagWarning, Summary: "Link out of the tree not followed", Detail: fmt.Sprintf("%s is a link to a directory outside %s; the scan does not follow it.", rel, w.tree.Dir)})
	case sandbox.Within(target, parent):
		w.diags = append(w.diags, &hcl.Diagnostic{Severity: hcl.DiagWarning, Summary: "Link loop not followed", Detail: fmt.Sprintf("%s is a link to a directory it is inside of; the scan does not follow it.", rel)})
	}
}

// excluded reports whether a directory is left out by an Exclude pattern.
func (w *walker) excluded(rel, name string) bool {
	for _, p := range w.opts.Exclude {
		subject := rel
		if !strings.Contains(p, "/") {
			subject = name
		}
		if ok, _ := doublestar.Match(p, subject); ok {
			return true
		}
	}
	return false
}

// roots are the module directories no other one calls through a local
// source. The calls are read with config.LoadModule (through the cache, so
// evaluating a root later does not parse it again). Directories that only
// call one another in a cycle, which no root reaches, are roots too (the
// first of each cycle in path order), so that every module directory is
// evaluated through some root.
func (w *walker) roots() []string {
	dirs := w.tree.ModuleDirs
	index := make(map[string]int, len(dirs))
	for i, d := range dirs {
		index[d] = i
	}
	callees := make([][]int, len(dirs))
	// First which directories may call a module, and their sizes: reading
	// the files costs little next to parsing them.
	may := make([]bool, len(dirs))
	sizes := make([]int64, len(dirs))
	parallel.Each(len(dirs), func(i int) {
		may[i], sizes[i] = w.mayCall(w.abs(i))
	})
	// Which parses are kept is decided in path order, the order the roots
	// are evaluated in, whatever order they are parsed in.
	keep := newKeepBudget(w.opts.Cache)
	kept := make([]bool, len(dirs))
	var parse []int
	for i := range dirs {
		if may[i] {
			kept[i] = keep.take(sizes[i])
			parse = append(parse, i)
		}
	}
	// The largest first, on every CPU: the search ends when its last parse
	// does, and a large directory started last (the repository's own
	// module, or a fixture linking its 100 KB variables.tf) would be
	// parsed alone while the other CPUs wait.
	slices.SortStableFunc(parse, func(a, b int) int { return cmp.Compare(sizes[b], sizes[a]) })
	parallel.Each(len(parse), func(k int) {
		i := parse[k]
		callees[i] = w.calls(i, index, kept[i])
	})
	w.tree.calls = callees
	called := make([]bool, len(dirs))
	for _, out := range callees {
		for _, j := range out {
			called[j] = true
		}
	}
	reached := make([]bool, len(dirs))
	var reach func(i int)
	reach = func(i int) {
		if reached[i] {
			return
		}
		reached[i] = true
		for _, j := range callees[i] {
			reach(j)
		}
	}
	isRoot := make([]bool, len(dirs))
	for i := range dirs {
		if !called[i] {
			isRoot[i] = true
			reach(i)
		}
	}
	for i := range dirs {
		if !reached[i] {
			isRoot[i] = true
			reach(i)
		}
	}
	var roots []string
	for i, d := range dirs {
		if isRoot[i] {
			roots = append(roots, d)
		}
	}
	return roots
}

// abs is the absolute path of the i-th module directory.
func (w *walker) abs(i int) string {
	return filepath.Join(w.tree.Dir, filepath.FromSlash(w.tree.ModuleDirs[i]))
}

// calls are the module directories (by their indexes) the i-th one calls
// through local sources, read with config.LoadModule, through the cache
// when keep says its parse is kept. A load that panics calls nothing: the
// root that reaches the directory reports it when it loads it again.
func (w *walker) calls(i int, index map[string]int, keep bool) (out []int) {
	defer func() {
		if recover() != nil {
			out = nil
		}
	}()
	cache := w.opts.Cache
	if !keep {
		cache = nil
	}
	mod, _ := config.LoadModule(".", config.Options{
		Dialect: w.opts.Dialect,
		WorkDir: w.abs(i),
		Sandbox: w.box.Root(),
		FS:      w.opts.FS,
		Cache:   cache,
		Context: w.opts.Context,
	})
	if mod == nil {
		return nil
	}
	dirs := w.tree.ModuleDirs
	for _, call := range mod.ModuleCalls {
		if call.SourceAddr == "" || !config.IsLocalSource(call.SourceAddr) {
			continue
		}
		target := path.Join(dirs[i], filepath.ToSlash(call.SourceAddr))
		if j, ok := index[target]; ok && j != i {
			out = append(out, j)
		}
	}
	return out
}

// mayHaveModuleBlock reports whether a module block may begin in a
// configuration file: the word module, then a label (quoted or not) in
// native syntax, or a "module" key in JSON (`\bmodule(\s*"|\s+[A-Za-z_])`,
// the key's closing quote being the first case). Most files have neither,
// and then need not be parsed to know that they call no module. It is
// written out rather than a regular expression, which took nearly a quarter
// of a scan's search for roots in terraform-google-kubernetes-engine.
func mayHaveModuleBlock(src []byte) bool {
	const word = "module"
	for i := 0; ; {
		j := bytes.Index(src[i:], []byte(word))
		if j < 0 {
			return false
		}
		start := i + j
		i = start + len(word)
		if start > 0 && isWordByte(src[start-1]) {
			continue
		}
		k := i
		for k < len(src) && isSpace(src[k]) {
			k++
		}
		if k < len(src) && (src[k] == '"' || k > i && (src[k] == '_' || 'a' <= src[k]|0x20 && src[k]|0x20 <= 'z')) {
			return true
		}
	}
}

// isWordByte reports whether b is an ASCII letter, digit or underscore.
func isWordByte(b byte) bool {
	return b == '_' || '0' <= b && b <= '9' || 'a' <= b|0x20 && b|0x20 <= 'z'
}

// isSpace reports whether b is white space as regular expressions' \s.
func isSpace(b byte) bool {
	return b == ' ' || b == '\t' || b == '\n' || b == '\f' || b == '\r'
}

// mayCall reports whether a configuration file of the directory at abs
// may have a module block: only such directories are parsed to find
// their calls. Parsing is most of a scan's cost, and a module that calls
// no other (most of them) is then not parsed until a root is evaluated.
// When it may, size is the bytes of the directory's configuration files,
// as far as they could be read.
func (w *walker) mayCall(abs string) (may bool, size int64) {
	entries, err := w.box.ReadDir(abs)
	if err != nil {
		return true, 0 // LoadModule reports nothing, but looks
	}
	for _, e := range entries {
		if e.IsDir() || !config.IsConfigFile(e.Name(), w.opts.Dialect) {
			continue
		}
		if may {
			if fi, err := w.box.Stat(filepath.Join(abs, e.Name())); err == nil {
				size += fi.Size()
			}
			continue
		}
		src, err := limit.ReadSource(w.box, filepath.Join(abs, e.Name()), 0, false)
		size += int64(len(src))
		if err != nil || mayHaveModuleBlock(src) {
			may = true
		}
	}
	return may, size
}

// keepBudget bounds the configuration source bytes that the search for
// roots leaves in a bounded module cache: half of its bound. Keeping a
// directory's parse saves parsing it again when its root is evaluated,
// but each byte kept holds about fifteen of memory until then, and past
// the bound the cache drops the modules kept first, whose roots come
// sooner (roots are evaluated in path order, the order the budget is
// given out in, whatever the order directories are parsed in). The
// other half is left for what the evaluations load, the modules roots
// share first of all. Past the budget a directory is parsed for its calls
// and not kept. A tree within the budget is searched as before; on
// terraform-aws-security-group, whose roots hold twice the default bound,
// the scan parses a tenth more and peaks 10 MiB lower for the same CPU,
// the collector marking less (docs/benchmarks.md).
type keepBudget struct {
	limit int64 // < 0: no bound
	used  int64
}

// newKeepBudget is the budget for a search filling cache (nil: nothing is
// kept anyway).
func newKeepBudget(cache *config.ModuleCache) *keepBudget {
	if cache == nil || cache.MaxBytes <= 0 {
		return &keepBudget{limit: -1}
	}
	return &keepBudget{limit: cache.MaxBytes / 2}
}

// take reports whether a directory of size bytes may be kept, and counts
// it when it may.
func (b *keepBudget) take(size int64) bool {
	if b.limit < 0 {
		return true
	}
	if b.used+size > b.limit {
		return false
	}
	b.used += size
	return true
}

// describe is an error without the path it repeats.
func describe(err error) string {
	if pe, ok := err.(*fs.PathError); ok {
		return pe.Err.Error()
	}
	return err.Error()
}
