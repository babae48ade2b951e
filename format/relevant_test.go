package format

import (
	"encoding/json"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/tfeval/tfeval/dialect"
)

// The path of a reference into a resource follows its type: Terraform
// stops at an attribute of dynamic type, OpenTofu does not; list and map
// keys are part of it.
func TestAttributePath(t *testing.T) {
	ty := cty.Object(map[string]cty.Type{
		"input":   cty.DynamicPseudoType,
		"tags":    cty.Map(cty.String),
		"setting": cty.List(cty.Object(map[string]cty.Type{"name": cty.String})),
	})
	for _, tc := range []struct {
		src  string
		d    dialect.Dialect
		want string
	}{
		{"x.input.tags.a", dialect.Terraform, `["input"]`},
		{"x.input.tags.a", dialect.Tofu, `["input","tags","a"]`},
		{`x.tags["team"]`, dialect.Terraform, `["tags","team"]`},
		{"x.setting[0].name", dialect.Terraform, `["setting",0,"name"]`},
		{"x", dialect.Terraform, `[]`},
	} {
		trav, diags := hclsyntax.ParseTraversalAbs([]byte(tc.src), "test.tf", hcl.InitialPos)
		if diags.HasErrors() {
			t.Fatal(diags.Error())
		}
		b, _ := json.Marshal(attributePath(trav[1:], ty, tc.d))
		if string(b) != tc.want {
			t.Errorf("%s (%s): %s, want %s", tc.src, tc.d, b, tc.want)
		}
	}
}

// An attribute whose planned value is null is no relevant attribute;
// unknown and known ones, and paths the value does not have, are.
func TestNullAt(t *testing.T) {
	v := cty.ObjectVal(map[string]cty.Value{
		"enabled": cty.NullVal(cty.Bool),
		"id":      cty.UnknownVal(cty.String),
		"setting": cty.ListVal([]cty.Value{cty.ObjectVal(map[string]cty.Value{"value": cty.NullVal(cty.String), "name": cty.StringVal("n")})}),
	})
	for _, tc := range []struct {
		path []any
		want bool
	}{
		{[]any{"enabled"}, true},
		{[]any{"id"}, false},
		{[]any{"setting", int64(0), "value"}, true},
		{[]any{"setting", int64(0), "name"}, false},
		{[]any{"setting", int64(3), "name"}, false},
		{[]any{"missing"}, false},
		{[]any{}, false},
	} {
		if got := nullAt(v, tc.path); got != tc.want {
			t.Errorf("%v: %v, want %v", tc.path, got, tc.want)
		}
	}
}

// A module instance address without its keys.
func TestUnkeyed(t *testing.T) {
	for addr, want := range map[string]string{
		`module.a["x"].module.b[0]`: "module.a.module.b",
		`module.a["]"]`:             "module.a",
		"module.a":                  "module.a",
	} {
		if got := unkeyed(addr); got != want {
			t.Errorf("%q: %q, want %q", addr, got, want)
		}
	}
}
