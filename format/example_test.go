package format_test

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/tfeval/tfeval"
	"github.com/tfeval/tfeval/config"
	"github.com/tfeval/tfeval/format"
	"github.com/tfeval/tfeval/lang"
	"github.com/tfeval/tfeval/tfvars"
)

// WriteEval writes the `eval -json` document (terraform show -json's
// shape) straight from the values, as NewEvalDocument(res,
// diags).WriteIndented would.
func ExampleWriteEval() {
	dir := "../testdata/examples/quickstart"
	cfg, diags := config.Load(dir, config.Options{})
	if diags.HasErrors() {
		fmt.Println(diags.Error())
		return
	}
	raw, _ := tfvars.Collect(tfvars.Inputs{Dir: dir}, cfg.Module.Variables)
	res, diags := lang.Evaluate(cfg, lang.Options{RootVariables: raw, Cwd: dir})
	var doc strings.Builder
	if err := format.WriteEval(&doc, res, diags); err != nil {
		fmt.Println(err)
		return
	}
	var parsed struct {
		Resources []struct {
			Address string `json:"address"`
		} `json:"resources"`
	}
	if err := json.Unmarshal([]byte(doc.String()), &parsed); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(len(parsed.Resources), "resource instances, first", parsed.Resources[0].Address)
	// Output:
	// 8 resource instances, first module.network.terraform_data.subnet[0]
}

// NewPlan writes the document `terraform show -json PLANFILE` writes, for
// the tools that read it (conftest, Checkov, Infracost): here the planned
// resource changes of the quickstart example.
func ExampleNewPlan() {
	ev := tfeval.Evaluate(tfeval.Options{WorkDir: "../testdata/examples/quickstart"})
	if ev.HasErrors() {
		fmt.Println(ev.Diagnostics.Error()) // terraform plan would stop here too
		return
	}
	plan, err := format.NewPlan(ev.Result, format.PlanOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(plan.FormatVersion, plan.TerraformVersion)
	for _, rc := range plan.ResourceChanges[:3] {
		fmt.Println(rc.Change.Actions, rc.Address)
	}
	// Output:
	// 1.2 1.15.9
	// [create] terraform_data.replica[0]
	// [create] terraform_data.replica[1]
	// [create] terraform_data.replica[2]
}

// UseConfig lets Sources name the block each diagnostic is in (a
// snippet's context) from the configuration as it was loaded, instead of
// parsing again each file the diagnostics point into.
func ExampleSources_UseConfig() {
	dir := "../testdata/examples/quickstart"
	ev := tfeval.Evaluate(tfeval.Options{WorkDir: dir})
	// A diagnostic about the for_each of a resource in the root module.
	forEach := ev.Config.Module.ManagedResources["terraform_data.server"].ForEach
	diags := hcl.Diagnostics{{Severity: hcl.DiagWarning, Summary: "Example", Subject: forEach.Range().Ptr()}}
	sources := format.NewSources(format.DiagnosticOptions{WorkDir: dir})
	sources.UseConfig(ev.Config)
	for _, d := range sources.Diagnostics(diags) {
		fmt.Printf("%s, line %d, in %s: %s\n", d.Range.Filename, d.Range.Start.Line, *d.Snippet.Context, d.Snippet.Code)
	}
	// Output:
	// main.tf, line 18, in resource "terraform_data" "server":   for_each = var.servers
}
