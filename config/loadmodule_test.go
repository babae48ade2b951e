package config_test

import (
	"fmt"

	"github.com/tfeval/tfeval/config"
)

// LoadModule reads one module and leaves its calls unfollowed: a tool
// that fetches modules before reading them walks the calls itself.
func ExampleLoadModule() {
	mod, diags := config.LoadModule("../testdata/examples/quickstart", config.Options{})
	if diags.HasErrors() {
		fmt.Println(diags.Error())
		return
	}
	for name, call := range mod.ModuleCalls {
		fmt.Printf("module %q from %s at line %d\n", name, call.SourceAddr, call.SourceRange.Start.Line)
	}
	// Output:
	// module "network" from ./modules/network at line 11
}
