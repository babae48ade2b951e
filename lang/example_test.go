package lang_test

import (
	"fmt"

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
