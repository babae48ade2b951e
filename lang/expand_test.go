package lang

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/tfeval/tfeval/config"
	"github.com/tfeval/tfeval/dialect"
	"github.com/tfeval/tfeval/internal/numtext"
	"github.com/tfeval/tfeval/marks"
)

func TestInstanceAddr(t *testing.T) {
	for _, k := range []cty.Value{
		cty.NilVal, cty.NumberIntVal(0), cty.NumberIntVal(12), cty.StringVal("a"), cty.StringVal(""),
		cty.StringVal(`q"b\s`), cty.StringVal("tab\tnl\n"), cty.StringVal("ünï ✓"), cty.StringVal("\x7f"),
		cty.StringVal("with space-and_dash.dot"),
	} {
		want := "aws_x.y"
		if k != cty.NilVal {
			if k.Type() == cty.Number {
				want += "[" + numtext.String(k) + "]"
			} else {
				want += fmt.Sprintf("[%q]", k.AsString())
			}
		}
		if got := instanceAddr("aws_x.y", k); got != want {
			t.Errorf("instanceAddr(%#v) = %s, want %s", k, got, want)
		}
	}
}

// placeholderRun evaluates files without schemas and returns the result,
// the error summaries and the warnings about placeholders.
func placeholderRun(t *testing.T, files map[string]string, opts Options) (*Result, []string, []*hcl.Diagnostic) {
	t.Helper()
	res, diags := evalFiles(t, files, opts)
	var errs []string
	var warns []*hcl.Diagnostic
	for _, d := range diags {
		switch {
		case d.Severity == hcl.DiagError:
			errs = append(errs, d.Summary+": "+d.Detail)
		case d.Summary == "Instances not known":
			warns = append(warns, d)
		}
	}
	return res, errs, warns
}

// TestPlaceholders: a count or for_each that depends on a value tfeval
// did not read gives one placeholder instance with an unknown key, and
// one warning that names what was not read.
func TestPlaceholders(t *testing.T) {
	for name, tc := range map[string]struct {
		src        string
		addrs      []string // placeholder instances
		warnNames  []string // in the warnings, one per placeholder object
		knownAttrs map[string]cty.Value
	}{
		"count from a data source": {`
data "aws_availability_zones" "az" {}
resource "aws_subnet" "s" {
  count             = length(data.aws_availability_zones.az.names)
  availability_zone = data.aws_availability_zones.az.names[count.index]
  cidr_block        = "10.0.0.0/16"
}
resource "aws_route" "r" {
  count     = length(aws_subnet.s)
  subnet_id = aws_subnet.s[count.index].id
}`, []string{"aws_route.r[*]", "aws_subnet.s[*]"}, []string{"data source data.aws_availability_zones.az (not read)"},
			map[string]cty.Value{"aws_subnet.s[*].cidr_block": cty.StringVal("10.0.0.0/16")}},

		"for_each from a data source through try": {`
data "aws_subnets" "all" {}
resource "aws_instance" "i" {
  for_each  = toset(try(data.aws_subnets.all.ids, []))
  subnet_id = each.key
  ami       = "ami-1"
}`, []string{"aws_instance.i[*]"}, []string{"data.aws_subnets.all"},
			map[string]cty.Value{"aws_instance.i[*].ami": cty.StringVal("ami-1")}},

		"count from an attribute without schema": {`
resource "aws_vpc" "v" {}
resource "aws_subnet" "s" {
  count  = aws_vpc.v.ipv6_cidr_block == null ? 0 : 1
  vpc_id = aws_vpc.v.id
}`, []string{"aws_subnet.s[*]"}, []string{"aws_vpc.v (no provider schema)"}, nil},

		"module call": {`
data "aws_availability_zones" "az" {}
module "m" {
  source = "./m"
  count  = length(data.aws_availability_zones.az.names)
  name   = "n-${count.index}"
}
output "names" { value = module.m[*].name }`, []string{"module.m[*].aws_s3_bucket.b"}, []string{"data.aws_availability_zones.az"}, nil},
	} {
		t.Run(name, func(t *testing.T) {
			files := map[string]string{"main.tf": tc.src, "m/main.tf": `
variable "name" {}
resource "aws_s3_bucket" "b" {
  bucket = var.name
}
output "name" { value = aws_s3_bucket.b.bucket }`}
			res, errs, warns := placeholderRun(t, files, Options{})
			if len(errs) > 0 {
				t.Errorf("errors: %v", errs)
			}
			var got []string
			for _, r := range res.Resources {
				if r.Placeholder {
					got = append(got, r.Addr)
					if r.Key != cty.NilVal && r.Key.IsKnown() {
						t.Errorf("%s has a known key %#v", r.Addr, r.Key)
					}
				}
			}
			slices.Sort(got)
			if !slices.Equal(got, tc.addrs) {
				t.Errorf("placeholders %v, want %v", got, tc.addrs)
			}
			if len(warns) == 0 {
				t.Fatal("no warning about the placeholder")
			}
			for _, w := range warns {
				for _, n := range tc.warnNames {
					if !strings.Contains(w.Detail, n) {
						t.Errorf("warning %q does not name %s", w.Detail, n)
					}
				}
				if w.Subject == nil {
					t.Errorf("warning without a range: %s", w.Detail)
				}
			}
			for path, want := range tc.knownAttrs {
				addr, attr, _ := strings.Cut(path, "].")
				v := resourceValue(t, res, addr+"]").GetAttr(attr)
				if !v.RawEquals(want) {
					t.Errorf("%s = %#v, want %#v", path, v, want)
				}
			}
		})
	}
}

