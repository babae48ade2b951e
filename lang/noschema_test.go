package lang

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hcldec"
	"github.com/zclconf/go-cty/cty"

	"github.com/tfeval/tfeval/marks"
)

// unknownOut stands, in the wanted outputs of TestNoSchemaReads, for an
// output that must be wholly unknown and marked as unread.
var unknownOut = cty.StringVal("\x00unknown")

// TestNoSchemaReads: without a provider schema, an attribute the
// configuration does not set reads as unknown through every way of
// reaching it, and what the configuration sets stays known.
func TestNoSchemaReads(t *testing.T) {
	for name, tc := range map[string]struct {
		src  string
		want map[string]cty.Value
	}{
		"direct reference": {`
resource "aws_vpc" "a" {
  cidr_block = "10.0.0.0/16"
}
output "arn" { value = aws_vpc.a.arn }
output "cidr" { value = aws_vpc.a.cidr_block }`, map[string]cty.Value{"arn": unknownOut, "cidr": cty.StringVal("10.0.0.0/16")}},

		"splats": {`
resource "aws_subnet" "s" {
  count = 2
  name  = "s${count.index}"
}
output "ids" { value = aws_subnet.s[*].id }
output "legacy" { value = aws_subnet.s.*.arn }
output "n" { value = length(aws_subnet.s[*].id) }
output "names" { value = aws_subnet.s[*].name }`, map[string]cty.Value{
			"ids":    unknownTuple(2),
			"legacy": unknownTuple(2),
			"n":      cty.NumberIntVal(2),
			"names":  cty.TupleVal([]cty.Value{cty.StringVal("s0"), cty.StringVal("s1")}),
		}},

		// A provider's schema can nest a block type as a map, its one
		// label the key: the blocks are an object by label, each with
		// what it sets, and what is read but unset is unknown.
		"blocks with a label": {`
variable "extra" {
  default = { b = "two" }
}
resource "testing_assertions" "t" {
  equal "a" {
    got  = 1
    want = null
    note = ""
  }
  equal "c" {
    nested "n" {
      x = true
    }
  }
  dynamic "equal" {
    for_each = var.extra
    labels   = [equal.key]
    content {
      got = equal.value
    }
  }
}
output "got" { value = testing_assertions.t.equal["a"].got }
output "by_attr" { value = testing_assertions.t.equal.b.got }
output "deep" { value = testing_assertions.t.equal.c.nested.n.x }
output "unset" { value = testing_assertions.t.equal.a.result }
output "null_arg" { value = testing_assertions.t.equal.a.want }
output "empty_arg" { value = testing_assertions.t.equal.a.note }
output "keys" { value = keys(testing_assertions.t.equal) }
output "each" { value = [for k, e in testing_assertions.t.equal : e.id] }`, map[string]cty.Value{
			"got":       cty.NumberIntVal(1),
			"by_attr":   cty.StringVal("two"),
			"deep":      cty.True,
			"unset":     unknownOut,
			"null_arg":  unknownOut,
			"empty_arg": unknownOut,
			"keys":      cty.TupleVal([]cty.Value{cty.StringVal("a"), cty.StringVal("b"), cty.StringVal("c")}),
			"each":      unknownTuple(3),
		}},

		// An object for copying each attribute under its own name (an
		// output of the whole object) is the object: what is read from
		// it is read from the resource.
		"for copying a single instance": {`
resource "aws_sns_topic" "t" {
  name = "n"
  tags = { a = "b" }
}
resource "aws_vpc" "v" {
  count = 2
}
locals {
  topic = { for k, v in aws_sns_topic.t : k => v }
  kept  = { for k, v in aws_sns_topic.t : k => v if k != "name" }
  vpcs  = { for i, v in aws_vpc.v : i => v }
}
output "tags_all" { value = local.topic.tags_all.a }
output "arn" { value = local.kept.arn }
output "name" { value = local.topic.name }
output "vpc" { value = local.vpcs["1"].arn }`, map[string]cty.Value{"tags_all": unknownOut, "arn": unknownOut, "name": cty.StringVal("n"), "vpc": unknownOut}},

		"splat of a single instance": {`
resource "aws_eip" "e" {}
output "ips" { value = aws_eip.e[*].public_ip }`, map[string]cty.Value{"ips": unknownTuple(1)}},

		"dynamic index": {`
locals { i = 1 }
resource "aws_subnet" "s" {
  count = 2
}
resource "aws_route" "r" {
  count     = 2
  subnet_id = aws_subnet.s[count.index].id
}
output "by_local" { value = aws_subnet.s[local.i].id }
output "route" { value = aws_route.r[0].subnet_id }`, map[string]cty.Value{"by_local": unknownOut, "route": unknownOut}},

		"each.key index and each.value": {`
resource "aws_subnet" "s" {
  for_each = toset(["a", "b"])
}
resource "aws_route" "r" {
  for_each  = aws_subnet.s
  subnet_id = aws_subnet.s[each.key].id
  vpc_id    = each.value.vpc_id
}
output "route" { value = aws_route.r["a"].subnet_id }
output "vpc" { value = aws_route.r["b"].vpc_id }`, map[string]cty.Value{"route": unknownOut, "vpc": unknownOut}},

		"for over instances, values and one": {`
resource "aws_subnet" "s" {
  for_each = toset(["a", "b"])
  name     = each.key
}
resource "aws_vpc" "single" {
  count = 1
}
output "arns" { value = [for s in aws_subnet.s : s.arn] }
output "names" { value = [for s in aws_subnet.s : s.name] }
output "first" { value = values(aws_subnet.s)[0].owner }
output "one" { value = one(aws_vpc.single[*]).id }
output "by_key" { value = { for k, s in aws_subnet.s : k => s.zone } }`, map[string]cty.Value{
			"arns":   unknownTuple(2),
			"names":  cty.TupleVal([]cty.Value{cty.StringVal("a"), cty.StringVal("b")}),
			"first":  unknownOut,
			"one":    unknownOut,
			"by_key": cty.ObjectVal(map[string]cty.Value{"a": unknownOut, "b": unknownOut}),
		}},

		"nested blocks": {`
resource "aws_instance" "i" {
  root_block_device {
    volume_type = "gp3"
  }
}
output "volume" { value = aws_instance.i.root_block_device[0].volume_id }
output "type" { value = aws_instance.i.root_block_device[0].volume_type }
output "computed_block" { value = aws_instance.i.metadata_options[0].http_tokens }`, map[string]cty.Value{
			"volume":         unknownOut,
			"type":           cty.StringVal("gp3"),
			"computed_block": unknownOut,
		}},

		"dynamic block without elements reads like an absent one": {`
resource "aws_lb" "l" {
  dynamic "subnet_mapping" {
    for_each = []
    content {
      subnet_id = subnet_mapping.value
    }
  }
}
output "n" { value = length(aws_lb.l.subnet_mapping) }
output "absent" { value = length(aws_lb.l.access_logs) }`, map[string]cty.Value{"n": unknownOut, "absent": unknownOut}},

		"dynamic block iterator over a resource": {`
resource "aws_subnet" "s" {
  count = 2
}
resource "aws_lb_listener" "l" {
  dynamic "default_action" {
    for_each = aws_subnet.s
    content {
      type             = "forward"
      target_group_arn = default_action.value.id
    }
  }
}
output "first" { value = aws_lb_listener.l.default_action[0].target_group_arn }`, map[string]cty.Value{"first": unknownOut}},

		"argument set to null": {`
variable "name" {
  type    = string
  default = null
}
resource "aws_s3_bucket" "b" {
  bucket = var.name
}
output "bucket" { value = aws_s3_bucket.b.bucket }
output "tmpl" { value = "arn:${aws_s3_bucket.b.bucket}" }`, map[string]cty.Value{"bucket": unknownOut, "tmpl": unknownOut}},

		"try and can": {`
resource "aws_vpc" "a" {}
output "tried" { value = try(aws_vpc.a.arn, "") }
output "can" { value = can(aws_vpc.a.arn) }`, map[string]cty.Value{"tried": unknownOut, "can": unknownOut}},

		"through locals and module outputs": {`
resource "aws_vpc" "a" {}
locals {
  vpc  = aws_vpc.a
  vpcs = { main = aws_vpc.a }
}
module "m" {
  source = "./m"
  vpc    = aws_vpc.a
}
output "local" { value = local.vpc.arn }
output "nested_local" { value = local.vpcs.main.owner_id }
output "module" { value = module.m.vpc_id }
output "module_whole" { value = module.m.vpc.default_route_table_id }`, map[string]cty.Value{
			"local":        unknownOut,
			"nested_local": unknownOut,
			"module":       unknownOut,
			"module_whole": unknownOut,
		}},

		"module variable with an object type": {`
resource "aws_vpc" "a" {
  cidr_block = "10.0.0.0/16"
}
module "t" {
  source = "./t"
  vpc    = aws_vpc.a
}
output "typed" { value = module.t.cidr }`, map[string]cty.Value{"typed": cty.StringVal("10.0.0.0/16")}},

		"self in conditions and provisioners": {`
resource "aws_instance" "i" {
  ami = "ami-1"
  lifecycle {
    postcondition {
      condition     = self.public_ip != ""
      error_message = "no address"
    }
  }
  connection {
    host = self.public_ip
  }
  provisioner "remote-exec" {
    inline = ["echo ${self.private_ip}"]
  }
}
output "ip" { value = aws_instance.i.private_ip }`, map[string]cty.Value{"ip": unknownOut}},

		"a template given a whole resource": {`
resource "aws_vpc" "v" {
  cidr_block = "10.0.0.0/16"
}
output "rendered" { value = templatefile("${path.module}/t.tftpl", { vpc = aws_vpc.v }) }
output "cidr" { value = templatefile("${path.module}/c.tftpl", { vpc = aws_vpc.v }) }`, map[string]cty.Value{"rendered": unknownOut, "cidr": cty.StringVal("cidr=10.0.0.0/16")}},

		"blocks of one type with different nested content": {`
resource "aws_doc" "d" {
  statement {
    operation {
      audit {}
    }
    value {
      number = 1
    }
  }
  statement {
    operation {
      deidentify {
        kind = "mask"
      }
    }
    value {
      text = "a"
    }
  }
}
output "kind" { value = aws_doc.d.statement[1].operation[0].deidentify[0].kind }
output "number" { value = aws_doc.d.statement[0].value[0].number }`, map[string]cty.Value{"kind": cty.StringVal("mask"), "number": cty.NumberIntVal(1)}},

		"data source": {`
data "aws_availability_zones" "z" {
  state = "available"
}
output "names" { value = data.aws_availability_zones.z.names }
output "state" { value = data.aws_availability_zones.z.state }`, map[string]cty.Value{"names": unknownOut, "state": cty.StringVal("available")}},
	} {
		t.Run(name, func(t *testing.T) {
			files := map[string]string{"main.tf": tc.src,
				"m/main.tf": `
variable "vpc" {}
output "vpc_id" { value = var.vpc.id }
output "vpc" { value = var.vpc }`,
				"t.tftpl": "link=${vpc.arn}",
				"c.tftpl": "cidr=${vpc.cidr_block}",
				"t/main.tf": `
variable "vpc" {
  type = object({ id = string, cidr_block = string })
}
output "cidr" { value = var.vpc.cidr_block }`,
			}
			res, diags := evalFiles(t, files, Options{})
			for _, d := range diags {
				if d.Severity == hcl.DiagError {
					t.Errorf("error: %s", d.Error())
				}
			}
			outs := res.Root().Outputs
			for out, want := range tc.want {
				got, ok := outs[out]
				if !ok {
					t.Errorf("output %s missing", out)
					continue
				}
				checkNoSchemaValue(t, out, got, want)
			}
		})
	}
}

