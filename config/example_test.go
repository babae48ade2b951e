package config_test

import (
	"fmt"
	"os"
	"path/filepath"
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

// A module cache lets later loads skip parsing the module directories
// whose files did not change: here two root modules call one shared
// module, and the second load reuses what the first one read.
func ExampleModuleCache() {
	dir, err := os.MkdirTemp("", "tfeval-example-")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	files := map[string]string{
		"envs/dev/main.tf":  `module "net" { source = "../../modules/net" }`,
		"envs/prod/main.tf": `module "net" { source = "../../modules/net" }`,
		"modules/net/main.tf": `variable "cidr" {
  default = "10.0.0.0/16"
}`,
	}
	for name, src := range files {
		path := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			panic(err)
		}
		if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
			panic(err)
		}
	}

	cache := &config.ModuleCache{}
	dev, _ := config.Load("envs/dev", config.Options{WorkDir: dir, Cache: cache})
	prod, _ := config.Load("envs/prod", config.Options{WorkDir: dir, Cache: cache})
	fmt.Println("shared module read once:", dev.Children["net"].Module == prod.Children["net"].Module)
	fmt.Println("declared in", filepath.ToSlash(prod.Children["net"].Module.Variables["cidr"].DeclRange.Filename))
	// Output:
	// shared module read once: true
	// declared in modules/net/main.tf
}

// Derived keeps data worked out from a block with the block: every
// evaluation of a module shared through a ModuleCache then finds it.
func ExampleResource_Derived() {
	res := &config.Resource{Mode: config.ManagedResourceMode, Type: "aws_instance", Name: "web"}
	type addrKey struct{}
	made := 0
	for range 3 {
		addr := res.Derived(addrKey{}, func() any {
			made++
			return res.Addr()
		})
		fmt.Println(addr)
	}
	fmt.Println("made", made, "time")
	// Output:
	// aws_instance.web
	// aws_instance.web
	// aws_instance.web
	// made 1 time
}