// TestPlaceholderModule: the instances of a module call whose count is not
// known are one placeholder module instance, whose values are evaluated
// with count.index unknown.
func TestPlaceholderModule(t *testing.T) {
	res, errs, _ := placeholderRun(t, map[string]string{"main.tf": `
data "aws_availability_zones" "az" {}
module "m" {
  source   = "./m"
  for_each = toset(data.aws_availability_zones.az.names)
  name     = "fixed"
  zone     = each.key
}`, "m/main.tf": `
variable "name" {}
variable "zone" {}
locals {
  upper = upper(var.name)
}`}, Options{})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	mi := res.Module("module.m[*]")
	if mi == nil || !mi.Placeholder {
		t.Fatalf("no placeholder module instance: %v", res.Modules)
	}
	if got := mi.Locals["upper"]; !got.RawEquals(cty.StringVal("FIXED")) {
		t.Errorf("local.upper = %#v, want FIXED", got)
	}
	if got := mi.Variables["zone"]; got.IsKnown() {
		t.Errorf("var.zone = %#v, want unknown", got)
	}
}

// TestUnreadConditionsAndIndexes: an unread unknown in a condition or an
// index is neither an error nor a failed check, and a check assertion
// tfeval cannot decide is not said to be known only after apply.
func TestUnreadConditionsAndIndexes(t *testing.T) {
	_, diags := evalFiles(t, map[string]string{"main.tf": `
data "aws_caller_identity" "me" {}
variable "v" {
  default = "x"
  validation {
    condition     = var.v != ""
    error_message = "empty"
  }
}
locals {
  accounts = { a = 1 }
  picked   = local.accounts[data.aws_caller_identity.me.account_id]
  listed   = ["a"][data.aws_caller_identity.me.index]
}
resource "aws_s3_bucket" "b" {
  bucket = "b-${data.aws_caller_identity.me.account_id}"
  lifecycle {
    precondition {
      condition     = data.aws_caller_identity.me.account_id == "123"
      error_message = "wrong account"
    }
    postcondition {
      condition     = self.arn != ""
      error_message = "no arn"
    }
  }
}
check "account" {
  assert {
    condition     = startswith(data.aws_caller_identity.me.arn, "arn:aws:iam::123")
    error_message = "wrong account"
  }
}`}, Options{})
	if len(diags) > 0 {
		t.Errorf("diagnostics: %s", diags.Error())
	}
}

