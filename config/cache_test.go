package config

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/tfeval/tfeval/internal/sandbox"
	"github.com/tfeval/tfeval/internal/testfiles"
)

// cacheTree is a root calling one shared module twice and another module
// once; the other module has a warning-free error so that cached
// diagnostics are exercised too.
var cacheTree = map[string]string{
	"main.tf": `
module "a" {
  source = "./modules/shared"
  name   = "a"
}
module "b" {
  source = "./modules/shared"
  name   = "b"
}
module "other" {
  source = "./modules/other"
}
`,
	"modules/shared/main.tf": `
variable "name" {
  type = string
}
variable "size" {
  default = 1
}
output "name" {
  value = var.name
}
`,
	"modules/other/main.tf": `
locals {
  x = 1
  x = 2
}
`,
}

// diagTexts renders diagnostics for comparison, ranges included.
func diagTexts(diags hcl.Diagnostics) []string {
	var out []string
	for _, d := range diags {
		s := fmt.Sprintf("%d %s: %s", d.Severity, d.Summary, d.Detail)
		if d.Subject != nil {
			s += " @ " + d.Subject.String()
		}
		out = append(out, s)
	}
	return out
}

func loadCached(t *testing.T, workDir, dir string, cache *ModuleCache) (*Config, hcl.Diagnostics) {
	t.Helper()
	cfg, diags := Load(dir, Options{WorkDir: workDir, Cache: cache})
	if cfg == nil || cfg.Module == nil {
		t.Fatalf("loading %s gave no configuration: %v", dir, diags)
	}
	return cfg, diags
}

func TestModuleCacheReusesUnchangedModules(t *testing.T) {
	dir := testfiles.Dir(t, cacheTree)
	fresh, freshDiags := Load(".", Options{WorkDir: dir})
	cache := &ModuleCache{}
	first, firstDiags := loadCached(t, dir, ".", cache)
	second, secondDiags := loadCached(t, dir, ".", cache)

	want := strings.Join(diagTexts(freshDiags), "\n")
	if len(freshDiags) == 0 {
		t.Fatal("the tree was meant to have a diagnostic")
	}
	for name, got := range map[string]hcl.Diagnostics{"first": firstDiags, "second": secondDiags} {
		if s := strings.Join(diagTexts(got), "\n"); s != want {
			t.Errorf("%s cached load's diagnostics:\n%s\nwant, as without a cache:\n%s", name, s, want)
		}
	}
	if first.Module != second.Module {
		t.Error("the root module was parsed again although its files did not change")
	}
	for _, name := range []string{"a", "b", "other"} {
		if first.Children[name].Module != second.Children[name].Module {
			t.Errorf("module %s was parsed again although its files did not change", name)
		}
		if got, want := second.Children[name].Module.Files, fresh.Children[name].Module.Files; strings.Join(got, ",") != strings.Join(want, ",") {
			t.Errorf("module %s files %v, want %v", name, got, want)
		}
	}
	// The tree itself is built for every load: only modules are shared.
	if first == second || first.Children["a"] == second.Children["a"] {
		t.Error("a cached load returned the tree of an earlier load")
	}
}

