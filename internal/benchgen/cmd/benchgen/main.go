// Command benchgen writes a synthetic Terraform module tree for benchmarks:
//
//	go run ./internal/benchgen/cmd/benchgen -size=small|medium|large -out=DIR
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/tfeval/tfeval/internal/benchgen"
)

func main() {
	size := flag.String("size", "small", "tree size: small, medium or large")
	out := flag.String("out", "", "directory to write the tree into (created; must be empty)")
	noProvider := flag.Bool("no-provider", false, "use terraform_data instead of the bench/mock provider, so stock terraform can plan the tree")
	flag.Parse()
	if err := run(*size, *out, *noProvider); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

func run(name, out string, noProvider bool) error {
	if out == "" {
		return fmt.Errorf("benchgen: -out is required")
	}
	size, err := benchgen.ParseSize(name)
	if err != nil {
		return err
	}
	if err := benchgen.WriteOptions(out, size, benchgen.Options{NoProvider: noProvider}); err != nil {
		return err
	}
	fmt.Printf("wrote %s tree to %s: %d modules, %d module instances, %d resource instances\n",
		size, out, benchgen.ExpectedModules(size), benchgen.ExpectedModuleInstances(size), benchgen.ExpectedInstances(size))
	return nil
}
