package tftest

import (
	"fmt"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/tfeval/tfeval/dialect"
)

const awsSchema = `{"format_version":"1.0","provider_schemas":{"registry.terraform.io/hashicorp/aws":{"provider":{"version":0,"block":{}},
"resource_schemas":{"aws_thing":{"version":0,"block":{"attributes":{
  "id":{"type":"string","computed":true},
  "name":{"type":"string","required":true},
  "arn":{"type":"string","computed":true},
  "size":{"type":"number","optional":true,"computed":true},
  "tags":{"type":["map","string"],"computed":true}}}}},
"data_source_schemas":{"aws_lookup":{"version":0,"block":{"attributes":{
  "key":{"type":"string","required":true},
  "value":{"type":"string","computed":true}}}}}}}}`

const awsProvider = `
terraform {
  required_providers {
    aws = { source = "hashicorp/aws" }
  }
}
`

// unknownCondition asserts at plan on what only the apply knows.
var unknownCondition = map[string]string{
	"main.tf": `
resource "terraform_data" "x" { input = "a" }
output "o" { value = terraform_data.x.output }
`,
	"tests/a.tftest.hcl": `
run "unknown" {
  command = plan
  assert {
    condition     = output.o == "a"
    error_message = "wrong"
  }
}
run "after" {
  command = plan
}
`}