func unknownTuple(n int) cty.Value {
	vals := make([]cty.Value, n)
	for i := range vals {
		vals[i] = unknownOut
	}
	return cty.TupleVal(vals)
}

// checkNoSchemaValue compares got with want, where unknownOut in want
// stands for an unknown value with an Unread mark.
func checkNoSchemaValue(t *testing.T, path string, got, want cty.Value) {
	t.Helper()
	if want.RawEquals(unknownOut) {
		if got.IsKnown() {
			t.Errorf("%s = %#v, want unknown", path, got)
		} else if us := marks.UnreadMarks(got); len(us) == 0 {
			t.Errorf("%s is unknown without an Unread mark: %#v", path, got)
		}
		return
	}
	gotU, _ := got.UnmarkDeep()
	switch {
	case want.Type().IsTupleType() && gotU.IsKnown() && (gotU.Type().IsTupleType() || gotU.Type().IsListType()):
		if gotU.LengthInt() != want.LengthInt() {
			t.Errorf("%s = %#v, want %#v", path, got, want)
			return
		}
		for i, w := range want.AsValueSlice() {
			checkNoSchemaValue(t, path+"["+string(rune('0'+i))+"]", got.Index(cty.NumberIntVal(int64(i))), w)
		}
	case want.Type().IsObjectType() && gotU.IsKnown() && gotU.Type().IsObjectType():
		for k, w := range want.AsValueMap() {
			if !gotU.Type().HasAttribute(k) {
				t.Errorf("%s has no %s: %#v", path, k, got)
				continue
			}
			checkNoSchemaValue(t, path+"."+k, got.GetAttr(k), w)
		}
	default:
		if !gotU.RawEquals(want) {
			t.Errorf("%s = %#v, want %#v", path, got, want)
		}
	}
}

