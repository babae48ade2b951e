package tfeval_test

import (
	"fmt"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/tfeval/tfeval"
	"github.com/tfeval/tfeval/funcs"
	"github.com/tfeval/tfeval/lang"

	"github.com/tfeval/tfeval/internal/testfiles"
)

// TestDataResultErasure: evaluating without the data source results that
// an evaluation was given reports no error the evaluation with them did
// not, and every value it reports as known equals the one the results
// gave: without them, what the results decide is unknown, never a guess.
func TestDataResultErasure(t *testing.T) {
	for name, tc := range map[string]struct {
		files map[string]string
		data  map[string]cty.Value
	}{
		"counts, for_each, templates and conditions": {map[string]string{"main.tf": `
data "aws_availability_zones" "az" {
  state = "available"
}
data "aws_caller_identity" "me" {}
locals {
  zones   = data.aws_availability_zones.az.names
  account = data.aws_caller_identity.me.account_id
  prefix  = "acct-${local.account}"
}
resource "aws_subnet" "s" {
  count             = length(local.zones)
  availability_zone = local.zones[count.index]
  cidr_block        = cidrsubnet("10.0.0.0/16", 8, count.index)
  tags              = { Name = "${local.prefix}-${count.index}", Fixed = "yes" }
}
resource "aws_route_table" "rt" {
  for_each = toset(local.zones)
  vpc_id   = "vpc-1"
  tags     = { Zone = each.key }
  lifecycle {
    precondition {
      condition     = length(local.account) == 3
      error_message = "bad account"
    }
  }
}
module "per_zone" {
  source   = "./m"
  for_each = toset(local.zones)
  zone     = each.key
}
output "first_zone" { value = try(local.zones[0], "none") }
output "count" { value = length(aws_subnet.s) }
output "names" { value = [for s in aws_subnet.s : s.tags.Name] }
output "fixed" { value = "fixed" }`, "m/main.tf": `
variable "zone" {}
resource "aws_eip" "e" {
  tags = { Zone = var.zone }
}
output "zone" { value = var.zone }`},
			map[string]cty.Value{
				"data.aws_availability_zones.az": cty.ObjectVal(map[string]cty.Value{"names": cty.ListVal([]cty.Value{cty.StringVal("a"), cty.StringVal("b")})}),
				"data.aws_caller_identity.me":    cty.ObjectVal(map[string]cty.Value{"account_id": cty.StringVal("123")}),
			}},
		"data sources in modules, by instance": {map[string]string{"main.tf": `
module "env" {
  source   = "./env"
  for_each = toset(["dev", "prod"])
  name     = each.key
}
output "ids" { value = { for k, m in module.env : k => m.ami } }`, "env/main.tf": `
variable "name" {}
data "aws_ami" "image" {
  filter {
    name   = "tag:Env"
    values = [var.name]
  }
}
resource "aws_instance" "web" {
  count = data.aws_ami.image.architecture == "arm64" ? 2 : 1
  ami   = data.aws_ami.image.id
}
output "ami" { value = data.aws_ami.image.id }`},
			map[string]cty.Value{
				`module.env["dev"].data.aws_ami.image`: cty.ObjectVal(map[string]cty.Value{"id": cty.StringVal("ami-dev"), "architecture": cty.StringVal("arm64")}),
				`module.env.data.aws_ami.image`:        cty.ObjectVal(map[string]cty.Value{"id": cty.StringVal("ami-other"), "architecture": cty.StringVal("x86_64")}),
			}},
	} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			testfiles.Write(t, dir, tc.files)
			full := tfeval.Evaluate(tfeval.Options{WorkDir: dir, DataSources: tc.data})
			if len(full.Diagnostics) > 0 {
				t.Fatalf("with the results: %s", full.Diagnostics.Error())
			}
			erased := tfeval.Evaluate(tfeval.Options{WorkDir: dir})
			for _, d := range erased.Diagnostics {
				if d.Severity == hcl.DiagError {
					t.Errorf("error without the results: %s", d.Error())
				}
			}
			fullOut := map[string]cty.Value{}
			for _, o := range full.Outputs() {
				fullOut[o.Name] = o.Value
			}
			for _, o := range erased.Outputs() {
				for _, p := range knownSubset("output."+o.Name, o.Value, fullOut[o.Name]) {
					t.Error(p)
				}
			}
			fullRes := map[string]cty.Value{}
			for _, r := range full.Resources() {
				fullRes[r.Addr] = r.Value
			}
			placeholders := 0
			for _, r := range erased.Resources() {
				if r.Placeholder {
					placeholders++
					continue
				}
				fv, ok := fullRes[r.Addr]
				if !ok {
					t.Errorf("instance %s, which the evaluation with the results does not have", r.Addr)
					continue
				}
				for _, p := range knownSubset(r.Addr, r.Value, fv) {
					t.Error(p)
				}
			}
			if placeholders == 0 {
				t.Error("no placeholder without the results")
			}
		})
	}
}