func TestRunStatuses(t *testing.T) {
	for _, tc := range []struct {
		name  string
		d     dialect.Dialect
		files map[string]string
		want  map[string]string
		diags []string
	}{{
		name: "plan assertions on outputs, variables and locals",
		files: map[string]string{
			"main.tf": `
variable "env" { default = "prod" }
locals { tier = var.env == "prod" ? "gold" : "bronze" }
output "tier" { value = local.tier }
`,
			"tests/a.tftest.hcl": `
run "prod" {
  command = plan
  assert {
    condition     = output.tier == "gold" && local.tier == "gold" && var.env == "prod"
    error_message = "wrong"
  }
}
run "dev" {
  command = plan
  variables { env = "dev" }
  assert {
    condition     = output.tier == "gold"
    error_message = "tier is ${output.tier}"
  }
}
run "after_failure" {
  command = plan
}
`},
		want:  map[string]string{"tests/a.tftest.hcl": "fail", "tests/a.tftest.hcl::prod": "pass", "tests/a.tftest.hcl::dev": "fail", "tests/a.tftest.hcl::after_failure": "pass"},
		diags: []string{"error: Test assertion failed"},
	}, {
		name: "terraform_data applies and its state carries to the next runs",
		files: map[string]string{
			"main.tf": `
variable "v" { default = "a" }
resource "terraform_data" "x" { input = var.v }
output "o" { value = terraform_data.x.output }
`,
			"tests/a.tftest.hcl": `
run "create" {
  assert {
    condition     = length(terraform_data.x.id) == 36 && output.o == "a"
    error_message = "not applied"
  }
}
run "unchanged_plan" {
  command = plan
  assert {
    condition     = output.o == "a"
    error_message = "the state's output is lost"
  }
}
run "update" {
  variables { v = "b" }
  assert {
    condition     = output.o == "b" && run.create.o == "a"
    error_message = "the update replaced the object"
  }
}
`},
		want: map[string]string{"tests/a.tftest.hcl::create": "pass", "tests/a.tftest.hcl::unchanged_plan": "pass", "tests/a.tftest.hcl::update": "pass"},
	}, {
		name: "a mocked provider's defaults and generated values",
		files: map[string]string{
			"providers-schema.json": awsSchema,
			"main.tf": awsProvider + `
resource "aws_thing" "t" { name = "n" }
data "aws_lookup" "l" { key = "k" }
output "arn" { value = aws_thing.t.arn }
`,
			"tests/a.tftest.hcl": `
mock_provider "aws" {
  mock_resource "aws_thing" {
    defaults = { arn = "arn:mock" }
  }
  mock_data "aws_lookup" {
    defaults = { value = "looked-up" }
  }
}
run "plan" {
  command = plan
  assert {
    condition     = data.aws_lookup.l.value == "looked-up" && aws_thing.t.name == "n"
    error_message = "wrong"
  }
}
run "apply" {
  assert {
    condition     = output.arn == "arn:mock" && length(aws_thing.t.id) == 8 && aws_thing.t.size == 0 && length(aws_thing.t.tags) == 0
    error_message = "wrong"
  }
}
`},
		want: map[string]string{"tests/a.tftest.hcl::plan": "pass", "tests/a.tftest.hcl::apply": "pass"},
	}, {
		name:  "an unknown condition at plan: Terraform errors",
		files: unknownCondition,
		want:  map[string]string{"tests/a.tftest.hcl::unknown": "error", "tests/a.tftest.hcl::after": "skip"},
		diags: []string{"error: Unknown condition value"},
	}, {
		name:  "an unknown condition at plan: OpenTofu fails",
		d:     dialect.Tofu,
		files: unknownCondition,
		want:  map[string]string{"tests/a.tftest.hcl::unknown": "fail", "tests/a.tftest.hcl::after": "pass"},
		diags: []string{"error: Test assertion failed"},
	}, {
		name: "an apply with a provider the file does not mock is skipped",
		files: map[string]string{
			"main.tf": awsProvider + `resource "aws_thing" "t" { name = "n" }`,
			"tests/a.tftest.hcl": `
run "apply" {}
run "after" {
  command = plan
  assert {
    condition     = aws_thing.t.name == "n"
    error_message = "wrong"
  }
}
`},
		want: map[string]string{"tests/a.tftest.hcl": "skip", "tests/a.tftest.hcl::apply": "skip", "tests/a.tftest.hcl::after": "skip"},
	}, {
		name: "a plan assertion on what an unmocked data source reads is skipped, one on arguments decided",
		files: map[string]string{
			"main.tf": awsProvider + `
data "aws_lookup" "l" { key = "k" }
resource "aws_thing" "t" { name = data.aws_lookup.l.key }
`,
			"tests/a.tftest.hcl": `
run "args" {
  command = plan
  assert {
    condition     = aws_thing.t.name == "k"
    error_message = "wrong"
  }
}
run "read" {
  command = plan
  assert {
    condition     = data.aws_lookup.l.value == "v"
    error_message = "wrong"
  }
}
`},
		want: map[string]string{"tests/a.tftest.hcl::args": "pass", "tests/a.tftest.hcl::read": "skip"},
	}, {
		name: "overrides of resources, data sources and modules, at file and run level",
		files: map[string]string{
			"main.tf": awsProvider + `
resource "aws_thing" "t" { name = "n" }
data "aws_ssm_parameter" "l" { name = "k" }
module "m" {
  source = "./m"
}
output "out" {
  # The aws schema makes the parameter's value sensitive.
  value     = "${aws_thing.t.id}/${data.aws_ssm_parameter.l.value}/${module.m.x}"
  sensitive = true
}
output "z" { value = module.m.z }
`,
			"m/main.tf": `output "x" { value = "real" }
output "y" { value = "y" }
output "z" { value = { a = ["real"] } }`,
			"tests/a.tftest.hcl": `
override_resource {
  target = aws_thing.t
  values = { id = "file-id" }
}
override_data {
  target = data.aws_ssm_parameter.l
  values = { value = "file-value" }
}
run "file_level" {
  state_key = "other"
  override_module {
    target  = module.m
    outputs = { x = "fake", z = { a = ["b"] } }
  }
  assert {
    condition     = output.out == "file-id/file-value/fake" && module.m.y == null && output.z.a[0] == "b"
    error_message = "out is ${output.out}"
  }
}
run "run_level" {
  override_resource {
    target = aws_thing.t
    values = { id = "run-id" }
  }
  assert {
    condition     = output.out == "run-id/file-value/real"
    error_message = "out is ${output.out}"
  }
}
`},
		want: map[string]string{"tests/a.tftest.hcl::file_level": "pass", "tests/a.tftest.hcl::run_level": "pass"},
	}, {
		name: "an expected validation failure: what reads the variable is not evaluated",
		files: map[string]string{
			"main.tf": `
variable "level" {
  type = string
  validation {
    condition     = contains(["CanNotDelete", "ReadOnly"], var.level)
    error_message = "bad level"
  }
}
locals { notes = { CanNotDelete = "a", ReadOnly = "b" } }
resource "terraform_data" "lock" {
  count = var.level != null ? 1 : 0
  input = local.notes[var.level]
}
`,
			"tests/a.tftest.hcl": `
run "rejected" {
  command = plan
  variables { level = "None" }
  expect_failures = [var.level]
}
`},
		want: map[string]string{"tests/a.tftest.hcl::rejected": "pass"},
	}, {
		name: "an expected precondition failure: what depends on the resource is not evaluated",
		files: map[string]string{
			"main.tf": `
variable "sets" {
  type    = map(string)
  default = {}
}
variable "set_key" { default = "missing" }
resource "terraform_data" "registry" {
  lifecycle {
    precondition {
      condition     = contains(keys(var.sets), var.set_key)
      error_message = "set_key must name a set"
    }
  }
}
module "set" {
  source   = "./m"
  for_each = var.sets
  in       = terraform_data.registry.id
}
module "rule" {
  source = "./m"
  in     = module.set[var.set_key].out
}
`,
			"m/main.tf": `
variable "in" { type = string }
output "out" { value = var.in }
`,
			"tests/a.tftest.hcl": `
run "missing_set" {
  command         = plan
  expect_failures = [terraform_data.registry]
}
`},
		want: map[string]string{"tests/a.tftest.hcl::missing_set": "pass"},
	}, {
		name: "expect_failures naming an attribute expects its object's failure",
		files: map[string]string{
			"main.tf": `
variable "lock" {
  type    = object({ kind = string })
  default = null
  validation {
    condition     = var.lock == null ? true : contains(["a", "b"], var.lock.kind)
    error_message = "bad kind"
  }
}
resource "terraform_data" "d" {
  input = "x"
  lifecycle {
    postcondition {
      condition     = var.lock != null || self.output == "y"
      error_message = "not y"
    }
  }
}
`,
			"tests/a.tftest.hcl": `
run "postcondition" {
  expect_failures = [terraform_data.d.output]
}
run "bad_kind" {
  command = plan
  variables {
    lock = { kind = "c" }
  }
  expect_failures = [var.lock.kind]
}
run "good_kind" {
  command = plan
  variables {
    lock = { kind = "a" }
  }
  expect_failures = [var.lock.kind]
}
`},
		want:  map[string]string{"tests/a.tftest.hcl::bad_kind": "pass", "tests/a.tftest.hcl::good_kind": "error", "tests/a.tftest.hcl::postcondition": "pass"},
		diags: []string{"error: Missing expected failure"},
	}, {
		name: "once applied, can of a resource or module call without schema is true",
		files: map[string]string{
			"main.tf": awsProvider + `
variable "tags" { default = null }
resource "aws_thing" "t" {
  name = "n"
  tags = var.tags
}
resource "aws_thing" "c" {
  count = 2
  name  = "c"
  tags  = var.tags
}
module "m" {
  source = "./m"
  tags   = var.tags
}
`,
			"m/main.tf": awsProvider + `
variable "tags" {}
resource "aws_thing" "t" {
  name = "m"
  tags = var.tags
}
output "thing" { value = aws_thing.t }
`,
			"tests/a.tftest.hcl": `
mock_provider "aws" {}
run "applied" {
  assert {
    condition     = can(aws_thing.t) && can(aws_thing.c[1]) && can(module.m) && can(module.m.thing)
    error_message = "cannot"
  }
}
run "attribute" {
  assert {
    condition     = can(aws_thing.t.tags)
    error_message = "cannot"
  }
}
`},
		want: map[string]string{"tests/a.tftest.hcl::applied": "pass", "tests/a.tftest.hcl::attribute": "skip"},
	}, {
		name: "an assertion's error message is evaluated whatever its condition gives",
		files: map[string]string{
			"main.tf": `
variable "secret" {
  default   = "x"
  sensitive = true
}
output "nothing" { value = null }
`,
			"tests/a.tftest.hcl": `
run "message_error" {
  command = plan
  assert {
    condition     = output.nothing == null
    error_message = "nothing is ${output.nothing}"
  }
}
`,
			"tests/b.tftest.hcl": `
run "null_message" {
  command = plan
  assert {
    condition     = output.nothing == null
    error_message = output.nothing
  }
}
`,
			"tests/c.tftest.hcl": `
run "sensitive_message" {
  command = plan
  assert {
    condition     = var.secret == "x"
    error_message = "secret is ${var.secret}"
  }
}
`},
		want:  map[string]string{"tests/a.tftest.hcl::message_error": "error", "tests/b.tftest.hcl::null_message": "error", "tests/c.tftest.hcl::sensitive_message": "pass"},
		diags: []string{"error: Invalid error message", "error: Invalid template interpolation value", "warning: Error message refers to sensitive values"},
	}, {
		name: "expected failures: a validation that fails, one that does not",
		files: map[string]string{
			"main.tf": `
variable "port" {
  default = 8080
  validation {
    condition     = var.port > 1024
    error_message = "Too low."
  }
}
`,
			"tests/a.tftest.hcl": `
run "expected" {
  command = plan
  variables { port = 80 }
  expect_failures = [var.port]
}
run "missing" {
  command = plan
  expect_failures = [var.port]
}
`},
		want:  map[string]string{"tests/a.tftest.hcl::expected": "pass", "tests/a.tftest.hcl::missing": "error"},
		diags: []string{"error: Missing expected failure"},
	}, {
		name: "assertions see the test file's variables the module does not declare",
		files: map[string]string{
			"main.tf": `variable "v" { default = "a" }
output "v" { value = var.v }`,
			"tests/a.tftest.hcl": `
variables {
  expected = "b"
}
run "compare" {
  command = plan
  variables { v = "b" }
  assert {
    condition     = output.v == var.expected && var.v == "b"
    error_message = "v is ${output.v}"
  }
}
`},
		want: map[string]string{"tests/a.tftest.hcl::compare": "pass"},
	}, {
		name: "a reference to a later run is a cycle",
		files: map[string]string{
			"main.tf": `variable "v" { default = "a" }
output "v" { value = var.v }`,
			"tests/a.tftest.hcl": `
run "first" {
  command = plan
  variables { v = run.second.v }
}
run "second" {
  command = plan
}
`},
		want:  map[string]string{"tests/a.tftest.hcl": "error", "tests/a.tftest.hcl::first": "", "tests/a.tftest.hcl::second": ""},
		diags: []string{"error: Cycle: tests/a.tftest.hcl.run.first, tests/a.tftest.hcl.run.second"},
	}, {
		name: "a string compared with a number read from a resource without schema needs the schema",
		files: map[string]string{
			"main.tf": awsProvider + `resource "aws_thing" "t" {
  name = "n"
  protocol = -1
}`,
			"tests/a.tftest.hcl": `
mock_provider "aws" {}
run "mixed" {
  command = plan
  assert {
    condition     = aws_thing.t.protocol == "-1"
    error_message = "wrong"
  }
}
run "same_type" {
  command = plan
  assert {
    condition     = aws_thing.t.protocol == -1
    error_message = "wrong"
  }
}
`},
		want: map[string]string{"tests/a.tftest.hcl::mixed": "skip", "tests/a.tftest.hcl::same_type": "pass"},
	}, {
		// The plan fills in what the assertions read, through outputs
		// holding the whole object too: an attribute the configuration
		// does not set is unknown, never missing.
		name: "an attribute of a resource without schema read through an output",
		files: map[string]string{
			"main.tf": awsProvider + `resource "aws_thing" "t" {
  name = "n"
}
output "thing" { value = aws_thing.t }
module "m" {
  source = "./m"
}`,
			"m/main.tf": awsProvider + `resource "aws_thing" "u" {
  name = "u"
}
output "thing" { value = aws_thing.u }
output "copy" { value = { for k, v in aws_thing.u : k => v } }`,
			"tests/a.tftest.hcl": `
run "root_output" {
  command = plan
  assert {
    condition     = output.thing.arn != ""
    error_message = "wrong"
  }
}
run "module_output" {
  command = plan
  assert {
    condition     = module.m.thing.arn != ""
    error_message = "wrong"
  }
}
run "copied" {
  command = plan
  assert {
    condition     = module.m.copy.tags_all.Name == "u"
    error_message = "wrong"
  }
}
run "set" {
  command = plan
  assert {
    condition     = output.thing.name == "n" && module.m.thing.name == "u"
    error_message = "wrong"
  }
}
`},
		want: map[string]string{"tests/a.tftest.hcl::root_output": "skip", "tests/a.tftest.hcl::module_output": "skip", "tests/a.tftest.hcl::copied": "skip", "tests/a.tftest.hcl::set": "pass"},
	}, {
		// What a later run reads of an earlier run's outputs is planned
		// by the earlier run too.
		name: "an attribute of a resource without schema read through an earlier run's output",
		files: map[string]string{
			"main.tf": `
variable "vpc_id" { type = string }
output "id" { value = var.vpc_id }`,
			"setup/main.tf": awsProvider + `resource "aws_thing" "v" {
  cidr_block = "10.0.0.0/16"
}
output "vpc" { value = aws_thing.v }`,
			".terraform/modules/modules.json": `{"Modules": [
  {"Key": "", "Source": "", "Dir": "."},
  {"Key": "test.tests.a.setup", "Source": "./setup", "Dir": "setup"}
]}`,
			"tests/a.tftest.hcl": `
mock_provider "aws" {}
run "setup" {
  module {
    source = "./setup"
  }
}
run "later" {
  command = plan
  variables {
    vpc_id = run.setup.vpc.owner_id
  }
  assert {
    condition     = run.setup.vpc.arn != ""
    error_message = "wrong"
  }
}
`},
		want: map[string]string{"tests/a.tftest.hcl::setup": "pass", "tests/a.tftest.hcl::later": "skip"},
	}, {
		// A later run that gives its module an earlier run's object as a
		// variable gets the object Terraform would: what the module reads
		// of the variable (through an object or tuple built around it, a
		// module call, the variable's type) is planned by the earlier
		// run, unknown where nothing sets it, and so is what its
		// assertions and a later run's read through its outputs.
		name: "an object of a resource without schema given a later run's variable",
		files: map[string]string{
			"main.tf": `
variable "vpc" {}
variable "wrapped" {}
variable "typed" { type = object({ owner_id = string }) }
output "arn" { value = var.vpc.arn }
output "cidr" { value = var.vpc.cidr_block }
output "tags" { value = var.wrapped.inner[0].tags_all }
output "vpc" { value = var.vpc }
module "m" {
  source = "./m"
  v      = var.typed
}`,
			"m/main.tf": `
variable "v" {}
output "owner" { value = var.v.owner_id }`,
			"setup/main.tf": awsProvider + `resource "aws_thing" "v" {
  cidr_block = "10.0.0.0/16"
}
output "vpc" { value = aws_thing.v }`,
			".terraform/modules/modules.json": `{"Modules": [
  {"Key": "", "Source": "", "Dir": "."},
  {"Key": "m", "Source": "./m", "Dir": "m"},
  {"Key": "test.tests.a.setup", "Source": "./setup", "Dir": "setup"}
]}`,
			"tests/a.tftest.hcl": `
mock_provider "aws" {}
run "setup" {
  module {
    source = "./setup"
  }
}
run "set" {
  command = plan
  variables {
    vpc     = run.setup.vpc
    wrapped = { inner = [run.setup.vpc] }
    typed   = run.setup.vpc
  }
  assert {
    condition     = output.cidr == "10.0.0.0/16"
    error_message = "wrong"
  }
}
run "unset" {
  command = plan
  variables {
    vpc     = run.setup.vpc
    wrapped = { inner = [run.setup.vpc] }
    typed   = run.setup.vpc
  }
  assert {
    condition     = output.arn != "" && module.m.owner != ""
    error_message = "wrong"
  }
}
run "not_read" {
  command = plan
  variables {
    vpc     = run.setup.vpc
    wrapped = { inner = [run.setup.vpc] }
    typed   = run.setup.vpc
  }
  assert {
    condition     = var.vpc.main_route_table_id != ""
    error_message = "wrong"
  }
}
run "chained" {
  command = plan
  variables {
    vpc     = run.setup.vpc
    wrapped = { inner = [run.setup.vpc] }
    typed   = run.setup.vpc
  }
  assert {
    condition     = run.set.vpc.dhcp_options_id != ""
    error_message = "wrong"
  }
}
`},
		want: map[string]string{"tests/a.tftest.hcl::setup": "pass", "tests/a.tftest.hcl::set": "pass", "tests/a.tftest.hcl::unset": "skip", "tests/a.tftest.hcl::not_read": "skip", "tests/a.tftest.hcl::chained": "skip"},
	}, {
		// An assertion sees the global value (here from a variables file
		// of the test directory) of a variable the module does not
		// declare; the plan does not get it.
		name: "an assertion refers to an undeclared variable a variables file gives",
		files: map[string]string{
			"main.tf": `
variable "size" {}
output "size" { value = var.size }`,
			"tests/values.auto.tfvars": `
size = 3
expected = { size = 3 }`,
			"tests/a.tftest.hcl": `
run "global" {
  command = plan
  assert {
    condition     = output.size == var.expected.size
    error_message = "wrong"
  }
}
run "file_wins" {
  command = plan
  variables {
    expected = { size = 4 }
  }
  assert {
    condition     = output.size == var.expected.size
    error_message = "wrong"
  }
}
run "absent" {
  command = plan
  assert {
    condition     = var.nowhere == 1
    error_message = "wrong"
  }
}
`,
			"tests/b.tftest.hcl": `
run "in_variables" {
  command = plan
  variables {
    size = var.expected.size
  }
  assert {
    condition     = output.size == 3
    error_message = "wrong"
  }
}
`},
		want: map[string]string{"tests/a.tftest.hcl::global": "pass", "tests/a.tftest.hcl::file_wins": "fail", "tests/a.tftest.hcl::absent": "error", "tests/b.tftest.hcl::in_variables": "pass"},
		// Terraform 1.13 on warns of the global values read without a
		// variable block: global's assertion, and in_variables' variables
		// block both as an expression and as the run's reference.
		diags: []string{"error: Reference to undeclared input variable", "error: Test assertion failed", "warning: Variable referenced without definition", "warning: Variable referenced without definition", "warning: Variable referenced without definition"},
	}, {
		name: "a number compared with a string read from a resource without schema needs the schema",
		files: map[string]string{
			"main.tf": awsProvider + `resource "aws_thing" "t" {
  size = "8"
  kind = "large"
}`,
			"tests/a.tftest.hcl": `
mock_provider "aws" {}
run "reads_as_number" {
  command = plan
  assert {
    condition     = aws_thing.t.size == 8
    error_message = "wrong"
  }
}
run "not_a_number" {
  command = plan
  assert {
    condition     = aws_thing.t.kind != 8
    error_message = "wrong"
  }
}
run "resource_prefix" {
  command = plan
  assert {
    condition     = resource.aws_thing.t.size == 8
    error_message = "wrong"
  }
}
`},
		want: map[string]string{"tests/a.tftest.hcl::reads_as_number": "skip", "tests/a.tftest.hcl::not_a_number": "pass", "tests/a.tftest.hcl::resource_prefix": "skip"},
	}, {
		name: "a JSON document read from a resource without schema compared with the same one written differently needs the schema",
		files: map[string]string{
			"main.tf": awsProvider + `resource "aws_thing" "t" {
  pattern = "{\"b\": [1], \"a\": \"x\"}"
}
resource "aws_thing" "each" {
  for_each = toset(["p", "q"])
  pattern  = jsonencode({ n = 1, k = each.key })
}`,
			"tests/a.tftest.hcl": `
mock_provider "aws" {}
run "reordered" {
  command = plan
  assert {
    condition     = aws_thing.t.pattern == "{\"a\":\"x\",\"b\":[1]}"
    error_message = "wrong"
  }
}
run "other_document" {
  command = plan
  assert {
    condition     = aws_thing.t.pattern != "{\"a\":\"y\",\"b\":[1]}"
    error_message = "wrong"
  }
}
run "each_instance" {
  command = plan
  assert {
    condition     = alltrue([for k, v in aws_thing.each : v.pattern == "{\"n\":1,\"k\":\"${k}\"}"])
    error_message = "wrong"
  }
}
`},
		want: map[string]string{"tests/a.tftest.hcl::reordered": "skip", "tests/a.tftest.hcl::other_document": "pass", "tests/a.tftest.hcl::each_instance": "skip"},
	}, {
		name: "a set compared with a tuple read from a resource without schema needs the schema",
		files: map[string]string{
			"main.tf": awsProvider + `resource "aws_thing" "t" {
  name   = "n"
  bypass = ["AzureServices"]
}`,
			"tests/a.tftest.hcl": `
mock_provider "aws" {}
run "as_set" {
  command = plan
  assert {
    condition     = aws_thing.t.bypass == toset(["AzureServices"])
    error_message = "wrong"
  }
}
run "other_elements" {
  command = plan
  assert {
    condition     = aws_thing.t.bypass != toset(["None"])
    error_message = "wrong"
  }
}
`},
		// Unequal elements are unequal whatever the schema's type.
		want: map[string]string{"tests/a.tftest.hcl::as_set": "skip", "tests/a.tftest.hcl::other_elements": "pass"},
	}, {
		// can() of an equality is true whatever the equality gives.
		name: "a string compared with a number inside can() is decided",
		files: map[string]string{
			"main.tf": awsProvider + `resource "aws_thing" "t" {
  name      = "n"
  threshold = "69"
}`,
			"tests/a.tftest.hcl": `
mock_provider "aws" {}
run "in_can" {
  command = plan
  assert {
    condition     = can(aws_thing.t.threshold == 69)
    error_message = "wrong"
  }
}
run "bare" {
  command = plan
  assert {
    condition     = (aws_thing.t.threshold == 69) || can(aws_thing.t.threshold == 69 ? 1 : 0)
    error_message = "wrong"
  }
}
`},
		want: map[string]string{"tests/a.tftest.hcl::in_can": "pass", "tests/a.tftest.hcl::bare": "skip"},
	}, {
		// A resource without instances is an empty object (for_each) or
		// tuple (count) whatever its schema; an empty argument is not.
		name: "a resource without instances compared with an empty object is decided",
		files: map[string]string{
			"main.tf": awsProvider + `resource "aws_thing" "none" {
  for_each = {}
  name     = each.key
}
resource "aws_thing" "zero" {
  count = 0
  name  = "z"
}
resource "aws_thing" "t" {
  name = "n"
  tags = {}
}`,
			"tests/a.tftest.hcl": `
mock_provider "aws" {}
run "instances" {
  command = plan
  assert {
    condition     = aws_thing.none == {} && aws_thing.zero == []
    error_message = "wrong"
  }
}
run "marked" {
  command = plan
  assert {
    condition     = sensitive({}) == {} && aws_thing.none == sensitive({})
    error_message = "wrong"
  }
}
run "argument" {
  command = plan
  assert {
    condition     = aws_thing.t.tags == {}
    error_message = "wrong"
  }
}
`},
		want: map[string]string{"tests/a.tftest.hcl::instances": "pass", "tests/a.tftest.hcl::marked": "pass", "tests/a.tftest.hcl::argument": "skip"},
	}, {
		// Each run validates the configuration first, every block whatever
		// its count: the error of a resource without instances fails the
		// run, and it alone is reported (not the failed assertion).
		name: "an error in a resource without instances",
		files: map[string]string{
			"main.tf": `
variable "enabled" { default = false }
resource "terraform_data" "off" {
  count = var.enabled ? 1 : 0
  input = upper(1, 2)
}
resource "terraform_data" "list" {
  count = 0
  input = var.enabled[count.index]
}
output "o" { value = "a" }
`,
			"tests/a.tftest.hcl": `
run "off" {
  command = plan
  assert {
    condition     = output.o == "b"
    error_message = "wrong"
  }
}
`},
		want:  map[string]string{"tests/a.tftest.hcl::off": "error"},
		diags: []string{"error: Too many function arguments"},
	}, {
		// An error only an instance's key could make is not validate's.
		name: "an instance's error in a resource without instances",
		files: map[string]string{
			"main.tf": `
variable "names" { default = [] }
resource "terraform_data" "each" {
  count = length(var.names)
  input = var.names[count.index]
}
`,
			"tests/a.tftest.hcl": `
run "none" {
  command = plan
}
`},
		want: map[string]string{"tests/a.tftest.hcl::none": "pass"},
	}, {
		name: "a tuple or object read from a resource without schema compared with an equal one needs the schema",
		files: map[string]string{
			"main.tf": awsProvider + `resource "aws_thing" "t" {
  name  = "n"
  zones = ["a", "b"]
  tags   = { Team = "x" }
  empty  = []
  policy = jsonencode({ Effect = ["Allow"] })
}
resource "aws_thing" "u" {
  name  = "n"
  zones = ["a", "b"]
}
output "zones" {
  value = aws_thing.t.zones
}
output "thing" {
  value = aws_thing.t
}
output "computed" {
  value = ["a", "b"]
}
module "m" {
  source = "./m"
}`,
			"m/main.tf": awsProvider + `resource "aws_thing" "c" {
  name = "n"
  tags = { Team = "x" }
}
output "tags" {
  value = aws_thing.c.tags
}`,
			"tests/a.tftest.hcl": `
mock_provider "aws" {}
run "tuple" {
  command = plan
  assert {
    condition     = aws_thing.t.zones == ["a", "b"]
    error_message = "wrong"
  }
}
run "object" {
  command = plan
  assert {
    condition     = aws_thing.t.tags == { Team = "x" }
    error_message = "wrong"
  }
}
run "empty" {
  command = plan
  assert {
    condition     = aws_thing.t.empty == []
    error_message = "wrong"
  }
}
run "different_elements" {
  command = plan
  assert {
    condition     = aws_thing.t.zones != ["c"]
    error_message = "wrong"
  }
}
run "two_arguments_of_one_type" {
  command = plan
  assert {
    condition     = aws_thing.t.zones == aws_thing.u.zones
    error_message = "wrong"
  }
}
run "an_element" {
  command = plan
  assert {
    condition     = aws_thing.t.zones[0] == "a" && aws_thing.t.tags.Team == "x"
    error_message = "wrong"
  }
}
run "through_outputs" {
  command = plan
  assert {
    condition     = output.zones == ["a", "b"]
    error_message = "wrong"
  }
}
run "through_an_output_of_the_resource" {
  command = plan
  assert {
    condition     = output.thing.tags == { Team = "x" }
    error_message = "wrong"
  }
}
run "through_a_module_output" {
  command = plan
  assert {
    condition     = module.m.tags == { Team = "x" }
    error_message = "wrong"
  }
}
run "an_output_of_its_own" {
  command = plan
  assert {
    condition     = output.computed == ["a", "b"]
    error_message = "wrong"
  }
}
run "computed_from_the_argument" {
  command = plan
  assert {
    condition     = jsondecode(aws_thing.t.policy).Effect == ["Allow"] && keys(aws_thing.t.tags) == ["Team"]
    error_message = "wrong"
  }
}
run "a_for_variable_read_as_is" {
  command = plan
  assert {
    condition     = alltrue([for z in [aws_thing.t.zones] : z == ["a", "b"]])
    error_message = "wrong"
  }
}
`},
		// With a list, set or map type in the schema the argument equals
		// no tuple or object: Terraform's answer is false; with a dynamic
		// one, true. Unequal elements, two arguments of the same type and
		// primitive elements are decided.
		want: map[string]string{"tests/a.tftest.hcl::tuple": "skip", "tests/a.tftest.hcl::object": "skip", "tests/a.tftest.hcl::empty": "skip",
			"tests/a.tftest.hcl::different_elements": "pass", "tests/a.tftest.hcl::two_arguments_of_one_type": "pass", "tests/a.tftest.hcl::an_element": "pass",
			"tests/a.tftest.hcl::through_outputs": "skip", "tests/a.tftest.hcl::through_an_output_of_the_resource": "skip", "tests/a.tftest.hcl::through_a_module_output": "skip",
			"tests/a.tftest.hcl::an_output_of_its_own": "pass", "tests/a.tftest.hcl::computed_from_the_argument": "pass",
			"tests/a.tftest.hcl::a_for_variable_read_as_is": "skip"},
	}, {
		name: "an argument of dynamic type keeps the configuration's type",
		files: map[string]string{
			"main.tf": `terraform {
  required_providers {
    azapi = { source = "Azure/azapi" }
  }
}
resource "azapi_resource" "r" {
  type = "Microsoft.Resources/resourceGroups@2021-04-01"
  name = "rg"
  body = { properties = { zones = ["1", "2"] } }
  tags = { Team = "x" }
}`,
			"tests/a.tftest.hcl": `
mock_provider "azapi" {}
run "body" {
  command = plan
  assert {
    condition     = azapi_resource.r.body == { properties = { zones = ["1", "2"] } }
    error_message = "wrong"
  }
}
run "tags" {
  command = plan
  assert {
    condition     = azapi_resource.r.tags == { Team = "x" }
    error_message = "wrong"
  }
}
`},
		// azapi's body is dynamic; its tags a map of strings (its table
		// says so), which is not equal to an object.
		want: map[string]string{"tests/a.tftest.hcl::body": "pass", "tests/a.tftest.hcl::tags": "fail"},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			rep := runFiles(t, tc.files, tc.d)
			if rep.Stopped() {
				t.Fatalf("stopped: %v", rep.Diagnostics)
			}
			got := statuses(rep)
			for k, want := range tc.want {
				if got[k] != want {
					t.Errorf("%s: %q, want %q", k, got[k], want)
				}
			}
			if tc.diags != nil {
				if g := summaries(rep); !reflect.DeepEqual(g, tc.diags) {
					t.Errorf("diagnostics %q, want %q", g, tc.diags)
				}
			}
		})
	}
}

