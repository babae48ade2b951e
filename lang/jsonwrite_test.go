package lang

import (
	"bytes"
	"encoding/json"
	"math/big"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/tfeval/tfeval/config"
	"github.com/tfeval/tfeval/marks"
)

// WriteDocument writes exactly what json.MarshalIndent writes for
// Document: values with unknown, null, sensitive and ephemeral parts at
// every depth, in every kind of collection, and numbers encoding/json must
// check itself.
func TestWriteDocument(t *testing.T) {
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
	res := &Result{}
	for i, v := range values {
		mode := config.ManagedResourceMode
		if i%2 == 1 {
			mode = config.DataResourceMode
		}
		res.Resources = append(res.Resources, &ResourceInstance{Addr: "t.n" + string(rune('a'+i)), Mode: mode, Type: "t", Name: "n<" + string(rune('a'+i)), Value: v})
	}
	diags := hcl.Diagnostics{{Severity: hcl.DiagWarning, Summary: "w", Detail: "<d>", Subject: &hcl.Range{Filename: "main.tf"}}}
	for name, r := range map[string]*Result{"crafted": res, "nil": nil, "empty": {}} {
		want, err := json.MarshalIndent(r.Document(diags), "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		var got bytes.Buffer
		if err := r.WriteDocument(&got, diags); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if got.String() != string(want) {
			t.Errorf("%s: WriteDocument differs from MarshalIndent of Document:\n%s\nwant\n%s", name, got.String(), want)
		}
	}
}

// A number encoding/json would refuse (infinity) is left to the
// document's path, and so refused the same way.
func TestWriteDocumentInfinity(t *testing.T) {
	res := &Result{Resources: []*ResourceInstance{{Addr: "t.n", Type: "t", Name: "n", Value: cty.ObjectVal(map[string]cty.Value{"x": cty.PositiveInfinity})}}}
	var doc bytes.Buffer
	wantErr := res.Document(nil).WriteIndented(&doc)
	if wantErr == nil {
		t.Fatal("WriteIndented wrote infinity")
	}
	var got bytes.Buffer
	if err := res.WriteDocument(&got, nil); err == nil || err.Error() != wantErr.Error() {
		t.Errorf("WriteDocument: error %v, want %v", err, wantErr)
	}
	if _, ok := new(documentWriter).known(nil, cty.NumberIntVal(7), 1); !ok {
		t.Error("a small integer fell back")
	}
}

// PlanJSON is json.MarshalIndent of Document(nil).
func TestPlanJSON(t *testing.T) {
	res, diags := evalFiles(t, map[string]string{"main.tf": `
resource "terraform_data" "a" {
  for_each = { x = 1, y = 2 }
  input    = { k = each.key, v = each.value, s = sensitive("z") }
}
output "o" {
  value     = terraform_data.a["x"].input
  sensitive = true
}
`}, Options{})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	want, err := json.MarshalIndent(res.Document(nil), "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	got, err := res.PlanJSON()
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(want) {
		t.Errorf("PlanJSON:\n%s\nwant\n%s", got, want)
	}
}

// TestWriteDocumentOutputs: outputs written from their values are what
// MarshalIndent writes for Document's, whatever their shape.
func TestWriteDocumentOutputs(t *testing.T) {
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
`}, Options{})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	want, err := json.MarshalIndent(res.Document(nil), "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	var got bytes.Buffer
	if err := res.WriteDocument(&got, nil); err != nil {
		t.Fatal(err)
	}
	if got.String() != string(want) {
		t.Errorf("WriteDocument:\n%s\nwant\n%s", got.String(), want)
	}
}
