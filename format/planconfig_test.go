package format

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/tfeval/tfeval/dialect"
)

// An expression is described by what it refers to, each reference followed
// by the shorter ones down to the object it names and then the object
// containing that one, and by its value when it has one without them.
func TestExpression(t *testing.T) {
	for _, tc := range []struct {
		src  string
		d    dialect.Dialect
		want string
	}{
		{`"abc"`, dialect.Terraform, `{"constant_value":"abc"}`},
		{`{ a = 1, b = [true, null] }`, dialect.Terraform, `{"constant_value":{"a":1,"b":[true,null]}}`},
		{`null`, dialect.Terraform, `{"constant_value":null}`},
		{`toset(["a"])`, dialect.Terraform, `{}`},
		{`var.a`, dialect.Terraform, `{"references":["var.a"]}`},
		{`var.a.b["c"]`, dialect.Terraform, `{"references":["var.a.b[\"c\"]","var.a.b","var.a"]}`},
		{`var.list[count.index]`, dialect.Terraform, `{"references":["var.list","count.index"]}`},
		{`each.value.az`, dialect.Terraform, `{"references":["each.value.az","each.value"]}`},
		{`terraform_data.x.input.tags`, dialect.Terraform, `{"references":["terraform_data.x.input.tags","terraform_data.x.input","terraform_data.x"]}`},
		{`terraform_data.x[0].id`, dialect.Terraform, `{"references":["terraform_data.x[0].id","terraform_data.x[0]","terraform_data.x"]}`},
		{`terraform_data.x[*].id`, dialect.Terraform, `{"references":["terraform_data.x"]}`},
		{`data.d.k["a"].v`, dialect.Terraform, `{"references":["data.d.k[\"a\"].v","data.d.k[\"a\"]","data.d.k"]}`},
		{`module.m.out`, dialect.Terraform, `{"references":["module.m.out","module.m"]}`},
		{`module.m[1].out.x`, dialect.Terraform, `{"references":["module.m[1].out.x","module.m[1].out","module.m[1]"]}`},
		{`[for s in local.l : upper(s)]`, dialect.Terraform, `{"references":["local.l"]}`},
		{`true || local.x == "y"`, dialect.Terraform, `{"constant_value":true,"references":["local.x"]}`},
		{`provider::mock::upper(local.x)`, dialect.Terraform, `{"references":["local.x"]}`},
		{`provider::mock::upper(local.x)`, dialect.Tofu, `{"references":["local.x","provider::mock::upper"]}`},
	} {
		expr, diags := hclsyntax.ParseExpression([]byte(tc.src), "test.tf", hcl.InitialPos)
		if diags.HasErrors() {
			t.Fatalf("%s: %s", tc.src, diags.Error())
		}
		w := &configWriter{d: tc.d}
		b, _ := json.Marshal(w.expression(expr))
		if string(b) != tc.want {
			t.Errorf("%s (%s): %s, want %s", tc.src, tc.d, b, tc.want)
		}
	}
}

// A provider's full name has the dialect's registry host when its source
// has none; the built-in provider has its own.
func TestProviderFullName(t *testing.T) {
	for _, tc := range []struct {
		local string
		d     dialect.Dialect
		want  string
	}{
		{"terraform", dialect.Terraform, "terraform.io/builtin/terraform"},
		{"aws", dialect.Terraform, "registry.terraform.io/hashicorp/aws"},
		{"aws", dialect.Tofu, "registry.opentofu.org/hashicorp/aws"},
	} {
		if got := providerFullName(nil, tc.local, tc.d); got != tc.want {
			t.Errorf("%s (%s): %s, want %s", tc.local, tc.d, got, tc.want)
		}
	}
}

// Module instance addresses split at their calls, keys with dots included.
func TestSplitModuleAddr(t *testing.T) {
	for addr, want := range map[string]string{
		"":                            "[]",
		"module.a":                    "[module.a]",
		`module.a["x.y"].module.b[0]`: `[module.a["x.y"] module.b[0]]`,
		`module.a["q\"]"].module.b`:   `[module.a["q\"]"] module.b]`,
	} {
		if got := fmt.Sprint(splitModuleAddr(addr)); got != want {
			t.Errorf("%q: %s, want %s", addr, got, want)
		}
	}
	if got := parentModule(`module.a["x"].module.b`); got != `module.a["x"]` {
		t.Errorf("parent %q", got)
	}
}
