package funcs

import (
	"fmt"
	"testing"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
	"github.com/zclconf/go-cty/cty/function/stdlib"
)

// TestRegexShortcuts compares regex() and regexall() through a table's
// compiled patterns with go-cty's functions, which compile on every call.
func TestRegexShortcuts(t *testing.T) {
	str := cty.StringVal
	e := newEnv(Options{})
	tests := []struct {
		pattern, s string
		short      bool // whether regex's shortcut must answer
	}{
		{"[a-z]+", "123abc456", true},
		{"^([a-z]+)-([0-9]+)$", "vnet-42", true},
		{"^(?P<kind>[a-z]+)-(?P<n>[0-9]+)$", "vnet-42", true},
		{"^(a)|(b)$", "b", true},         // a group outside the match is null
		{"(?P<x>a)|(?P<x>b)", "b", true}, // a repeated name keeps its last group
		{"", "anything", true},
		{"^[a-z]{3,24}$", "Storage", false}, // no match: go-cty's error
		{"(?P<x>a)(b)", "ab", false},        // mixed groups: go-cty's error
		{"[", "x", false},                   // no pattern: go-cty's error
	}
	for i, tt := range tests {
		t.Run(fmt.Sprintf("%d", i), func(t *testing.T) {
			args := []cty.Value{str(tt.pattern), str(tt.s)}
			for _, c := range []struct {
				fn    function.Function
				short shortcut
				must  bool
			}{
				{stdlib.RegexFunc, e.regexShortcut, tt.short},
				{stdlib.RegexAllFunc, e.regexAllShortcut, tt.short || tt.pattern == "^[a-z]{3,24}$"},
			} {
				got, ok := c.short(args)
				if ok != c.must {
					t.Fatalf("%q %q: shortcut answered %v, want %v", tt.pattern, tt.s, ok, c.must)
				}
				if !ok {
					continue
				}
				want, err := c.fn.Call(args)
				if err != nil {
					t.Fatalf("%q %q: shortcut gave %#v, the call failed: %s", tt.pattern, tt.s, got, err)
				}
				if !got.RawEquals(want) {
					t.Fatalf("%q %q:\nshortcut %#v\ncall     %#v", tt.pattern, tt.s, got, want)
				}
			}
		})
	}
	if n := len(e.patterns.m); n != len(tests) {
		t.Errorf("the table keeps %d patterns, want %d", n, len(tests))
	}
}

// TestPatternCacheBound checks that a table keeps at most
// maxCachedPatterns patterns, none longer than maxCachedPatternLength,
// and still answers past them.
func TestPatternCacheBound(t *testing.T) {
	var ps patterns
	for i := range maxCachedPatterns + 10 {
		if p := ps.get(fmt.Sprintf("^a{%d}$", i)); p.re == nil {
			t.Fatal(p.err)
		}
	}
	long := fmt.Sprintf("^%0*d$", maxCachedPatternLength, 0)
	if p := ps.get(long); p.re == nil {
		t.Fatal(p.err)
	}
	if len(ps.m) != maxCachedPatterns {
		t.Errorf("%d patterns kept, want %d", len(ps.m), maxCachedPatterns)
	}
	if _, ok := ps.m[long]; ok {
		t.Error("a pattern past the length bound was kept")
	}
}

// TestRegexCompilesOnce checks that a table's regex() compiles a pattern
// once for all its calls: every later call allocates only its result.
func TestRegexCompilesOnce(t *testing.T) {
	direct := &DirectCalls{}
	fns := Functions(Options{Direct: direct})
	call, ok := direct.Lookup(fns["regex"])
	if !ok {
		t.Fatal("regex has no direct call")
	}
	args := []cty.Value{cty.StringVal("^[a-z][a-z0-9-]{1,61}[a-z0-9]$"), cty.StringVal("vnet-dev-eus2")}
	if _, err := call(args); err != nil {
		t.Fatal(err)
	}
	// Compiling this pattern alone allocates about 40 times.
	if n := testing.AllocsPerRun(20, func() { _, _ = call(args) }); n > 8 {
		t.Errorf("regex of a compiled pattern: %.0f allocations, want at most 8", n)
	}
}