func TestRunStateAcrossRuns(t *testing.T) {
	rep := runFiles(t, map[string]string{
		"main.tf": `
variable "v" { default = "a" }
resource "terraform_data" "x" { input = var.v }
output "id" { value = terraform_data.x.id }
`,
		"tests/a.tftest.hcl": `
run "create" {}
run "update" {
  variables { v = "b" }
}
run "replace" {
  plan_options {
    replace = [terraform_data.x]
  }
}
`}, dialect.Terraform)
	ids := map[string]string{}
	for _, r := range rep.Files[0].Runs {
		if r.Status != Pass {
			t.Fatalf("%s: %s %v", r.Name, r.Status, r.Diagnostics)
		}
		ids[r.Name] = r.Result.Root().Outputs["id"].AsString()
	}
	if ids["create"] != ids["update"] {
		t.Errorf("an update changed the id: %s, then %s", ids["create"], ids["update"])
	}
	if ids["replace"] == ids["update"] {
		t.Errorf("a replaced object kept its id %s", ids["replace"])
	}
	if !regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$`).MatchString(ids["create"]) {
		t.Errorf("id %q is not shaped as a UUID", ids["create"])
	}
}

func TestRunNeedsProviderReason(t *testing.T) {
	rep := runFiles(t, map[string]string{
		"main.tf":            awsProvider + `resource "aws_thing" "t" { name = "n" }`,
		"tests/a.tftest.hcl": `run "apply" {}`,
	}, dialect.Terraform)
	r := runOf(t, rep, "tests/a.tftest.hcl::apply")
	if r.Status != Skip || r.NeedsProvider != "hashicorp/aws" || r.SkipReason != "the apply creates aws_thing.t" {
		t.Errorf("status %s, needs %q, reason %q", r.Status, r.NeedsProvider, r.SkipReason)
	}
	if rep.Status != Pass || rep.Skipped != 1 || rep.NeedsProvider != 1 {
		t.Errorf("summary %s with %d skipped, %d needing a provider", rep.Status, rep.Skipped, rep.NeedsProvider)
	}
}

func TestGeneratedValuesAreDeterministic(t *testing.T) {
	g := generator{seed: 1, addr: "aws_thing.t"}
	a, b := g.str(".id"), g.str(".id")
	if !a.RawEquals(b) || len(a.AsString()) != 8 {
		t.Fatalf("%#v then %#v", a, b)
	}
	if g.str(".arn").RawEquals(a) {
		t.Error("two attributes got the same string")
	}
	if (generator{seed: 1, addr: "aws_thing.u"}).str(".id").RawEquals(a) {
		t.Error("two instances got the same string")
	}
	if (generator{seed: 2, addr: "aws_thing.t"}).str(".id").RawEquals(a) {
		t.Error("two seeds gave the same string")
	}
	if v := g.value(cty.Object(map[string]cty.Type{"n": cty.Number, "b": cty.Bool, "l": cty.List(cty.String)}), ""); !v.GetAttr("n").RawEquals(cty.Zero) || v.GetAttr("b").True() || v.GetAttr("l").LengthInt() != 0 {
		t.Errorf("object generated as %#v", v)
	}
}

func TestMockedCollectionsWithoutSchema(t *testing.T) {
	files := map[string]string{
		"main.tf": awsProvider + `
data "aws_users" "all" {}
locals {
  admins = [for u in data.aws_users.all.users : u.name if u.admin]
}
check "no_unknown_logins" {
  assert {
    condition     = length(data.aws_users.all.unknown) == 0 && length(local.admins) == 0
    error_message = "Unknown: ${join(", ", data.aws_users.all.unknown)}"
  }
}
check "opaque" {
  assert {
    condition     = data.aws_users.all.count == 0
    error_message = "count is ${data.aws_users.all.count}"
  }
}
`,
		"tests/a.tftest.hcl": `
mock_provider "aws" {}
run "plan" {
  command = plan
}
`}
	rep := runFiles(t, files, dialect.Terraform)
	r := runOf(t, rep, "tests/a.tftest.hcl::plan")
	// users and unknown are read as lists: generated empty, so the first
	// check passes; count's type is not known, so the second check is not
	// decided and the run needs the provider's schema.
	if r.Status != Skip || r.NeedsProvider != "hashicorp/aws" || !regexp.MustCompile(`check\.opaque`).MatchString(r.SkipReason) {
		t.Errorf("status %s, needs %q, reason %q, diagnostics %v", r.Status, r.NeedsProvider, r.SkipReason, r.Diagnostics)
	}
	files["main.tf"] = files["main.tf"][:len(files["main.tf"])-len(`check "opaque" {
  assert {
    condition     = data.aws_users.all.count == 0
    error_message = "count is ${data.aws_users.all.count}"
  }
}
`)]
	rep = runFiles(t, files, dialect.Terraform)
	if r := runOf(t, rep, "tests/a.tftest.hcl::plan"); r.Status != Pass {
		t.Errorf("without the opaque check: status %s %s %v", r.Status, r.SkipReason, r.Diagnostics)
	}
}

func TestHelperModuleCallsFromTheManifest(t *testing.T) {
	// init installs what a run block's module calls under the run's key.
	rep := runFiles(t, map[string]string{
		"main.tf": `output "ok" { value = true }`,
		"helper/main.tf": `
module "remote" {
  source = "example/remote/aws"
}
output "v" { value = module.remote.v }
`,
		"installed/remote/main.tf": `output "v" { value = "from the registry" }`,
		".terraform/modules/modules.json": `{"Modules": [
  {"Key": "", "Source": "", "Dir": "."},
  {"Key": "test.tests.a.setup", "Source": "./helper", "Dir": "helper"},
  {"Key": "test.tests.a.setup.remote", "Source": "example/remote/aws", "Dir": "installed/remote"}
]}`,
		"tests/a.tftest.hcl": `
run "setup" {
  command = plan
  module {
    source = "./helper"
  }
  assert {
    condition     = output.v == "from the registry"
    error_message = "v is ${output.v}"
  }
}
`}, dialect.Terraform)
	if got := statuses(rep); got["tests/a.tftest.hcl::setup"] != "pass" {
		t.Errorf("statuses %v, diagnostics %v", got, summaries(rep))
	}
}

func TestErrorsInUncountedInstances(t *testing.T) {
	// The subnets' number depends on what the data source reads: tfeval
	// evaluates one placeholder for them, where indexing the empty gateway
	// list fails; Terraform may find no subnet, and no error.
	rep := runFiles(t, map[string]string{
		"main.tf": awsProvider + `
data "aws_lookup" "zones" { key = "zones" }
variable "gateway" { default = false }
resource "terraform_data" "gw" {
  count = var.gateway ? 1 : 0
}
resource "terraform_data" "route" {
  for_each = toset(data.aws_lookup.zones.names)
  input    = terraform_data.gw[0].id
}
`,
		"tests/a.tftest.hcl": `run "plan" {
  command = plan
}`,
	}, dialect.Terraform)
	r := runOf(t, rep, "tests/a.tftest.hcl::plan")
	if r.Status != Skip || r.NeedsProvider != "hashicorp/aws" {
		t.Errorf("status %s, needs %q, reason %q, diagnostics %v", r.Status, r.NeedsProvider, r.SkipReason, r.Diagnostics)
	}
}

// TestManyInstances plans and applies enough mocked instances that lang
// plans them on several goroutines, each calling the runner's hook: the
// values are the same as one by one (run it with -race).
func TestManyInstances(t *testing.T) {
	files := map[string]string{
		"main.tf": awsProvider + `
resource "aws_thing" "t" {
  count = 600
  name  = "n${count.index}"
}
output "ids" { value = aws_thing.t[*].id }
`,
		"tests/a.tftest.hcl": `
mock_provider "aws" {}
run "apply" {
  assert {
    condition     = length(distinct(output.ids)) == 600
    error_message = "ids repeat"
  }
}
`}
	first := runFiles(t, files, dialect.Terraform)
	second := runFiles(t, files, dialect.Terraform)
	r1, r2 := runOf(t, first, "tests/a.tftest.hcl::apply"), runOf(t, second, "tests/a.tftest.hcl::apply")
	if r1.Status != Pass {
		t.Fatalf("status %s %v", r1.Status, r1.Diagnostics)
	}
	if !r1.Result.Root().Outputs["ids"].RawEquals(r2.Result.Root().Outputs["ids"]) {
		t.Error("two runs of the same test generated different ids")
	}
}

func TestDeferredMockedDataWithoutSchemaHasNoType(t *testing.T) {
	// A data source read only during apply (its depends_on names a
	// resource to be created) is unknown in the plan even though the mock
	// gives its attribute a string: the schema may type the attribute
	// dynamic, so reading into it is unknown, not an error.
	files := map[string]string{
		"main.tf": `
terraform {
  required_providers {
    thing = { source = "example/thing" }
  }
}
resource "thing_vault" "v" {}
data "thing_list" "l" {
  depends_on = [thing_vault.v]
}
locals {
  first = try(data.thing_list.l.output.value[0].id, null)
}
resource "thing_ext" "e" {
  name = basename(local.first)
}
output "first" {
  value = local.first
}
`,
		"tests/a.tftest.hcl": `
mock_provider "thing" {
  mock_data "thing_list" {
    defaults = {
      output = "{\"value\":[]}"
    }
  }
}
run "plan" {
  command = plan
}
run "apply" {
  assert {
    condition     = output.first == null
    error_message = "the applied read gives the mocked string, which has no attribute value"
  }
}
`}
	rep := runFiles(t, files, dialect.Terraform)
	if r := runOf(t, rep, "tests/a.tftest.hcl::plan"); r.Status != Pass {
		t.Errorf("plan: status %s %s %v", r.Status, r.SkipReason, r.Diagnostics)
	}
	// Applied, the read gives the string if the provider computes output,
	// and null if it does not: tfeval, without the schema, cannot tell
	// which, so the run waits for it.
	if r := runOf(t, rep, "tests/a.tftest.hcl::apply"); r.Status != Skip || r.NeedsProvider != "example/thing" {
		t.Errorf("apply: status %s %v", r.Status, r.Diagnostics)
	}
}

func TestSkippedRunOutputsThroughForExpressions(t *testing.T) {
	// A for over an unknown of no type gives a bare unknown: what derives
	// from the outputs of a run tfeval skipped stays undecided, not a
	// for_each Terraform would know when planning.
	rep := runFiles(t, map[string]string{
		"main.tf": awsProvider + `
variable "groups" {
  type    = map(object({ members = optional(map(string), {}) }))
  default = {}
}
locals {
  names   = [for g, v in var.groups : g]
  members = { for n in local.names : n => n }
}
resource "terraform_data" "m" {
  for_each = local.members
}
`,
		"setup/main.tf": awsProvider + `
resource "aws_thing" "t" {}
output "groups" {
  value = { one = { members = { x = aws_thing.t.id } } }
}
`,
		"tests/a.tftest.hcl": `
run "setup" {
  module {
    source = "./setup"
  }
}
run "main" {
  command = plan
  variables {
    groups = run.setup.groups
  }
}
`}, dialect.Terraform)
	// Nothing else the plan does depends on them: it passes, as
	// Terraform's does once the setup is applied.
	r := runOf(t, rep, "tests/a.tftest.hcl::main")
	if r.Status != Pass || strings.Contains(fmt.Sprint(r.Diagnostics), "Invalid for_each") {
		t.Errorf("status %s, reason %q, diagnostics %v", r.Status, r.SkipReason, r.Diagnostics)
	}
}

func TestSkippedRunOutputsThroughRunVariables(t *testing.T) {
	// The run's own variables derive a value from the outputs of a run
	// tfeval skipped, through a for and through a function: hcl makes
	// those unknowns afresh, and they must still say what tfeval lacked
	// rather than become a for_each Terraform would know when planning.
	files := map[string]string{
		"main.tf": awsProvider + `
variable "zones" {
  type = list(object({ name = string, id = string }))
}
resource "terraform_data" "z" {
  for_each = { for z in var.zones : z.name => z.id }
}
`,
		"setup/main.tf": awsProvider + `
resource "aws_thing" "t" {
  for_each = toset(["a", "b"])
}
output "zones" {
  value = { for k, v in aws_thing.t : k => { name = k, id = v.id } }
}
`,
	}
	for _, expr := range []string{`values(run.setup.zones)`, `[for z in run.setup.zones : z]`} {
		files["tests/a.tftest.hcl"] = `
run "setup" {
  module {
    source = "./setup"
  }
}
run "main" {
  command = plan
  variables {
    zones = ` + expr + `
  }
}
`
		rep := runFiles(t, files, dialect.Terraform)
		r := runOf(t, rep, "tests/a.tftest.hcl::main")
		if r.Status != Pass || strings.Contains(fmt.Sprint(r.Diagnostics), "Invalid for_each") {
			t.Errorf("%s: status %s, reason %q, diagnostics %v", expr, r.Status, r.SkipReason, r.Diagnostics)
		}
	}
}

// TestAssertionCallsProviderFunctionOnlyTheTestCalls: an assertion may call
// a function of a provider the module requires but never calls itself. The
// provider offers it; without the provider tfeval cannot answer, so the
// run is skipped for the provider, not failed with "Unknown provider
// function".
func TestAssertionCallsProviderFunctionOnlyTheTestCalls(t *testing.T) {
	rep := runFiles(t, map[string]string{
		"main.tf": `
terraform {
  required_providers {
    checks = { source = "example/checks" }
  }
}
output "region" { value = "eu-west-1" }
`,
		"tests/a.tftest.hcl": `
run "plan" {
  command = plan
  assert {
    condition     = provider::checks::region_valid(output.region)
    error_message = "invalid region"
  }
}
`}, dialect.Terraform)
	r := runOf(t, rep, "tests/a.tftest.hcl::plan")
	if r.Status != Skip || r.NeedsProvider != "example/checks" {
		t.Errorf("status %s, needs %q, reason %q, diagnostics %v", r.Status, r.NeedsProvider, r.SkipReason, r.Diagnostics)
	}
}

// TestMockedCollectionReadThroughTry: an attribute the module iterates
// through try (for n in try(data.X.attr, [])) is read as a collection as
// much as one iterated directly: generated empty, so a check block over it
// is decided.
func TestMockedCollectionReadThroughTry(t *testing.T) {
	rep := runFiles(t, map[string]string{
		"main.tf": awsProvider + `
data "aws_hosts" "all" {}
locals {
  busy = [for h in try((data.aws_hosts.all.hosts), []) : h if h.load > 1]
}
check "quiet" {
  assert {
    condition     = length(local.busy) == 0
    error_message = "busy hosts"
  }
}
`,
		"tests/a.tftest.hcl": `
mock_provider "aws" {}
run "plan" {
  command = plan
}
`}, dialect.Terraform)
	if r := runOf(t, rep, "tests/a.tftest.hcl::plan"); r.Status != Pass {
		t.Errorf("status %s, needs %q, reason %q, diagnostics %v", r.Status, r.NeedsProvider, r.SkipReason, r.Diagnostics)
	}
}

// TestApplyUndecidedPostconditionSkips: after an apply Terraform knows
// every value, so a postcondition over an attribute tfeval could not know
// (a mocked attribute without schema, a random result) decides the run in
// Terraform: the run is skipped, not passed. In a plan such a condition
// waits for the apply in Terraform too, and the run passes.
func TestApplyUndecidedPostconditionSkips(t *testing.T) {
	files := map[string]string{
		"main.tf": awsProvider + `
resource "aws_thing" "t" {
  name = "x"
  lifecycle {
    postcondition {
      condition     = self.size > 100
      error_message = "too small"
    }
  }
}
output "name" { value = aws_thing.t.name }
`,
		"tests/a.tftest.hcl": `
mock_provider "aws" {}
run "plan" {
  command = plan
  assert {
    condition     = output.name == "x"
    error_message = "name"
  }
}
run "apply" {
  assert {
    condition     = output.name == "x"
    error_message = "name"
  }
}
`}
	rep := runFiles(t, files, dialect.Terraform)
	if got := statuses(rep); got["tests/a.tftest.hcl::plan"] != "pass" || got["tests/a.tftest.hcl::apply"] != "skip" {
		t.Errorf("statuses %v, diagnostics %v", got, summaries(rep))
	}
	if r := runOf(t, rep, "tests/a.tftest.hcl::apply"); r.NeedsProvider != "hashicorp/aws" || !strings.Contains(r.SkipReason, "the postcondition of aws_thing.t") {
		t.Errorf("needs %q, reason %q", r.NeedsProvider, r.SkipReason)
	}
}

// TestPlanUndecidedDataPostconditionSkips: Terraform reads a mocked data
// source while planning and decides its postcondition then, on the value
// the mock generates; without the schema tfeval cannot, so the plan run is
// skipped rather than passed.
func TestPlanUndecidedDataPostconditionSkips(t *testing.T) {
	rep := runFiles(t, map[string]string{
		"main.tf": awsProvider + `
data "aws_lookup" "l" {
  key = "k"
  lifecycle {
    postcondition {
      condition     = self.size > 100
      error_message = "too small"
    }
  }
}
output "key" { value = data.aws_lookup.l.key }
`,
		"tests/a.tftest.hcl": `
mock_provider "aws" {}
run "plan" {
  command = plan
  assert {
    condition     = output.key == "k"
    error_message = "key"
  }
}
`}, dialect.Terraform)
	if r := runOf(t, rep, "tests/a.tftest.hcl::plan"); r.Status != Skip || !strings.Contains(r.SkipReason, "the postcondition of data.aws_lookup.l") {
		t.Errorf("status %s, needs %q, reason %q, diagnostics %v", r.Status, r.NeedsProvider, r.SkipReason, r.Diagnostics)
	}
}

// TestMockedArgumentFromRandom: a mocked resource without schema whose
// argument is built from an unmocked random result. In a plan, before an
// apply draws it, the result is unknown as in Terraform's plan, not for
// want of hashicorp/random; the argument is the configuration's (a mocked
// provider plans arguments as written), so a condition over it is unknown
// as in Terraform: "Unknown condition value", also over the whole object,
// unknown whatever else the schema adds to it. A condition over an
// attribute the configuration does not set waits on the mocked provider's
// schema; a known argument decides.
func TestMockedArgumentFromRandom(t *testing.T) {
	main := `
terraform {
  required_providers {
    random = { source = "hashicorp/random" }
    aws    = { source = "hashicorp/aws" }
  }
}
resource "random_string" "suffix" {
  length  = 5
  special = false
}
resource "aws_thing" "t" {
  name = "bucket-${random_string.suffix.result}"
  kind = "k"
}
resource "aws_thing" "n" {
  count = 2
  name  = "n-${random_string.suffix.result}"
}
`
	for _, tc := range []struct {
		name, command, condition string
		status                   Status
		needs, diag              string
	}{
		{"argument from random", "plan", `length(aws_thing.t.name) == 12`, Error, "", "Unknown condition value"},
		{"argument of each instance", "plan", `alltrue([for n in aws_thing.n : startswith(n.name, "n-x")])`, Error, "", "Unknown condition value"},
		{"known argument", "plan", `aws_thing.t.kind == "k"`, Pass, "", ""},
		{"whole object", "plan", `jsonencode(aws_thing.t) == "{}"`, Error, "", "Unknown condition value"},
		{"computed at plan", "plan", `aws_thing.t.arn != "x"`, Skip, "hashicorp/aws", ""},
		{"computed", "apply", `aws_thing.t.arn != "x"`, Skip, "hashicorp/aws", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rep := runFiles(t, map[string]string{
				"main.tf": main,
				"tests/a.tftest.hcl": fmt.Sprintf(`
mock_provider "aws" {}
run "r" {
  command = %s
  assert {
    condition     = %s
    error_message = "r"
  }
}
`, tc.command, tc.condition)}, dialect.Terraform)
			r := runOf(t, rep, "tests/a.tftest.hcl::r")
			if r.Status != tc.status || r.NeedsProvider != tc.needs {
				t.Fatalf("%s needing %q (%s), want %s needing %q", r.Status, r.NeedsProvider, r.SkipReason, tc.status, tc.needs)
			}
			if tc.diag != "" && (len(r.Diagnostics) != 1 || r.Diagnostics[0].Summary != tc.diag) {
				t.Errorf("diagnostics %v, want one %q", r.Diagnostics, tc.diag)
			}
		})
	}
}

// TestSchemalessIDAtPlan: a mocked resource without schema computes its
// id, a string, which a plan leaves unknown (mock values are given at
// apply, or during the plan with override_during = plan), so a plan's
// condition over it is "Unknown condition value" as in Terraform, not a
// skip for want of the schema. A data source is read while planning.
func TestSchemalessIDAtPlan(t *testing.T) {
	main := `
terraform {
  required_providers {
    aws = { source = "hashicorp/aws" }
  }
}
resource "aws_thing" "t" {
  name = "x"
}
data "aws_look" "d" {
  name = "x"
}
`
	for _, tc := range []struct {
		name, mock, command, condition string
		status                         Status
		diag                           string
	}{
		{"id at plan", "", "plan", `aws_thing.t.id != null`, Error, "Unknown condition value"},
		{"id through a function", "", "plan", `length(aws_thing.t.id) > 0`, Error, "Unknown condition value"},
		{"default given at apply only", `mock_resource "aws_thing" { defaults = { id = "i-1" } }`, "plan", `aws_thing.t.id == "i-1"`, Error, "Unknown condition value"},
		{"default given during the plan", `override_during = plan
  mock_resource "aws_thing" { defaults = { id = "i-1" } }`, "plan", `aws_thing.t.id == "i-1"`, Pass, ""},
		{"id applied", "", "apply", `aws_thing.t.id != null`, Pass, ""},
		{"data source read while planning", "", "plan", `data.aws_look.d.id != null`, Pass, ""},
		{"argument known", "", "plan", `aws_thing.t.name == "x"`, Pass, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := mockedAssertion(t, main, tc.mock, tc.command, tc.condition)
			if r.Status != tc.status {
				t.Fatalf("%s needing %q (%s), want %s", r.Status, r.NeedsProvider, r.SkipReason, tc.status)
			}
			if tc.diag != "" && (len(r.Diagnostics) != 1 || r.Diagnostics[0].Summary != tc.diag) {
				t.Errorf("diagnostics %v, want one %q", r.Diagnostics, tc.diag)
			}
		})
	}
}

// TestGivenAttributeAtPlan: a mocked provider gives what a mock or
// override names only to the attributes the provider computes; one the
// schema makes a plain optional argument, left unset, Terraform plans null
// and keeps null after the apply. Without the schema, an attribute the
// configuration does not set that a mock or override gives is unknown at
// plan only if the provider computes it: a condition over it waits for the
// schema, where tfeval reported an unknown condition (or a check known
// after apply) that Terraform, planning null, does not; so does one given
// during the plan or applied, which Terraform keeps null too unless the
// schema makes it computed (aws_thing is in no table of computed
// attributes: TestMockedAttributesByComputedTable has the aws provider's
// own types). id is computed by every provider.
func TestGivenAttributeAtPlan(t *testing.T) {
	for _, tc := range []struct {
		name, mock, command, condition, check string
		status                                Status
		diag                                  string
	}{
		{"overridden attribute at plan", `override_resource {
    target = aws_thing.t
    values = { description = "d" }
  }`, "plan", `aws_thing.t.description == "d"`, "", Skip, ""},
		{"in a check block", `override_resource {
    target = aws_thing.t
    values = { description = "d" }
  }`, "plan", `aws_thing.t.name == "x"`, `aws_thing.t.description != ""`, Skip, ""},
		{"mock default at plan", `mock_resource "aws_thing" {
    defaults = { description = "d" }
  }`, "plan", `aws_thing.t.description != null`, "", Skip, ""},
		{"nested block attribute at plan", `mock_resource "aws_thing" {
    defaults = { blk = { note = "n" } }
  }`, "plan", `aws_thing.t.blk[0].note == "n"`, "", Skip, ""},
		{"given during the plan", `override_during = plan
  override_resource {
    target = aws_thing.t
    values = { description = "d" }
  }`, "plan", `aws_thing.t.description == "d"`, "", Skip, ""},
		{"applied", `override_resource {
    target = aws_thing.t
    values = { description = "d" }
  }`, "apply", `aws_thing.t.description == "d"`, "", Skip, ""},
		{"overridden id at plan", `override_resource {
    target = aws_thing.t
    values = { id = "i-1" }
  }`, "plan", `aws_thing.t.id == "i-1"`, "", Error, "Unknown condition value"},
		{"check over id at plan", "", "plan", `aws_thing.t.name == "x"`, `aws_thing.t.id != ""`, Error, "Check block assertion known after apply"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			main := `
terraform {
  required_providers {
    aws = { source = "hashicorp/aws" }
  }
}
resource "aws_thing" "t" {
  name = "x"
  blk {
    key = "k"
  }
}
`
			if tc.check != "" {
				main += fmt.Sprintf("check \"c\" {\n  assert {\n    condition     = %s\n    error_message = \"c\"\n  }\n}\n", tc.check)
			}
			r := mockedAssertion(t, main, tc.mock, tc.command, tc.condition)
			if r.Status != tc.status {
				t.Fatalf("%s needing %q (%s), diagnostics %v, want %s", r.Status, r.NeedsProvider, r.SkipReason, r.Diagnostics, tc.status)
			}
			if tc.status == Skip && r.NeedsProvider != "hashicorp/aws" {
				t.Errorf("skipped needing %q, want hashicorp/aws", r.NeedsProvider)
			}
			if tc.diag != "" && (len(r.Diagnostics) != 1 || r.Diagnostics[0].Summary != tc.diag) {
				t.Errorf("diagnostics %v, want one %q", r.Diagnostics, tc.diag)
			}
		})
	}
}

// TestMockedEmptyArgument: a mocked provider plans the arguments the
// configuration sets as written, "" too (in an attribute or a nested
// block), although tfeval plans "" unknown for a provider it does not mock,
// which on the legacy SDK may treat "" as unset and compute the attribute.
func TestMockedEmptyArgument(t *testing.T) {
	main := `
resource "aws_thing" "t" {
  name = ""
  kind = var.kind
  blk {
    grp = ""
  }
  blk {
    grp = "g"
  }
}
variable "kind" {
  type    = string
  default = ""
}
`
	for _, tc := range []struct {
		name, mock, condition string
		status                Status
	}{
		{"attribute", `mock_provider "aws" {}`, `aws_thing.t.name == ""`, Pass},
		{"from a variable", `mock_provider "aws" {}`, `aws_thing.t.kind == "" && length(aws_thing.t.kind) == 0`, Pass},
		{"nested block", `mock_provider "aws" {}`, `aws_thing.t.blk[0].grp == "" && aws_thing.t.blk[1].grp == "g"`, Pass},
		{"not mocked", ``, `aws_thing.t.name == ""`, Skip},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rep := runFiles(t, map[string]string{
				"main.tf": main,
				"tests/a.tftest.hcl": fmt.Sprintf(`
%s
run "r" {
  command = plan
  assert {
    condition     = %s
    error_message = "r"
  }
}
`, tc.mock, tc.condition)}, dialect.Terraform)
			r := runOf(t, rep, "tests/a.tftest.hcl::r")
			if r.Status != tc.status {
				t.Fatalf("%s needing %q (%s) %v, want %s", r.Status, r.NeedsProvider, r.SkipReason, r.Diagnostics, tc.status)
			}
		})
	}
}

// TestMockedAtPlanByDialect: what a mocked provider or an override gives a
// managed resource is known while planning in OpenTofu, which has no
// override_during, and only after apply in Terraform unless
// override_during = plan; a data source deferred to apply stays unknown
// in both. An unknown condition at plan is an error in Terraform and a
// failure in OpenTofu.
func TestMockedAtPlanByDialect(t *testing.T) {
	main := awsProvider + `
resource "aws_thing" "t" {
  name = "x"
}
data "aws_lookup" "d" {
  key        = "k"
  depends_on = [aws_thing.t]
}
output "tid" {
  value = aws_thing.t.id
}
`
	const mockArn = `mock_provider "aws" {
  mock_resource "aws_thing" { defaults = { arn = "a:1" } }
}`
	for _, tc := range []struct {
		name                     string
		schemaless               bool
		file, command, condition string
		terraform, tofu          Status
	}{
		{"generated id", false, `mock_provider "aws" {}`, "plan", `aws_thing.t.id != "" && output.tid != ""`, Error, Pass},
		{"generated id without schema", true, `mock_provider "aws" {}`, "plan", `aws_thing.t.id != "" && output.tid != ""`, Error, Pass},
		{"mock_resource default", false, mockArn, "plan", `aws_thing.t.arn == "a:1"`, Error, Pass},
		{"wrong default fails", false, mockArn, "plan", `aws_thing.t.arn == "a:2"`, Error, Fail},
		{"file override of an unmocked provider", false, `override_resource {
  target = aws_thing.t
  values = { id = "o-1" }
}`, "plan", `aws_thing.t.id == "o-1"`, Error, Pass},
		{"data source deferred by depends_on", false, `mock_provider "aws" {
  mock_data "aws_lookup" { defaults = { value = "v" } }
}`, "plan", `data.aws_lookup.d.value == "v"`, Error, Fail},
		{"argument known", false, `mock_provider "aws" {}`, "plan", `aws_thing.t.name == "x"`, Pass, Pass},
		{"applied", false, mockArn, "apply", `aws_thing.t.arn == "a:1" && output.tid != null`, Pass, Pass},
	} {
		for _, d := range []dialect.Dialect{dialect.Terraform, dialect.Tofu} {
			want := tc.terraform
			if d == dialect.Tofu {
				want = tc.tofu
			}
			t.Run(tc.name+"/"+d.String(), func(t *testing.T) {
				files := map[string]string{
					"main.tf": main,
					"tests/a.tftest.hcl": fmt.Sprintf(`%s
run "r" {
  command = %s
  assert {
    condition     = %s
    error_message = "r"
  }
}
`, tc.file, tc.command, tc.condition)}
				if !tc.schemaless {
					files["providers-schema.json"] = awsSchema
				}
				r := runOf(t, runFiles(t, files, d), "tests/a.tftest.hcl::r")
				if r.Status != want {
					t.Fatalf("%s (%v; needing %q: %s), want %s", r.Status, r.Diagnostics, r.NeedsProvider, r.SkipReason, want)
				}
			})
		}
	}
}

// TestUnmockedProviderMayNormalize: a plan run over a provider the test
// does not mock plans its objects as the configuration gives them, but
// the provider may plan an argument otherwise (azurerm plans location
// "UK South" as "uksouth"). An assertion that fails on such an argument,
// directly or through a local, is a skip needing the provider; one that
// fails on the test's own values still fails, one that holds passes, and
// with the provider mocked (which plans arguments as given) the failure
// stands.
func TestUnmockedProviderMayNormalize(t *testing.T) {
	main := `
terraform {
  required_providers {
    azurerm = { source = "hashicorp/azurerm" }
  }
}
variable "location" {
  type    = string
  default = "UK South"
}
resource "azurerm_resource_group" "rg" {
  name     = "rg-app"
  location = var.location
}
locals {
  location = azurerm_resource_group.rg.location
}
`
	tests := `
run "normalized" {
  command = plan
  assert {
    condition     = local.location == "uksouth"
    error_message = "location"
  }
}
run "direct" {
  command = plan
  assert {
    condition     = azurerm_resource_group.rg.name == "rg-app"
    error_message = "name"
  }
  assert {
    condition     = azurerm_resource_group.rg.location == "uksouth"
    error_message = "location"
  }
}
run "own" {
  command = plan
  assert {
    condition     = var.location == "uksouth"
    error_message = "variable"
  }
}
run "holds" {
  command = plan
  assert {
    condition     = azurerm_resource_group.rg.name == "rg-app"
    error_message = "name"
  }
}
`
	rep := runFiles(t, map[string]string{
		"main.tf":                 main,
		"tests/a.tftest.hcl":      tests,
		"tests/mocked.tftest.hcl": "mock_provider \"azurerm\" {}\n" + tests,
	}, dialect.Terraform)
	wantStatuses(t, rep, map[string]string{
		"tests/a.tftest.hcl::normalized":      "skip",
		"tests/a.tftest.hcl::direct":          "skip",
		"tests/a.tftest.hcl::own":             "fail",
		"tests/a.tftest.hcl::holds":           "pass",
		"tests/mocked.tftest.hcl::normalized": "fail",
		"tests/mocked.tftest.hcl::direct":     "fail",
		"tests/mocked.tftest.hcl::own":        "fail",
		"tests/mocked.tftest.hcl::holds":      "pass",
	})
	wantNeeds(t, rep, "hashicorp/azurerm", "tests/a.tftest.hcl::normalized", "tests/a.tftest.hcl::direct")
}

// TestApplyKeepsOutputsThePlanKnew: an apply run's outputs that the plan
// knew keep their planned value, as Terraform does not evaluate them
// again: a comparison with a value unknown at plan (uuid() == "" ? "x" :
// null) that the plan decided stays decided, in a module too.
func TestApplyKeepsOutputsThePlanKnew(t *testing.T) {
	rep := runFiles(t, map[string]string{
		"main.tf": `
module "m" {
  source = "./m"
  input  = uuid() == "" ? "x" : null
}
output "provided" { value = module.m.provided }
`,
		"m/main.tf": `
variable "input" {
  type     = any
  nullable = false
  default  = { a = [] }
}
output "provided" { value = var.input != { a = [] } }
`,
		"tests/a.tftest.hcl": `
run "apply" {
  assert {
    condition     = module.m.provided && output.provided
    error_message = "the plan's value"
  }
}
`}, dialect.Terraform)
	wantStatuses(t, rep, map[string]string{"tests/a.tftest.hcl::apply": "pass"})
}

// TestUnreadThroughCanOfOutputs: a condition over the run's outputs
// that can() or try() turns into an unknown of its own keeps the cause
// the outputs have: the skip names the provider whose schema tfeval
// lacks, rather than only saying the condition is not known. (At plan,
// where the mocked provider has not filled in what it computes.)
func TestUnreadThroughCanOfOutputs(t *testing.T) {
	rep := runFiles(t, map[string]string{
		"main.tf": awsProvider + `
resource "aws_thing" "r" {
  for_each = { a = "10.0.0.0/24" }
  name     = each.value
}
output "routes" {
  value = [for r in try(aws_thing.r, null) : { name = r.name, other = r.other }]
}
`,
		"tests/a.tftest.hcl": `
mock_provider "aws" {}
run "r" {
  command = plan
  assert {
    condition     = can(cidrsubnet(output.routes[0].name, 0, 0))
    error_message = "x"
  }
}
`}, dialect.Terraform)
	wantStatuses(t, rep, map[string]string{"tests/a.tftest.hcl::r": "skip"})
	wantNeeds(t, rep, "hashicorp/aws", "tests/a.tftest.hcl::r")
}

// TestTryOfAppliedMockedResource: once a mocked provider has applied a
// resource tfeval has no schema for, Terraform knows all of it, so try()
// and can() of a reference to it decide as on a known value; what tfeval
// knows of it (the arguments) then reaches the assertions. Before the
// apply, and where try() is given more than a reference, they stay
// unknown.
func TestTryOfAppliedMockedResource(t *testing.T) {
	for _, tc := range []struct {
		name, command, output, condition, want string
	}{
		{"try of the resource, applied", "apply", `[for r in try(aws_thing.r, null) : r.name]`, `output.o[0] == "10.0.0.0/24"`, "pass"},
		{"try of an instance, applied", "apply", `try(aws_thing.r["a"], null).name`, `output.o == "10.0.0.0/24"`, "pass"},
		{"can of the resource, applied", "apply", `can(aws_thing.r)`, `output.o`, "pass"},
		{"wrong value found", "apply", `[for r in try(aws_thing.r, null) : r.name]`, `output.o[0] == "x"`, "fail"},
		{"try of the resource, planned", "plan", `[for r in try(aws_thing.r, null) : r.name]`, `output.o[0] == "10.0.0.0/24"`, "skip"},
		{"try of an expression over it", "apply", `try([for r in aws_thing.r : r.other], [])`, `length(output.o) == 1`, "skip"},
		{"try of the computed attribute", "apply", `try(aws_thing.r["a"].other, "d")`, `output.o != "d"`, "skip"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rep := runFiles(t, map[string]string{
				"main.tf": awsProvider + `
resource "aws_thing" "r" {
  for_each = { a = "10.0.0.0/24" }
  name     = each.value
  other    = null
}
output "o" {
  value = ` + tc.output + `
}
`,
				"tests/a.tftest.hcl": `
mock_provider "aws" {}
run "r" {
  command = ` + tc.command + `
  assert {
    condition     = ` + tc.condition + `
    error_message = "x"
  }
}
`}, dialect.Terraform)
			wantStatuses(t, rep, map[string]string{"tests/a.tftest.hcl::r": tc.want})
		})
	}
}

// TestSkippedRunOutputsNeedItsProvider: a run whose assertion reads the
// outputs of an earlier run skipped for want of a provider is skipped
// needing that provider.
func TestSkippedRunOutputsNeedItsProvider(t *testing.T) {
	rep := runFiles(t, map[string]string{
		"main.tf": `output "o" { value = "x" }`,
		"setup/main.tf": awsProvider + `
resource "aws_thing" "t" { name = "n" }
output "name" { value = aws_thing.t.name }
`,
		"tests/a.tftest.hcl": `
run "setup" {
  module {
    source = "./setup"
  }
}
run "after" {
  command = plan
  assert {
    condition     = run.setup.name == "n"
    error_message = "x"
  }
}
`}, dialect.Terraform)
	wantStatuses(t, rep, map[string]string{"tests/a.tftest.hcl::setup": "skip", "tests/a.tftest.hcl::after": "skip"})
	wantNeeds(t, rep, "hashicorp/aws", "tests/a.tftest.hcl::setup", "tests/a.tftest.hcl::after")
}

// TestReadInsideArgumentWithoutSchema: a member an argument's object lacks,
// read from a resource without schema, may be a computed attribute of the
// provider's schema: the run needs the provider rather than failing with
// an error Terraform would not report. An argument tfeval knows to be
// dynamic stays exact.
func TestReadInsideArgumentWithoutSchema(t *testing.T) {
	rep := runFiles(t, map[string]string{
		"main.tf": `
terraform {
  required_providers {
    azapi = { source = "Azure/azapi" }
  }
}
resource "ec_deployment" "c" {
  elasticsearch = {
    hot = { size = "1g" }
  }
}
resource "azapi_resource" "r" {
  body = { properties = { enabled = true } }
}
output "id" { value = ec_deployment.c.elasticsearch.resource_id }
`,
		"tests/a.tftest.hcl": `
run "through_output" {
  command = plan
  assert {
    condition     = output.id != ""
    error_message = "no id"
  }
}
run "direct" {
  command = plan
  assert {
    condition     = ec_deployment.c.elasticsearch.hot.zone != ""
    error_message = "no zone"
  }
}
run "configured" {
  command = plan
  assert {
    condition     = ec_deployment.c.elasticsearch.hot.size == "1g"
    error_message = "size"
  }
}
run "dynamic" {
  command = plan
  assert {
    condition     = !can(azapi_resource.r.body.properties.kind)
    error_message = "kind"
  }
}
`,
	}, dialect.Terraform)
	wantStatuses(t, rep, map[string]string{
		"tests/a.tftest.hcl::through_output": "skip",
		"tests/a.tftest.hcl::direct":         "skip",
		"tests/a.tftest.hcl::configured":     "pass",
		"tests/a.tftest.hcl::dynamic":        "pass",
	})
	wantNeeds(t, rep, "hashicorp/ec", "tests/a.tftest.hcl::through_output", "tests/a.tftest.hcl::direct")
}

// TestCountOnComputedAttribute: a count or for_each that depends on what
// a provider computes for an object the run creates. Terraform's plan has
// it unknown and fails where tfeval knows the schema and what plans it
// (hashicorp/random, which it emulates; a mocked provider or an override
// with a schema given); once an earlier apply created the object, its
// state is known. Without the schema, whether it is an argument known at
// plan or a computed attribute is not known, and a real provider's plan
// may know a computed one (aws plans aws_acm_certificate's
// domain_validation_options, terraform test v1.11.4 passes such a run):
// the run needs the provider.
func TestCountOnComputedAttribute(t *testing.T) {
	const random = `
resource "random_string" "s" {
  length = 4
}
resource "random_id" "i" {
  byte_length = 2
}
`
	for _, tc := range []struct {
		name   string
		d      dialect.Dialect
		files  map[string]string
		want   map[string]string
		diags  []string
		detail string
		needs  string
	}{{
		name: "random, plan",
		files: map[string]string{
			"main.tf": random + `
resource "terraform_data" "c" {
  count = length(random_string.s.result)
}`,
			"tests/a.tftest.hcl": `
run "plan" {
  command = plan
}
run "later" {
  command = plan
}`},
		want:   map[string]string{"tests/a.tftest.hcl::plan": "error", "tests/a.tftest.hcl::later": "skip"},
		diags:  []string{"error: Invalid count argument"},
		detail: "so Terraform cannot predict how many instances will be created",
	}, {
		name: "random, apply, for_each",
		files: map[string]string{
			"main.tf": random + `
resource "terraform_data" "f" {
  for_each = toset([random_id.i.hex])
}`,
			"tests/a.tftest.hcl": `
run "apply" {}`},
		want:   map[string]string{"tests/a.tftest.hcl::apply": "error"},
		diags:  []string{"error: Invalid for_each argument"},
		detail: "The \"for_each\" set includes values derived from resource attributes that cannot be determined until apply",
	}, {
		name: "random, OpenTofu",
		d:    dialect.Tofu,
		files: map[string]string{
			"main.tf": random + `
resource "terraform_data" "c" {
  count = length(random_string.s.result)
}`,
			"tests/a.tftest.hcl": `
run "plan" {
  command = plan
}`},
		want:   map[string]string{"tests/a.tftest.hcl::plan": "error"},
		diags:  []string{"error: Invalid count argument"},
		detail: "-exclude=terraform_data.c",
	}, {
		name: "random, created by an earlier run",
		files: map[string]string{
			"main.tf": random + `
variable "on" { default = false }
resource "terraform_data" "c" {
  count = var.on ? length(random_string.s.result) : 0
}
output "n" { value = length(terraform_data.c) }`,
			"tests/a.tftest.hcl": `
run "create" {}
run "count" {
  command = plan
  variables { on = true }
  assert {
    condition     = output.n == 4
    error_message = "n"
  }
}`},
		want: map[string]string{"tests/a.tftest.hcl::create": "pass", "tests/a.tftest.hcl::count": "pass"},
	}, {
		name: "schema given, computed, not mocked",
		files: map[string]string{
			"providers-schema.json": awsSchema,
			"main.tf": awsProvider + `
resource "aws_thing" "t" { name = "n" }
resource "terraform_data" "c" {
  count = length(aws_thing.t.arn)
}`,
			"tests/a.tftest.hcl": `
run "plan" {
  command = plan
}`},
		want:  map[string]string{"tests/a.tftest.hcl::plan": "skip"},
		needs: "hashicorp/aws",
	}, {
		name: "schema given, computed, mocked",
		files: map[string]string{
			"providers-schema.json": awsSchema,
			"main.tf": awsProvider + `
resource "aws_thing" "t" { name = "n" }
resource "terraform_data" "c" {
  count = length(aws_thing.t.arn)
}`,
			"tests/a.tftest.hcl": `
mock_provider "aws" {}
run "plan" {
  command = plan
}`},
		want:  map[string]string{"tests/a.tftest.hcl::plan": "error"},
		diags: []string{"error: Invalid count argument"},
	}, {
		name: "schema given, computed, overridden",
		files: map[string]string{
			"providers-schema.json": awsSchema,
			"main.tf": awsProvider + `
resource "aws_thing" "t" { name = "n" }
resource "terraform_data" "c" {
  count = length(aws_thing.t.arn)
}`,
			"tests/a.tftest.hcl": `
override_resource {
  target = aws_thing.t
  values = { arn = "abc" }
}
run "plan" {
  command = plan
}`},
		want:  map[string]string{"tests/a.tftest.hcl::plan": "error"},
		diags: []string{"error: Invalid count argument"},
	}, {
		name: "schema given, argument",
		files: map[string]string{
			"providers-schema.json": awsSchema,
			"main.tf": awsProvider + `
resource "aws_thing" "t" { name = "n" }
resource "terraform_data" "c" {
  count = length(aws_thing.t.name)
}`,
			"tests/a.tftest.hcl": `
run "plan" {
  command = plan
}`},
		want: map[string]string{"tests/a.tftest.hcl::plan": "pass"},
	}, {
		name: "no schema",
		files: map[string]string{
			"main.tf": awsProvider + `
resource "aws_thing" "t" { name = "n" }
resource "terraform_data" "c" {
  for_each = toset([aws_thing.t.id])
}`,
			"tests/a.tftest.hcl": `
run "plan" {
  command = plan
}`},
		want:  map[string]string{"tests/a.tftest.hcl::plan": "skip"},
		needs: "hashicorp/aws",
	}} {
		t.Run(tc.name, func(t *testing.T) {
			rep := runFiles(t, tc.files, tc.d)
			wantStatuses(t, rep, tc.want)
			if got := summaries(rep); !slices.Equal(got, tc.diags) {
				t.Errorf("diagnostics %v, want %v", got, tc.diags)
			}
			if tc.detail != "" {
				found := false
				for _, f := range rep.Files {
					for _, r := range f.Runs {
						for _, d := range r.Diagnostics {
							found = found || strings.Contains(d.Detail, tc.detail)
						}
					}
				}
				if !found {
					t.Errorf("no diagnostic says %q", tc.detail)
				}
			}
			if tc.needs != "" {
				wantNeeds(t, rep, tc.needs, "tests/a.tftest.hcl::plan")
			}
		})
	}
}

// TestWholeObjectAssertionsWithoutSchema: an assertion that observes the
// set of a whole resource object's attributes (keys of it, a for over it,
// an equality with it), where the resource has no schema, depends on
// attributes tfeval's object lacks: the run is skipped for the provider
// (a pass or a failure would be a guess), whether the assertion reads the
// resource or an output holding it. Reading attributes, the instances of a
// resource and a comparison with null stay decided; with the schema
// every condition is decided.
func TestWholeObjectAssertionsWithoutSchema(t *testing.T) {
	conditions := []struct {
		cond     string
		observes bool
		// schema is the status with the schema.
		schema Status
	}{
		{`length(keys(aws_s3_bucket.b)) == 2`, true, Fail},
		{`length(keys(output.whole)) == 1`, true, Fail},
		{`output.whole == { bucket = "x" }`, true, Fail},
		{`alltrue([for k, v in output.whole : k != "arn"])`, true, Fail},
		{`jsonencode(aws_s3_bucket.c[0]) != ""`, true, Pass},
		{`output.whole.bucket == "x"`, false, Pass},
		{`output.whole != null`, false, Pass},
		{`length(aws_s3_bucket.c) == 2`, false, Pass},
		{`[for b in aws_s3_bucket.c : b.bucket] == ["c0", "c1"]`, false, Pass},
	}
	for _, schema := range []bool{false, true} {
		for _, c := range conditions {
			files := map[string]string{
				"main.tf": awsProvider + `
resource "aws_s3_bucket" "b" {
  bucket = "x"
}
resource "aws_s3_bucket" "c" {
  count  = 2
  bucket = "c${count.index}"
}
output "whole" { value = aws_s3_bucket.b }
`,
				"tests/a.tftest.hcl": `
mock_provider "aws" {}
run "plan" {
  command = plan
  assert {
    condition     = ` + c.cond + `
    error_message = "no"
  }
}
`}
			if schema {
				files["providers-schema.json"] = `{"format_version":"1.0","provider_schemas":{"registry.terraform.io/hashicorp/aws":{
 "resource_schemas":{"aws_s3_bucket":{"block":{"attributes":{
   "id":{"type":"string","computed":true},
   "arn":{"type":"string","computed":true},
   "bucket":{"type":"string","optional":true,"computed":true},
   "tags":{"type":["map","string"],"optional":true}}}}}}}}`
			}
			r := runOf(t, runFiles(t, files, dialect.Terraform), "tests/a.tftest.hcl::plan")
			want := Pass
			switch {
			case schema:
				want = c.schema
			case c.observes:
				want = Skip
			}
			if r.Status != want {
				t.Errorf("schema %v, %s: status %s, want %s (%s %v)", schema, c.cond, r.Status, want, r.SkipReason, r.Diagnostics)
			}
			if want == Skip && r.NeedsProvider != "hashicorp/aws" {
				t.Errorf("%s: needs %q, want hashicorp/aws", c.cond, r.NeedsProvider)
			}
		}
	}
}

// TestDropResults: with DropResults, each run's evaluation is let go once
// the run is judged, and the statuses, assertions and diagnostics are the
// same as with the evaluations kept; a later run still reads an earlier
// one's outputs, which the file's state keeps.
func TestDropResults(t *testing.T) {
	files := map[string]string{
		"main.tf": `
variable "n" {
  type = number
}
resource "terraform_data" "r" {
  input = var.n * 2
}
output "twice" { value = terraform_data.r.output }
`,
		"tests/a.tftest.hcl": `
run "first" {
  variables {
    n = 2
  }
  assert {
    condition     = output.twice == 4
    error_message = "twice is ${output.twice}"
  }
}
run "second" {
  variables {
    n = run.first.twice
  }
  assert {
    condition     = output.twice == 9
    error_message = "twice is ${output.twice}"
  }
}
`}
	kept := runFiles(t, files, dialect.Terraform)
	dropped := runFiles(t, files, dialect.Terraform, func(o *Options) { o.DropResults = true })
	if a, b := statuses(kept), statuses(dropped); !reflect.DeepEqual(a, b) || a["tests/a.tftest.hcl::first"] != "pass" || a["tests/a.tftest.hcl::second"] != "fail" {
		t.Errorf("statuses kept %v, dropped %v", a, b)
	}
	if a, b := summaries(kept), summaries(dropped); !reflect.DeepEqual(a, b) {
		t.Errorf("diagnostics kept %v, dropped %v", a, b)
	}
	for i, rr := range dropped.Files[0].Runs {
		if rr.Result != nil || rr.Outputs != nil || rr.Prior != nil {
			t.Errorf("run %s kept its evaluation", rr.Name)
		}
		if kr := kept.Files[0].Runs[i]; kr.Result == nil || len(kr.Assertions) != len(rr.Assertions) {
			t.Errorf("run %s: kept %v, assertions %d and %d", rr.Name, kr.Result != nil, len(kr.Assertions), len(rr.Assertions))
		}
	}
}

// A run's value for a variable the module does not declare is the warning
// "Value for undeclared variable" at the value, not at the whole argument,
// as Terraform places it (the value expression's range).
func TestUndeclaredRunVariableRange(t *testing.T) {
	rep := runFiles(t, map[string]string{
		"main.tf": `
output "o" {
  value = 1
}
`,
		"tests/a.tftest.hcl": `
run "r" {
  command = plan
  variables {
    workspace = "broken"
  }
}
`,
	}, dialect.Terraform)
	wantStatuses(t, rep, map[string]string{"tests/a.tftest.hcl::r": "pass"})
	var got []string
	for _, d := range runOf(t, rep, "tests/a.tftest.hcl::r").Diagnostics {
		got = append(got, d.Summary+" "+d.Subject.String())
	}
	want := []string{"Value for undeclared variable tests/a.tftest.hcl:5,17-25"}
	if !slices.Equal(got, want) {
		t.Errorf("diagnostics %q, want %q", got, want)
	}
}
