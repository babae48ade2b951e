package tftest

import (
	"fmt"
	"maps"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"

	"github.com/tfeval/tfeval/config"
	"github.com/tfeval/tfeval/dialect"
	"github.com/tfeval/tfeval/funcs"
	"github.com/tfeval/tfeval/internal/sandbox"
)

// Run runs the test files of the module in opts.WorkDir as terraform test
// (or, in the OpenTofu dialect, tofu test) would, without providers: the
// files in the module's directory and its test directory, each run block
// planned (and applied) against the file's in-memory state, mocked
// providers and overrides, its assertions and expected failures checked.
// A run that needs what a provider that the file does not mock would
// answer is skipped with the reason, never passed or failed.
func Run(opts Options) *Report {
	if opts.TestDirectory == "" {
		opts.TestDirectory = DefaultTestDirectory
	}
	r, files, diags := newRunner(opts)
	if diags.HasErrors() {
		return &Report{Status: Error, Diagnostics: diags}
	}
	rep := &Report{Diagnostics: diags}
	if len(files) > 0 {
		// terraform test loads the configuration before it runs anything:
		// a module that does not load runs no test.
		// (What Terraform finds only when it validates the configuration
		// fails each run instead.)
		if l := r.config(nil, nil); config.LoadTime(l.diags).HasErrors() {
			return &Report{Status: Error, Diagnostics: append(diags, l.diags...)}
		}
		// It loads the modules of the files' run blocks with it: one that
		// is not installed, or does not load, runs no test either.
		var mdiags hcl.Diagnostics
		for _, f := range files {
			for _, run := range f.Runs {
				if run.Module == nil {
					continue
				}
				if l := r.config(f, run); config.LoadTime(l.diags).HasErrors() {
					mdiags = append(mdiags, l.diags...)
				}
			}
		}
		if mdiags.HasErrors() {
			return &Report{Status: Error, Diagnostics: append(diags, mdiags...)}
		}
	}
	rep.Status = Pass
	for _, f := range files {
		fr := r.runFile(f)
		rep.Files = append(rep.Files, fr)
		rep.Status = rep.Status.merge(fr.Status)
		if fr.Status == Error && len(fr.Runs) == 0 {
			rep.Status = Error
		}
		for _, rr := range fr.Runs {
			switch rr.Status {
			case Pass:
				rep.Passed++
			case Fail:
				rep.Failed++
			case Error:
				rep.Errored++
			case Skip:
				rep.Skipped++
				if rr.NeedsProvider != "" || rr.SkipReason != "" {
					rep.NeedsProvider++
				}
			}
		}
	}
	if rep.Status == Skip {
		rep.Status = Pass
	}
	return rep
}

// newRunner prepares a test command's work: the runner and the test
// files it runs.
func newRunner(opts Options) (*runner, []*File, hcl.Diagnostics) {
	opts.Schemas = withBuiltinSchemas(opts.Schemas)
	r := &runner{opts: opts, configs: map[string]*loaded{}}
	box, err := sandbox.NewFS(opts.FS, opts.Sandbox, opts.WorkDir)
	if err != nil {
		return nil, nil, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Invalid sandbox directory", Detail: fmt.Sprintf("The directory given as the sandbox cannot be used: %s.", err)}}
	}
	r.box = box
	fopts := opts.Functions
	fopts.Dialect = opts.Dialect
	r.fns = funcs.Functions(fopts)
	if opts.Dialect != dialect.Tofu {
		// terraform test offers plantimestamp() only inside a plan: a test
		// file's variables blocks call it as an unknown function.
		delete(r.fns, "plantimestamp")
	}

	paths, diags := discover(box, opts.WorkDir, opts.TestDirectory, opts.Dialect, opts.Filter)
	files, fDiags := loadFiles(box, opts.WorkDir, paths, opts.Dialect, r.fns)
	return r, files, append(diags, fDiags...)
}

// runner is one test command's work.
type runner struct {
	opts Options
	box  sandbox.Dir
	fns  map[string]function.Function
	// configs are the module trees runs test, by module source ("" for the
	// module under test).
	configs map[string]*loaded
	// collections are what each module reads as collections.
	collections collectionCache
	// varReads are what each run's module and assertions read of its
	// variables (lang.VariableReads).
	varReads map[*RunBlock]map[string][]hcl.Traversal
}

type loaded struct {
	cfg   *config.Config
	diags hcl.Diagnostics
}