// knownSubset lists where a known part of got differs from want.
func knownSubset(path string, got, want cty.Value) []string {
	got, _ = got.Unmark()
	want, _ = want.Unmark()
	if !got.IsKnown() {
		return nil
	}
	if !want.IsKnown() {
		return []string{fmt.Sprintf("%s: known %#v, unknown with the results", path, got)}
	}
	if got.IsNull() || want.IsNull() || !(got.Type().IsObjectType() || got.Type().IsMapType() || got.Type().IsTupleType() || got.Type().IsListType()) {
		if !got.RawEquals(want) {
			return []string{fmt.Sprintf("%s = %#v, %#v with the results", path, got, want)}
		}
		return nil
	}
	var out []string
	wt := want.Type()
	for it := got.ElementIterator(); it.Next(); {
		k, v := it.Element()
		var w cty.Value
		switch {
		case k.Type() == cty.String && wt.IsObjectType() && wt.HasAttribute(k.AsString()):
			w = want.GetAttr(k.AsString())
		case k.Type() == cty.String && wt.IsMapType() && want.HasIndex(k).True():
			w = want.Index(k)
		case k.Type() == cty.Number && (wt.IsTupleType() || wt.IsListType()) && want.HasIndex(k).True():
			w = want.Index(k)
		default:
			out = append(out, fmt.Sprintf("%s[%#v]: not there with the results", path, k))
			continue
		}
		out = append(out, knownSubset(fmt.Sprintf("%s[%#v]", path, k), v, w)...)
	}
	return out
}

// FuzzDataResults evaluates a module given any text as its -data file:
// the document is used, or refused with a diagnostic in the file (within
// the limits on documents, however deep or large), never a panic; and a
// result that is used is what the evaluation shows for its data source.
func FuzzDataResults(f *testing.F) {
	for _, doc := range []string{
		`{"data.aws_region.r": {"name": "eu-west-1", "tags": {}, "list": [1, "a", null]}}`,
		`{"data.aws_region.r": {}}`,
		`{"data.aws_region.r": "not an object"}`,
		`{"data.aws_region.r": {"a": [[[[[[[[[[]]]]]]]]]]}}`,
		`{"data.aws_region.r": {"n": 1e400}}`,
		`{"data.nope.x": {}, "resource.x": {}}`,
		`[1, 2, 3]`,
		`{"data.aws_region.r": {"é": 1, "é": 2}}`,
		`{"data.aws_region.r": {"a": 1}, "data.aws_region.r": {"a": "x"}}`,
	} {
		f.Add(doc)
	}
	f.Fuzz(func(t *testing.T, doc string) {
		files := fstest.MapFS{
			"main.tf":   {Data: []byte(`data "aws_region" "r" {}` + "\n" + `output "o" { value = data.aws_region.r }`)},
			"data.json": {Data: []byte(doc)},
		}
		ev := tfeval.Evaluate(tfeval.Options{FS: files, DataFiles: []string{"data.json"}, Limits: lang.Limits{MaxNesting: 50, MaxElements: 1000}})
		for _, d := range ev.Diagnostics {
			if strings.Contains(d.Summary, "Evaluation failed") {
				t.Fatalf("a panic was caught: %s", d.Detail)
			}
			if d.Severity == hcl.DiagError && (d.Subject == nil || d.Subject.Filename != "data.json") {
				t.Fatalf("error without a place in the file: %s: %s", d.Summary, d.Detail)
			}
		}
		if ev.HasErrors() {
			return
		}
		want, err := funcs.DecodeJSON(doc, funcs.Limits{})
		if err != nil || !want.Type().IsObjectType() || !want.Type().HasAttribute("data.aws_region.r") {
			return
		}
		out, _ := ev.Output("o")
		given := want.GetAttr("data.aws_region.r")
		for it := given.ElementIterator(); it.Next(); {
			k, v := it.Element()
			if got := out.Value.GetAttr(k.AsString()); !got.RawEquals(v) {
				t.Fatalf("%s = %#v, the file gives %#v", k.AsString(), got, v)
			}
		}
	})
}