// TestShortcutsOfMarkedArguments compares the table's direct calls with
// the functions' full calls for arguments whose marks the full call
// removes and puts back on the result: the shortcut answers for the
// unmarked arguments, and the result carries the same marks.
func TestShortcutsOfMarkedArguments(t *testing.T) {
	sens := func(v cty.Value) cty.Value { return v.Mark("sensitive") }
	drawn := func(v cty.Value) cty.Value { return v.Mark("drawn") }
	str := cty.StringVal
	direct := &DirectCalls{}
	fns := Functions(Options{Direct: direct})
	declared := newEnv(Options{}).declared(0)
	tests := []struct {
		name  string
		args  []cty.Value
		short bool // whether a shortcut answers
	}{
		{"lower", []cty.Value{drawn(str("ABC"))}, true},
		{"join", []cty.Value{str("-"), cty.ListVal([]cty.Value{str("a"), drawn(str("b"))})}, true},
		{"join", []cty.Value{sens(str("-")), drawn(cty.ListVal([]cty.Value{str("a"), sens(str("b"))}))}, true},
		{"compact", []cty.Value{cty.ListVal([]cty.Value{str(""), drawn(str("x"))})}, true},
		{"substr", []cty.Value{drawn(str("abcdef")), cty.NumberIntVal(1), sens(cty.NumberIntVal(2))}, true},
		{"max", []cty.Value{cty.NumberIntVal(1), drawn(cty.NumberIntVal(2))}, true},
		{"slice", []cty.Value{drawn(cty.ListVal([]cty.Value{str("a"), sens(str("b"))})), sens(cty.NumberIntVal(0)), cty.NumberIntVal(2)}, true},
		{"coalesce", []cty.Value{cty.NullVal(cty.String), drawn(str("x"))}, true},
		{"regex", []cty.Value{str("^[a-z]+"), drawn(str("abc1"))}, true},
		{"regexall", []cty.Value{sens(str("[0-9]")), drawn(str("a1b2"))}, true},
		{"merge", []cty.Value{cty.MapVal(map[string]cty.Value{"a": drawn(str("x"))}), drawn(cty.MapVal(map[string]cty.Value{"b": str("y")}))}, false}, // merge keeps its own marks
		{"join", []cty.Value{str("-"), cty.ListVal([]cty.Value{drawn(str("a")), cty.UnknownVal(cty.String)})}, false},
		{"lower", []cty.Value{drawn(cty.UnknownVal(cty.String))}, false},
		{"regex", []cty.Value{str("^[0-9]+$"), drawn(str("abc"))}, false}, // no match: the call's error
		{"replace", []cty.Value{str("a-b_c"), str("/[^a-z]/"), str("")}, true},
		{"replace", []cty.Value{str("abab"), str("/(a)(b)/"), str("$2$1")}, true},
		{"replace", []cty.Value{drawn(str("a.b.c")), str("."), sens(str("/"))}, true},
		{"replace", []cty.Value{str("abc"), str("/[/"), str("x")}, false}, // no pattern: the call's error
		{"replace", []cty.Value{str("abc"), str("/"), str("x")}, true},
		{"length", []cty.Value{drawn(str("abc"))}, true}, // length keeps its own marks
		{"length", []cty.Value{cty.ListVal([]cty.Value{drawn(str("abc"))})}, true},
	}
	for i, tt := range tests {
		t.Run(fmt.Sprintf("%s/%d", tt.name, i), func(t *testing.T) {
			call, ok := direct.Lookup(fns[tt.name])
			if !ok {
				t.Fatalf("%s has no direct call", tt.name)
			}
			want, wantErr := declared[tt.name].Call(tt.args)
			got, gotErr := call(tt.args)
			if (gotErr == nil) != (wantErr == nil) {
				t.Fatalf("error %v, want %v", gotErr, wantErr)
			}
			if wantErr == nil && !got.RawEquals(want) {
				t.Fatalf("\ndirect %#v\ncall   %#v", got, want)
			}
			e := newEnv(Options{})
			short := e.shortcutOf(declared[tt.name])
			if short == nil {
				t.Fatalf("%s has no shortcut", tt.name)
			}
			unmarks := []bool{}
			for _, p := range declared[tt.name].Params() {
				unmarks = append(unmarks, !p.AllowMarked)
			}
			vp := declared[tt.name].VarParam()
			if vp != nil {
				unmarks = append(unmarks, !vp.AllowMarked)
			}
			_, answered := short(tt.args)
			if !answered {
				_, answered = shortUnmarked(short, tt.args, unmarks, vp != nil)
			}
			if answered != tt.short {
				t.Errorf("a shortcut answered: %v, want %v", answered, tt.short)
			}
		})
	}
}
