package typeexpr

import (
	"testing"

	"github.com/hashicorp/hcl/v2"
	hcltypeexpr "github.com/hashicorp/hcl/v2/ext/typeexpr"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
)

// syntaxCases are type constraints syntaxConstraint reads (taken) or
// leaves to hcl.
var syntaxCases = []struct {
	src   string
	taken bool
}{
	{`string`, true}, {`number`, true}, {`bool`, true}, {`any`, true},
	{`list(string)`, true}, {`set(number)`, true}, {`map(any)`, true}, {`map(list(set(bool)))`, true},
	{`object({})`, true}, {`object({a = string, b = number})`, true},
	{`object({a = optional(string)})`, true}, {`object({a = optional(string, "x")})`, true},
	{`object({a = optional(number, "2")})`, true}, {`object({a = optional(list(string), [])})`, true},
	{`object({a = optional(map(string), {}), b = optional(bool, true), c = any})`, true},
	{`object({a = optional(any, null)})`, true}, {`object({a = optional(string, null)})`, true},
	{`list(object({a = object({b = optional(number, 1)})}))`, true},
	{`map(object({size = number, enabled = optional(bool, true), labels = optional(map(string), {})}))`, true},
	{`object({limits = optional(object({cpu = optional(number, 1), memory = optional(number, 512)}), {})})`, true},
	{`object({a = optional(object({b = optional(string)}))})`, true},
	{`set(object({a = optional(list(object({b = optional(number, 0)})), [])}))`, true},
	{`object({a = optional(tuple([string]), ["x"])})`, false}, // a tuple is hcl's
	{`object({"a" = string})`, false}, {`object({(a) = string})`, false}, {`object({a = string, a = number})`, false},
	{`object({café = string})`, false}, {`object({a.b = string})`, false},
	{`object({a = optional(number, "nope")})`, false}, {`object({a = optional(string, "a", "b")})`, false},
	{`object({a = optional()})`, false}, {`object({a = optional(string, var.x)})`, false},
	{`object({a = optional(strin)})`, false}, {`object({a = optional(string...)})`, false},
	{`object(a)`, false}, {`object({a = string}, {})`, false}, {`object()`, false},
	{`tuple([string, bool])`, false}, {`list`, false}, {`map`, false}, {`list()`, false}, {`list(string, number)`, false},
	{`list(string...)`, false}, {`(string)`, false}, {`list((string))`, false}, {`strin`, false}, {`string.x`, false},
	{`"string"`, false}, {`optional(string)`, false}, {`string()`, false}, {`provider::x::list(string)`, false},
	{`object({a = (optional(string))})`, false}, {`map(object({x = object({y = optional(number, "nope")})}))`, false},
}

// TestSyntaxConstraintAgreesWithHCL: what syntaxConstraint reads is what
// hcl's TypeConstraintWithDefaults gives, and it reads the common forms.
func TestSyntaxConstraintAgreesWithHCL(t *testing.T) {
	for _, c := range syntaxCases {
		expr, diags := hclsyntax.ParseExpression([]byte(c.src), "t.tf", hcl.InitialPos)
		if diags.HasErrors() {
			t.Fatalf("parse %q: %s", c.src, diags)
		}
		_, _, ok := syntaxConstraint(expr)
		if ok != c.taken {
			t.Errorf("%s: taken %v, want %v", c.src, ok, c.taken)
		}
		checkSyntaxConstraint(t, c.src, expr)
	}
}

// FuzzSyntaxConstraint holds syntaxConstraint to hcl on any expression.
func FuzzSyntaxConstraint(f *testing.F) {
	for _, c := range syntaxCases {
		f.Add(c.src)
	}
	f.Fuzz(func(t *testing.T, src string) {
		expr, diags := hclsyntax.ParseExpression([]byte(src), "t.tf", hcl.InitialPos)
		if diags.HasErrors() {
			return
		}
		checkSyntaxConstraint(t, src, expr)
	})
}

func checkSyntaxConstraint(t *testing.T, src string, expr hcl.Expression) {
	t.Helper()
	ty, d, ok := syntaxConstraint(expr)
	if !ok {
		return
	}
	var hty cty.Type
	var hd *hcltypeexpr.Defaults
	var hdiags hcl.Diagnostics
	func() {
		defer func() {
			if r := recover(); r != nil {
				t.Fatalf("%s: read, where hcl panics: %v", src, r)
			}
		}()
		hty, hd, hdiags = hcltypeexpr.TypeConstraintWithDefaults(expr)
	}()
	if len(hdiags) != 0 {
		t.Fatalf("%s: read, where hcl reports %s", src, hdiags)
	}
	if !ty.Equals(hty) || ty.GoString() != hty.GoString() {
		t.Errorf("%s: type %#v, hcl %#v", src, ty, hty)
	}
	if !sameDefaults(d, hd) {
		t.Errorf("%s: defaults %#v, hcl %#v", src, d, hd)
	}
}

// sameDefaults reports whether two defaults are the same: types, values,
// children, and which maps are nil.
func sameDefaults(a, b *hcltypeexpr.Defaults) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	if !a.Type.Equals(b.Type) || (a.DefaultValues == nil) != (b.DefaultValues == nil) || (a.Children == nil) != (b.Children == nil) ||
		len(a.DefaultValues) != len(b.DefaultValues) || len(a.Children) != len(b.Children) {
		return false
	}
	for k, v := range a.DefaultValues {
		w, ok := b.DefaultValues[k]
		if !ok || !v.RawEquals(w) || v.GoString() != w.GoString() {
			return false
		}
	}
	for k, c := range a.Children {
		if !sameDefaults(c, b.Children[k]) {
			return false
		}
	}
	return true
}

// TestSyntaxConstraintAllocations holds what reading a variable's type
// allocates: the types and defaults alone (go-cty's object types, the
// defaults' maps), no copy of the calls and objects that write them.
func TestSyntaxConstraintAllocations(t *testing.T) {
	if raceDetector {
		t.Skip("allocation counts differ under the race detector")
	}
	for src, max := range map[string]float64{
		`string`:       0,
		`list(string)`: 1, // cty.List
		`map(object({size = number, enabled = optional(bool, true), labels = optional(map(string), {})}))`: 25, // hcl: 40
		`object({a = string, b = number})`: 6,
	} {
		expr, diags := hclsyntax.ParseExpression([]byte(src), "t.tf", hcl.InitialPos)
		if diags.HasErrors() {
			t.Fatal(diags)
		}
		fast := testing.AllocsPerRun(20, func() { _, _, _ = syntaxConstraint(expr) })
		slow := testing.AllocsPerRun(20, func() { _, _, _ = hcltypeexpr.TypeConstraintWithDefaults(expr) })
		if fast > max {
			t.Errorf("%s: %.0f allocations, want at most %.0f (hcl: %.0f)", src, fast, max, slow)
		}
		if src != `string` && fast >= slow {
			t.Errorf("%s: %.0f allocations, hcl %.0f", src, fast, slow)
		}
	}
}