// TestNoCascade: what depends on an object whose evaluation failed is not
// reported again, as Terraform stops at the first error.
func TestNoCascade(t *testing.T) {
	_, errs, warns := placeholderRun(t, map[string]string{"main.tf": `
locals {
  zones = var.undeclared
  count = length(local.zones)
}
resource "terraform_data" "each" {
  for_each = toset(local.zones)
}
resource "terraform_data" "counted" {
  count = local.count
}
module "m" {
  source   = "./m"
  for_each = toset(local.zones)
}
output "o" { value = terraform_data.counted[0].id }`, "m/main.tf": ``}, Options{})
	if len(errs) != 1 || !strings.HasPrefix(errs[0], "Reference to undeclared input variable") {
		t.Errorf("want the one error, got %v", errs)
	}
	if len(warns) > 0 {
		t.Errorf("a failed object is not unread: %v", warns)
	}
}

// TestNoCascadeFromModuleInput: a module input that its variable refuses
// is one error; the for_each built from it is not another.
func TestNoCascadeFromModuleInput(t *testing.T) {
	_, errs, warns := placeholderRun(t, map[string]string{"main.tf": `
module "m" {
  source = "./m"
  items  = "not a list"
}`, "m/main.tf": `
variable "items" {
  type = list(any)
}
resource "aws_thing" "a" {
  for_each = { for i in var.items : i.k => i }
  name     = each.key
}`}, Options{})
	if len(errs) != 1 || !strings.HasPrefix(errs[0], "Invalid value for input variable") {
		t.Errorf("want the one error, got %v", errs)
	}
	if len(warns) > 0 {
		t.Errorf("warnings: %v", warns)
	}
}

// TestUnknownCountWithSchema: with a schema, a count that depends on what
// the provider computes keeps Terraform's error.
func TestUnknownCountWithSchema(t *testing.T) {
	_, errs, _ := placeholderRun(t, map[string]string{"main.tf": `
resource "terraform_data" "t" {
  input = "x"
}
resource "terraform_data" "u" {
  count = length(terraform_data.t.output)
}`}, Options{})
	if len(errs) != 1 || !strings.HasPrefix(errs[0], "Invalid count argument") {
		t.Errorf("want Terraform's error, got %v", errs)
	}
}

// TestForEachSetWithNull: a for_each set with a null element is refused,
// with each dialect's summary.
func TestForEachSetWithNull(t *testing.T) {
	for d, want := range map[dialect.Dialect]string{dialect.Terraform: "Invalid for_each set argument", dialect.Tofu: "Invalid for_each argument"} {
		_, diags := evalFiles(t, map[string]string{"main.tf": `
resource "terraform_data" "t" {
  for_each = toset(["a", null])
}`}, Options{Dialect: d})
		if len(diags) != 1 || diags[0].Summary != want || !strings.Contains(diags[0].Detail, "must not contain null values") {
			t.Errorf("%s: got %s, want %q", d, diags.Error(), want)
		}
	}
}

// TestForEachSetOfObjects: a for_each set of anything but strings is
// refused with each dialect's words.
func TestForEachSetOfObjects(t *testing.T) {
	for d, want := range map[dialect.Dialect][2]string{
		dialect.Terraform: {"Invalid for_each set argument", `The given "for_each" argument value is unsuitable: "for_each" supports maps and sets of strings, but you have provided a set containing type object.`},
		dialect.Tofu:      {"Invalid for_each argument", `The given "for_each" argument value is unsuitable: "for_each" supports sets of strings, but you have provided a set containing type object.`},
	} {
		_, diags := evalFiles(t, map[string]string{"main.tf": `
resource "terraform_data" "t" {
  for_each = toset([{ a = 1 }, { a = 2 }])
}`}, Options{Dialect: d})
		if len(diags) != 1 || diags[0].Summary != want[0] || diags[0].Detail != want[1] {
			t.Errorf("%s: got %s, want %q", d, diags.Error(), want)
		}
	}
}

