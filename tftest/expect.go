package tftest

import (
	"fmt"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/tfeval/tfeval/dialect"
	"github.com/tfeval/tfeval/lang"
	"github.com/tfeval/tfeval/marks"
)

const (
	checkFailed  = "Check block assertion failed"
	checkUnknown = "Check block assertion known after apply"
)

// isCheckWarning reports whether a diagnostic is a check block's warning:
// a test counts both a failed and an undecided assertion as an error.
func isCheckWarning(d *hcl.Diagnostic) bool {
	return d.Severity == hcl.DiagWarning && (d.Summary == checkFailed || d.Summary == checkUnknown)
}

// expectations are a run's expect_failures.
type expectations struct {
	expected []expected
	// unread is set when an expected failure could not be decided for
	// want of a provider's answer.
	unread     *marks.Unread
	unreadAddr string
	// failed are the root module objects whose expected failure was an
	// error: Terraform's plan stops at them.
	failed []string
	// missing are the "Missing expected failure" errors validate made.
	missing []*hcl.Diagnostic
}

type expected struct {
	addr  string
	rng   hcl.Range
	found bool
}

func newExpectations(run *RunBlock) *expectations {
	e := &expectations{}
	for _, t := range run.ExpectFailures {
		e.expected = append(e.expected, expected{addr: subjectOf(t), rng: t.SourceRange()})
	}
	return e
}

// subjectOf is the address, without instance keys, of the object an
// expect_failures reference names: what follows it (var.lock.kind, an
// attribute of var.lock) is not part of it, as Terraform reads the
// reference.
func subjectOf(t hcl.Traversal) string {
	names := traversalNames(t)
	n := 2 // var.x, output.x, check.x, a resource's TYPE.NAME
	if len(names) > 0 && (names[0] == "data" || names[0] == "ephemeral" || names[0] == "module") {
		n = 3 // data.TYPE.NAME, a module call's output
	}
	return strings.Join(names[:min(n, len(names))], ".")
}

// invalidExpectations reports the references of a run's expect_failures
// that name no checkable object, as both Terraform and OpenTofu check a
// run before it runs: a local value, a module call or its output, a run,
// and the path, terraform, count, each and self values.
func invalidExpectations(run *RunBlock) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, t := range run.ExpectFailures {
		names := traversalNames(t)
		if len(names) == 0 {
			continue
		}
		var subject string
		switch names[0] {
		case "local", "run", "path", "terraform", "count", "each":
			subject = strings.Join(names[:min(2, len(names))], ".")
		case "self":
			subject = "self"
		case "module":
			// The call, an instance of it, or an instance's output.
			subject = formatTarget(leadingNames(t, 3))
		default:
			continue
		}
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Invalid `expect_failures` reference",
			Detail:   fmt.Sprintf("You cannot expect failures from %s. You can only expect failures from checkable objects such as input variables, output values, check blocks, managed resources and data sources.", subject),
			Subject:  t.SourceRange().Ptr(),
		})
	}
	return diags
}

// withoutKeys is a traversal's address without instance keys.
func withoutKeys(t hcl.Traversal) string {
	return strings.Join(traversalNames(t), ".")
}

// validate takes the failures of expected objects out of diags, reports
// each expected failure that did not happen, and makes the failure of a
// check block that was not expected an error, as a test treats it.
func (e *expectations) validate(diags hcl.Diagnostics, res *lang.Result) hcl.Diagnostics {
	var out hcl.Diagnostics
	for _, d := range diags {
		if addr, ok := failedRootObject(d); ok && e.expect(addr) {
			if d.Severity == hcl.DiagError && !slices.Contains(e.failed, addr) {
				e.failed = append(e.failed, addr)
			}
			continue
		}
		if isCheckWarning(d) {
			c := *d
			c.Severity = hcl.DiagError
			d = &c
		}
		out = append(out, d)
	}
	for i := range e.expected {
		x := &e.expected[i]
		if x.found {
			continue
		}
		if u, ok := undecidedCondition(res, x.addr); ok {
			if e.unread == nil {
				e.unread, e.unreadAddr = &u, x.addr
			}
			continue
		}
		d := &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Missing expected failure",
			Detail:   fmt.Sprintf("The checkable object, %s, was expected to report an error but did not.", x.addr),
			Subject:  x.rng.Ptr(),
		}
		e.missing = append(e.missing, d)
		out = append(out, d)
	}
	return out
}

// applyStatus is the status an apply's errors (diags) give a run as
// Terraform 1.12 on decides it: Error when one is not a missing expected
// failure, else Fail when one is, and the run goes on to its assertions;
// Pass when there are no errors.
func (e *expectations) applyStatus(diags hcl.Diagnostics) Status {
	status := Pass
	for _, d := range diags {
		switch {
		case d.Severity != hcl.DiagError:
		case slices.Contains(e.missing, d):
			status = Fail
		default:
			return Error
		}
	}
	return status
}

// failedRootObject is the root module object whose custom condition
// failed in d, as expect_failures names it.
func failedRootObject(d *hcl.Diagnostic) (string, bool) {
	fc, ok := hcl.DiagnosticExtra[lang.FailedCondition](d)
	if !ok || fc.Module != "" {
		return "", false
	}
	return fc.Object, true
}

// expect marks the expected failure of addr found, and reports whether
// addr was expected to fail.
func (e *expectations) expect(addr string) bool {
	hit := false
	for i := range e.expected {
		if e.expected[i].addr == addr {
			e.expected[i].found = true
			hit = true
		}
	}
	return hit
}

