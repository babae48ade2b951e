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
	roots := flag.Int("roots", 0, "write N root modules under envs/ calling the same modules, instead of one")
	flag.Parse()
	if err := run(*size, *out, benchgen.Options{NoProvider: *noProvider, Roots: *roots}); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

func run(name, out string, opts benchgen.Options) error {
	if out == "" {
		return fmt.Errorf("benchgen: -out is required")
	}
	size, err := benchgen.ParseSize(name)
	if err != nil {
		return err
	}
	if err := benchgen.WriteOptions(out, size, opts); err != nil {
		return err
	}
	roots := max(opts.Roots, 1)
	fmt.Printf("wrote %s tree to %s: %d root modules, %d modules, %d module instances, %d resource instances\n",
		size, out, roots, benchgen.ExpectedModules(size), roots*benchgen.ExpectedModuleInstances(size), roots*benchgen.ExpectedInstances(size))
	return nil
}
