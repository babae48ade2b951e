package config

import (
	"path"
	"path/filepath"
	"runtime"
	"sync"

	"github.com/hashicorp/hcl/v2"

	"github.com/tfeval/tfeval/internal/sandbox"
)

// prefetcher reads and decodes the module directories a tree calls through
// local sources ahead of the depth-first walk, on GOMAXPROCS goroutines.
// The walk still decides, in its own order, which modules belong to the
// tree and reports every diagnostic, so the result does not depend on
// timing; the prefetcher only makes loadModule results ready sooner.
type prefetcher struct {
	workDir string
	box     sandbox.Dir
	opts    Options

	sem     chan struct{}
	wg      sync.WaitGroup
	mu      sync.Mutex
	modules map[string]*moduleFuture // by slash-separated source directory, until taken
	seen    map[string]bool          // absolute directories started
}

// moduleFuture is one directory's loadModule result, ready when done is closed.
type moduleFuture struct {
	done  chan struct{}
	mod   *Module
	diags hcl.Diagnostics
	panic any // what loading panicked with
}

// newPrefetcher returns nil on a single CPU, where prefetching only adds work.
func newPrefetcher(opts Options, box sandbox.Dir) *prefetcher {
	n := runtime.GOMAXPROCS(0)
	if n < 2 {
		return nil
	}
	return &prefetcher{workDir: opts.WorkDir, box: box, opts: opts, sem: make(chan struct{}, n), modules: map[string]*moduleFuture{}, seen: map[string]bool{}}
}

// children starts loading the directories m calls through local sources.
func (p *prefetcher) children(m *Module) {
	if p == nil || m == nil {
		return
	}
	for _, call := range m.ModuleCalls {
		if call.SourceAddr == "" || !IsLocalSource(call.SourceAddr) {
			continue
		}
		p.start(path.Join(m.SourceDir, filepath.ToSlash(call.SourceAddr)))
	}
}

// start loads a directory in the background unless it (or the same
// directory by another path) is already known, outside the sandbox or not
// a directory.
func (p *prefetcher) start(sourceDir string) {
	dir := filepath.FromSlash(sourceDir)
	full := resolve(p.workDir, dir)
	abs := absDir(p.box, full)
	if p.box.Set() && !sandbox.Within(p.box.Root(), abs) {
		return
	}
	if info, err := p.box.Stat(full); err != nil || !info.IsDir() {
		return
	}
	p.mu.Lock()
	if p.seen[abs] {
		p.mu.Unlock()
		return
	}
	p.seen[abs] = true
	f := &moduleFuture{done: make(chan struct{})}
	p.modules[sourceDir] = f
	p.mu.Unlock()
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		p.sem <- struct{}{}
		func() {
			defer func() {
				// The walk that takes the module panics with it, in
				// the goroutine its caller can recover in.
				f.panic = recover()
				<-p.sem
				close(f.done)
			}()
			f.mod, f.diags = loadModule(p.opts, p.box, dir, sourceDir)
		}()
		p.children(f.mod)
	}()
}

// take returns the prefetched module of a directory, once (the tree
// loader keeps what it takes).
func (p *prefetcher) take(sourceDir string) (*Module, hcl.Diagnostics, bool) {
	if p == nil {
		return nil, nil, false
	}
	p.mu.Lock()
	f := p.modules[sourceDir]
	delete(p.modules, sourceDir)
	p.mu.Unlock()
	if f == nil {
		return nil, nil, false
	}
	<-f.done
	if f.panic != nil {
		panic(f.panic)
	}
	return f.mod, f.diags, true
}

// wait lets the background loads finish, so none outlives Load.
func (p *prefetcher) wait() {
	if p != nil {
		p.wg.Wait()
	}
}