// config loads the module a run tests: the module under test, or the
// run's module block's, as `terraform init` installs it for the run.
func (r *runner) config(f *File, run *RunBlock) *loaded {
	key, dir, manifestKey := "", ".", ""
	if run != nil && run.Module != nil {
		manifestKey = runKey(f.Path, run.Name)
		key = run.Module.Source + "\x00" + manifestKey
	}
	if l, ok := r.configs[key]; ok {
		return l
	}
	l := &loaded{}
	r.configs[key] = l
	if manifestKey != "" {
		m := run.Module
		if config.IsLocalSource(m.Source) {
			dir = filepath.FromSlash(m.Source)
			if r.opts.Dialect == dialect.Terraform && r.notInstalledLocally(manifestKey) {
				l.diags = hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Module not installed", Detail: "This module is not yet installed. Run \"terraform init\" to install all modules required by this configuration.", Subject: m.DeclRange.Ptr()}}
				return l
			}
		} else {
			installed, ok, diags := config.InstalledModuleDir(config.Options{WorkDir: r.opts.WorkDir, Sandbox: r.opts.Sandbox, FS: r.opts.FS}, manifestKey)
			if !ok {
				l.diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Module not installed", Detail: fmt.Sprintf("This module is not yet installed. Run \"%s init\" to install all modules required by this configuration.", r.opts.Dialect), Subject: m.DeclRange.Ptr()})
				return l
			}
			dir = filepath.FromSlash(installed)
		}
	}
	if r.opts.Load == nil {
		l.diags = hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "No module loader", Detail: "tftest.Options.Load is not set."}}
		return l
	}
	l.cfg, l.diags = r.opts.Load(dir, manifestKey)
	if l.cfg == nil || l.cfg.Module == nil {
		l.diags = append(l.diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Failed to load module", Detail: fmt.Sprintf("The module in %s could not be read.", dir)})
	}
	return l
}

// runKey is the key under which `terraform init` installs the module a
// run block runs, and those it calls: "test", the test file's directory
// components, its name without ".tftest.hcl", the run's name
// (tests/unit/a.tftest.hcl, run "setup": test.tests.unit.a.setup). Both
// binaries take off only that suffix: a.tftest.json's run "setup" is
// test.a.tftest.json.setup, a.tofutest.hcl's test.a.tofutest.hcl.setup.
func runKey(file, run string) string {
	dir, name := path.Split(file)
	parts := []string{"test"}
	for _, p := range strings.Split(strings.Trim(dir, "/"), "/") {
		if p != "" && p != "." {
			parts = append(parts, p)
		}
	}
	name = strings.TrimSuffix(name, ".tftest.hcl")
	return strings.Join(append(parts, name, run), ".")
}

// notInstalledLocally reports whether `terraform init` has run (its module
// manifest records the root module) without installing the local module
// of the run whose key is given: Terraform looks every run's module up in
// the manifest, local ones included, and reports one it lacks as not
// installed (as when the test file or run was added after init). Without
// a manifest tfeval reads a local module in place, as init would install
// it.
func (r *runner) notInstalledLocally(key string) bool {
	opts := config.Options{WorkDir: r.opts.WorkDir, Sandbox: r.opts.Sandbox, FS: r.opts.FS}
	if _, initialized, _ := config.InstalledModuleDir(opts, ""); !initialized {
		return false
	}
	_, installed, _ := config.InstalledModuleDir(opts, key)
	return !installed
}

// fileState is what the runs of one file share.
type fileState struct {
	// states are the in-memory states by state key.
	states map[string]map[string]cty.Value
	// lost are the state keys whose state a skipped apply left unknown,
	// with the run that did.
	lost map[string]*RunResult
	// outputs are the outputs of the runs done, by run name: run.NAME.
	outputs map[string]cty.Value
	// stateOutputs are the root outputs each state holds, by state key:
	// those of the last apply.
	stateOutputs map[string]map[string]cty.Value
	// failedMocks are the file's mock providers whose defaults failed
	// (failedMocks), and its provider blocks whose configuration failed
	// (failedProviderConfigs): the runs that use one are skipped.
	failedMocks map[string]bool
	// skipped are the runs skipped for want of a provider, by name,
	// whose outputs are unknown to the runs after them.
	skipped map[string]*RunResult
	// warned are the references to global values Terraform warns about
	// once for the file (undefinedGlobalRefs), by range.
	warned map[hcl.Range]bool
	// fileValuesDone are the file's values (its variables block) a run
	// has worked out, and globals the var object the last run's file
	// values saw: see unusedFileValues.
	fileValuesDone map[string]bool
	globals        map[string]cty.Value
}

// newFileState is the state of a file before its first run.
func newFileState() *fileState {
	return &fileState{states: map[string]map[string]cty.Value{}, lost: map[string]*RunResult{}, outputs: map[string]cty.Value{}, stateOutputs: map[string]map[string]cty.Value{}, skipped: map[string]*RunResult{}, warned: map[hcl.Range]bool{}}
}

