package tftest

import (
	"slices"

	"github.com/hashicorp/hcl/v2"
)

// unusedFileValues are Terraform's errors (1.13 on) for the file's values
// that read a run's outputs and that no run worked out: Terraform works
// out every value of a file's variables block once, whether a run takes
// it or not, as soon as the runs and values it refers to are done, and
// reports what fails as the file's error. A value that refers to a run
// that did not pass or fail (it errored, was skipped, or tfeval could not
// run it), or to a value that failed, is not worked out, as Terraform
// skips it; it fails no run, as none takes it. Nor is one that reads a
// global value the file's runs did not see (fileState.globals).
func (r *runner) unusedFileValues(f *File, runs []*RunResult, fs *fileState) hcl.Diagnostics {
	done := map[string]bool{}
	known := map[string]bool{}
	for _, rr := range runs {
		known[rr.Name] = true
		done[rr.Name] = rr.Status == Pass || rr.Status == Fail
	}
	var ready func(name string, seen map[string]bool) (bool, bool)
	// ready says whether the value refers to a run (itself or through
	// another value) and whether every run it refers to is done.
	ready = func(name string, seen map[string]bool) (touches, ok bool) {
		if seen[name] {
			return false, true
		}
		seen[name] = true
		ok = true
		for _, t := range f.Variables[name].Expr.Variables() {
			if t.RootName() == "var" && len(t) >= 2 {
				// A global value the last run did not see is not
				// known here (Terraform parses it without a
				// declaration, or finds it unavailable).
				at, isAttr := t[1].(hcl.TraverseAttr)
				_, file := f.Variables[at.Name]
				if _, global := fs.globals[at.Name]; isAttr && (!file || at.Name == name) && !global {
					ok = false
				}
				continue
			}
			if t.RootName() != "run" || len(t) < 2 {
				continue
			}
			touches = true
			if at, isAttr := t[1].(hcl.TraverseAttr); isAttr && known[at.Name] && !done[at.Name] {
				ok = false
			}
		}
		for _, ref := range fileVarRefs(f, f.Variables[name].Expr) {
			if ref == name {
				continue
			}
			t, o := ready(ref, seen)
			touches = touches || t
			ok = ok && o
		}
		return touches, ok
	}
	taken := map[string]bool{}
	for _, name := range sortedKeys(f.Variables) {
		if fs.fileValuesDone[name] {
			continue
		}
		if touches, ok := ready(name, map[string]bool{}); touches && ok {
			taken[name] = true
		}
	}
	if len(taken) == 0 {
		return nil
	}
	diags := r.unknownRuns(f, &RunBlock{}, taken)
	_, _, d := r.fileVariables(f, taken, fs.globals, fs)
	diags = append(diags, d...)
	return slices.Clip(diags)
}
