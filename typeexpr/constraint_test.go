package typeexpr

import (
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/hashicorp/hcl/v2/json"
	"github.com/zclconf/go-cty/cty"
)

func parseNative(t *testing.T, src string) hcl.Expression {
	t.Helper()
	expr, diags := hclsyntax.ParseExpression([]byte(src), "t.tf", hcl.InitialPos)
	if diags.HasErrors() {
		t.Fatalf("parse %q: %s", src, diags)
	}
	return expr
}

func TestTypeConstraint(t *testing.T) {
	tests := []struct {
		src      string
		json     bool
		want     cty.Type
		parseHCL bool
		summary  string
		detail   string
		defaults bool
	}{
		{src: `string`, want: cty.String},
		{src: `number`, want: cty.Number},
		{src: `bool`, want: cty.Bool},
		{src: `any`, want: cty.DynamicPseudoType, parseHCL: true},
		{src: `list`, want: cty.List(cty.DynamicPseudoType), parseHCL: true},
		{src: `map`, want: cty.Map(cty.DynamicPseudoType), parseHCL: true},
		{src: `list(string)`, want: cty.List(cty.String), parseHCL: true},
		{src: `set(number)`, want: cty.Set(cty.Number), parseHCL: true},
		{src: `tuple([string, bool])`, want: cty.Tuple([]cty.Type{cty.String, cty.Bool}), parseHCL: true},
		{src: `object({a = optional(string, "x")})`, parseHCL: true, defaults: true,
			want: cty.ObjectWithOptionalAttrs(map[string]cty.Type{"a": cty.String}, []string{"a"})},
		{src: `list(object({a = object({b = optional(number, 1)})}))`, parseHCL: true, defaults: true,
			want: cty.List(cty.Object(map[string]cty.Type{"a": cty.ObjectWithOptionalAttrs(map[string]cty.Type{"b": cty.Number}, []string{"b"})}))},
		{src: `"string"`, want: cty.DynamicPseudoType, summary: SummaryQuotedType,
			detail: "Terraform 0.11 and earlier required type constraints to be given in quotes, but that form is now deprecated and will be removed in a future version of Terraform. Remove the quotes around \"string\"."},
		{src: `"list"`, want: cty.DynamicPseudoType, parseHCL: true, summary: SummaryQuotedType,
			detail: "Terraform 0.11 and earlier required type constraints to be given in quotes, but that form is now deprecated and will be removed in a future version of Terraform. Remove the quotes around \"list\" and write list(string) instead to explicitly indicate that the list elements are strings."},
		{src: `"map"`, want: cty.DynamicPseudoType, parseHCL: true, summary: SummaryQuotedType},
		{src: `"list(string)"`, want: cty.DynamicPseudoType, parseHCL: true, summary: SummaryLegacyHint,
			detail: "To provide a full type expression, remove the surrounding quotes and give the type expression directly."},
		{src: `list(strin)`, want: cty.DynamicPseudoType, parseHCL: true, summary: "Invalid type specification",
			detail: `The keyword "strin" is not a valid type specification.`},
		{src: `optional(string)`, want: cty.DynamicPseudoType, parseHCL: true, summary: "Invalid type specification",
			detail: `Keyword "optional" is valid only as a modifier for object type attributes.`},
		{src: `object({x = optional(number, "nope")})`, want: cty.DynamicPseudoType, parseHCL: true,
			summary: "Invalid default value for optional attribute",
			detail:  "This default value is not compatible with the attribute's type constraint: a number is required."},
		{src: `map(object({x = object({y = optional(number, "nope")})}))`, want: cty.DynamicPseudoType, parseHCL: true,
			summary: "Invalid default value for optional attribute"},
		{src: `object({x = optional(string, "a", "b")})`, want: cty.DynamicPseudoType, parseHCL: true, summary: "Invalid type specification",
			detail: "Optional attribute modifier expects at most two arguments: the attribute type, and a default value."},
		// JSON strings hold type expressions, so quoting is the only way to write them.
		{src: `"string"`, json: true, want: cty.String},
		{src: `"map(number)"`, json: true, want: cty.Map(cty.Number), parseHCL: true},
		{src: `"list"`, json: true, want: cty.List(cty.DynamicPseudoType), parseHCL: true},
	}
	for _, tc := range tests {
		name := tc.src
		if tc.json {
			name = "json:" + name
		}
		t.Run(name, func(t *testing.T) {
			var expr hcl.Expression
			if tc.json {
				var diags hcl.Diagnostics
				expr, diags = json.ParseExpression([]byte(tc.src), "t.tf.json")
				if diags.HasErrors() {
					t.Fatal(diags)
				}
			} else {
				expr = parseNative(t, tc.src)
			}
			ty, defaults, parseHCL, diags := TypeConstraint(expr)
			if !ty.Equals(tc.want) {
				t.Errorf("type = %#v, want %#v", ty, tc.want)
			}
			if parseHCL != tc.parseHCL {
				t.Errorf("parseHCL = %v, want %v", parseHCL, tc.parseHCL)
			}
			if (defaults != nil) != tc.defaults {
				t.Errorf("defaults = %v, want present=%v", defaults, tc.defaults)
			}
			if tc.summary == "" {
				if len(diags) != 0 {
					t.Fatalf("unexpected diagnostics: %s", diags)
				}
				return
			}
			if len(diags) != 1 {
				t.Fatalf("want 1 diagnostic, got %s", diags)
			}
			d := diags[0]
			if d.Summary != tc.summary {
				t.Errorf("summary = %q, want %q", d.Summary, tc.summary)
			}
			if tc.detail != "" && d.Detail != tc.detail {
				t.Errorf("detail = %q, want %q", d.Detail, tc.detail)
			}
			if d.Subject == nil || d.Subject.Filename == "" {
				t.Errorf("diagnostic without source range")
			}
		})
	}
}
