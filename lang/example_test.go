package lang_test

import (
	"fmt"
	"testing/fstest"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/tfeval/tfeval/config"
	"github.com/tfeval/tfeval/lang"
	"github.com/tfeval/tfeval/render"
	"github.com/tfeval/tfeval/tfvars"
)

// The lower-level path under tfeval.Evaluate: load the tree, collect the
// root variables, evaluate, then ask questions of the result.
func ExampleEvaluate() {
	dir := "../testdata/examples/quickstart"
	cfg, diags := config.Load(dir, config.Options{})
	if diags.HasErrors() {
		fmt.Println(diags.Error())
		return
	}
	raw, diags := tfvars.Collect(tfvars.Inputs{Dir: dir}, cfg.Module.Variables)
	if diags.HasErrors() {
		fmt.Println(diags.Error())
		return
	}
	res, diags := lang.Evaluate(cfg, lang.Options{RootVariables: raw, Cwd: dir})
	if diags.HasErrors() {
		fmt.Println(diags.Error())
		return
	}
	fmt.Println(render.Value(res.Root().Outputs["replica_count"]))
	expr, _ := hclsyntax.ParseExpression([]byte(`[for s in terraform_data.server : s.input.size]`), "query", hcl.InitialPos)
	v, _ := res.EvalExprInModule(expr, "")
	fmt.Println(render.Value(v))
	// Output:
	// 3
	// [
	//   "medium",
	//   "small",
	// ]
}

// What a module reads of its root variables, for a caller that gives one
// an object it knows only in part (a test run's value from an earlier
// run's resource without a provider schema): the object a module call is
// given is read inside the module too, and a type requires its attributes.
func ExampleVariableReads() {
	fsys := fstest.MapFS{
		"main.tf": {Data: []byte(`
variable "vpc" {}
variable "subnet" { type = object({ id = string }) }
output "arn" { value = var.vpc.arn }
module "net" {
  source = "./net"
  of     = var.vpc
}`)},
		"net/main.tf": {Data: []byte(`
variable "of" {}
output "ids" { value = [for s in var.of.subnets : s.id] }`)},
	}
	cfg, diags := config.Load(".", config.Options{FS: fsys})
	if diags.HasErrors() {
		fmt.Println(diags.Error())
		return
	}
	reads := lang.VariableReads(cfg, lang.Options{})
	for _, name := range []string{"subnet", "vpc"} {
		for _, path := range reads[name] {
			fmt.Print(name)
			for _, step := range path {
				switch s := step.(type) {
				case hcl.TraverseAttr:
					fmt.Print(".", s.Name)
				case hcl.TraverseIndex:
					fmt.Print("[", s.Key.AsBigFloat(), "]")
				}
			}
			fmt.Println()
		}
	}
	// Output:
	// subnet.id
	// vpc.arn
	// vpc.subnets[0].id
}

// Whether an argument of a resource whose provider schema tfeval was not
// given is of dynamic type: such an argument is planned exactly as
// written, so a member its value lacks does not exist, as with the schema.
func ExampleDynamicArgument() {
	fsys := fstest.MapFS{
		"main.tf": {Data: []byte(`
terraform {
  required_providers {
    azapi = { source = "Azure/azapi" }
  }
}
resource "azapi_resource" "r" {
  type = "Microsoft.Example/things@2024-01-01"
  body = { properties = {} }
}`)},
	}
	cfg, diags := config.Load(".", config.Options{FS: fsys})
	if diags.HasErrors() {
		fmt.Println(diags.Error())
		return
	}
	res := cfg.Module.ManagedResources["azapi_resource.r"]
	for _, name := range []string{"body", "type"} {
		fmt.Println(name, lang.DynamicArgument(cfg.Module, res, name))
	}
	// Output:
	// body true
	// type false
}

