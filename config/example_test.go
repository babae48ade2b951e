package config_test

import (
	"fmt"
	"sort"

	"github.com/tfeval/tfeval/config"
	"github.com/tfeval/tfeval/dialect"
)

// Load reads a module tree without evaluating anything: enough for a
// linter that checks names, sources and structure.
func ExampleLoad() {
	root, diags := config.Load("../testdata/examples/quickstart", config.Options{Dialect: dialect.Terraform})
	if diags.HasErrors() {
		fmt.Println(diags.Error())
		return
	}
	var resources []string
	for addr := range root.Module.ManagedResources {
		resources = append(resources, addr)
	}
	sort.Strings(resources)
	fmt.Println(resources)
	for name, child := range root.Children {
		fmt.Println("module", name, "from", child.SourceAddr, "declares", len(child.Module.Variables), "variables")
	}
	// Output:
	// [terraform_data.replica terraform_data.server]
	// module network from ./modules/network declares 3 variables
}
