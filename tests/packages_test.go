package tests

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// module is the module path every package's import path starts with.
const module = "github.com/tfeval/tfeval"

// packageImports are, for each package of the module (by directory from
// the root: "." is the root package), the module's packages its non-test
// files import.
func packageImports(t *testing.T) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	err := filepath.WalkDir(repoRoot, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && path != repoRoot && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		dir, _ := filepath.Rel(repoRoot, filepath.Dir(path))
		dir = filepath.ToSlash(dir)
		if _, ok := out[dir]; !ok {
			out[dir] = nil
		}
		for _, imp := range f.Imports {
			p := strings.Trim(imp.Path.Value, `"`)
			switch {
			case p == module:
				p = "."
			case strings.HasPrefix(p, module+"/"):
				p = strings.TrimPrefix(p, module+"/")
			default:
				continue
			}
			if !slices.Contains(out[dir], p) {
				out[dir] = append(out[dir], p)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// isPublic reports whether a package is one the README's table lists:
// not internal, and not a test, example or tool of the repository
// (examples/ holds modules of their own, which import tfeval as users do;
// scripts/ the tools that measure and check it).
func isPublic(dir string) bool {
	for _, part := range strings.Split(dir, "/") {
		switch part {
		case "internal", "tests", "docs", "examples", "scripts":
			return false
		}
	}
	return true
}

// uses are the public packages a package imports, directly or through
// internal packages (which are its implementation), sorted.
func uses(imports map[string][]string, dir string) []string {
	var out []string
	seen := map[string]bool{}
	var walk func(d string)
	walk = func(d string) {
		for _, p := range imports[d] {
			if seen[p] {
				continue
			}
			seen[p] = true
			if isPublic(p) {
				out = append(out, p)
			} else {
				walk(p)
			}
		}
	}
	walk(dir)
	slices.Sort(out)
	return out
}

// TestReadmePackageTable keeps the README's table of packages true to the
// import graph: every public package is a row, lowest first (a package
// uses only packages above it), and the "uses" column is exactly the
// public packages it imports, directly or through internal ones.
func TestReadmePackageTable(t *testing.T) {
	src, err := os.ReadFile(filepath.Join(repoRoot, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	imports := packageImports(t)
	_, table, ok := strings.Cut(string(src), "| package | uses | owns |\n| --- | --- | --- |\n")
	if !ok {
		t.Fatal("README.md has no table with the columns package, uses, owns")
	}
	table, _, _ = strings.Cut(table, "\n\n")
	listed := map[string]bool{}
	for _, row := range strings.Split(table, "\n") {
		cells := strings.Split(strings.Trim(row, "| "), " | ")
		if len(cells) != 3 {
			t.Errorf("row %q does not have three cells", row)
			continue
		}
		dir := packageDir(cells[0])
		if _, ok := imports[dir]; !ok || !isPublic(dir) {
			t.Errorf("row %q names no public package (%q)", row, dir)
			continue
		}
		var want []string
		for _, u := range strings.Split(cells[1], ",") {
			if u = strings.TrimSpace(u); u != "" {
				want = append(want, packageDir(u))
			}
		}
		slices.Sort(want)
		got := uses(imports, dir)
		if !slices.Equal(got, want) {
			t.Errorf("README: %s uses %q; it imports %q", dir, want, got)
		}
		for _, u := range got {
			if !listed[u] {
				t.Errorf("README: %s is listed before %s, which it imports", dir, u)
			}
		}
		listed[dir] = true
	}
	for dir := range imports {
		if isPublic(dir) && !listed[dir] {
			t.Errorf("README's package table lacks %s", dir)
		}
	}
}

// packageDir is the directory a table cell names: "`lang/`" is lang,
// "`tfeval` (root)" the root, "`cmd/tfeval`" cmd/tfeval.
func packageDir(cell string) string {
	name, _, _ := strings.Cut(strings.TrimSpace(cell), " ")
	name = strings.TrimSuffix(strings.Trim(name, "`"), "/")
	if name == "tfeval" {
		return "."
	}
	return name
}
