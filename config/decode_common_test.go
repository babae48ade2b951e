package config

import (
	"reflect"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/gohcl"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/tfeval/tfeval/dialect"
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

// TestBlockContent holds blockContent to hcl's Content, for bodies it
// builds itself and for those it leaves to hcl.
func TestBlockContent(t *testing.T) {
	schema := &hcl.BodySchema{
		Attributes: []hcl.AttributeSchema{{Name: "type"}, {Name: "default"}, {Name: "needed", Required: true}},
		Blocks:     []hcl.BlockHeaderSchema{{Type: "validation"}, {Type: "labelled", LabelNames: []string{"name"}}},
	}
	for _, src := range []string{
		`needed = 1`,
		"needed = 1\ntype = string\ndefault = null\nvalidation {\n  x = 1\n}\nvalidation {}\nlabelled \"a\" {}\n",
		"default = 1\n",                     // a required argument missing
		"needed = 1\nother = 2\n",           // an argument not taken
		"needed = 1\ntyp = string\n",        // with a suggestion
		"needed = 1\nunknown {}\n",          // a block type not taken
		"needed = 1\nvalidation \"x\" {}\n", // an extra label
		"needed = 1\nlabelled {}\n",         // a missing label
	} {
		f, diags := hclsyntax.ParseConfig([]byte(src), "t.tf", hcl.InitialPos)
		if diags.HasErrors() {
			t.Fatalf("%q: %s", src, diags.Error())
		}
		got, gotDiags := blockContent(f.Body, schema)
		want, wantDiags := f.Body.Content(schema)
		gotAttrs := hcl.Attributes{}
		for _, as := range schema.Attributes {
			if a, ok := got.attribute(as.Name); ok {
				gotAttrs[as.Name] = a
			}
		}
		if !reflect.DeepEqual(gotAttrs, want.Attributes) || !reflect.DeepEqual(got.Blocks, want.Blocks) || gotDiags.Error() != wantDiags.Error() {
			t.Errorf("%q:\ngot  %#v %#v %v\nwant %#v %v", src, gotAttrs, got.Blocks, gotDiags, want, wantDiags)
		}
	}
}

// TestFileContent holds the content decodeFile reads a file's top-level
// blocks with to hcl's Content of the file schema.
func TestFileContent(t *testing.T) {
	for _, src := range []string{
		``,
		"variable \"a\" {}\nresource \"x\" \"y\" {\n  z = 1\n}\nlocals {\n  l = 1\n}\nmodule \"m\" {\n  source = \"./m\"\n}\noutput \"o\" {\n  value = 1\n}\nterraform {}\n",
		"a = 1\nvariable \"a\" {}\n",    // an argument at the top
		"variable {}\n",                 // a missing label
		"resource \"x\" {}\n",           // a missing label
		"locals \"x\" {}\n",             // an extra label
		"unknown {}\nvariable \"a\" {}", // a block type not taken
	} {
		f, diags := hclsyntax.ParseConfig([]byte(src), "t.tf", hcl.InitialPos)
		if diags.HasErrors() {
			t.Fatalf("%q: %s", src, diags.Error())
		}
		for _, d := range []dialect.Dialect{dialect.Terraform, dialect.Tofu} {
			got, gotDiags := blockContent(f.Body, fileSchema(d))
			want, wantDiags := f.Body.Content(fileSchema(d))
			if len(got.attrs) != 0 || !reflect.DeepEqual(got.Blocks, want.Blocks) || gotDiags.Error() != wantDiags.Error() {
				t.Errorf("%q:\ngot  %#v %v\nwant %#v %v", src, got.Blocks, gotDiags, want.Blocks, wantDiags)
			}
		}
	}
}
