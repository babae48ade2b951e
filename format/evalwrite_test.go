package format

import (
	"bytes"
	"encoding/json"
	"math/big"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/tfeval/tfeval/config"
	"github.com/tfeval/tfeval/lang"
	"github.com/tfeval/tfeval/marks"
)

// WriteEval writes exactly what json.MarshalIndent writes for
// NewEvalDocument: values with unknown, null, sensitive and ephemeral parts at
// every depth, in every kind of collection, and numbers encoding/json must
// check itself.
func TestWriteEval(t *testing.T) {
	s := func(v cty.Value) cty.Value { return v.Mark(marks.Sensitive) }
	obj := func(m map[string]cty.Value) cty.Value { return cty.ObjectVal(m) }
	huge, _, _ := big.ParseFloat("1e400", 10, 512, big.ToNearestEven)
	values := []cty.Value{
		cty.EmptyObjectVal,
		cty.NullVal(cty.DynamicPseudoType),
		cty.DynamicVal,
		s(cty.DynamicVal),
		cty.UnknownVal(cty.Object(map[string]cty.Type{"a": cty.String})),
		s(cty.UnknownVal(cty.List(cty.String))),
		obj(map[string]cty.Value{
			"id":       cty.UnknownVal(cty.String).RefineNotNull(),
			"name":     cty.StringVal(`<a href="x">&é` + "\t\u2028"),
			"n":        cty.NumberIntVal(-42),
			"f":        cty.NumberFloatVal(0.125),
			"big":      cty.NumberVal(huge),
			"t":        cty.True,
			"null":     cty.NullVal(cty.String),
			"nulllist": cty.NullVal(cty.List(cty.String)),
			"secret":   s(cty.StringVal("x")),
			"eph":      cty.StringVal("e").Mark(marks.Ephemeral),
			"":         cty.EmptyTupleVal,
			"Z":        cty.ListValEmpty(cty.Number),
			"list": cty.ListVal([]cty.Value{
				cty.StringVal("a"), cty.UnknownVal(cty.String), s(cty.StringVal("b")), cty.NullVal(cty.String),
			}),
			"unknownlist": cty.UnknownVal(cty.List(cty.String)),
			"unknownmap":  cty.UnknownVal(cty.Map(cty.String)),
			"set": cty.SetVal([]cty.Value{
				obj(map[string]cty.Value{"port": cty.NumberIntVal(443), "proto": cty.StringVal("tcp")}),
				obj(map[string]cty.Value{"port": cty.NumberIntVal(80), "proto": cty.UnknownVal(cty.String)}),
			}),
			"map": cty.MapVal(map[string]cty.Value{
				"b": cty.StringVal("2"), "a": cty.UnknownVal(cty.String), "c": s(cty.StringVal("3")),
			}),
			"sensitivemap": s(cty.MapVal(map[string]cty.Value{"k": cty.StringVal("v")})),
			"tuple": cty.TupleVal([]cty.Value{
				cty.EmptyObjectVal,
				obj(map[string]cty.Value{"deep": obj(map[string]cty.Value{"x": s(cty.UnknownVal(cty.Number)), "y": cty.ListValEmpty(cty.String)})}),
				cty.MapValEmpty(cty.String),
				s(cty.TupleVal([]cty.Value{cty.True})),
			}),
		}),
		s(obj(map[string]cty.Value{"a": cty.StringVal("b")})),
		obj(map[string]cty.Value{"only_unknown": cty.UnknownVal(cty.Bool)}),
	}
	res := &lang.Result{}
	for i, v := range values {
		mode := config.ManagedResourceMode
		if i%2 == 1 {
			mode = config.DataResourceMode
		}
		res.Resources = append(res.Resources, &lang.ResourceInstance{Addr: "t.n" + string(rune('a'+i)), Mode: mode, Type: "t", Name: "n<" + string(rune('a'+i)), Value: v})
	}
	diags := hcl.Diagnostics{{Severity: hcl.DiagWarning, Summary: "w", Detail: "<d>", Subject: &hcl.Range{Filename: "main.tf"}}}
	for name, r := range map[string]*lang.Result{"crafted": res, "nil": nil, "empty": {}} {
		want, err := json.MarshalIndent(NewEvalDocument(r, diags), "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		var got bytes.Buffer
		if err := WriteEval(&got, r, diags); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if got.String() != string(want) {
			t.Errorf("%s: WriteEval differs from MarshalIndent of NewEvalDocument:\n%s\nwant\n%s", name, got.String(), want)
		}
	}
}

// A number encoding/json would refuse (infinity) is left to the
// document's path, and so refused the same way.
func TestWriteEvalInfinity(t *testing.T) {
	res := &lang.Result{Resources: []*lang.ResourceInstance{{Addr: "t.n", Type: "t", Name: "n", Value: cty.ObjectVal(map[string]cty.Value{"x": cty.PositiveInfinity})}}}
	var doc bytes.Buffer
	wantErr := NewEvalDocument(res, nil).WriteIndented(&doc)
	if wantErr == nil {
		t.Fatal("WriteIndented wrote infinity")
	}
	var got bytes.Buffer
	if err := WriteEval(&got, res, nil); err == nil || err.Error() != wantErr.Error() {
		t.Errorf("WriteEval: error %v, want %v", err, wantErr)
	}
	if _, ok := new(documentWriter).known(nil, cty.NumberIntVal(7), 1); !ok {
		t.Error("a small integer fell back")
	}
}

// TestWriteEvalOutputs: outputs written from their values are what
// MarshalIndent writes for NewEvalDocument's, whatever their shape.
func TestWriteEvalOutputs(t *testing.T) {
	res, diags := evalFiles(t, map[string]string{"main.tf": `
variable "u" {
  type    = string
  default = null
}
resource "terraform_data" "r" { input = "x" }
output "str" { value = "<a & b>\n" }
output "num" { value = 12345678901234567890.125 }
output "nested" { value = { b = [1, 2, { c = true }], a = tomap({ x = "1", y = "2" }), s = toset(["q", "p"]) } }
output "with_null" { value = { d = null, e = [] } }
output "null" { value = var.u }
output "unknown" { value = terraform_data.r.id }
output "partly" { value = { known = 1, unknown = terraform_data.r.id } }
output "secret" {
  value     = "s"
  sensitive = true
}
`})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	want, err := json.MarshalIndent(NewEvalDocument(res, nil), "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	var got bytes.Buffer
	if err := WriteEval(&got, res, nil); err != nil {
		t.Fatal(err)
	}
	if got.String() != string(want) {
		t.Errorf("WriteEval:\n%s\nwant\n%s", got.String(), want)
	}
}
