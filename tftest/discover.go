package tftest

import (
	"fmt"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty/function"

	"github.com/tfeval/tfeval/config"
	"github.com/tfeval/tfeval/dialect"
	"github.com/tfeval/tfeval/internal/limit"
	"github.com/tfeval/tfeval/internal/sandbox"
)

// testSuffixes are the endings of test file names, OpenTofu's own first:
// a.tofutest.hcl shadows a.tftest.hcl in the same directory.
var testSuffixes = map[dialect.Dialect][]string{
	dialect.Terraform: {".tftest.hcl", ".tftest.json"},
	dialect.Tofu:      {".tofutest.hcl", ".tofutest.json", ".tftest.hcl", ".tftest.json"},
}

// IsTestFile reports whether a file name is a test file's in dialect d.
func IsTestFile(name string, d dialect.Dialect) bool {
	return testBase(name, d) != ""
}

// testBase is a test file name without its suffix, "" when it is not a
// test file's name.
func testBase(name string, d dialect.Dialect) string {
	for _, suf := range testSuffixes[d] {
		if base, ok := strings.CutSuffix(name, suf); ok && base != "" {
			return base
		}
	}
	return ""
}

// discover lists the test files of the module in workDir: those in the
// module's directory and in testDir, as paths relative to workDir with
// forward slashes, sorted, the filter applied.
func discover(box sandbox.Dir, workDir, testDir string, d dialect.Dialect, filter []string) ([]string, hcl.Diagnostics) {
	var paths []string
	dirs := []string{"."}
	if testDir != "" && path.Clean(testDir) != "." {
		dirs = append(dirs, path.Clean(filepath.ToSlash(testDir)))
	}
	for _, dir := range dirs {
		entries, err := box.ReadDir(filepath.Join(workDir, filepath.FromSlash(dir)))
		if err != nil {
			continue // a missing test directory has no tests
		}
		// OpenTofu reads x.tofutest.hcl instead of a same-named x.tftest.hcl.
		chosen := map[string]string{}
		rank := map[string]int{}
		for _, e := range entries {
			if e.IsDir() {
				continue
			}
			name := e.Name()
			for i, suf := range testSuffixes[d] {
				base, ok := strings.CutSuffix(name, suf)
				if !ok || base == "" {
					continue
				}
				key := base + jsonKind(suf)
				if r, seen := rank[key]; !seen || i < r {
					chosen[key], rank[key] = name, i
				}
				break
			}
		}
		for _, name := range chosen {
			paths = append(paths, path.Join(dir, name))
		}
	}
	sort.Strings(paths)
	if len(filter) == 0 {
		return paths, nil
	}
	keep := map[string]bool{}
	for _, f := range filter {
		keep[path.Clean(filepath.ToSlash(f))] = true
	}
	var out []string
	for _, p := range paths {
		if keep[p] {
			out = append(out, p)
		}
	}
	return out, nil
}

// jsonKind tells the HCL and JSON forms apart: a.tofutest.json shadows
// a.tftest.json, not a.tftest.hcl.
func jsonKind(suffix string) string {
	if strings.HasSuffix(suffix, ".json") {
		return ".json"
	}
	return ".hcl"
}

// loadFiles reads and parses the test files at paths (relative to
// workDir), and the mock data files their mock providers name.
func loadFiles(box sandbox.Dir, workDir string, paths []string, d dialect.Dialect, fns map[string]function.Function) ([]*File, hcl.Diagnostics) {
	var files []*File
	var diags hcl.Diagnostics
	for _, p := range paths {
		src, err := limit.ReadSource(box, filepath.Join(workDir, filepath.FromSlash(p)), 0, false)
		if err != nil {
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Failed to read test file", Detail: fmt.Sprintf("Cannot read %s: %s.", p, readError(err))})
			continue
		}
		f, fDiags := parseFile(src, p, d, fns)
		diags = append(diags, fDiags...)
		if f == nil {
			continue
		}
		for _, pr := range f.Providers {
			if pr.Mock && pr.Source != "" {
				diags = append(diags, loadMockSource(box, workDir, pr, d, fns)...)
			}
		}
		files = append(files, f)
	}
	return files, diags
}

// readError says why a file could not be read, without what an error's
// text may reveal of the machine.
func readError(err error) string {
	if reason := config.DescribeReadError(err); reason != "" {
		return reason
	}
	return "the file does not exist or cannot be read"
}
