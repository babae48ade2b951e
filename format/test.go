package format

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/tfeval/tfeval/dialect"
	"github.com/tfeval/tfeval/tftest"
)

// WriteTestJSON writes a test report as the stream of JSON events that
// `terraform test -json` writes (`tofu test -json` in the OpenTofu
// dialect), one object a line: the version, the files and runs found
// (test_abstract), each file's and run's progress and status with the
// run's diagnostics, and the summary. Like Terraform, it leaves out the
// list and the summary when the test files did not load. A run tfeval
// skipped for want of a provider has status "skip", and, beyond
// Terraform's fields, "needs_provider" and "skip_reason"; the summary
// counts such runs in "skipped" and again in "needs_provider".
// Timestamps and elapsed times are left out, so that the same tests
// give the same stream.
func WriteTestJSON(w io.Writer, rep *tftest.Report, d dialect.Dialect) error {
	return writeTestJSON(&eventWriter{w: w, d: d}, rep)
}

// WriteTestJSONVerbose writes the stream WriteTestJSON writes with, after
// each run's status, the run's plan (a test_plan event) or, after an
// apply, the state (test_state), as terraform test -json -verbose does.
// Their members are those of terraform show -json's plan and state
// documents, without the provider schemas the binaries add.
func WriteTestJSONVerbose(w io.Writer, rep *tftest.Report, d dialect.Dialect) error {
	return writeTestJSON(&eventWriter{w: w, d: d, verbose: true}, rep)
}

// TestJSONOptions say how WriteTestJSONWith writes a test report.
type TestJSONOptions struct {
	Dialect dialect.Dialect
	// Verbose adds the runs' plans and states (WriteTestJSONVerbose).
	Verbose bool
	// Sources, when not nil, are read for the snippet of each diagnostic,
	// as terraform test -json writes them.
	Sources *Sources
}

// WriteTestJSONWith is WriteTestJSON, or WriteTestJSONVerbose, as opts say.
func WriteTestJSONWith(w io.Writer, rep *tftest.Report, opts TestJSONOptions) error {
	return writeTestJSON(&eventWriter{w: w, d: opts.Dialect, verbose: opts.Verbose, src: opts.Sources}, rep)
}

func writeTestJSON(e *eventWriter, rep *tftest.Report) error {
	d := e.d
	product := d.Product() + " " + d.Version()
	e.emit(map[string]any{"@level": "info", "@message": product, "type": "version", d.String(): d.Version(), "ui": "1.2"})
	for _, diag := range rep.Diagnostics {
		e.diagnostic("", "", diag)
	}
	if rep.Stopped() {
		return e.err
	}
	runs := 0
	abstract := make(orderedObject, 0, len(rep.Files))
	for _, fr := range rep.Files {
		// A file without run blocks lists null, not [], as Terraform and
		// OpenTofu write it.
		var names []string
		for _, r := range fr.File.Runs {
			names = append(names, r.Name)
		}
		runs += len(names)
		abstract = append(abstract, member{fr.Path, names})
	}
	e.emit(map[string]any{"@level": "info", "@message": fmt.Sprintf("Found %s and %s", plural(len(rep.Files), "file"), plural(runs, "run block")), "type": "test_abstract", "test_abstract": abstract})
	for _, fr := range rep.Files {
		if d == dialect.Tofu {
			e.tofuFile(fr)
		} else {
			e.terraformFile(fr)
		}
	}
	summary := map[string]any{
		"status": rep.Status.String(), "passed": rep.Passed, "failed": rep.Failed, "errored": rep.Errored, "skipped": rep.Skipped,
	}
	if rep.NeedsProvider > 0 {
		summary["needs_provider"] = rep.NeedsProvider
	}
	e.emit(map[string]any{"@level": "info", "@message": SummaryLine(rep), "type": "test_summary", "test_summary": summary})
	return e.err
}

// terraformFile writes a file's events in Terraform's order: progress,
// each run as it completes, teardown, the file's status, then the file's
// own diagnostics.
func (e *eventWriter) terraformFile(fr *tftest.FileResult) {
	e.file(fr, "starting", "in progress")
	for _, rr := range fr.Runs {
		if !rr.NotStarted {
			e.emit(map[string]any{"@level": "info", "@message": fmt.Sprintf("  %q... in progress", rr.Name), "@testfile": fr.Path, "@testrun": rr.Name, "type": "test_run",
				"test_run": map[string]any{"path": fr.Path, "run": rr.Name, "progress": "starting"}})
		}
		e.run(fr, rr, "complete")
	}
	e.file(fr, "teardown", "tearing down")
	e.file(fr, "complete", statusWord(fr.Status))
	for _, d := range fr.Diagnostics {
		e.diagnostic(fr.Path, "", d)
	}
}

// tofuFile writes a file's events in OpenTofu's order: the file's status,
// then each run's.
func (e *eventWriter) tofuFile(fr *tftest.FileResult) {
	e.file(fr, "", statusWord(fr.Status))
	for _, d := range fr.Diagnostics {
		e.diagnostic(fr.Path, "", d)
	}
	for _, rr := range fr.Runs {
		e.run(fr, rr, "")
	}
}

