package install_test

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/tfeval/tfeval/install"
)

// Install the modules of a root module that calls a module from an
// absolute path, then read the modules.json written for it.
func ExampleModules() {
	root, _ := os.MkdirTemp("", "root")
	defer os.RemoveAll(root)
	shared, _ := os.MkdirTemp("", "shared")
	defer os.RemoveAll(shared)
	os.WriteFile(filepath.Join(shared, "main.tf"), []byte(`output "greeting" { value = "hello" }`), 0o644)
	os.WriteFile(filepath.Join(root, "main.tf"), []byte(`module "greeter" { source = "`+filepath.ToSlash(shared)+`" }`), 0o644)

	res, diags := install.Modules(install.Options{WorkDir: root})
	if diags.HasErrors() {
		fmt.Println(diags)
		return
	}
	for _, m := range res.Modules {
		fmt.Println(m.Key, m.Dir, m.Origin)
	}
	manifest, _ := os.ReadFile(filepath.Join(root, ".terraform", "modules", "modules.json"))
	fmt.Println(len(manifest) > 0)
	// Output:
	// greeter .terraform/modules/greeter downloaded
	// true
}
