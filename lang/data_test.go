package lang

import (
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/tfeval/tfeval/marks"
)

// resourceValue returns the planned value of the resource instance at addr.
func resourceValue(t *testing.T, res *Result, addr string) cty.Value {
	t.Helper()
	for _, r := range res.Resources {
		if r.Addr == addr {
			return r.Value
		}
	}
	t.Fatalf("no resource instance %s", addr)
	return cty.NilVal
}

// TestDataSourceReads: a data source Terraform reads while planning has
// its unset attributes unknown and marked as unread; one Terraform defers
// to apply keeps plain unknowns, as Terraform's own plan shows them.
func TestDataSourceReads(t *testing.T) {
	files := map[string]string{"main.tf": `
resource "terraform_data" "trigger" {
  input = "go"
}
data "aws_ami" "known" {
  owners = ["self"]
}
data "aws_ami" "after_managed" {
  owners     = ["self"]
  depends_on = [terraform_data.trigger]
}
data "aws_ami" "unknown_config" {
  owners = [terraform_data.trigger.id]
}
data "aws_ami" "after_unread" {
  owners = [data.aws_ami.known.owner_id]
}
module "m" {
  source     = "./m"
  depends_on = [terraform_data.trigger]
}
output "known" { value = data.aws_ami.known.id }
output "after_managed" { value = data.aws_ami.after_managed.id }
output "unknown_config" { value = data.aws_ami.unknown_config.id }
output "after_unread" { value = data.aws_ami.after_unread.id }
output "owners" { value = data.aws_ami.known.owners }
output "in_module" { value = module.m.id }`,
		"m/main.tf": `
data "aws_region" "r" {}
output "id" { value = data.aws_region.r.id }`}
	res, diags := evalFiles(t, files, Options{Schemas: amiSchema(t)})
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	outs := res.Root().Outputs
	for name, want := range map[string][]marks.Unread{
		"known":          {{Cause: marks.DataNotRead, Addr: "data.aws_ami.known"}},
		"after_managed":  nil,
		"unknown_config": nil,
		"after_unread":   {{Cause: marks.DataNotRead, Addr: "data.aws_ami.after_unread"}, {Cause: marks.DataNotRead, Addr: "data.aws_ami.known"}},
		"in_module":      nil,
	} {
		v := outs[name]
		if v.IsKnown() {
			t.Errorf("%s = %#v, want unknown", name, v)
			continue
		}
		if got := marks.UnreadMarks(v); !sameUnread(got, want) {
			t.Errorf("%s marks = %v, want %v", name, got, want)
		}
	}
	if got := outs["owners"]; !got.RawEquals(cty.ListVal([]cty.Value{cty.StringVal("self")})) {
		t.Errorf("a configured argument is known: owners = %#v", got)
	}
}

// ResourceInstance.Read says when Terraform reads each data source
// instance, and whether tfeval had its result.
func TestDataSourceReadWhen(t *testing.T) {
	files := map[string]string{"main.tf": `
resource "terraform_data" "trigger" {
  input = "go"
}
data "aws_ami" "known" {
  owners = ["self"]
}
data "aws_ami" "given" {
  owners = ["self"]
}
data "aws_ami" "after_managed" {
  owners     = ["self"]
  depends_on = [terraform_data.trigger]
}
data "aws_ami" "unknown_config" {
  owners = [terraform_data.trigger.id]
}
data "aws_ami" "after_unread" {
  owners = [data.aws_ami.known.owner_id]
}
module "m" {
  source     = "./m"
  depends_on = [terraform_data.trigger]
}`,
		"m/main.tf": `data "aws_region" "r" {}`}
	res, diags := evalFiles(t, files, Options{Schemas: amiSchema(t), DataSources: map[string]cty.Value{
		"data.aws_ami.given": cty.ObjectVal(map[string]cty.Value{"id": cty.StringVal("ami-1")}),
	}})
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	want := map[string]DataRead{
		"terraform_data.trigger":      DataReadNone,
		"data.aws_ami.known":          DataReadUnknown,
		"data.aws_ami.given":          DataReadPlan,
		"data.aws_ami.after_managed":  DataReadApplyDependency,
		"data.aws_ami.unknown_config": DataReadApplyConfigUnknown,
		"data.aws_ami.after_unread":   DataReadUnknown,
		"module.m.data.aws_region.r":  DataReadApplyDependency,
	}
	for _, ri := range res.Resources {
		if w, ok := want[ri.Addr]; !ok || ri.Read != w {
			t.Errorf("%s: Read = %d, want %d", ri.Addr, ri.Read, w)
		}
	}
	if len(res.Resources) != len(want) {
		t.Errorf("%d instances, want %d", len(res.Resources), len(want))
	}
}