// What a count tfeval cannot know depends on: the warning that a
// placeholder stands for the instances names it, for a caller (a test
// runner) that decides what that means for its verdict.
func ExampleUnknownInstancesUnread() {
	fsys := fstest.MapFS{
		"main.tf": {Data: []byte(`
resource "aws_vpc" "v" {}
resource "terraform_data" "per_zone" {
  count = length(aws_vpc.v.zones)
}`)},
	}
	cfg, diags := config.Load(".", config.Options{FS: fsys})
	if diags.HasErrors() {
		fmt.Println(diags.Error())
		return
	}
	_, diags = lang.Evaluate(cfg, lang.Options{})
	for _, d := range diags {
		if us, ok := lang.UnknownInstancesUnread(d); ok {
			fmt.Println(d.Summary+":", us[0].Describe())
		}
	}
	// Output:
	// Instances not known: aws_vpc.v (no provider schema)
}

// Whether a value computed after evaluation (a test file's assertion, a
// console query) is a whole object of a resource without schema: its set
// of attributes is then tfeval's, not the provider's, and an operation
// that observes it (keys, an equality) would guess.
func ExampleResult_WholeObjectWithoutSchema() {
	fsys := fstest.MapFS{
		"main.tf": {Data: []byte(`
resource "aws_s3_bucket" "b" {
  bucket = "logs"
}
output "bucket" { value = aws_s3_bucket.b }`)},
	}
	cfg, diags := config.Load(".", config.Options{FS: fsys})
	if diags.HasErrors() {
		fmt.Println(diags.Error())
		return
	}
	res, _ := lang.Evaluate(cfg, lang.Options{})
	for _, src := range []string{`aws_s3_bucket.b`, `{ b = aws_s3_bucket.b }`, `aws_s3_bucket.b.bucket`} {
		expr, _ := hclsyntax.ParseExpression([]byte(src), "query", hcl.InitialPos)
		v, _ := res.EvalExprInModule(expr, "")
		addr, whole := res.WholeObjectWithoutSchema(v, false)
		_, holds := res.WholeObjectWithoutSchema(v, true)
		fmt.Printf("%s: whole %v %s, holds one %v\n", src, whole, addr, holds)
	}
	// Output:
	// aws_s3_bucket.b: whole true aws_s3_bucket.b, holds one true
	// { b = aws_s3_bucket.b }: whole false , holds one true
	// aws_s3_bucket.b.bucket: whole false , holds one false
}

// Which functions observe the whole of their arguments, not only the
// parts they read: of an object without schema, tfeval does not know
// what they would see.
func ExampleObservesWhole() {
	for _, name := range []string{"keys", "jsonencode", "upper"} {
		observes, deep := lang.ObservesWhole(name)
		fmt.Println(name, observes, deep)
	}
	// Output:
	// keys true false
	// jsonencode true true
	// upper false false
}

// The operands an operation observes whole: a test runner or a linter
// that evaluates them can ask WholeObjectWithoutSchema whether the
// operation's answer depends on attributes tfeval does not know.
func ExampleObservedOperands() {
	for _, src := range []string{`keys(aws_s3_bucket.b)`, `aws_s3_bucket.b == null`, `aws_s3_bucket.b[var.key]`, `aws_s3_bucket.b["arn"]`} {
		expr, _ := hclsyntax.ParseExpression([]byte(src), "query", hcl.InitialPos)
		operands, deep := lang.ObservedOperands(expr)
		fmt.Println(src, len(operands), deep)
	}
	// Output:
	// keys(aws_s3_bucket.b) 1 false
	// aws_s3_bucket.b == null 0 false
	// aws_s3_bucket.b[var.key] 1 false
	// aws_s3_bucket.b["arn"] 0 false
}

// Which nested blocks a provider tfeval usually has no schema for declares
// as sets: a number index into one is an error in Terraform.
func ExampleSetBlock() {
	fsys := fstest.MapFS{
		"main.tf": {Data: []byte(`
resource "aws_s3_bucket_server_side_encryption_configuration" "x" {
  bucket = "b"
  rule {}
}
resource "aws_lb_listener" "l" {
  default_action {}
}`)},
	}
	cfg, diags := config.Load(".", config.Options{FS: fsys})
	if diags.HasErrors() {
		fmt.Println(diags.Error())
		return
	}
	sse := cfg.Module.ManagedResources["aws_s3_bucket_server_side_encryption_configuration.x"]
	lb := cfg.Module.ManagedResources["aws_lb_listener.l"]
	fmt.Println(lang.SetBlock(cfg.Module, sse, "rule"), lang.SetBlock(cfg.Module, lb, "default_action"))
	// Output:
	// true false
}
