package marks

import (
	"slices"
	"testing"

	"github.com/zclconf/go-cty/cty"
)

func TestHasAndContains(t *testing.T) {
	secret := cty.StringVal("s").Mark(Sensitive)
	tests := []struct {
		name          string
		v             cty.Value
		has, contains bool
	}{
		{"plain", cty.StringVal("x"), false, false},
		{"top level", secret, true, true},
		{"nested in a list", cty.ListVal([]cty.Value{cty.StringVal("a"), secret}), false, true},
		{"nested in an object", cty.ObjectVal(map[string]cty.Value{"a": cty.TupleVal([]cty.Value{secret})}), false, true},
		{"other mark only", cty.StringVal("e").Mark(Ephemeral), false, false},
		{"unknown sensitive", cty.UnknownVal(cty.String).Mark(Sensitive), true, true},
	}
	for _, tt := range tests {
		if got := Has(tt.v, Sensitive); got != tt.has {
			t.Errorf("%s: Has = %v, want %v", tt.name, got, tt.has)
		}
		if got := Contains(tt.v, Sensitive); got != tt.contains {
			t.Errorf("%s: Contains = %v, want %v", tt.name, got, tt.contains)
		}
	}
}

// TestContainsMatchesPaths compares Contains and Any with the marks
// UnmarkDeepWithPaths finds, on values with marks at every depth.
func TestContainsMatchesPaths(t *testing.T) {
	s := cty.StringVal("s").Mark(Sensitive)
	e := cty.StringVal("e").Mark(Ephemeral)
	for _, v := range []cty.Value{
		cty.MapVal(map[string]cty.Value{"a": s, "b": cty.StringVal("b")}),
		cty.SetVal([]cty.Value{s, cty.StringVal("x")}),
		cty.NullVal(cty.String).Mark(Ephemeral),
		cty.ObjectVal(map[string]cty.Value{"u": cty.UnknownVal(cty.Number).Mark(Ephemeral), "n": cty.NullVal(cty.Bool)}),
		cty.ListVal([]cty.Value{cty.ObjectVal(map[string]cty.Value{"x": cty.TupleVal([]cty.Value{cty.True, e})})}),
		cty.TupleVal([]cty.Value{cty.ListVal([]cty.Value{s}).Mark(Ephemeral)}),
		cty.ObjectVal(map[string]cty.Value{"a": cty.ListValEmpty(cty.String), "b": cty.EmptyObjectVal.Mark(TypeType)}),
		cty.DynamicVal,
		cty.UnknownVal(cty.Object(map[string]cty.Type{"a": cty.String})),
	} {
		for _, m := range []valueMark{Sensitive, Ephemeral, TypeType} {
			want := v.HasMark(m)
			_, pvms := v.UnmarkDeepWithPaths()
			for _, p := range pvms {
				if _, ok := p.Marks[m]; ok {
					want = true
				}
			}
			if got := Contains(v, m); got != want {
				t.Errorf("Contains(%#v, %s) = %v, want %v", v, m, got, want)
			}
		}
		_, pvms := v.UnmarkDeepWithPaths()
		if got, want := Any(v), len(pvms) > 0; got != want {
			t.Errorf("Any(%#v) = %v, want %v", v, got, want)
		}
	}
	for _, v := range []cty.Value{cty.StringVal("x"), cty.ListVal([]cty.Value{cty.StringVal("a")}), cty.EmptyObjectVal} {
		if Any(v) {
			t.Errorf("Any(%#v) = true for a value without marks", v)
		}
	}
}

// TestSettled: a value is settled when it is known and each of its
// unknowns carries Unread marks that are all Applied.
func TestSettled(t *testing.T) {
	applied := Unread{Cause: NoSchema, Addr: "aws_thing.a", Applied: true}
	planned := Unread{Cause: NoSchema, Addr: "aws_thing.a"}
	data := Unread{Cause: DataNotRead, Addr: "data.x.y"}
	unknown := func(us ...Unread) cty.Value { return cty.UnknownVal(cty.String).WithMarks(UnreadSet(us)) }
	obj := func(v cty.Value) cty.Value {
		return cty.ObjectVal(map[string]cty.Value{"k": cty.StringVal("v"), "u": v})
	}
	tests := []struct {
		name string
		v    cty.Value
		want bool
	}{
		{"wholly known", obj(cty.StringVal("x")), true},
		{"applied unknown inside", obj(unknown(applied)), true},
		{"applied unknown in a tuple", cty.TupleVal([]cty.Value{obj(unknown(applied))}), true},
		{"marked container", obj(unknown(applied)).Mark(Sensitive), true},
		{"planned unknown inside", obj(unknown(planned)), false},
		{"applied and another cause", obj(unknown(applied, data)), false},
		{"unmarked unknown inside", obj(cty.UnknownVal(cty.String)), false},
		{"unknown itself", unknown(applied), false},
	}
	for _, tt := range tests {
		if got := Settled(tt.v); got != tt.want {
			t.Errorf("%s: Settled = %v, want %v", tt.name, got, tt.want)
		}
	}
}

// TestUnreadMarksLeaveOutApplied: what a value's unknowns wait on is named
// once, whether applied or not.
func TestUnreadMarksLeaveOutApplied(t *testing.T) {
	v := cty.TupleVal([]cty.Value{
		cty.UnknownVal(cty.String).WithMarks(UnreadSet([]Unread{{Cause: NoSchema, Addr: "aws_thing.a", Applied: true}})),
		cty.UnknownVal(cty.String).WithMarks(UnreadSet([]Unread{{Cause: NoSchema, Addr: "aws_thing.a"}})),
	})
	got := UnreadMarks(v)
	if want := []Unread{{Cause: NoSchema, Addr: "aws_thing.a"}}; !slices.Equal(got, want) {
		t.Errorf("UnreadMarks = %#v, want %#v", got, want)
	}
}