// TestSensitiveCount: a count derived from a sensitive value is accepted
// (only for_each refuses sensitive values), in both dialects.
func TestSensitiveCount(t *testing.T) {
	for _, d := range []dialect.Dialect{dialect.Terraform, dialect.Tofu} {
		res, diags := evalFiles(t, map[string]string{"main.tf": `
variable "password" {
  type      = string
  default   = null
  sensitive = true
}
resource "terraform_data" "t" {
  count = var.password == null ? 2 : 0
}
output "n" {
  value = length(terraform_data.t)
}`}, Options{Dialect: d})
		if diags.HasErrors() {
			t.Fatalf("%s: %s", d, diags.Error())
		}
		if got, _ := res.Root().Outputs["n"].Unmark(); !got.RawEquals(cty.NumberIntVal(2)) {
			t.Errorf("%s: n = %#v, want 2", d, got)
		}
	}
}

// TestLifecycleEnabled: OpenTofu's lifecycle enabled gives a block its
// single instance or none, and a disabled block's value is null.
func TestLifecycleEnabled(t *testing.T) {
	src := `
variable "on" {
  type    = bool
  default = %v
}
resource "terraform_data" "a" {
  input = "x"
  lifecycle {
    enabled = var.on
  }
}
data "terraform_remote_state" "s" {
  backend = "local"
  lifecycle {
    enabled = !var.on
  }
}
output "a_null" {
  value = terraform_data.a == null
}
output "a_input" {
  value = try(terraform_data.a.input, "none")
}
output "s_null" {
  value = data.terraform_remote_state.s == null
}
module "m" {
  source = "./m"
  lifecycle {
    enabled = var.on
  }
}
output "m_out" {
  value = try(module.m.out, "none")
}`
	for _, on := range []bool{false, true} {
		res, diags := evalFiles(t, map[string]string{"main.tofu": fmt.Sprintf(src, on), "m/main.tofu": `output "out" { value = "m" }`}, Options{Dialect: dialect.Tofu})
		if diags.HasErrors() {
			t.Fatalf("on=%v: %s", on, diags.Error())
		}
		out := res.Root().Outputs
		wantInput, wantOut := cty.StringVal("none"), cty.StringVal("none")
		if on {
			wantInput, wantOut = cty.StringVal("x"), cty.StringVal("m")
		}
		if !out["a_null"].RawEquals(cty.BoolVal(!on)) || !out["a_input"].RawEquals(wantInput) || !out["s_null"].RawEquals(cty.BoolVal(on)) || !out["m_out"].RawEquals(wantOut) {
			t.Errorf("on=%v: outputs %#v", on, out)
		}
		n := 0
		for _, ri := range res.Resources {
			if ri.Type == "terraform_data" {
				n++
			}
		}
		if want := map[bool]int{false: 0, true: 1}[on]; n != want {
			t.Errorf("on=%v: %d terraform_data instances, want %d", on, n, want)
		}
	}
	// Terraform has no such argument.
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(`
resource "terraform_data" "a" {
  lifecycle {
    enabled = false
  }
}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, diags := config.Load(dir, config.Options{Dialect: dialect.Terraform}); !strings.Contains(diags.Error(), "Unsupported argument") {
		t.Errorf("terraform dialect: %v", diags)
	}
}

// TestLifecycleEnabledInvalid: an enabled value OpenTofu cannot decide on
// is an error in its words; one tfeval alone does not know (a resource
// without schema, which OpenTofu would read) leaves the instances unknown,
// and tofu validate evaluates the block once without judging the value.
func TestLifecycleEnabledInvalid(t *testing.T) {
	for _, tc := range []struct {
		name, enabled, detail string
	}{
		{"not a bool", `"maybe"`, `The given "enabled" argument value is unsuitable: a bool is required.`},
		{"a string that converts", `"false"`, ""},
		{"null", `null`, `The given "enabled" argument value is unsuitable: the given value is null.`},
		{"unknown", `timestamp() == ""`, `The given "enabled" argument value is derived from a value that won't be known until the apply phase, so OpenTofu cannot determine whether an instance of this object is declared or not.`},
		{"sensitive", `sensitive(true)`, `Sensitive values, or values derived from sensitive values, cannot be used in "enabled" arguments. If used, the sensitive value would be exposed by whether an instance is present.`},
		{"ephemeral", `var.e`, `The given "enabled" argument value is unsuitable: the given value is ephemeral.`},
		{"ephemeral made null", `ephemeralasnull(var.e) == null`, ""},
		{"read from a resource without schema", `aws_thing.t.enabled`, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := `resource "aws_thing" "t" {}
variable "e" {
  type      = bool
  default   = true
  ephemeral = true
}
resource "terraform_data" "a" {
  lifecycle {
    enabled = ` + tc.enabled + `
  }
}`
			files := map[string]string{"main.tofu": src}
			_, diags := evalFiles(t, files, Options{Dialect: dialect.Tofu})
			var got []string
			for _, d := range diags {
				if d.Severity == hcl.DiagError {
					got = append(got, d.Summary+": "+d.Detail)
					if d.Subject == nil || d.Subject.Start.Line != 9 {
						t.Errorf("subject %v, want line 9", d.Subject)
					}
				}
			}
			var want []string
			if tc.detail != "" {
				want = []string{"Invalid enabled argument: " + tc.detail}
			}
			if !slices.Equal(got, want) {
				t.Errorf("errors %q, want %q", got, want)
			}
			if _, diags := evalFiles(t, files, Options{Dialect: dialect.Tofu, Validate: true}); diags.HasErrors() {
				t.Errorf("validate: %s", diags.Error())
			}
		})
	}
}