// runFile runs the runs of one file in order: after a run errors, the
// rest are skipped.
func (r *runner) runFile(f *File) *FileResult {
	fr := &FileResult{Path: f.Path, File: f}
	if diags := r.runReferences(f); diags.HasErrors() {
		fr.Diagnostics = diags
		fr.Status = Error
		return fr
	}
	fr.Diagnostics = r.overrideTargetWarnings(f)
	fs := newFileState()
	var pdiags, valueDiags hcl.Diagnostics
	if r.opts.Dialect == dialect.Terraform {
		var mdiags hcl.Diagnostics
		mdiags, fs.failedMocks = failedMocks(f)
		fr.Diagnostics = append(fr.Diagnostics, mdiags...)
		var failed map[string]bool
		pdiags, valueDiags, failed = r.failedProviderConfigs(f)
		fr.Diagnostics = append(fr.Diagnostics, pdiags...)
		for key := range failed {
			fs.failedMocks[key] = true
		}
	}
	var drawn *secondDrawing // see runDrawn
	errored := false
	// The file's own diagnostics its runs found (RunResult.fileDiags),
	// each reported once; first those of the file's values a provider
	// block read that failed.
	var fileDiags hcl.Diagnostics
	fileSeen := map[string]bool{}
	for _, d := range valueDiags {
		key := fmt.Sprintf("%d %s %s %v", d.Severity, d.Summary, d.Detail, d.Subject)
		if !fileSeen[key] {
			fileSeen[key] = true
			fileDiags = append(fileDiags, d)
		}
	}
	for i, run := range f.Runs {
		var rr *RunResult
		switch {
		case errored:
			rr = &RunResult{Name: run.Name, Run: run, Command: run.Command, Status: Skip, NotStarted: true}
		case r.opts.Context != nil && r.opts.Context.Err() != nil:
			rr = &RunResult{Name: run.Name, Run: run, Command: run.Command, Status: Error, Diagnostics: hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Test run stopped", Detail: "The run was not started: the time allowed for the test command (-timeout) ran out.", Subject: run.DeclRange.Ptr()}}}
		default:
			rr = r.runSafely(f, fs, &drawn, i)
		}
		if rr.Status == Error || rr.blocked {
			errored = true
		}
		for _, d := range rr.fileDiags {
			key := fmt.Sprintf("%d %s %s %v", d.Severity, d.Summary, d.Detail, d.Subject)
			if !fileSeen[key] {
				fileSeen[key] = true
				fileDiags = append(fileDiags, d)
			}
		}
		if r.opts.DropResults {
			rr.Result, rr.Prior, rr.PriorOutputs, rr.Outputs, rr.NotPlanned = nil, nil, nil, nil, nil
		}
		fr.Runs = append(fr.Runs, rr)
		fr.Status = fr.Status.merge(rr.Status)
	}
	if r.opts.Dialect == dialect.Terraform {
		for _, d := range r.unusedFileValues(f, fr.Runs, fs) {
			key := fmt.Sprintf("%d %s %s %v", d.Severity, d.Summary, d.Detail, d.Subject)
			if !fileSeen[key] {
				fileSeen[key] = true
				fileDiags = append(fileDiags, d)
			}
		}
	}
	if len(f.Runs) == 0 {
		fr.Status = Pass // nothing to fail
	}
	fr.Diagnostics = append(fr.Diagnostics, fileDiags...)
	if fr.Diagnostics.HasErrors() {
		fr.Status = Error
	}
	return fr
}

// runReferences checks, for Terraform, that every run.NAME a file's runs
// refer to names an earlier run: Terraform orders the runs as a graph,
// where a reference to a later run is a cycle and nothing in the file runs.
// OpenTofu finds such references as it runs.
func (r *runner) runReferences(f *File) hcl.Diagnostics {
	if r.opts.Dialect != dialect.Terraform {
		return nil
	}
	index := map[string]int{}
	for i, run := range f.Runs {
		index[run.Name] = i
	}
	var diags hcl.Diagnostics
	seen := map[string]bool{}
	for i, run := range f.Runs {
		for _, t := range runTraversals(run) {
			if t.RootName() != "run" || len(t) < 2 {
				continue
			}
			a, ok := t[1].(hcl.TraverseAttr)
			if !ok {
				continue
			}
			j, ok := index[a.Name]
			if !ok || j < i {
				continue // unknown runs are the run's own error
			}
			var members []string
			for k := i; k <= j; k++ {
				members = append(members, f.Path+".run."+f.Runs[k].Name)
			}
			sort.Strings(members)
			summary := "Cycle: " + strings.Join(members, ", ")
			if !seen[summary] {
				seen[summary] = true
				diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: summary})
			}
		}
	}
	return diags
}

