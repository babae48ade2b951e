package tftest

import (
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/tfeval/tfeval/config"
	"github.com/tfeval/tfeval/lang"
	"github.com/tfeval/tfeval/marks"
)

// conditionSummaries are the summaries of the failures of the custom
// conditions a run may expect: variable validations, output and resource
// pre- and postconditions, check block assertions.
var conditionSummaries = map[string]bool{
	"Invalid value for variable":              true,
	"Resource precondition failed":            true,
	"Resource postcondition failed":           true,
	"Module output value precondition failed": true,
	checkFailed: true,
}

const checkFailed = "Check block assertion failed"

// expectations are a run's expect_failures, with where each checkable
// object of the module reports its failures.
type expectations struct {
	// objects are the checkable objects by the subject of their failures:
	// a variable's declaration, a rule's condition.
	objects  map[hcl.Range]string
	expected []expected
	// unread is set when an expected failure could not be decided for
	// want of a provider's answer.
	unread     *marks.Unread
	unreadAddr string
}

type expected struct {
	addr  string
	rng   hcl.Range
	found bool
}

func newExpectations(cfg *config.Config, run *RunBlock) *expectations {
	e := &expectations{objects: map[hcl.Range]string{}}
	m := cfg.Module
	for name, v := range m.Variables {
		e.objects[v.DeclRange] = "var." + name
	}
	for name, o := range m.Outputs {
		for _, rule := range o.Preconditions {
			e.objects[rule.Condition.Range()] = "output." + name
		}
	}
	for _, set := range []map[string]*config.Resource{m.ManagedResources, m.DataResources} {
		for addr, res := range set {
			for _, rule := range append(append([]*config.CheckRule(nil), res.Preconditions...), res.Postconditions...) {
				e.objects[rule.Condition.Range()] = addr
			}
		}
	}
	for name, ch := range m.Checks {
		for _, rule := range ch.Asserts {
			e.objects[rule.Condition.Range()] = "check." + name
		}
	}
	for _, t := range run.ExpectFailures {
		e.expected = append(e.expected, expected{addr: withoutKeys(t), rng: t.SourceRange()})
	}
	return e
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
		if conditionSummaries[d.Summary] && d.Subject != nil {
			if addr, ok := e.objects[*d.Subject]; ok && e.expect(addr) {
				continue
			}
		}
		if d.Summary == checkFailed && d.Severity == hcl.DiagWarning {
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
		if u, ok := undecided(res, x.addr); ok {
			if e.unread == nil {
				e.unread, e.unreadAddr = &u, x.addr
			}
			continue
		}
		out = append(out, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Missing expected failure",
			Detail:   fmt.Sprintf("The checkable object, %s, was expected to report an error but did not.", x.addr),
			Subject:  x.rng.Ptr(),
		})
	}
	return out
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

// undecided finds a condition of the root module object addr whose value
// tfeval could not know for want of what Terraform would have read.
func undecided(res *lang.Result, addr string) (marks.Unread, bool) {
	if res == nil {
		return marks.Unread{}, false
	}
	for _, cr := range res.Checks() {
		if cr.Module != "" || cr.Status != lang.CheckUnknown || len(cr.Unread) == 0 {
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

// conditionsAsErrors is the plan of an apply run: a check block's failure
// is left to the apply, which reports it again.
func conditionsAsErrors(diags hcl.Diagnostics) hcl.Diagnostics {
	var out hcl.Diagnostics
	for _, d := range diags {
		if d.Summary == checkFailed {
			continue
		}
		out = append(out, d)
	}
	return out
}
