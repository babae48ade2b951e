package tfvars_test

import (
	"fmt"

	"github.com/tfeval/tfeval/config"
	"github.com/tfeval/tfeval/render"
	"github.com/tfeval/tfeval/tfvars"
)

// Resolve gathers root variable values from every source in Terraform's
// order and prepares them; each raw value remembers where it came from.
func ExampleResolve() {
	dir := "../testdata/examples/quickstart"
	root, diags := config.Load(dir, config.Options{})
	if diags.HasErrors() {
		fmt.Println(diags.Error())
		return
	}
	final, raw, diags := tfvars.Resolve(tfvars.Inputs{
		Dir:  dir,
		Env:  []string{"TF_VAR_environment=prod", "TF_VAR_project=ignored"},
		Args: []tfvars.Arg{{Kind: tfvars.VarFlag, Text: "project=web"}},
	}, root.Module.Variables)
	if diags.HasErrors() {
		fmt.Println(diags.Error())
		return
	}
	for _, name := range []string{"project", "environment", "network"} {
		fmt.Printf("%s from %s\n", name, raw[name].Source)
	}
	fmt.Println(render.Value(final["network"].GetAttr("subnets")))
	// Output:
	// project from set using -var="project=..."
	// environment from set using the TF_VAR_environment environment variable
	// network from set in terraform.tfvars:3,11-7,2
	// 3
}