func sameUnread(a, b []marks.Unread) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// amiSchema is a small provider schema with data sources aws_ami and aws_region.
func amiSchema(t *testing.T) *ProviderSchemas {
	t.Helper()
	s, err := ParseProviderSchemas([]byte(`{"format_version":"1.0","provider_schemas":{"registry.terraform.io/hashicorp/aws":{
 "data_source_schemas":{
  "aws_ami":{"block":{"attributes":{
   "id":{"type":"string","computed":true},
   "owner_id":{"type":"string","computed":true},
   "owners":{"type":["list","string"],"optional":true},
   "tags":{"type":["map","string"],"computed":true},
   "secret":{"type":"string","computed":true,"sensitive":true}}}},
  "aws_region":{"block":{"attributes":{"id":{"type":"string","computed":true},"name":{"type":"string","optional":true,"computed":true}}}}}}}}`))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestDataSourceResults: results given for data sources are used as
// though read, found by instance address, by module-qualified address and
// by the address without instance keys, converted to the schema's types.
func TestDataSourceResults(t *testing.T) {
	files := map[string]string{"main.tf": `
data "aws_ami" "one" {
  owners = ["self"]
}
data "aws_ami" "each" {
  for_each = toset(["a", "b"])
  owners   = [each.key]
}
module "m" {
  source = "./m"
  count  = 2
}
output "one" { value = data.aws_ami.one.id }
output "a" { value = data.aws_ami.each["a"].id }
output "b" { value = data.aws_ami.each["b"].id }
output "regions" { value = module.m[*].name }`,
		"m/main.tf": `
data "aws_region" "r" {}
output "name" { value = data.aws_region.r.name }`}
	res, diags := evalFiles(t, files, Options{Schemas: amiSchema(t), DataSources: map[string]cty.Value{
		`data.aws_ami.one`:                    cty.ObjectVal(map[string]cty.Value{"id": cty.StringVal("ami-1"), "secret": cty.StringVal("s")}),
		`data.aws_ami.each["a"]`:              cty.ObjectVal(map[string]cty.Value{"id": cty.StringVal("ami-a")}),
		`data.aws_ami.each`:                   cty.ObjectVal(map[string]cty.Value{"id": cty.StringVal("ami-any")}),
		`module.m.data.aws_region.r`:          cty.ObjectVal(map[string]cty.Value{"name": cty.StringVal("eu-west-1")}),
		`module.m[1].data.aws_region.r`:       cty.ObjectVal(map[string]cty.Value{"name": cty.StringVal("us-east-1")}),
		`module.nothing.data.aws_region.r`:    cty.ObjectVal(map[string]cty.Value{"name": cty.StringVal("x")}),
		`data.aws_ami.one["no such key"]`:     cty.ObjectVal(map[string]cty.Value{"id": cty.StringVal("x")}),
		`data.aws_ami.each  [ "b" ]  `:        cty.ObjectVal(map[string]cty.Value{"id": cty.StringVal("ami-b")}),
		`data.aws_ami.each["c"]`:              cty.ObjectVal(map[string]cty.Value{"id": cty.StringVal("ami-c")}),
		`module.m[0].module.x.data.aws_ami.z`: cty.ObjectVal(map[string]cty.Value{"id": cty.StringVal("z")}),
	}})
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	outs := res.Root().Outputs
	for name, want := range map[string]cty.Value{
		"one":     cty.StringVal("ami-1"),
		"a":       cty.StringVal("ami-a"),
		"b":       cty.StringVal("ami-b"),
		"regions": cty.TupleVal([]cty.Value{cty.StringVal("eu-west-1"), cty.StringVal("us-east-1")}),
	} {
		if got := outs[name]; !got.RawEquals(want) {
			t.Errorf("%s = %#v, want %#v", name, got, want)
		}
	}
	if got := resourceValue(t, res, "data.aws_ami.one").GetAttr("secret"); !got.HasMark(marks.Sensitive) {
		t.Errorf("a sensitive attribute given in a result is still sensitive: %#v", got)
	}
	// The owner_id the result leaves out is unknown, as unread.
	if v := resourceValue(t, res, "data.aws_ami.one").GetAttr("owner_id"); v.IsKnown() || len(marks.UnreadMarks(v)) == 0 {
		t.Errorf("owner_id = %#v, want unknown and unread", v)
	}
	var unused []string
	for _, d := range diags {
		if d.Summary == "Data source result not used" {
			unused = append(unused, d.Detail)
		}
	}
	if len(unused) != 5 {
		t.Errorf("want five warnings about unused results, got %d: %v", len(unused), unused)
	}
	// data.aws_ami.each: both instances have results of their own.
	for _, addr := range []string{"data.aws_ami.each ", "module.nothing.data.aws_region.r", `data.aws_ami.one["no such key"]`, `data.aws_ami.each["c"]`, "module.m[0].module.x.data.aws_ami.z"} {
		if !strings.Contains(strings.Join(unused, "\n"), addr) {
			t.Errorf("no warning names %s: %v", addr, unused)
		}
	}
}

// TestDataSourceResultErrors: a result that is not an object, an address
// that is not a data source's, and an attribute the schema does not have
// or of the wrong type are errors with the range the address was given at.
func TestDataSourceResultErrors(t *testing.T) {
	rng := hcl.Range{Filename: "data.json", Start: hcl.Pos{Line: 2, Column: 3, Byte: 4}, End: hcl.Pos{Line: 2, Column: 10, Byte: 11}}
	files := map[string]string{"main.tf": `
data "aws_ami" "one" {}
data "aws_ami" "two" {}`}
	values := map[string]cty.Value{
		"aws_instance.x":   cty.ObjectVal(map[string]cty.Value{"id": cty.StringVal("i")}),
		"data.aws_ami":     cty.EmptyObjectVal,
		"data.aws_ami.one": cty.StringVal("ami-1"),
		"data.aws_ami.two": cty.ObjectVal(map[string]cty.Value{"tags": cty.StringVal("not a map"), "nope": cty.True}),
	}
	ranges := map[string]hcl.Range{}
	for k := range values {
		ranges[k] = rng
	}
	_, diags := evalFiles(t, files, Options{Schemas: amiSchema(t), DataSources: values, DataSourceRanges: ranges})
	want := map[string]int{"Invalid data source address": 2, "Invalid data source result": 3}
	got := map[string]int{}
	for _, d := range diags {
		if d.Severity != hcl.DiagError {
			continue
		}
		got[d.Summary]++
		if d.Subject == nil || d.Subject.Filename != "data.json" {
			t.Errorf("%s: no range in the results file: %v", d.Summary, d.Subject)
		}
	}
	for k, n := range want {
		if got[k] != n {
			t.Errorf("%d x %q, want %d (%s)", got[k], k, n, diags.Error())
		}
	}
}

// TestDeferredDataSourceResult: a result given for a data source that
// Terraform reads only during apply is not used, and the warning says why.
func TestDeferredDataSourceResult(t *testing.T) {
	res, diags := evalFiles(t, map[string]string{"main.tf": `
resource "terraform_data" "trigger" {
  input = "go"
}
data "aws_ami" "late" {
  owners     = ["self"]
  depends_on = [terraform_data.trigger]
}`}, Options{Schemas: amiSchema(t), DataSources: map[string]cty.Value{
		"data.aws_ami.late": cty.ObjectVal(map[string]cty.Value{"id": cty.StringVal("ami-1")}),
	}})
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	if v := resourceValue(t, res, "data.aws_ami.late").GetAttr("id"); v.IsKnown() {
		t.Errorf("id = %#v, want unknown as in Terraform's plan", v)
	}
	if len(diags) != 1 || diags[0].Summary != "Data source result not used" || !strings.Contains(diags[0].Detail, "only during apply") {
		t.Errorf("want one warning that the result was not used during plan, got %s", diags.Error())
	}
}

// TestDataSourceResultOverEmptyObject: a result given for a data source
// whose planned object has no attributes (a block without arguments and
// no schema) is laid over it. go-cty v1.20 gives a nil map for such an
// object, and this once crashed evaluation.
func TestDataSourceResultOverEmptyObject(t *testing.T) {
	files := map[string]string{"main.tf": `
data "aws_region" "unused" {}
data "aws_region" "used" {}
output "name" { value = data.aws_region.used.name }`}
	result := cty.ObjectVal(map[string]cty.Value{"name": cty.StringVal("eu-west-1"), "nested": cty.EmptyObjectVal})
	res, diags := evalFiles(t, files, Options{DataSources: map[string]cty.Value{
		"data.aws_region.unused": result,
		"data.aws_region.used":   result,
	}})
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	if got := res.Root().Outputs["name"]; !got.RawEquals(cty.StringVal("eu-west-1")) {
		t.Errorf("name = %#v", got)
	}
	if got := resourceValue(t, res, "data.aws_region.unused"); !got.GetAttr("nested").RawEquals(cty.EmptyObjectVal) {
		t.Errorf("data.aws_region.unused = %#v", got)
	}
}
