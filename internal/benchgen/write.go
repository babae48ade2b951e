package benchgen

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"sort"
)

// SchemaFile is the name of the provider schema document written next to
// the root module, the one an evaluator is given for bench/mock.
const SchemaFile = "providers-schema.json"

// Options vary a tree without changing its shape or instance count.
type Options struct {
	// NoProvider writes the firewalls as terraform_data instead of
	// mock_thing and omits bench/mock and its schema, so a stock Terraform
	// can init and plan the tree offline.
	NoProvider bool
	// Roots, when positive, makes the tree a repository of that many root
	// modules, envs/NNN (RootDir), all calling the same service and
	// component modules under modules/: each root is the root module of
	// the single-root tree with its own project name, so a plan of each
	// has ExpectedInstances instances.
	Roots int
}

// RootDir is the slash-separated directory of the i-th root (from 0) of a
// tree written with Options.Roots.
func RootDir(i int) string {
	return fmt.Sprintf("envs/%03d", i)
}

// File is one generated file; Path is slash-separated and relative to the tree's root.
type File struct {
	Path     string
	Contents []byte
}

// Files returns the whole tree for size, sorted by path.
func Files(size Size, opts Options) ([]File, error) {
	p, err := newPlan(size)
	if err != nil {
		return nil, err
	}
	mock := !opts.NoProvider
	var files []File
	root := func(dir, project, modules string) {
		files = append(files,
			File{path.Join(dir, "versions.tf"), versions(mock)},
			File{path.Join(dir, "variables.tf"), p.rootVariables()},
			File{path.Join(dir, "terraform.tfvars"), p.rootTfvars(project)},
			File{path.Join(dir, "locals.tf"), p.rootLocals()},
			File{path.Join(dir, "main.tf"), p.rootMain(modules)},
			File{path.Join(dir, "outputs.tf"), p.rootOutputs()},
		)
		if mock {
			files = append(files, File{path.Join(dir, SchemaFile), []byte(providerSchema)})
		}
	}
	if opts.Roots <= 0 {
		root(".", "bench", "./modules")
	}
	for i := range opts.Roots {
		root(RootDir(i), fmt.Sprintf("bench-%03d", i), "../../modules")
	}
	for _, s := range p.services {
		dir := path.Join("modules", "services", s.name)
		files = append(files,
			File{path.Join(dir, "versions.tf"), versions(mock)},
			File{path.Join(dir, "variables.tf"), serviceVariables()},
			File{path.Join(dir, "locals.tf"), s.locals()},
			File{path.Join(dir, "main.tf"), s.main()},
			File{path.Join(dir, "outputs.tf"), s.outputs()},
		)
		for _, c := range s.components {
			dir := path.Join("modules", "components", c.name)
			files = append(files,
				File{path.Join(dir, "versions.tf"), versions(mock)},
				File{path.Join(dir, "variables.tf"), componentVariables()},
				File{path.Join(dir, "locals.tf"), c.locals()},
				File{path.Join(dir, "main.tf"), c.main(mock)},
				File{path.Join(dir, "outputs.tf"), componentOutputs()},
			)
		}
	}
	sort.Slice(files, func(i, j int) bool { return files[i].Path < files[j].Path })
	return files, nil
}

// Write writes the tree for size into dir with default Options.
func Write(dir string, size Size) error {
	return WriteOptions(dir, size, Options{})
}

// WriteOptions writes the tree into dir, creating it; dir must not already
// hold files, so a tree is never mixed with the remains of another.
func WriteOptions(dir string, size Size, opts Options) error {
	files, err := Files(size, opts)
	if err != nil {
		return err
	}
	if entries, err := os.ReadDir(dir); err == nil && len(entries) > 0 {
		return fmt.Errorf("benchgen: %s is not empty", dir)
	}
	made := map[string]bool{}
	for _, f := range files {
		full := filepath.Join(dir, filepath.FromSlash(f.Path))
		if parent := filepath.Dir(full); !made[parent] {
			if err := os.MkdirAll(parent, 0o755); err != nil {
				return fmt.Errorf("benchgen: %w", err)
			}
			made[parent] = true
		}
		if err := os.WriteFile(full, f.Contents, 0o644); err != nil {
			return fmt.Errorf("benchgen: %w", err)
		}
	}
	return nil
}
