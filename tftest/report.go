package tftest

import (
	"slices"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/tfeval/tfeval/lang"
)

// Status is the outcome of a run block, a test file or a whole test
// command, with the four statuses of terraform test.
type Status int

const (
	// Pending is a run that has no status: it was not reached (the runs of
	// a file whose runs refer to each other in a cycle).
	Pending Status = iota
	// Skip is a run that was not run: an earlier run of its file failed
	// with an error, or (NeedsProvider set) it needs a provider tfeval
	// does not run.
	Skip
	// Pass is a run whose assertions and expected failures all held.
	Pass
	// Fail is a run with an assertion that did not hold.
	Fail
	// Error is a run that could not be carried out: an invalid value, a
	// condition of the configuration that failed unexpectedly, an
	// expected failure that did not happen, an unknown condition.
	Error
)

// String is the status as terraform test -json writes it ("" for Pending).
func (s Status) String() string {
	switch s {
	case Skip:
		return "skip"
	case Pass:
		return "pass"
	case Fail:
		return "fail"
	case Error:
		return "error"
	}
	return ""
}

// merge is the status of a file or a test command from those of its
// parts: the worst one, where a skipped part counts only when nothing ran.
func (s Status) merge(o Status) Status {
	if s == Pending {
		return o
	}
	if o == Pending {
		return s
	}
	if s == Skip && o != Skip {
		return o
	}
	if o == Skip {
		return s
	}
	return max(s, o)
}

// Report is the outcome of a test command: every file that ran, with its
// runs, and the summary.
type Report struct {
	// Files are the test files that ran, in the order they ran.
	Files []*FileResult
	// Diagnostics are the problems that stopped the command before any
	// file ran (a test file that does not parse or decode, a test
	// directory that cannot be read): then Files is empty, and the
	// binaries write neither the list of files nor a summary.
	Diagnostics hcl.Diagnostics
	// Status is the command's: pass when no run failed or errored.
	Status Status
	// Passed, Failed, Errored and Skipped count the runs by status;
	// NeedsProvider counts the skipped ones that needed a provider.
	Passed, Failed, Errored, Skipped, NeedsProvider int
}

// Stopped reports whether the command stopped before running any file:
// its test files did not load.
func (r *Report) Stopped() bool {
	return r.Diagnostics.HasErrors() && len(r.Files) == 0
}

// FileResult is the outcome of one test file.
type FileResult struct {
	// Path is the file's path relative to the module directory, with
	// forward slashes ("tests/a.tftest.hcl").
	Path   string
	File   *File
	Status Status
	Runs   []*RunResult
	// Diagnostics are those of the file rather than of one run, such as
	// a cycle between its runs.
	Diagnostics hcl.Diagnostics
}

// RunResult is the outcome of one run block.
type RunResult struct {
	Name    string
	Run     *RunBlock
	Status  Status
	Command Command
	// Diagnostics are the run's errors and warnings: failed assertions,
	// those of planning and applying the configuration.
	Diagnostics hcl.Diagnostics
	// Assertions are the run's assert blocks' outcomes, in order; empty
	// when the run did not get as far as evaluating them.
	Assertions []AssertionResult
	// NeedsProvider, for a skipped run, is the provider (its source
	// address, "hashicorp/aws") whose answers the run needs and tfeval
	// does not have: a provider the test file does not mock, or the
	// schema of one it mocks. SkipReason says what needed it.
	NeedsProvider string
	SkipReason    string
	// Result is the evaluation the assertions were checked against: the
	// plan, or the state after apply (for -verbose); nil when the run did
	// not get that far.
	Result *lang.Result
	// Prior is the state the run started from, managed resource
	// instances' values by address: what a plan changes (for -verbose).
	Prior map[string]cty.Value
	// PriorOutputs are the root module's outputs in that state, by name.
	PriorOutputs map[string]cty.Value
	// Outputs are the root module's outputs as the run's plan or state
	// has them: with plan_options.target, those the run plans, and the
	// prior state's values of the others.
	Outputs map[string]cty.Value
	// NotPlanned is what plan_options.target leaves out of the plan: the
	// managed resource instances (by address) and the root module's
	// outputs (as output.NAME). Result has a value for them all: the
	// state's for those in Prior (and PriorOutputs), which keep it.
	NotPlanned map[string]bool
	// VerboseDiagnostics are the run's diagnostics as `terraform test
	// -verbose` shows them (Terraform 1.14 on), where they differ from
	// Diagnostics: the expected failures' own diagnostics stay (checks'
	// as warnings), and the errors for an expected failure that did not
	// happen are not shown, though they decide the status alike. Nil when
	// they are the same.
	VerboseDiagnostics hcl.Diagnostics
	// NotStarted says that the run was skipped before it started, as
	// Terraform skips the runs after one that errored or was skipped so:
	// its event stream has no progress event for the run.
	NotStarted bool
	// Stopped says that the run's plan or apply had errors, so that it
	// stopped before its assertions: -verbose then shows neither its plan
	// nor its state, though Result holds what tfeval planned.
	Stopped bool
	// Started is when the run started; Elapsed the time it took. Both
	// are zero for a run that did not start.
	Started time.Time
	Elapsed time.Duration
	// drew says that hashicorp/random objects hold drawn values in the
	// run (drawnRandom); readDrawn, that an assertion's condition or a
	// rule of the module read one (marks.Drawn).
	drew, readDrawn bool
	// tableTyped are the attributes of mocked objects without schema that
	// the table of the provider's schema typed (instances.tableTyped).
	tableTyped map[string]bool
	// targets is what the run's plan_options.target left in its plan (nil
	// without targets).
	targets *targeting
	// shown are where Diagnostics has expected failures taken out (from,
	// to) and what they were taken out of, for VerboseDiagnostics.
	shown *shownSpan
	// fileDiags are diagnostics Terraform reports for the file rather
	// than the run: those of the file's values the run worked out.
	// blocked says that one the run takes failed, which skips the run and
	// the file's later runs.
	fileDiags hcl.Diagnostics
	blocked   bool
	// skipped are the root module objects the plan did not evaluate for
	// the errors of its expected failures (unevaluated).
	skipped map[string]bool
}

// AssertionResult is the outcome of one assert block.
type AssertionResult struct {
	// Range is the condition expression's range.
	Range hcl.Range
	// Status is Pass, Fail, Error (the condition could not be evaluated
	// or its value is unknown), or Skip (the value needs a provider).
	Status Status
	// ErrorMessage is the evaluated error message of a failed assertion.
	ErrorMessage string
}

// shownSpan is a stretch of a run's diagnostics, rr.Diagnostics[from:to],
// that stands for orig with its expected failures taken out.
type shownSpan struct {
	from, to int
	orig     hcl.Diagnostics
}

// verboseDiagnostics sets VerboseDiagnostics from the run's shown span:
// its diagnostics with that stretch as it was before the expected
// failures were taken out.
func (rr *RunResult) verboseDiagnostics() {
	sp := rr.shown
	if sp == nil || sp.to > len(rr.Diagnostics) || slices.EqualFunc(rr.Diagnostics[sp.from:sp.to], sp.orig, func(a, b *hcl.Diagnostic) bool { return a == b }) {
		return
	}
	out := make(hcl.Diagnostics, 0, len(rr.Diagnostics)-(sp.to-sp.from)+len(sp.orig))
	out = append(out, rr.Diagnostics[:sp.from]...)
	out = append(out, sp.orig...)
	rr.VerboseDiagnostics = append(out, rr.Diagnostics[sp.to:]...)
}