// TestNoSchemaAfterUnknown: the JSON document lists, as unknown, every
// attribute the configuration reads from an instance without a schema, so
// that an unknown attribute and an absent one can be told apart.
func TestNoSchemaAfterUnknown(t *testing.T) {
	res, diags := evalFiles(t, map[string]string{"main.tf": `
resource "aws_subnet" "s" {
  count      = 2
  cidr_block = "10.0.${count.index}.0/24"
  tags = {
    Name = "s"
  }
}
output "ids" { value = aws_subnet.s[*].id }
output "arn" { value = [for s in aws_subnet.s : s.arn] }
output "zone" { value = aws_subnet.s[1].availability_zone }`}, Options{})
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	doc := newTestDocument(res, nil)
	for _, r := range doc.Resources {
		b, _ := json.Marshal(r.AfterUnknown)
		for _, attr := range []string{`"id":true`, `"arn":true`, `"availability_zone":true`} {
			if !strings.Contains(string(b), attr) {
				t.Errorf("%s after_unknown %s lacks %s", r.Address, b, attr)
			}
		}
		if strings.Contains(string(b), "cidr_block") || strings.Contains(string(b), `"tags":true`) {
			t.Errorf("%s after_unknown %s names a configured attribute", r.Address, b)
		}
	}
}