// TestLifecycleEnabledValidate: tofu validate checks the body of a block
// whatever its enabled says, as terraform validate does whatever count is.
func TestLifecycleEnabledValidate(t *testing.T) {
	files := map[string]string{"main.tofu": `resource "terraform_data" "a" {
  input = upper(1, 2)
  lifecycle {
    enabled = false
  }
}`}
	_, diags := evalFiles(t, files, Options{Dialect: dialect.Tofu, Validate: true})
	if !strings.Contains(diags.Error(), "Too many function arguments") {
		t.Errorf("validate: %v", diags)
	}
}

// TestPlannedUnknownInstances: a count or for_each that only values
// Terraform's plan has unknown too leave unknown (Options.PlannedUnknown)
// is Terraform's error; otherwise it is a placeholder whose warning says
// what it depended on.
func TestPlannedUnknownInstances(t *testing.T) {
	const src = `
resource "aws_thing" "t" {
  name = "n"
}
resource "terraform_data" "c" {
  count = length(aws_thing.t.arn)
}
resource "terraform_data" "f" {
  for_each = toset([aws_thing.t.id])
}
`
	for _, tc := range []struct {
		name    string
		planned func(marks.Unread) bool
		want    []string
	}{
		{"unknown to tfeval only", nil, []string{"warning Instances not known", "warning Instances not known"}},
		{"unknown to Terraform too", func(u marks.Unread) bool { return u.Addr == "aws_thing.t" }, []string{"error Invalid count argument", "error Invalid for_each argument"}},
		{"another value", func(u marks.Unread) bool { return u.Addr == "aws_other.o" }, []string{"warning Instances not known", "warning Instances not known"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, diags := evalFiles(t, map[string]string{"main.tf": src}, Options{PlannedUnknown: tc.planned})
			var got []string
			for _, d := range diags {
				sev := "error"
				if d.Severity == hcl.DiagWarning {
					sev = "warning"
					us, ok := UnknownInstancesUnread(d)
					if !ok || len(us) != 1 || us[0].Addr != "aws_thing.t" {
						t.Errorf("%s: unread %v, %v", d.Summary, us, ok)
					}
				}
				got = append(got, sev+" "+d.Summary)
			}
			sort.Strings(got)
			if !slices.Equal(got, tc.want) {
				t.Errorf("diagnostics %v, want %v", got, tc.want)
			}
		})
	}
}