func TestModuleCacheDiagnosticsAreCopies(t *testing.T) {
	dir := testfiles.Dir(t, cacheTree)
	cache := &ModuleCache{}
	loadCached(t, dir, ".", cache)
	// The second load's diagnostics are those the cache kept.
	_, diags := loadCached(t, dir, ".", cache)
	want := diagTexts(diags)
	for _, d := range diags {
		d.Summary = "changed by the caller"
		if d.Subject != nil {
			d.Subject.Start.Line = 999
		}
	}
	_ = append(diags, &hcl.Diagnostic{Summary: "appended by the caller"})
	_, again := loadCached(t, dir, ".", cache)
	if got := diagTexts(again); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("after the caller changed its diagnostics, the next load gave:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// sharedDefault is the default of variable "size" in the shared module of
// the loaded tree, or cty.NilVal.
func sharedDefault(cfg *Config, name string) cty.Value {
	v := cfg.Children["a"].Module.Variables[name]
	if v == nil {
		return cty.NilVal
	}
	return v.Default
}

func TestModuleCacheSeesChangedFiles(t *testing.T) {
	shared := filepath.Join("modules", "shared")
	tests := []struct {
		name   string
		change func(t *testing.T, dir string)
		check  func(t *testing.T, cfg *Config)
	}{
		{
			name: "edited in place, same size and time",
			change: func(t *testing.T, dir string) {
				p := filepath.Join(dir, shared, "main.tf")
				info, err := os.Stat(p)
				if err != nil {
					t.Fatal(err)
				}
				src := strings.Replace(cacheTree["modules/shared/main.tf"], "default = 1", "default = 7", 1)
				write(t, p, src)
				if err := os.Chtimes(p, info.ModTime(), info.ModTime()); err != nil {
					t.Fatal(err)
				}
			},
			check: func(t *testing.T, cfg *Config) {
				if got := sharedDefault(cfg, "size"); !got.RawEquals(cty.NumberIntVal(7)) {
					t.Errorf("default of size = %#v, want 7", got)
				}
			},
		},
		{
			name: "file added",
			change: func(t *testing.T, dir string) {
				write(t, filepath.Join(dir, shared, "extra.tf"), `variable "extra" { default = "x" }`)
			},
			check: func(t *testing.T, cfg *Config) {
				if got := sharedDefault(cfg, "extra"); !got.RawEquals(cty.StringVal("x")) {
					t.Errorf("default of extra = %#v, want \"x\"", got)
				}
			},
		},
		{
			name: "override file added",
			change: func(t *testing.T, dir string) {
				write(t, filepath.Join(dir, shared, "main_override.tf"), `variable "size" { default = 3 }`)
			},
			check: func(t *testing.T, cfg *Config) {
				if got := sharedDefault(cfg, "size"); !got.RawEquals(cty.NumberIntVal(3)) {
					t.Errorf("default of size = %#v, want 3", got)
				}
			},
		},
		{
			name: "file renamed",
			change: func(t *testing.T, dir string) {
				if err := os.Rename(filepath.Join(dir, shared, "main.tf"), filepath.Join(dir, shared, "vars.tf")); err != nil {
					t.Fatal(err)
				}
			},
			check: func(t *testing.T, cfg *Config) {
				if got := cfg.Children["a"].Module.Files; len(got) != 1 || filepath.Base(got[0]) != "vars.tf" {
					t.Errorf("files %v, want only vars.tf", got)
				}
			},
		},
		{
			name: "directory replaced by a symbolic link",
			change: func(t *testing.T, dir string) {
				alt := filepath.Join(dir, "modules", "alt")
				if err := os.MkdirAll(alt, 0o755); err != nil {
					t.Fatal(err)
				}
				src := strings.Replace(cacheTree["modules/shared/main.tf"], "default = 1", "default = 5", 1)
				write(t, filepath.Join(alt, "main.tf"), src)
				if err := os.RemoveAll(filepath.Join(dir, shared)); err != nil {
					t.Fatal(err)
				}
				if err := os.Symlink(alt, filepath.Join(dir, shared)); err != nil {
					t.Skip("no symbolic links here:", err)
				}
			},
			check: func(t *testing.T, cfg *Config) {
				if got := sharedDefault(cfg, "size"); !got.RawEquals(cty.NumberIntVal(5)) {
					t.Errorf("default of size = %#v, want 5", got)
				}
			},
		},
		{
			name: "file removed",
			change: func(t *testing.T, dir string) {
				if err := os.Remove(filepath.Join(dir, "modules", "other", "main.tf")); err != nil {
					t.Fatal(err)
				}
			},
			check: func(t *testing.T, cfg *Config) {
				if got := cfg.Children["other"].Module.Locals; len(got) != 0 {
					t.Errorf("locals %v of a module whose only file was removed", got)
				}
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := testfiles.Dir(t, cacheTree)
			cache := &ModuleCache{}
			before, _ := loadCached(t, dir, ".", cache)
			tt.change(t, dir)
			after, diags := loadCached(t, dir, ".", cache)
			fresh, freshDiags := Load(".", Options{WorkDir: dir})
			tt.check(t, after)
			tt.check(t, fresh)
			if got, want := strings.Join(diagTexts(diags), "\n"), strings.Join(diagTexts(freshDiags), "\n"); got != want {
				t.Errorf("diagnostics after the change:\n%s\nwant, as without a cache:\n%s", got, want)
			}
			if after.Module != before.Module {
				t.Error("the unchanged root module was parsed again")
			}
			// What changed is kept in turn.
			again, _ := loadCached(t, dir, ".", cache)
			for _, name := range []string{"a", "other"} {
				if again.Children[name].Module != after.Children[name].Module {
					t.Errorf("module %s was parsed again on the load after the change", name)
				}
			}
		})
	}
}

func write(t *testing.T, path, src string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestModuleCacheFollowsThePath loads one module directory by two paths:
// the file names in its ranges must be those of the path each load took.
func TestModuleCacheFollowsThePath(t *testing.T) {
	dir := testfiles.Dir(t, map[string]string{
		"envs/prod/main.tf":     `module "m" { source = "../../modules/m" }`,
		"modules/m/main.tf":     `variable "v" { default = 1 }`,
		"modules/m/versions.tf": `terraform {}`,
	})
	cache := &ModuleCache{}
	fromTop, _ := loadCached(t, dir, filepath.Join("envs", "prod"), cache)
	fromEnv, _ := loadCached(t, filepath.Join(dir, "envs", "prod"), ".", cache)
	// Each path keeps its own copy: loads that alternate between them do
	// not parse the module again.
	again, _ := loadCached(t, dir, filepath.Join("envs", "prod"), cache)
	if again.Children["m"].Module != fromTop.Children["m"].Module {
		t.Error("loading by the first path again parsed the module again")
	}
	for _, tc := range []struct {
		cfg  *Config
		want string
	}{{fromTop, "modules/m/main.tf"}, {fromEnv, "../../modules/m/main.tf"}} {
		v := tc.cfg.Children["m"].Module.Variables["v"]
		if got := filepath.ToSlash(v.DeclRange.Filename); got != tc.want {
			t.Errorf("variable v declared in %q, want %q", got, tc.want)
		}
	}
}

// TestModuleCacheSkipsUnreadableFiles keeps no module with a file that
// could not be read: the next load reads it again.
func TestModuleCacheSkipsUnreadableFiles(t *testing.T) {
	dir := testfiles.Dir(t, map[string]string{"main.tf": `locals { a = 1 }`})
	target := filepath.Join(dir, "later.txt")
	if err := os.Symlink(target, filepath.Join(dir, "more.tf")); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	cache := &ModuleCache{}
	_, diags := loadCached(t, dir, ".", cache)
	if !diags.HasErrors() || diags[0].Summary != "Failed to read file" {
		t.Fatalf("diagnostics %v, want Failed to read file", diags)
	}
	write(t, target, `locals { b = 2 }`)
	cfg, diags := loadCached(t, dir, ".", cache)
	if diags.HasErrors() || cfg.Module.Locals["b"] == nil {
		t.Errorf("after the file became readable: locals %v, diagnostics %v", cfg.Module.Locals, diags)
	}
}

// TestModuleCacheConcurrentLoads loads one tree from several goroutines
// at once with one cache: the loads that find a directory being decoded
// wait for it, so all of them get the same modules (run with -race in CI).
func TestModuleCacheConcurrentLoads(t *testing.T) {
	dir := testfiles.Dir(t, cacheTree)
	cache := &ModuleCache{}
	const loads = 8
	start := make(chan struct{})
	done := make(chan *Config)
	for range loads {
		go func() {
			<-start
			cfg, _ := Load(".", Options{WorkDir: dir, Cache: cache})
			done <- cfg
		}()
	}
	close(start)
	timeout := time.After(time.Minute)
	var shared *Module
	for range loads {
		select {
		case cfg := <-done:
			if cfg == nil || cfg.Children["a"] == nil || cfg.Children["a"].Module.Variables["name"] == nil {
				t.Fatal("a concurrent load gave an incomplete tree")
			}
			if shared == nil {
				shared = cfg.Children["a"].Module
			} else if cfg.Children["a"].Module != shared {
				t.Error("concurrent loads decoded the shared module more than once")
			}
		case <-timeout:
			t.Fatal("concurrent loads did not finish")
		}
	}
}

// TestModuleCacheAfterPanic keeps nothing for a directory whose decode
// panicked: the loads waiting for it and the next ones decode it
// themselves.
func TestModuleCacheAfterPanic(t *testing.T) {
	cache := &ModuleCache{}
	key := moduleKey{abs: "/m", dir: "m", sourceDir: "m"}
	files := []fileDigest{{file: configFile{Path: "m/main.tf"}}}
	parse := func(int) parsedFile { return parsedFile{body: hcl.EmptyBody()} }
	func() {
		defer func() { _ = recover() }()
		cache.load(key, files, parse, func([]parsedFile) (*Module, hcl.Diagnostics) { panic("decode failed") })
	}()
	decoded := 0
	decode := func([]parsedFile) (*Module, hcl.Diagnostics) { decoded++; return newModule("m"), nil }
	first, _ := cache.load(key, files, parse, decode)
	second, _ := cache.load(key, files, parse, decode)
	if first == nil || first != second || decoded != 1 {
		t.Errorf("after a panic: modules %p and %p, %d decodes; want one module, decoded once", first, second, decoded)
	}
}

func TestModuleCacheMaxBytesDropsLeastRecentlyUsed(t *testing.T) {
	files := map[string]string{}
	for _, name := range []string{"a", "b", "c"} {
		files[name+"/main.tf"] = fmt.Sprintf("locals {\n  name = %q\n}\n", name) // 24 bytes each
	}
	dir := testfiles.Dir(t, files)
	cache := &ModuleCache{MaxBytes: 60} // room for two of them
	load := func(name string) *Module {
		t.Helper()
		cfg, diags := loadCached(t, filepath.Join(dir, name), ".", cache)
		if diags.HasErrors() {
			t.Fatal(diags)
		}
		return cfg.Module
	}
	a, b := load("a"), load("b")
	if load("a") != a {
		t.Fatal("a was parsed again while the cache had room for it")
	}
	load("c") // drops b, used least recently
	if load("a") != a {
		t.Error("a was dropped although b was used less recently")
	}
	if load("b") == b {
		t.Error("b was kept past MaxBytes")
	}
	if cache.size > cache.MaxBytes || cache.recent.Len() != len(cache.modules) {
		t.Errorf("the cache keeps %d bytes in %d modules (%d listed), over its bound of %d", cache.size, len(cache.modules), cache.recent.Len(), cache.MaxBytes)
	}
}

// checkCounts fails when the bytes and modules the cache counts are not
// those it keeps.
func checkCounts(t *testing.T, cache *ModuleCache) {
	t.Helper()
	var size int64
	for _, cm := range cache.modules {
		size += cm.size
	}
	if size != cache.size || cache.recent.Len() != len(cache.modules) {
		t.Errorf("the cache counts %d bytes in %d modules, keeps %d bytes in %d", cache.size, cache.recent.Len(), size, len(cache.modules))
	}
}

func TestModuleCacheForgetRoot(t *testing.T) {
	dir := testfiles.Dir(t, cacheTree)
	cache := &ModuleCache{MaxBytes: 1 << 20}
	first, _ := loadCached(t, dir, ".", cache)
	shared, _ := loadCached(t, filepath.Join(dir, "modules", "shared"), ".", cache)
	cache.ForgetRoot(dir)
	second, _ := loadCached(t, dir, ".", cache)
	if first.Module == second.Module {
		t.Error("the root module was kept after ForgetRoot")
	}
	if first.Children["a"].Module != second.Children["a"].Module {
		t.Error("ForgetRoot dropped a module the root calls")
	}
	// The called module was also loaded as a root of its own: only the
	// root of dir was forgotten.
	if again, _ := loadCached(t, filepath.Join(dir, "modules", "shared"), ".", cache); again.Module != shared.Module {
		t.Error("ForgetRoot dropped another directory's root module")
	}
	checkCounts(t, cache)
}

// Forget drops a directory however it was reached (called by the root,
// and loaded as a root of its own) and keeps the others.
func TestModuleCacheForget(t *testing.T) {
	dir := testfiles.Dir(t, cacheTree)
	sharedDir := filepath.Join(dir, "modules", "shared")
	cache := &ModuleCache{MaxBytes: 1 << 20}
	first, _ := loadCached(t, dir, ".", cache)
	alone, _ := loadCached(t, sharedDir, ".", cache)
	cache.Forget(sharedDir)
	second, _ := loadCached(t, dir, ".", cache)
	if first.Module != second.Module || first.Children["other"].Module != second.Children["other"].Module {
		t.Error("Forget dropped modules of other directories")
	}
	if first.Children["a"].Module == second.Children["a"].Module {
		t.Error("the directory was kept, as the root calls it, after Forget")
	}
	if again, _ := loadCached(t, sharedDir, ".", cache); again.Module == alone.Module {
		t.Error("the directory was kept, as a root, after Forget")
	}
	checkCounts(t, cache)
}

// TestModuleCacheCopiesParseForAnotherPath: a directory loaded by a second
// path is the module a load without the cache makes, its ranges naming
// the second path, and is made from the first load's parse, not parsed
// again.
func TestModuleCacheCopiesParseForAnotherPath(t *testing.T) {
	dir := testfiles.Dir(t, map[string]string{
		"envs/a/main.tf": `
module "m" {
  source = "../../modules/m"
}
`,
		"modules/m/main.tf": `
variable "x" {
  default = [for v in local.list : v.id]
}
locals {
  list = aws_instance.a[*]
  dup  = 1
  dup  = 2
}
resource "aws_instance" "a" {
  count = 2
}
`,
		"modules/m/extra.tf.json": `{"output": {"o": {"value": "${var.x}"}}}`,
	})
	cache := &ModuleCache{}
	if _, diags := loadCached(t, filepath.Join(dir, "modules", "m"), ".", cache); !diags.HasErrors() {
		t.Fatal("the module was meant to have an error")
	}
	cached, cachedDiags := loadCached(t, filepath.Join(dir, "envs", "a"), ".", cache)
	fresh, freshDiags := Load(".", Options{WorkDir: filepath.Join(dir, "envs", "a")})
	if got, want := strings.Join(diagTexts(cachedDiags), "\n"), strings.Join(diagTexts(freshDiags), "\n"); got != want {
		t.Errorf("diagnostics through the cache:\n%s\nwant\n%s", got, want)
	}
	if !strings.Contains(strings.Join(diagTexts(cachedDiags), "\n"), filepath.Join("..", "..", "modules", "m", "main.tf")) {
		t.Errorf("the diagnostics do not name the file by the second path: %v", diagTexts(cachedDiags))
	}
	if !reflect.DeepEqual(cached.Children["m"].Module, fresh.Children["m"].Module) {
		t.Error("the module loaded by a second path differs from one loaded without the cache")
	}

	// The same through load itself: the second path parses only what is
	// not native syntax.
	m := filepath.Join(dir, "modules", "m")
	files, _ := moduleFiles(sandbox.Dir{}, m, ".", 0)
	srcs := make([][]byte, len(files))
	for i, f := range files {
		srcs[i], _ = os.ReadFile(filepath.Join(m, f.Path))
	}
	at := func(prefix string) []fileDigest {
		out := digests(files, srcs)
		for i := range out {
			out[i].file.Path = path.Join(prefix, out[i].file.Path)
		}
		return out
	}
	// load parses a module's files at once, so the count is atomic.
	load := func(prefix string, parses *atomic.Int64) *Module {
		fs := at(prefix)
		mod, _ := cache.load(moduleKey{abs: m, dir: prefix, sourceDir: prefix}, fs, func(i int) parsedFile {
			parses.Add(1)
			return parseFile(fs[i].file, srcs[i], nil)
		}, func(parsed []parsedFile) (*Module, hcl.Diagnostics) {
			cf := make([]configFile, len(fs))
			for i := range fs {
				cf[i] = fs[i].file
			}
			return decodeParsed(prefix, cf, parsed, nil, 0)
		})
		return mod
	}
	cache = &ModuleCache{}
	var first, second atomic.Int64
	load("x", &first)
	if got := load("y/z", &second); got == nil || first.Load() != 2 || second.Load() != 1 {
		t.Errorf("first load parsed %d files, second %d; want 2 and 1 (the JSON file)", first.Load(), second.Load())
	}
}

// A block or module keeps one derived value: asked with another key (a
// schema each evaluation of a long-lived program parses anew), Derived
// makes a new value and keeps it in place of the old, so a module a cache
// keeps does not grow with every evaluation.
func TestDerivedKeepsOne(t *testing.T) {
	res := &Resource{Type: "x", Name: "y"}
	mod := newModule(".")
	for _, c := range []struct {
		name    string
		derived func(key any, make func() any) any
		slot    *derivedSlot
	}{
		{"resource", res.Derived, &res.derived},
		{"module", mod.Derived, &mod.derived},
	} {
		made := 0
		get := func(key int) any {
			return c.derived(key, func() any { made++; return key * 10 })
		}
		for i, s := range []struct{ key, want, made int }{
			{1, 10, 1}, {1, 10, 1}, {2, 20, 2}, {2, 20, 2}, {1, 10, 3},
		} {
			if got := get(s.key); got != s.want || made != s.made {
				t.Errorf("%s step %d: Derived(%d) = %v after %d makes, want %v after %d", c.name, i, s.key, got, made, s.want, s.made)
			}
		}
		for k := range 1000 {
			get(k)
		}
		if d := c.slot.last.Load(); d == nil || d.key != 999 {
			t.Errorf("%s kept %+v, want the value of the last key", c.name, d)
		}
	}
}

// TestModuleCacheCopiesParseOfSameFile: a file with the same name and
// content as one kept for another directory is copied from that parse,
// not parsed again, and the module is the one a load without the cache
// makes, its ranges naming its own directory.
func TestModuleCacheCopiesParseOfSameFile(t *testing.T) {
	dir := sameFileDirs(t)
	cache := &ModuleCache{}
	parses := make([]atomic.Int64, 2)
	load := func(n int, sub string) (*Module, hcl.Diagnostics) {
		return loadCounted(cache, filepath.Join(dir, sub), func(configFile) { parses[n].Add(1) })
	}
	load(0, "a")
	got, gotDiags := load(1, "b")
	if parses[0].Load() != 2 || parses[1].Load() != 1 {
		t.Errorf("the loads parsed %d and %d files; want 2 and 1 (variables.tf copied)", parses[0].Load(), parses[1].Load())
	}
	fresh, freshDiags := LoadModule(".", Options{WorkDir: filepath.Join(dir, "b")})
	if g, w := strings.Join(diagTexts(gotDiags), "\n"), strings.Join(diagTexts(freshDiags), "\n"); g != w || g == "" {
		t.Errorf("diagnostics with the copied parse:\n%s\nwant (not empty)\n%s", g, w)
	}
	if !reflect.DeepEqual(got.Variables, fresh.Variables) || !reflect.DeepEqual(got.Outputs, fresh.Outputs) {
		t.Error("the module made with a copied parse differs from one loaded without the cache")
	}
}

// sameFileDirs writes two module directories, a and b, holding the same
// variables.tf (which declares a variable twice, so that a copied parse's
// diagnostics can be compared with a fresh one's) and main.tf files of
// their own.
func sameFileDirs(t *testing.T) string {
	shared := `
variable "x" {
  type = list(string)
}
variable "x" {}
`
	return testfiles.Dir(t, map[string]string{
		"a/variables.tf": shared,
		"a/main.tf":      `output "o" { value = var.x }`,
		"b/variables.tf": shared,
		"b/main.tf":      `output "p" { value = length(var.x) }`,
	})
}

// loadCounted loads the module directory m as a root through cache.load,
// calling parsing with each file it parses before parsing it.
func loadCounted(cache *ModuleCache, m string, parsing func(configFile)) (*Module, hcl.Diagnostics) {
	files, _ := moduleFiles(sandbox.Dir{}, m, ".", 0)
	srcs := make([][]byte, len(files))
	for i, f := range files {
		srcs[i], _ = os.ReadFile(filepath.Join(m, f.Path))
	}
	fs := digests(files, srcs)
	return cache.load(moduleKey{abs: m, dir: ".", sourceDir: "."}, fs, func(i int) parsedFile {
		parsing(fs[i].file)
		return parseFile(fs[i].file, srcs[i], nil)
	}, func(parsed []parsedFile) (*Module, hcl.Diagnostics) {
		return decodeParsed(".", files, parsed, nil, 0)
	})
}

// TestModuleCacheWaitsForSameFileBeingParsed: a load meeting a file with
// the same name and content as one another load is parsing at that moment
// (two roots of a scan in flight calling copies of a module) copies that
// parse once it is done instead of parsing the file too; when the other
// load fails, it parses the file itself.
func TestModuleCacheWaitsForSameFileBeingParsed(t *testing.T) {
	dir := sameFileDirs(t)
	for _, fail := range []bool{false, true} {
		cache := &ModuleCache{}
		aParsing, bParsing, release := make(chan struct{}), make(chan struct{}), make(chan struct{})
		go func() {
			defer func() { _ = recover() }()
			loadCounted(cache, filepath.Join(dir, "a"), func(f configFile) {
				if filepath.Base(f.Path) == "variables.tf" {
					close(aParsing)
					<-release
					if fail {
						panic("parse failed")
					}
				}
			})
		}()
		<-aParsing
		var mu sync.Mutex
		var bParses []string
		type loaded struct {
			mod   *Module
			diags hcl.Diagnostics
		}
		done := make(chan loaded)
		go func() {
			mod, diags := loadCounted(cache, filepath.Join(dir, "b"), func(f configFile) {
				mu.Lock()
				bParses = append(bParses, f.Path)
				mu.Unlock()
				if f.Path == "main.tf" {
					close(bParsing) // b has looked for the file's parse by now
				}
			})
			done <- loaded{mod, diags}
		}()
		select {
		case <-bParsing:
		case <-time.After(time.Minute):
			t.Fatal("the second load did not start parsing")
		}
		close(release)
		var got loaded
		select {
		case got = <-done:
		case <-time.After(time.Minute):
			t.Fatal("the second load did not finish")
		}
		want := []string{"main.tf"}
		if fail {
			want = []string{"main.tf", "variables.tf"}
		}
		if !reflect.DeepEqual(bParses, want) {
			t.Errorf("failing first load %v: the second parsed %v, want %v", fail, bParses, want)
		}
		fresh, freshDiags := LoadModule(".", Options{WorkDir: filepath.Join(dir, "b")})
		if g, w := strings.Join(diagTexts(got.diags), "\n"), strings.Join(diagTexts(freshDiags), "\n"); g != w || g == "" {
			t.Errorf("failing first load %v: diagnostics\n%s\nwant (not empty)\n%s", fail, g, w)
		}
		if !reflect.DeepEqual(got.mod.Variables, fresh.Variables) || !reflect.DeepEqual(got.mod.Outputs, fresh.Outputs) {
			t.Errorf("failing first load %v: the module differs from one loaded without the cache", fail)
		}
	}
}