// TestNoSchemaAdHoc: an expression evaluated after the configuration
// (console input, EvalExpr) reads attributes the configuration never read.
func TestNoSchemaAdHoc(t *testing.T) {
	res, diags := evalFiles(t, map[string]string{"main.tf": `
resource "aws_subnet" "s" {
  count = 2
  name  = "s${count.index}"
}`}, Options{})
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	for _, src := range []string{"aws_subnet.s[0].arn", "(aws_subnet.s[*].owner_id)[1]", "[for s in aws_subnet.s : s.vpc_id][0]"} {
		if v := mustEval(t, res, src, nil); v.IsKnown() {
			t.Errorf("%s = %#v, want unknown", src, v)
		}
	}
	if v := mustEval(t, res, "aws_subnet.s[1].name", nil); !v.RawEquals(cty.StringVal("s1")) {
		t.Errorf("configured name = %#v", v)
	}
}

// TestNoSchemaAdHocThroughFor: a path an expression from outside the
// configuration (a test file's assertion) reads from a resource without
// schema, and which the resource's value lacks, is unknown and marked as
// unread; a for expression over it (whose unknown hcl returns without the
// collection's marks) is marked the same, not an unknown Terraform has too.
func TestNoSchemaAdHocThroughFor(t *testing.T) {
	res, diags := evalFiles(t, map[string]string{"main.tf": `
resource "aws_policy" "p" {
  name = "p"
}`}, Options{})
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	for _, src := range []string{"aws_policy.p.statement", "[for s in aws_policy.p.statement : s.sid]", "!anytrue([for s in aws_policy.p.statement : s.sid == \"x\"])"} {
		v := mustEval(t, res, src, nil)
		if v.IsKnown() {
			t.Errorf("%s = %#v, want unknown", src, v)
		} else if len(marks.UnreadMarks(v)) == 0 {
			t.Errorf("%s is unknown without an Unread mark: %#v", src, v)
		}
	}
}

