package scan

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/hashicorp/hcl/v2"

	"github.com/tfeval/tfeval/config"
	"github.com/tfeval/tfeval/dialect"
	"github.com/tfeval/tfeval/internal/testfiles"
)

// monorepo is a repository of two environments calling shared modules,
// an example calling the top module, a module that is only a child, and
// directories a scan must skip.
var monorepo = map[string]string{
	"main.tf":                      `module "net" { source = "./modules/net" }`,
	"envs/prod/main.tf":            `module "app" { source = "../../modules/app" }`,
	"envs/staging/main.tf":         `module "app" { source = "../../modules/app" }`,
	"envs/staging/extra.tf.json":   `{"locals": {"x": 1}}`,
	"modules/app/main.tf":          `module "net" { source = "../net" }`,
	"modules/net/main.tf":          `variable "cidr" { default = "10.0.0.0/16" }`,
	"examples/complete/main.tf":    `module "top" { source = "../../" }`,
	"examples/complete/README.md":  "not configuration",
	"docs/README.md":               "no configuration here",
	".terraform/modules/x/main.tf": `resource "terraform_data" "installed" {}`,
	".git/hooks/x.tf":              `# not a module`,
	".hidden/main.tf":              `# hidden`,
	"envs/prod/.#main.tf":          `# an editor's lock file`,
	"tofu/only.tofu":               `locals { y = 2 }`,
}

func TestFindRoots(t *testing.T) {
	dir := testfiles.Dir(t, monorepo)
	tests := []struct {
		name    string
		opts    Options
		modules []string
		roots   []string
	}{
		{"roots", Options{},
			[]string{".", "envs/prod", "envs/staging", "examples/complete", "modules/app", "modules/net"},
			[]string{"envs/prod", "envs/staging", "examples/complete"}},
		{"all dirs", Options{AllDirs: true},
			[]string{".", "envs/prod", "envs/staging", "examples/complete", "modules/app", "modules/net"},
			[]string{".", "envs/prod", "envs/staging", "examples/complete", "modules/app", "modules/net"}},
		{"exclude by name", Options{Exclude: []string{"examples"}},
			[]string{".", "envs/prod", "envs/staging", "modules/app", "modules/net"},
			// Without the example, the top module is a root.
			[]string{".", "envs/prod", "envs/staging"}},
		{"exclude by path", Options{Exclude: []string{"envs/*", "**/complete"}},
			[]string{".", "modules/app", "modules/net"},
			[]string{".", "modules/app"}},
		{"tofu files", Options{Dialect: dialect.Tofu, Exclude: []string{"envs", "examples"}},
			[]string{".", "modules/app", "modules/net", "tofu"},
			[]string{".", "modules/app", "tofu"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tree, diags := Find(dir, tt.opts)
			if len(diags) > 0 {
				t.Fatalf("diagnostics: %v", diags)
			}
			if !slices.Equal(tree.ModuleDirs, tt.modules) {
				t.Errorf("module dirs %q, want %q", tree.ModuleDirs, tt.modules)
			}
			if !slices.Equal(tree.Roots, tt.roots) {
				t.Errorf("roots %q, want %q", tree.Roots, tt.roots)
			}
			if tree.Dir != dir {
				t.Errorf("Dir = %s, want %s", tree.Dir, dir)
			}
		})
	}
}

// A cycle of local calls that no root reaches is evaluated through its
// first directory.
func TestFindRootsCycle(t *testing.T) {
	dir := testfiles.Dir(t, map[string]string{
		"a/main.tf": `module "b" { source = "../b" }`,
		"b/main.tf": `module "a" { source = "../a" }`,
		"c/main.tf": `module "c" { source = "./" }`,
	})
	tree, diags := Find(dir, Options{})
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	if want := []string{"a", "c"}; !slices.Equal(tree.Roots, want) {
		t.Errorf("roots %q, want %q", tree.Roots, want)
	}
}

func TestFindFromFS(t *testing.T) {
	fsys := fstest.MapFS{}
	for name, src := range monorepo {
		fsys[name] = &fstest.MapFile{Data: []byte(src)}
	}
	tree, diags := Find("envs", Options{FS: fsys})
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	if want := []string{"prod", "staging"}; !slices.Equal(tree.Roots, want) {
		t.Errorf("roots %q, want %q", tree.Roots, want)
	}
}

// The modules read to find the roots are those evaluating the roots reads.
func TestFindFillsTheModuleCache(t *testing.T) {
	dir := testfiles.Dir(t, monorepo)
	cache := &config.ModuleCache{}
	if _, diags := Find(dir, Options{Cache: cache}); len(diags) > 0 {
		t.Fatal(diags)
	}
	mod, _ := config.LoadModule(".", config.Options{WorkDir: filepath.Join(dir, "envs", "prod")})
	cached, _ := config.LoadModule(".", config.Options{WorkDir: filepath.Join(dir, "envs", "prod"), Cache: cache})
	again, _ := config.LoadModule(".", config.Options{WorkDir: filepath.Join(dir, "envs", "prod"), Cache: cache})
	if mod == cached || cached != again {
		t.Error("the root module read by Find is not the one the cache gives")
	}
}