// undecidedCondition finds a condition of the root module object addr whose value
// tfeval could not know for want of what Terraform would have read. A
// condition that reads an object whose evaluation failed (a variable whose
// value its type does not take) is not one: Terraform's plan never
// evaluates it, and the expected failure is missing.
func undecidedCondition(res *lang.Result, addr string) (marks.Unread, bool) {
	if res == nil {
		return marks.Unread{}, false
	}
	for _, cr := range res.Checks() {
		if cr.Module != "" || cr.Status != lang.CheckUnknown || len(cr.Unread) == 0 {
			continue
		}
		if slices.ContainsFunc(cr.Unread, func(u marks.Unread) bool { return u.Cause == marks.Errored }) {
			continue
		}
		obj := cr.Object
		if i := strings.IndexByte(obj, '['); i >= 0 {
			obj = obj[:i]
		}
		if obj == addr {
			return cr.Unread[0], true
		}
	}
	return marks.Unread{}, false
}

// explainPlan is the diagnostics of an apply run's plan. When the plan
// has no errors, a check block's are left to the apply, which decides it
// again; when it has, the apply never runs and they stay, as both
// Terraform and OpenTofu report them. An expected failure that happens
// already while planning stays an error, as it stops the apply. Terraform
// puts a warning before each such error (placed, for an output value, at
// its expect_failures reference); OpenTofu adds one after the plan's
// diagnostics for each such error of an input variable only.
func (e *expectations) explainPlan(diags hcl.Diagnostics, d dialect.Dialect) hcl.Diagnostics {
	var out, after hcl.Diagnostics
	keepChecks := diags.HasErrors()
	for _, diag := range diags {
		if isCheckWarning(diag) && !keepChecks {
			continue
		}
		addr, ok := failedRootObject(diag)
		if !ok || diag.Severity != hcl.DiagError || !e.isExpected(addr) {
			out = append(out, diag)
			continue
		}
		if d == dialect.Tofu {
			if strings.HasPrefix(addr, "var.") {
				after = append(after, &hcl.Diagnostic{Severity: hcl.DiagWarning, Summary: "Invalid Variable in test file", Detail: fmt.Sprintf("Variable %s, has an invalid value within the test. Although this was an expected failure, it has meant the apply stage was unable to run so the overall test will fail.", addr)})
			}
			out = append(out, diag)
			continue
		}
		w := &hcl.Diagnostic{Severity: hcl.DiagWarning, Summary: "Expected failure while planning", Detail: fmt.Sprintf("A custom condition within %s failed during the planning stage and prevented the requested apply operation. While this was an expected failure, the apply operation could not be executed and so the overall test case will be marked as a failure and the original diagnostic included in the test report.", addr)}
		if strings.HasPrefix(addr, "output.") {
			w.Subject = e.rangeOf(addr)
		}
		out = append(out, w, diag)
	}
	return append(out, after...)
}

// rangeOf is the range of the last expect_failures reference to addr, as
// Terraform keeps one range an address.
func (e *expectations) rangeOf(addr string) *hcl.Range {
	var rng *hcl.Range
	for _, x := range e.expected {
		if x.addr == addr {
			rng = x.rng.Ptr()
		}
	}
	return rng
}

// undecidedCheck finds a check block assertion, not expected to fail,
// whose condition tfeval could not know for want of what Terraform would
// have read: Terraform's verdict on the run depends on it. After an apply,
// when Terraform knows every value, any custom condition counts: a
// precondition, postcondition or validation it decides there fails the
// run as much as an assertion does. In a plan so do a data source's
// conditions, which Terraform decides when it reads the source (a mocked
// one while planning); a managed resource's wait for the apply.
func (e *expectations) undecidedCheck(res *lang.Result, applied bool) (marks.Unread, lang.CheckResult, bool) {
	if res == nil {
		return marks.Unread{}, lang.CheckResult{}, false
	}
	for _, cr := range res.Checks() {
		decides := applied || cr.Kind == lang.CheckAssertion ||
			((cr.Kind == lang.CheckPrecondition || cr.Kind == lang.CheckPostcondition) && isDataSource(cr.Object))
		if !decides || cr.Status != lang.CheckUnknown || len(cr.Unread) == 0 {
			continue
		}
		obj := cr.Object
		if cr.Module != "" {
			obj = strings.TrimPrefix(obj, cr.Module+".")
		}
		if cr.Module == "" && e.isExpected(obj) {
			continue
		}
		return cr.Unread[0], cr, true
	}
	return marks.Unread{}, lang.CheckResult{}, false
}

// isDataSource reports whether an object address (module instance
// included) is a data source's.
func isDataSource(addr string) bool {
	return strings.HasPrefix(addr, "data.") || strings.Contains(addr, ".data.")
}

// undecided is what a run's verdict depends on that tfeval could not
// know: where it was needed, and what it lacked.
type undecided struct {
	unread marks.Unread
	what   string
}

// pending is the first thing a run's verdict depends on besides its
// assertions that tfeval could not decide: an expected failure, or a
// check block assertion; nil when there is none.
func (e *expectations) pending(res *lang.Result, applied bool) *undecided {
	if e.unread != nil {
		return &undecided{*e.unread, "the expected failure of " + e.unreadAddr + " depends on it"}
	}
	if u, cr, ok := e.undecidedCheck(res, applied); ok {
		rule := "assertion"
		if cr.Kind != lang.CheckAssertion {
			rule = cr.Kind.String() // validation, precondition, postcondition
		}
		return &undecided{u, "the " + rule + " of " + cr.Object + " depends on it"}
	}
	return nil
}

// isExpected reports whether addr is one of the run's expected failures.
func (e *expectations) isExpected(addr string) bool {
	for _, x := range e.expected {
		if x.addr == addr {
			return true
		}
	}
	return false
}
