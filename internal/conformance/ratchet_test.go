package conformance

import (
	"encoding/json"
	"reflect"
	"testing"
)

func TestJudge(t *testing.T) {
	pass := func(c, n string) Unit { return Unit{Dialect: "terraform", Case: c, Name: n} }
	fail := func(c, n string) Unit { u := pass(c, n); u.Problems = []string{"value: differs"}; return u }

	tests := []struct {
		name       string
		units      []Unit
		known      string
		ok         bool
		newFails   []string
		nowPassing []string
		stale      []string
	}{
		{"all pass, empty list", []Unit{pass("a", "1")}, "", true, nil, nil, nil},
		{"listed failure still failing", []Unit{fail("a", "1")}, "# reason\nterraform a :: 1\n", true, nil, nil, nil},
		{"failure removed from list while still failing",
			[]Unit{fail("a", "1"), pass("a", "2")}, "", false, []string{"terraform a :: 1"}, nil, nil},
		{"passing unit left on the list",
			[]Unit{pass("a", "1")}, "terraform a :: 1\n", false, nil, []string{"terraform a :: 1"}, nil},
		{"listed unit that does not exist",
			[]Unit{pass("a", "1")}, "terraform gone :: x\n", false, nil, nil, []string{"terraform gone :: x"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := Judge(tt.units, ParseKnownFailures(tt.known))
			if v.OK() != tt.ok {
				t.Errorf("OK() = %v, want %v", v.OK(), tt.ok)
			}
			var nf []string
			for _, u := range v.NewFailures {
				nf = append(nf, u.ID())
			}
			if !reflect.DeepEqual(nf, tt.newFails) || !reflect.DeepEqual(v.NowPassing, tt.nowPassing) || !reflect.DeepEqual(v.Stale, tt.stale) {
				t.Errorf("got new=%q passing=%q stale=%q", nf, v.NowPassing, v.Stale)
			}
		})
	}
}

func TestSummaries(t *testing.T) {
	text := "\nError: Invalid reference\n\n  on x line 1:\n\nWarning: Careful\n" +
		"\x1b[31m╷\x1b[0m\n\x1b[31m│\x1b[0m \x1b[31;1mError: \x1b[0m\x1b[1mCycle: b, a\x1b[0m\n"
	if got := Summaries(text, "error"); !reflect.DeepEqual(got, []string{"Invalid reference", "Cycle: a, b"}) {
		t.Errorf("errors = %q", got)
	}
	if got := Summaries(text, "warning"); !reflect.DeepEqual(got, []string{"Careful"}) {
		t.Errorf("warnings = %q", got)
	}
}

func TestPlanProblems(t *testing.T) {
	want := Expected{Mode: "plan", OK: true, Outputs: map[string]json.RawMessage{
		"a": json.RawMessage(`{"sensitive": false, "unknown": false, "type": "string", "value": "x"}`),
		"u": json.RawMessage(`{"sensitive": false, "unknown": {}}`),
	}}
	good := `{"diagnostics": [], "outputs": {"a": {"type": "string", "value": "x"}, "u": {"unknown": false}}, "resources": []}`
	if p := planProblems(want, 0, good, ""); len(p) != 0 {
		t.Errorf("matching document reported problems: %q", p)
	}
	bad := `{"diagnostics": [{"severity": "warning", "summary": "W"}], "outputs": {"a": {"type": "string", "value": "y"}, "u": {"unknown": true}}}`
	if p := planProblems(want, 0, bad, ""); len(p) != 3 {
		t.Errorf("want 3 problems (warning, value, unknown), got %q", p)
	}
	if p := planProblems(want, 1, "not json", ""); len(p) != 1 {
		t.Errorf("want 1 problem for non-JSON output, got %q", p)
	}
}

func TestErrorDetails(t *testing.T) {
	text := "\nError: Invalid reference\n\n  on main.tf line 1:\n   1: x = y\n\nA reference to a resource type must be followed by at least one attribute\naccess.\n\nSecond paragraph.\n\nWarning: W\n\nwarn detail\n\nError: Bare\n"
	want := [][2]string{
		{"Invalid reference", "A reference to a resource type must be followed by at least one attribute\naccess.\n\nSecond paragraph."},
		{"Bare", ""},
	}
	if got := ErrorDetails(text); !reflect.DeepEqual(got, want) {
		t.Errorf("ErrorDetails = %q", got)
	}
}