func TestFindBadInput(t *testing.T) {
	dir := testfiles.Dir(t, map[string]string{
		"ok/main.tf":       `locals {}`,
		"locked/a/main.tf": `locals {}`,
		"inside/x/main.tf": `locals {}`,
	})
	outside := testfiles.Dir(t, map[string]string{"main.tf": `locals {}`})
	for link, target := range map[string]string{
		"out":           outside,
		"inside/x/loop": "..",
		"alias":         "ok",
	} {
		if err := os.Symlink(target, filepath.Join(dir, filepath.FromSlash(link))); err != nil {
			t.Skip("no symbolic links here:", err)
		}
	}
	if os.Getuid() != 0 {
		if err := os.Chmod(filepath.Join(dir, "locked"), 0); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { os.Chmod(filepath.Join(dir, "locked"), 0o755) })
	}
	tree, diags := Find(dir, Options{})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	want := []string{"inside/x", "ok"}
	if os.Getuid() == 0 {
		want = []string{"inside/x", "locked/a", "ok"}
	}
	if !slices.Equal(tree.Roots, want) {
		t.Errorf("roots %q, want %q", tree.Roots, want)
	}
	var got []string
	for _, d := range diags {
		got = append(got, d.Summary+": "+d.Detail)
	}
	text := strings.Join(got, "\n")
	for _, frag := range []string{
		"Link out of the tree not followed: out is a link",
		"Link loop not followed: inside/x/loop is a link",
	} {
		if !strings.Contains(text, frag) {
			t.Errorf("diagnostics lack %q:\n%s", frag, text)
		}
	}
	if os.Getuid() != 0 && !strings.Contains(text, "Unreadable directory: Cannot list locked") {
		t.Errorf("no warning for the unreadable directory:\n%s", text)
	}
	if strings.Contains(text, "alias") {
		t.Errorf("a link to a directory scanned in place was reported:\n%s", text)
	}
}

func TestFindErrors(t *testing.T) {
	dir := testfiles.Dir(t, map[string]string{"a/b/c/main.tf": `locals {}`, "file.tf": ``})
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	for _, tt := range []struct {
		name, dir string
		opts      Options
		want      string
	}{
		{"missing", filepath.Join(dir, "nope"), Options{}, "No such directory"},
		{"a file", filepath.Join(dir, "file.tf"), Options{}, "No such directory"},
		{"too many", dir, Options{MaxDirs: 3}, "Too many directories: The tree below"},
		{"cancelled", dir, Options{Context: cancelled}, "Scan cancelled"},
		{"bad pattern", dir, Options{Exclude: []string{"[a"}}, "Invalid exclude pattern"},
		{"outside the sandbox", dir, Options{Sandbox: filepath.Join(dir, "a")}, "Directory outside the sandbox"},
	} {
		tree, diags := Find(tt.dir, tt.opts)
		if tree != nil || !diags.HasErrors() || !strings.Contains(diagText(diags), tt.want) {
			t.Errorf("%s: tree %v, diagnostics %q, want an error %q", tt.name, tree, diagText(diags), tt.want)
		}
	}
}

func diagText(diags hcl.Diagnostics) string {
	var s []string
	for _, d := range diags {
		s = append(s, d.Summary+": "+d.Detail)
	}
	return strings.Join(s, "\n")
}

// TestFindManyDirs: a tree of many directories, and a deep one, are
// walked within the bounds (only with TFEVAL_LONG=1: it writes 100,000
// directories).
func TestFindManyDirs(t *testing.T) {
	n, depth := 2_000, 200
	if os.Getenv("TFEVAL_LONG") != "" {
		n, depth = 100_000, 1_000
	}
	dir := t.TempDir()
	for i := range n {
		d := filepath.Join(dir, "d"+string(rune('a'+i%26)), strings.Repeat("x", 1+i/26))
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		if i%100 == 0 {
			if err := os.WriteFile(filepath.Join(d, "main.tf"), nil, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	deep := dir
	for range depth {
		deep = filepath.Join(deep, "n")
	}
	if err := os.MkdirAll(deep, 0o755); err != nil {
		t.Skip("the file system refuses so deep a tree:", err)
	}
	tree, diags := Find(dir, Options{})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	if got := len(tree.Roots); got != (n+99)/100 {
		t.Errorf("%d roots, want %d", got, (n+99)/100)
	}
	if _, diags := Find(dir, Options{MaxDirs: n / 2}); !strings.Contains(diagText(diags), "Too many directories") {
		t.Errorf("MaxDirs %d: %s", n/2, diagText(diags))
	}
}

func TestModuleBlockPrecheck(t *testing.T) {
	for src, want := range map[string]bool{
		`module "x" {}`:                        true,
		"module x {\n}":                        true,
		"  module\t\"x\" {}":                   true,
		`{"module": {"x": {"source": "./a"}}}`: true,
		`{"module" : {}}`:                      true,
		`locals { p = "${path.module}/x" }`:    false,
		`locals { p = path.module }`:           false,
		`description = "Shared modules for"`:   false,
		`resource "a" "submodule" {}`:          false,
	} {
		if got := moduleBlock.MatchString(src); got != want {
			t.Errorf("%q: %v, want %v", src, got, want)
		}
	}
}
