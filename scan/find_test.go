package scan

import (
	"context"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/hashicorp/hcl/v2"

	"github.com/tfeval/tfeval/config"
	"github.com/tfeval/tfeval/dialect"
	"github.com/tfeval/tfeval/internal/longtest"
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

// Each module directory is listed with the last root, in root order, that
// reaches it through local sources: the top module, which the example
// calls, and the modules the top and the environments call, stay until
// the last root that uses them.
func TestFindLastReached(t *testing.T) {
	dir := testfiles.Dir(t, monorepo)
	abs := func(dirs ...string) []string {
		var out []string
		for _, d := range dirs {
			out = append(out, filepath.Join(dir, filepath.FromSlash(d)))
		}
		return out
	}
	tests := []struct {
		name string
		opts Options
		want [][]string
	}{
		{"roots", Options{}, [][]string{
			abs("envs/prod"),
			abs("envs/staging", "modules/app"),
			abs(".", "examples/complete", "modules/net"),
		}},
		{"exclude", Options{Exclude: []string{"examples", "staging"}}, [][]string{
			abs("."), // it calls net, but so does app, which prod calls
			abs("envs/prod", "modules/app", "modules/net"),
		}},
		// Without the calls, each root lists itself.
		{"all dirs", Options{AllDirs: true}, [][]string{
			abs("."), abs("envs/prod"), abs("envs/staging"), abs("examples/complete"), abs("modules/app"), abs("modules/net"),
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tree, diags := Find(dir, tt.opts)
			if len(diags) > 0 {
				t.Fatal(diags)
			}
			got := tree.LastReached()
			if !slices.EqualFunc(got, tt.want, slices.Equal[[]string]) {
				t.Errorf("LastReached for roots %q:\n got %q\nwant %q", tree.Roots, got, tt.want)
			}
		})
	}
}

// A cycle of calls ends: each directory of it is listed once.
func TestFindLastReachedCycle(t *testing.T) {
	dir := testfiles.Dir(t, map[string]string{
		"a/main.tf": `module "b" { source = "../b" }`,
		"b/main.tf": `module "a" { source = "../a" }`,
	})
	tree, diags := Find(dir, Options{})
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	want := [][]string{{filepath.Join(dir, "a"), filepath.Join(dir, "b")}}
	if got := tree.LastReached(); !slices.EqualFunc(got, want, slices.Equal[[]string]) {
		t.Errorf("LastReached = %q, want %q", got, want)
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

// Whatever a bounded cache can keep of what Find reads (here nothing, some
// or all of it), the roots are the same.
func TestFindWithABoundedCache(t *testing.T) {
	dir := testfiles.Dir(t, monorepo)
	want := []string{"envs/prod", "envs/staging", "examples/complete"}
	for _, max := range []int64{1, 100, 1 << 20} {
		tree, diags := Find(dir, Options{Cache: &config.ModuleCache{MaxBytes: max}})
		if len(diags) > 0 {
			t.Fatal(diags)
		}
		if !slices.Equal(tree.Roots, want) {
			t.Errorf("cache bound %d: roots %q, want %q", max, tree.Roots, want)
		}
	}
}

func TestKeepBudget(t *testing.T) {
	if b := newKeepBudget(nil); !b.take(1 << 40) {
		t.Error("without a cache: a directory may not be kept")
	}
	if b := newKeepBudget(&config.ModuleCache{}); !b.take(1<<40) || !b.take(1<<40) {
		t.Error("an unbounded cache: a directory may not be kept")
	}
	b := newKeepBudget(&config.ModuleCache{MaxBytes: 100})
	for i, step := range []struct {
		size int64
		want bool
	}{{30, true}, {20, true}, {1, false}, {40, false}, {0, true}} {
		if got := b.take(step.size); got != step.want {
			t.Errorf("step %d: take(%d) = %v, want %v (half the bound of 100)", i, step.size, got, step.want)
		}
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
// walked within the bounds: 100,000 directories with TFEVAL_LONG=1, made
// up by a file system that lists them as it is asked (as many on disk take
// a minute to make), and a deep tree on disk.
func TestFindManyDirs(t *testing.T) {
	n, depth := longtest.Pick(2_000, 100_000), longtest.Pick(200, 1_000)
	fsys := manyDirs(n)
	tree, diags := Find(".", Options{FS: fsys})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	if got, want := len(tree.Roots), (n+99)/100; got != want {
		t.Errorf("%d roots, want %d", got, want)
	}
	if _, diags := Find(".", Options{FS: fsys, MaxDirs: n / 2}); !strings.Contains(diagText(diags), "Too many directories") {
		t.Errorf("MaxDirs %d: %s", n/2, diagText(diags))
	}
	dir := t.TempDir()
	deep := dir
	for range depth {
		deep = filepath.Join(deep, "n")
	}
	if err := os.MkdirAll(deep, 0o755); err != nil {
		t.Skip("the file system refuses so deep a tree:", err)
	}
	if err := os.WriteFile(filepath.Join(deep, "main.tf"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	tree, diags = Find(dir, Options{})
	if diags.HasErrors() || len(tree.Roots) != 1 || strings.Count(tree.Roots[0], "/") != depth-1 {
		t.Errorf("a tree %d deep: %v, %s", depth, tree, diagText(diags))
	}
}

// manyDirs is a file system of n directories, d0/d0 to d99/dN, every
// hundredth with an empty main.tf.
type manyDirs int

func (m manyDirs) Open(name string) (fs.File, error) {
	fi, err := m.Stat(name)
	if err != nil {
		return nil, err
	}
	return &manyDirsFile{fi}, nil
}

// index is the number of the directory at name ("a/b"), or -1 for a top
// directory; false when there is none.
func (m manyDirs) index(top, sub string) (int, bool) {
	var a, b int
	if _, err := fmt.Sscanf(top, "d%d", &a); err != nil || a >= 100 || fmt.Sprintf("d%d", a) != top {
		return 0, false
	}
	if sub == "" {
		return -1, true
	}
	if _, err := fmt.Sscanf(sub, "d%d", &b); err != nil || fmt.Sprintf("d%d", b) != sub || b*100+a >= int(m) {
		return 0, false
	}
	return b*100 + a, true
}

func (m manyDirs) Stat(name string) (fs.FileInfo, error) {
	if name == "." {
		return manyDirsInfo{".", true}, nil
	}
	parts := strings.Split(name, "/")
	file := ""
	if len(parts) == 3 {
		file, parts = parts[2], parts[:2]
	}
	sub := ""
	if len(parts) == 2 {
		sub = parts[1]
	}
	i, ok := m.index(parts[0], sub)
	switch {
	case !ok || len(parts) > 2:
	case file == "":
		return manyDirsInfo{path.Base(name), true}, nil
	case file == "main.tf" && i >= 0 && i%100 == 0:
		return manyDirsInfo{file, false}, nil
	}
	return nil, &fs.PathError{Op: "stat", Path: name, Err: fs.ErrNotExist}
}

func (m manyDirs) ReadDir(name string) ([]fs.DirEntry, error) {
	fi, err := m.Stat(name)
	if err != nil || !fi.IsDir() {
		return nil, &fs.PathError{Op: "readdir", Path: name, Err: fs.ErrNotExist}
	}
	var out []fs.DirEntry
	switch parts := strings.Split(name, "/"); {
	case name == ".":
		for a := range min(100, int(m)) {
			out = append(out, fs.FileInfoToDirEntry(manyDirsInfo{fmt.Sprintf("d%d", a), true}))
		}
	case len(parts) == 1:
		a, _ := m.index(parts[0], "d0")
		for i := a; i < int(m); i += 100 {
			out = append(out, fs.FileInfoToDirEntry(manyDirsInfo{fmt.Sprintf("d%d", i/100), true}))
		}
	default:
		if i, _ := m.index(parts[0], parts[1]); i%100 == 0 {
			out = append(out, fs.FileInfoToDirEntry(manyDirsInfo{"main.tf", false}))
		}
	}
	slices.SortFunc(out, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	return out, nil
}

type manyDirsInfo struct {
	name string
	dir  bool
}

func (i manyDirsInfo) Name() string { return i.name }
func (i manyDirsInfo) Size() int64  { return 0 }
func (i manyDirsInfo) Mode() fs.FileMode {
	if i.dir {
		return fs.ModeDir | 0o755
	}
	return 0o644
}
func (i manyDirsInfo) ModTime() time.Time { return time.Time{} }
func (i manyDirsInfo) IsDir() bool        { return i.dir }
func (i manyDirsInfo) Sys() any           { return nil }

// manyDirsFile is an empty file, or a directory, of manyDirs.
type manyDirsFile struct{ fi fs.FileInfo }

func (f *manyDirsFile) Stat() (fs.FileInfo, error) { return f.fi, nil }
func (f *manyDirsFile) Read([]byte) (int, error)   { return 0, io.EOF }
func (f *manyDirsFile) Close() error               { return nil }

// TestMayHaveModuleBlock: a file may have a module block exactly when the
// regular expression the check is written out from matches it.
func TestMayHaveModuleBlock(t *testing.T) {
	re := regexp.MustCompile(`\bmodule(\s*"|\s+[A-Za-z_]|"\s*:)`)
	cases := []string{
		``, `module`, `module "a" {}`, `module a {}`, `module  _a {}`, `module"a"{}`,
		`module {`, `module = 1`, `module.a.b`, `x = module.a`, `mymodule "a" {}`, `_module "a"`,
		`9module "a"`, `-module "a"`, "\tmodule\n\"a\"", "module\f\rB", `{"module": {"a": {}}}`,
		`{"module"  :{}}`, `{"modules": {}}`, `modulemodule "a"`, `module module "a"`, `module 1`,
		`module é`, "x\x00module\"", `resource "module" "x" {}`, `# module foo`, `amodule module x`,
		`module[`, `module` + strings.Repeat(" ", 100), `module ` + "\xff",
	}
	for _, c := range cases {
		if got, want := mayHaveModuleBlock([]byte(c)), re.MatchString(c); got != want {
			t.Errorf("mayHaveModuleBlock(%q) = %v, want %v", c, got, want)
		}
	}
	// Every arrangement of a few telling bytes around the word.
	parts := []string{"", " ", "\n", "a", "_", "1", `"`, ":", ".", "module"}
	for _, a := range parts {
		for _, b := range parts {
			for _, c := range parts {
				for _, d := range parts {
					s := a + "module" + b + c + d
					if got, want := mayHaveModuleBlock([]byte(s)), re.MatchString(s); got != want {
						t.Errorf("mayHaveModuleBlock(%q) = %v, want %v", s, got, want)
					}
				}
			}
		}
	}
}
