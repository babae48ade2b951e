package format_test

import (
	"encoding/json"
	"fmt"
	"strings"

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
