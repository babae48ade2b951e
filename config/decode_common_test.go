package config

import (
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/gohcl"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// TestLiteralString holds the shortcut for quoted strings to what gohcl
// decodes, for strings and for what is not one.
func TestLiteralString(t *testing.T) {
	for _, src := range []string{
		`"plain"`, `""`, `"caf\u00e9"`, "\"cafe\u0301\"", `"a$${b}"`, `"a%%{b}"`, `"tab\there"`, "<<EOT\nline one\nline two\nEOT\n",
		`"x ${var.y}"`, `"${"inner"}"`, `upper("x")`, `var.x`, `1`, `true`, `null`, `["a"]`,
	} {
		f, diags := hclsyntax.ParseConfig([]byte("a = "+src+"\n"), "t.tf", hcl.InitialPos)
		if diags.HasErrors() {
			t.Fatalf("%s: %s", src, diags.Error())
		}
		attrs, _ := f.Body.JustAttributes()
		attr := attrs["a"]
		got, gotDiags := literalString(attr)
		var want string
		wantDiags := gohcl.DecodeExpression(attr.Expr, nil, &want)
		if got != want || gotDiags.Error() != wantDiags.Error() {
			t.Errorf("%s: got %q %q, gohcl %q %q", src, got, gotDiags.Error(), want, wantDiags.Error())
		}
	}
}