// runTraversals are the references of a run's variables and assertions.
func runTraversals(run *RunBlock) []hcl.Traversal {
	var out []hcl.Traversal
	for _, name := range sortedKeys(run.Variables) {
		out = append(out, run.Variables[name].Expr.Variables()...)
	}
	for _, a := range run.Asserts {
		out = append(out, a.Condition.Variables()...)
		out = append(out, a.ErrorMessage.Variables()...)
	}
	return out
}

// runSafely is runOne, with a panic reported as the run's error rather
// than ending the command: the other runs and files still run.
func (r *runner) runSafely(f *File, fs *fileState, drawn **secondDrawing, idx int) (rr *RunResult) {
	defer func() {
		if p := recover(); p != nil {
			run := f.Runs[idx]
			rr = &RunResult{Name: run.Name, Run: run, Command: run.Command, Status: Error, Diagnostics: hcl.Diagnostics{{
				Severity: hcl.DiagError,
				Summary:  "Test run failed",
				Detail:   fmt.Sprintf("tfeval could not carry out this run: %v. This is a bug in tfeval: please report it with the test file that caused it.", p),
				Subject:  run.DeclRange.Ptr(),
			}}}
		}
	}()
	return r.runDrawn(f, fs, drawn, idx)
}

// runDrawn is runOne, where what hashicorp/random objects hold is drawn
// twice once a run reads any: the file's runs from then on are carried
// out a second time from the second drawing (drawn, nil until then). An
// outcome that differs between the two drawings depends on what the
// provider happens to draw, which nobody knows before the apply, and the
// run is skipped. The file goes on from the first drawing.
//
// Only an outcome a drawn value can have decided is compared: a run that
// passed without any assertion's condition reading a drawn value
// (marks.Drawn) passes from every drawing, and one skipped stays skipped.
// The second drawing catches up on such runs when a later run needs it.
func (r *runner) runDrawn(f *File, fs *fileState, drawn **secondDrawing, idx int) *RunResult {
	var before *fileState
	if *drawn == nil {
		before = fs.clone()
	}
	rr := r.runOne(f, fs, idx, 0)
	if *drawn == nil {
		if !rr.drew {
			return rr
		}
		*drawn = &secondDrawing{fs: before, next: idx}
	}
	if rr.Status == Skip || rr.Status == Pass && !rr.readDrawn && len(rr.Run.ExpectFailures) == 0 {
		return rr
	}
	second := *drawn
	for ; second.next < idx; second.next++ {
		r.runOne(f, second.fs, second.next, 1)
	}
	other := r.runOne(f, second.fs, idx, 1)
	second.next = idx + 1
	at, differs := drawDecides(rr, other)
	if !differs || rr.Status == Skip {
		return rr
	}
	rr.Status, rr.NeedsProvider = Skip, randomSource
	rr.SkipReason = "what it draws decides " + at
	var kept hcl.Diagnostics
	for _, d := range rr.Diagnostics {
		if d.Severity != hcl.DiagError {
			kept = append(kept, d)
		}
	}
	rr.Diagnostics = kept
	for i := range rr.Assertions {
		if rr.Assertions[i].Status != Pass {
			rr.Assertions[i].Status = Skip
		}
	}
	return rr
}

// secondDrawing is a file's runs carried out from a second drawing of
// what hashicorp/random objects hold (runDrawn): its state, and the first
// run not yet carried out from it.
type secondDrawing struct {
	fs   *fileState
	next int
}

// drawDecides compares the outcomes of a run under two drawings: where
// they differ, the first assertion whose status does, or the run's.
func drawDecides(a, b *RunResult) (string, bool) {
	if len(a.Assertions) == len(b.Assertions) {
		for i := range a.Assertions {
			if a.Assertions[i].Status != b.Assertions[i].Status {
				return "the condition at " + a.Assertions[i].Range.String(), true
			}
		}
	}
	if a.Status != b.Status || len(a.Assertions) != len(b.Assertions) {
		return "the run's outcome", true
	}
	return "", false
}

// clone is a copy of the state of a file's runs that a run can change
// without changing s: each run replaces the values it sets.
func (s *fileState) clone() *fileState {
	c := newFileState()
	maps.Copy(c.states, s.states)
	maps.Copy(c.lost, s.lost)
	maps.Copy(c.outputs, s.outputs)
	maps.Copy(c.stateOutputs, s.stateOutputs)
	maps.Copy(c.skipped, s.skipped)
	return c
}