func (e *eventWriter) file(fr *tftest.FileResult, progress, word string) {
	body := map[string]any{"path": fr.Path}
	if progress != "" {
		body["progress"] = progress
	}
	if progress == "complete" || progress == "" {
		if s := fr.Status.String(); s != "" {
			body["status"] = s
		}
	}
	e.emit(map[string]any{"@level": "info", "@message": fmt.Sprintf("%s... %s", fr.Path, word), "@testfile": fr.Path, "type": "test_file", "test_file": body})
}

func (e *eventWriter) run(fr *tftest.FileResult, rr *tftest.RunResult, progress string) {
	body := map[string]any{"path": fr.Path, "run": rr.Name}
	if progress != "" {
		body["progress"] = progress
	}
	if s := rr.Status.String(); s != "" {
		body["status"] = s
	}
	if rr.Status == tftest.Skip && rr.SkipReason != "" {
		if rr.NeedsProvider != "" {
			body["needs_provider"] = rr.NeedsProvider
		}
		body["skip_reason"] = rr.SkipReason
	}
	e.emit(map[string]any{"@level": "info", "@message": fmt.Sprintf("  %q... %s", rr.Name, runWord(rr)), "@testfile": fr.Path, "@testrun": rr.Name, "type": "test_run", "test_run": body})
	diags := rr.Diagnostics
	if e.verbose {
		e.verboseEvent(fr, rr)
		if rr.VerboseDiagnostics != nil {
			diags = rr.VerboseDiagnostics
		}
	}
	for _, d := range diags {
		e.diagnostic(fr.Path, rr.Name, d)
	}
}

func (e *eventWriter) diagnostic(file, run string, d *hcl.Diagnostic) {
	dj := e.src.Diagnostics(hcl.Diagnostics{d})[0]
	level, word := "error", "Error"
	if d.Severity == hcl.DiagWarning {
		level, word = "warn", "Warning"
	}
	ev := map[string]any{"@level": level, "@message": word + ": " + d.Summary, "type": "diagnostic", "diagnostic": dj}
	if file != "" {
		ev["@testfile"] = file
	}
	if run != "" {
		ev["@testrun"] = run
	}
	e.emit(ev)
}

// eventWriter writes JSON lines, keeping the first error.
type eventWriter struct {
	w       io.Writer
	d       dialect.Dialect
	verbose bool // the runs' plans and states too
	src     *Sources
	err     error
}

func (e *eventWriter) emit(ev map[string]any) {
	if e.err != nil {
		return
	}
	ev["@module"] = e.d.String() + ".ui"
	if e.d == dialect.Terraform {
		ev["@module"] = "terraform.ui"
	}
	b, err := json.Marshal(ev)
	if err != nil {
		e.err = err
		return
	}
	_, e.err = e.w.Write(append(b, '\n'))
}

// orderedObject is a JSON object whose members keep their order.
type orderedObject []member

type member struct {
	name  string
	value any
}

func (o orderedObject) MarshalJSON() ([]byte, error) {
	var b strings.Builder
	b.WriteByte('{')
	for i, m := range o {
		if i > 0 {
			b.WriteByte(',')
		}
		k, err := json.Marshal(m.name)
		if err != nil {
			return nil, err
		}
		v, err := json.Marshal(m.value)
		if err != nil {
			return nil, err
		}
		b.Write(k)
		b.WriteByte(':')
		b.Write(v)
	}
	b.WriteByte('}')
	return []byte(b.String()), nil
}

// plural is "1 file", "2 files".
func plural(n int, noun string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, noun)
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// statusWord is how the human output and the events' messages write a
// status: an error reads as a failure.
func statusWord(s tftest.Status) string {
	switch s {
	case tftest.Error:
		return "fail"
	case tftest.Pending:
		return "pending"
	}
	return s.String()
}

// runWord is a run's status as the human output writes it, with the
// reason of a skip for want of a provider.
func runWord(rr *tftest.RunResult) string {
	w := statusWord(rr.Status)
	if rr.Status == tftest.Skip && rr.SkipReason != "" {
		if rr.NeedsProvider != "" {
			return fmt.Sprintf("%s (needs provider %s: %s)", w, rr.NeedsProvider, rr.SkipReason)
		}
		return fmt.Sprintf("%s (%s)", w, rr.SkipReason)
	}
	return w
}

// SummaryLine is the last line of a test command's output: "Success! 2
// passed, 0 failed." or "Failure! 1 passed, 1 failed, 1 skipped.", where
// errored runs count as failed; runs skipped for want of a provider are
// counted apart.
func SummaryLine(rep *tftest.Report) string {
	head := "Success!"
	if rep.Status == tftest.Fail || rep.Status == tftest.Error {
		head = "Failure!"
	}
	s := fmt.Sprintf("%s %d passed, %d failed", head, rep.Passed, rep.Failed+rep.Errored)
	if rep.Skipped > 0 {
		s += fmt.Sprintf(", %d skipped", rep.Skipped)
		if rep.NeedsProvider > 0 {
			s += fmt.Sprintf(" (%d needing a provider tfeval does not run)", rep.NeedsProvider)
		}
	}
	return s + "."
}