// openAttributes plans the decoded attributes of a body without schema in
// place; the result must be openObject's of the object they make.
func TestOpenAttributesMatchesOpenObject(t *testing.T) {
	nested := hcldec.ObjectSpec{"y": &hcldec.AttrSpec{Name: "y", Type: cty.DynamicPseudoType}}
	spec := hcldec.ObjectSpec{
		"a":          &hcldec.AttrSpec{Name: "a", Type: cty.DynamicPseudoType},
		"n":          &hcldec.AttrSpec{Name: "n", Type: cty.DynamicPseudoType},
		"cafe\u0301": &hcldec.AttrSpec{Name: "cafe\u0301", Type: cty.DynamicPseudoType},
		"blk":        &hcldec.BlockTupleSpec{TypeName: "blk", Nested: nested},
		"none":       &hcldec.BlockTupleSpec{TypeName: "none", Nested: nested},
	}
	block := cty.ObjectVal(map[string]cty.Value{"y": cty.NullVal(cty.String)})
	ms := cty.NewValueMarks(marks.Sensitive)
	trees := []*readTree{
		nil,
		{attrs: map[string]*readTree{"id": {}, "blk": {attrs: map[string]*readTree{"y": {}, "z": {}}}}},
		{attrs: map[string]*readTree{"a": {attrs: map[string]*readTree{"deep": {}}}}, elems: &readTree{attrs: map[string]*readTree{"k": {}}}},
	}
	for i, attrs := range []map[string]cty.Value{
		{"a": cty.StringVal("x"), "n": cty.NullVal(cty.String)},
		{"a": cty.ObjectVal(map[string]cty.Value{"k": cty.True}), "blk": cty.TupleVal([]cty.Value{block}), "none": cty.EmptyTupleVal},
		{"blk": cty.TupleVal([]cty.Value{block, block}), "n": cty.NullVal(cty.DynamicPseudoType).Mark(marks.Sensitive)},
		{"cafe\u0301": cty.NullVal(cty.String), "a": cty.UnknownVal(cty.String)},
		{},
	} {
		for j, tree := range trees {
			want := openObject(cty.ObjectVal(attrs), spec, tree, &unknownMarked{ms: ms})
			in := make(map[string]cty.Value, len(attrs))
			for k, v := range attrs {
				in[k] = v
			}
			if got := openAttributes(in, spec, tree, &unknownMarked{ms: ms}); !got.RawEquals(want) {
				t.Errorf("attributes %d, reads %d:\ngot  %#v\nwant %#v", i, j, got, want)
			}
		}
	}
}

// TestConditionalOfUnreadTypes: a conditional whose results hcl cannot
// unify because one holds attributes of resources without schema (whose
// types Terraform knows) is unknown rather than an error, and so is a
// list of instances of one such resource whose blocks set differing
// arguments; a conflict between known types is still reported.
func TestConditionalOfUnreadTypes(t *testing.T) {
	for name, src := range map[string]string{
		"wrong type": `
resource "aws_sqs_queue" "q" {
  name = "q"
}
locals {
  c = var.on ? { enable = true, tries = 3, url = aws_sqs_queue.q.url } : {}
}`,
		"instances of differing shapes": `
resource "azurerm_subnet" "each" {
  for_each = var.on ? { a = ["x"], b = [] } : {}
  name     = each.key
  service_endpoints = each.value
  dynamic "delegation" {
    for_each = each.key == "a" ? [1] : []
    content {
      name = "d"
    }
  }
}
resource "azurerm_subnet" "counted" {
  count = var.on ? 0 : 1
  name  = "c"
}
locals {
  c = var.on ? [for s in azurerm_subnet.each : s] : [for s in azurerm_subnet.counted : s]
}`,
	} {
		res, diags := evalFiles(t, map[string]string{"main.tf": src + `
variable "on" {
  default = true
}
output "c" {
  value = local.c
}`}, Options{})
		if diags.HasErrors() {
			t.Errorf("%s: %s", name, diags.Error())
			continue
		}
		if v := res.Root().Outputs["c"]; v.IsWhollyKnown() {
			t.Errorf("%s: c = %#v, want unknown", name, v)
		}
	}
	_, diags := evalFiles(t, map[string]string{"main.tf": `
variable "on" {
  default = true
}
output "c" {
  value = var.on ? { a = true, b = [1] } : {}
}`}, Options{})
	if len(diags) != 1 || diags[0].Summary != "Inconsistent conditional result types" {
		t.Errorf("known types: got %s, want the conflict", diags.Error())
	}
}

