package typeexpr

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
)

// typeAttr finds `type = ...` lines in the conformance configurations.
var typeAttr = regexp.MustCompile(`(?m)^\s*type\s*=\s*(.+)$`)

// FuzzTypeConstraint parses an arbitrary type expression and converts an
// arbitrary constant value to it, defaults included.
func FuzzTypeConstraint(f *testing.F) {
	files, _ := filepath.Glob("../testdata/conformance/*/*.tf")
	for _, name := range files {
		src, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		for _, m := range typeAttr.FindAllSubmatch(src, -1) {
			f.Add(string(m[1]), `{a = 1, b = ["x"]}`)
		}
	}
	f.Add(`object({a = optional(string, "d"), b = optional(list(object({c = optional(number, 2)})), [])})`, `{b = [{}, {c = null}]}`)
	f.Add(`map(optional(string))`, `{}`)
	f.Add(`"string"`, `"x"`)
	f.Add(`tuple([number, set(any)])`, `[1, [true, "a"]]`)
	f.Fuzz(func(t *testing.T, typeSrc, valSrc string) {
		texpr, diags := hclsyntax.ParseExpression([]byte(typeSrc), "type.tf", hcl.InitialPos)
		if diags.HasErrors() {
			return
		}
		ty, defaults, _, diags := TypeConstraint(texpr)
		if diags.HasErrors() {
			for _, d := range diags {
				if d.Subject == nil {
					t.Fatalf("type diagnostic without range: %s", d.Summary)
				}
			}
			return
		}
		if ty == cty.NilType {
			t.Fatal("no type and no error")
		}
		vexpr, diags := hclsyntax.ParseExpression([]byte(valSrc), "value.tf", hcl.InitialPos)
		if diags.HasErrors() {
			return
		}
		val, diags := vexpr.Value(nil)
		if diags.HasErrors() || hasHugeNumber(val) {
			return
		}
		for _, have := range []cty.Type{val.Type(), ty.WithoutOptionalAttributesDeep()} {
			if got, want := equalsWithoutOptional(have, ty), have.Equals(ty.WithoutOptionalAttributesDeep()); got != want {
				t.Fatalf("equalsWithoutOptional(%#v, %#v) = %v, want %v", have, ty, got, want)
			}
		}
		out, err := Convert(val, ty, defaults)
		checkSameAsApply(t, val, ty, defaults, out, err)
		if err != nil {
			_ = FormatError(err)
			return
		}
		if out.IsWhollyKnown() && !out.Type().Equals(cty.DynamicPseudoType) {
			if _, err := Convert(out, ty, defaults); err != nil {
				t.Fatalf("converted value %#v does not convert again to %#v: %s", out, ty, err)
			}
		}
	})
}

// hasHugeNumber reports whether v holds a number beyond what tfeval lets
// sources and evaluation make (limit.MaxNumberExponent, checked before
// anything reaches typeexpr): converting 1e404088884 to a string writes
// it out in full, which takes minutes.
func hasHugeNumber(v cty.Value) bool {
	huge := false
	_ = cty.Walk(v, func(_ cty.Path, v cty.Value) (bool, error) {
		v, _ = v.Unmark()
		if v.Type() == cty.Number && v.IsKnown() && !v.IsNull() {
			if f := v.AsBigFloat(); !f.IsInf() && f.Sign() != 0 {
				if exp := f.MantExp(nil); exp > 1<<15 || exp < -(1<<15) {
					huge = true
				}
			}
		}
		return !huge, nil
	})
	return huge
}