// TestNoSchemaEmptyString: an argument of a resource without schema set
// to "" is unknown, as the legacy SDK plans an attribute it computes when
// given "" (as when given null), so what is parsed out of it is no error.
func TestNoSchemaEmptyString(t *testing.T) {
	res, diags := evalFiles(t, map[string]string{"main.tf": `
resource "google_compute_address" "ip" {
  name    = "a"
  address = ""
}
output "octet" {
  value = split(".", google_compute_address.ip.address)[3]
}
output "name" {
  value = google_compute_address.ip.name
}`}, Options{})
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	if v := res.Root().Outputs["octet"]; v.IsKnown() {
		t.Errorf("octet = %#v, want unknown", v)
	}
	if v, _ := res.Root().Outputs["name"].Unmark(); !v.RawEquals(cty.StringVal("a")) {
		t.Errorf("name = %#v, want the argument", v)
	}
}

func TestNoSchemaTypedNull(t *testing.T) {
	// An unset optional(string) given to an argument: the provider's
	// schema may say number and plan its default, so the attribute is an
	// unknown of no particular type, and comparing it with a number is not
	// decided.
	res, diags := evalFiles(t, map[string]string{"main.tf": `
variable "sizes" {
  type    = object({ memory = optional(string) })
  default = {}
}
resource "aws_lambda_function" "f" {
  memory_size = var.sizes.memory
}
output "default_memory" {
  value = aws_lambda_function.f.memory_size == 128
}`}, Options{})
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	if v := res.Root().Outputs["default_memory"]; v.IsKnown() {
		t.Errorf("default_memory = %#v, want unknown", v)
	}
}

// TestNoSchemaReadsThroughLongList: a list of many objects, each holding a
// resource of its own next to resources every object shares (an
// organization's accounts with their groups and permission sets), keeps the
// origins of all of them, so that a read of any object's resource is
// planned: the analysis bounds how many origins a value has, and shared
// ones count once (here 400 origins, 103 distinct).
func TestNoSchemaReadsThroughLongList(t *testing.T) {
	var src strings.Builder
	src.WriteString(`
resource "aws_identitystore_group" "g" {
  display_name = "g"
}
resource "aws_ssoadmin_permission_set" "read" {
  name = "read"
}
resource "aws_ssoadmin_permission_set" "write" {
  name = "write"
}
locals {
  assignments = [
`)
	const n = 100
	for i := range n {
		fmt.Fprintf(&src, `    { account = aws_organizations_account.a%d, groups = [{ group = aws_identitystore_group.g, permissions = [aws_ssoadmin_permission_set.read, aws_ssoadmin_permission_set.write] }] },
`, i)
	}
	src.WriteString("  ]\n}\n")
	for i := range n {
		fmt.Fprintf(&src, "resource \"aws_organizations_account\" \"a%d\" {\n  name = \"a%d\"\n}\n", i, i)
	}
	src.WriteString(`
module "assignment" {
  for_each   = { for a in local.assignments : a.account.name => a }
  source     = "./m"
  account_id = each.value.account.id
  group_ids  = [for g in each.value.groups : g.group.group_id]
}
output "ids" { value = [for a in local.assignments : a.account.id] }
`)
	res, diags := evalFiles(t, map[string]string{"main.tf": src.String(), "m/main.tf": `
variable "account_id" { type = string }
variable "group_ids" { type = list(string) }
`}, Options{})
	for _, d := range diags {
		if d.Severity == hcl.DiagError {
			t.Errorf("error: %s", d.Error())
		}
	}
	checkNoSchemaValue(t, "ids", res.Root().Outputs["ids"], unknownTuple(n))
}

// TestNoSchemaReadInsideArgument: a path read inside an argument that the
// argument's value lacks. Without schema it may be an object attribute's
// computed member (Terraform plans it unknown) or nothing (a map's key):
// it is unknown, never an invented error. An argument tfeval knows to be
// dynamic, and any resource whose schema is known, are exact: the path
// does not exist.
func TestNoSchemaReadInsideArgument(t *testing.T) {
	const ec = `
resource "ec_deployment" "c" {
  name = "x"
  elasticsearch = {
    hot = { size = "1g" }
  }
  tags = { env = "dev" }
}
`
	const azapi = `
terraform {
  required_providers {
    azapi = { source = "Azure/azapi" }
  }
}
resource "azapi_resource" "r" {
  type = "Microsoft.Web/sites@2024-01-01"
  body = {
    properties = { enabled = true }
  }
}
`
	const mock = mockVersions + `
resource "mock_net" "n" {
  endpoint = { host = "db" }
}
`
	const tfData = `
resource "terraform_data" "d" {
  input = { a = 1 }
}
`
	for name, tc := range map[string]struct {
		src     string
		schema  bool
		expr    string
		want    cty.Value // unknownOut: unknown and marked as unread
		wantErr string
	}{
		"absent member":             {src: ec, expr: "ec_deployment.c.elasticsearch.resource_id", want: unknownOut},
		"absent member nested":      {src: ec, expr: "ec_deployment.c.elasticsearch.hot.zone_count", want: unknownOut},
		"absent member, deeper":     {src: ec, expr: "ec_deployment.c.elasticsearch.hot.autoscale.max", want: unknownOut},
		"absent key":                {src: ec, expr: "ec_deployment.c.tags.owner", want: unknownOut},
		"absent member in try":      {src: ec, expr: `try(ec_deployment.c.elasticsearch.resource_id, "none")`, want: unknownOut},
		"absent member in can":      {src: ec, expr: "can(ec_deployment.c.elasticsearch.resource_id)", want: unknownOut},
		"configured member":         {src: ec, expr: "ec_deployment.c.elasticsearch.hot.size", want: cty.StringVal("1g")},
		"configured key":            {src: ec, expr: "ec_deployment.c.tags.env", want: cty.StringVal("dev")},
		"dynamic argument":          {src: azapi, expr: "azapi_resource.r.body.properties.kind", wantErr: "Unsupported attribute"},
		"dynamic argument in can":   {src: azapi, expr: "can(azapi_resource.r.body.properties.kind)", want: cty.False},
		"dynamic argument, present": {src: azapi, expr: "azapi_resource.r.body.properties.enabled", want: cty.True},
		"other argument of azapi":   {src: azapi, expr: "azapi_resource.r.identity.type", want: unknownOut},
		"schema, computed member":   {src: mock, schema: true, expr: "mock_net.n.endpoint.url", want: cty.UnknownVal(cty.String)},
		"schema, no such member":    {src: mock, schema: true, expr: "mock_net.n.endpoint.nope", wantErr: "Unsupported attribute"},
		"terraform_data input":      {src: tfData, expr: "terraform_data.d.input.b", wantErr: "Unsupported attribute"},
		"terraform_data input, can": {src: tfData, expr: "can(terraform_data.d.input.b)", want: cty.False},
	} {
		t.Run(name, func(t *testing.T) {
			var opts Options
			if tc.schema {
				schemas, err := ParseProviderSchemas([]byte(nestedSchema))
				if err != nil {
					t.Fatal(err)
				}
				opts.Schemas = schemas
			}
			res, diags := evalFiles(t, map[string]string{"main.tf": tc.src + "output \"o\" { value = " + tc.expr + " }\n"}, opts)
			if tc.wantErr != "" {
				if !diags.HasErrors() || !strings.Contains(diags.Error(), tc.wantErr) {
					t.Fatalf("diagnostics %v, want the error %q", diags, tc.wantErr)
				}
				return
			}
			if diags.HasErrors() {
				t.Fatal(diags.Error())
			}
			got, ok := res.Root().Outputs["o"]
			if !ok {
				t.Fatal("output o missing")
			}
			checkNoSchemaValue(t, tc.expr, got, tc.want)
		})
	}
}

// TestIsEmptyString holds isEmptyString to what RawEquals with a known ""
// says of the value without its marks.
func TestIsEmptyString(t *testing.T) {
	for _, v := range []cty.Value{
		cty.StringVal(""),
		cty.StringVal("").Mark("sensitive"),
		cty.StringVal("x"),
		cty.StringVal(" "),
		cty.NullVal(cty.String),
		cty.UnknownVal(cty.String),
		cty.UnknownVal(cty.String).RefineNotNull(),
		cty.DynamicVal,
		cty.NullVal(cty.DynamicPseudoType),
		cty.Zero,
		cty.ListValEmpty(cty.String),
		cty.EmptyObjectVal,
	} {
		u, _ := v.Unmark()
		if got, want := isEmptyString(v), u.RawEquals(cty.StringVal("")); got != want {
			t.Errorf("%#v: %v, want %v", v, got, want)
		}
	}
}
