package install

import (
	"context"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/zclconf/go-cty/cty"

	"github.com/tfeval/tfeval/config"

	"github.com/tfeval/tfeval/internal/testfiles"
)

// TestInstallProblems covers mistakes in the configuration and the
// directories around it: each a diagnostic, at the call when there is one.
func TestInstallProblems(t *testing.T) {
	outside := t.TempDir()
	testfiles.Write(t, outside, map[string]string{"main.tf": "# outside\n"})
	tests := []struct {
		name    string
		files   map[string]string
		prepare func(t *testing.T, dir string)
		sandbox bool
		cache   string
		summary string
		line    int
	}{
		// A literal version makes the source a registry address when the
		// call is loaded; one from a constant variable is the installer's.
		{name: "version on a git source", files: map[string]string{"main.tf": "module \"m\" {\n  source  = \"git::https://example.com/x.git\"\n  version = \"1.0\"\n}\n"}, summary: "Invalid registry module source address", line: 2},
		{name: "version on a local source", files: map[string]string{"main.tf": "module \"m\" {\n  source  = \"./m\"\n  version = \"1.0\"\n}\n", "m/main.tf": ""}, summary: "Invalid registry module source address", line: 2},
		{name: "constant version on a git source", files: map[string]string{"main.tf": "variable \"v\" {\n  const   = true\n  default = \"1.0\"\n}\nmodule \"m\" {\n  source  = \"git::https://example.com/x.git\"\n  version = var.v\n}\n"}, summary: "Invalid version constraint", line: 5},
		{name: "bad address", files: map[string]string{"main.tf": "module \"m\" {\n  source = \"modules/x\"\n}\n"}, summary: "Invalid module source address", line: 2},
		{name: "missing local directory", files: map[string]string{"main.tf": "module \"m\" {\n  source = \"./nope\"\n}\n"}, summary: "Unreadable module directory", line: 2},
		{name: "local cycle", files: map[string]string{"main.tf": "module \"m\" {\n  source = \"./a\"\n}\n", "a/main.tf": "module \"again\" {\n  source = \"../a\"\n}\n"}, summary: "Module call cycle", line: 2},
		{name: "local source outside the sandbox", sandbox: true, files: map[string]string{"main.tf": "module \"m\" {\n  source = \"./OUTSIDE\"\n}\n"}, summary: "Module source outside the allowed directory", line: 2},
		{name: "absolute source outside the sandbox", sandbox: true, files: map[string]string{"main.tf": "module \"m\" {\n  source = \"" + filepath.ToSlash(outside) + "\"\n}\n"}, summary: "Module source outside the allowed directory", line: 2},
		{name: "git repository outside the sandbox", sandbox: true, files: map[string]string{"main.tf": "module \"m\" {\n  source = \"git::file://" + filepath.ToSlash(outside) + "\"\n}\n"}, summary: "Module source outside the allowed directory", line: 2},
		{name: "cache outside the sandbox", sandbox: true, cache: outside, files: map[string]string{"main.tf": ""}, summary: "Installation outside the allowed directory"},
		{name: ".terraform is a link", files: map[string]string{"main.tf": ""}, prepare: func(t *testing.T, dir string) {
			os.Symlink(outside, filepath.Join(dir, ".terraform"))
		}, summary: "Unusable module directory"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			rel, _ := filepath.Rel(dir, outside)
			for name, text := range tt.files {
				tt.files[name] = strings.ReplaceAll(text, "./OUTSIDE", filepath.ToSlash(rel))
			}
			testfiles.Write(t, dir, tt.files)
			if tt.prepare != nil {
				tt.prepare(t, dir)
			}
			opts := Options{WorkDir: dir, CacheDir: tt.cache}
			if tt.sandbox {
				opts.Sandbox = "."
			}
			_, diags := Modules(opts)
			if len(diags) != 1 || diags[0].Summary != tt.summary {
				t.Fatalf("want %q, got:\n%s", tt.summary, summaries(diags))
			}
			if tt.line != 0 && (diags[0].Subject == nil || diags[0].Subject.Start.Line != tt.line) {
				t.Errorf("range %v, want line %d", diags[0].Subject, tt.line)
			}
			if entries, _ := os.ReadDir(outside); len(entries) != 1 {
				t.Errorf("written outside: %v", entries)
			}
		})
	}
}

// TestInstallPackageEscape checks that a local call inside a remote
// package may not leave the package.
func TestInstallPackageEscape(t *testing.T) {
	l := newLoopback(t)
	l.serveRegistry("registry.example.com", map[string]registryModule{"acme/esc/aws": {"1.0.0": {"main.tf": "module \"up\" {\n  source = \"../../..\"\n}\n"}}})
	dir := t.TempDir()
	testfiles.Write(t, dir, map[string]string{"main.tf": `module "esc" {` + "\n" + `source = "registry.example.com/acme/esc/aws"` + "\n}\n"})
	res, diags := Modules(Options{WorkDir: dir, HTTPClient: l.client()})
	if len(diags) != 1 || diags[0].Summary != "Local module path escapes module package" || diags[0].Subject.Filename != ".terraform/modules/esc/main.tf" {
		t.Fatalf("got:\n%s", summaries(diags))
	}
	if len(res.Modules) != 1 {
		t.Errorf("want the package itself recorded, got %+v", res.Modules)
	}
}

// TestInstallHangingServer checks that a server that never answers ends
// in a diagnostic once the request timeout passes, not in a hang.
func TestInstallHangingServer(t *testing.T) {
	l := newLoopback(t)
	release := make(chan struct{})
	defer close(release)
	l.mux.HandleFunc("slow.example.com/x.zip", func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	})
	dir := t.TempDir()
	testfiles.Write(t, dir, map[string]string{"main.tf": `module "m" {` + "\n" + `source = "http://slow.example.com/x.zip"` + "\n}\n"})
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	_, diags := Modules(Options{WorkDir: dir, HTTPClient: l.client(), RequestTimeout: 200 * time.Millisecond, Context: ctx})
	if len(diags) != 1 || !strings.Contains(diags[0].Detail, "did not answer in time") {
		t.Fatalf("got:\n%s", summaries(diags))
	}
}

// TestInstallNoNetworkWithoutCalls checks that a tree of local modules
// installs without any request and records the local modules.
func TestInstallLocalOnly(t *testing.T) {
	dir := t.TempDir()
	testfiles.Write(t, dir, map[string]string{
		"main.tf":           "module \"a\" {\n  source = \"./a\"\n}\n",
		"a/main.tf":         "module \"b\" {\n  source = \"../b\"\n}\n",
		"b/main.tf":         "",
		"abs/main.tf":       "",
		"unrelated/main.tf": "module \"x\" {\n  source = \"./nope\"\n}\n",
	})
	res, diags := Modules(Options{WorkDir: dir, HTTPClient: &http.Client{Transport: &http.Transport{DialContext: refuseDial}}})
	if diags.HasErrors() || res.Requests != 0 {
		t.Fatal(summaries(diags))
	}
	var got []string
	for _, m := range res.Modules {
		got = append(got, m.Key+"="+m.Dir+"/"+m.Origin.String())
	}
	if strings.Join(got, " ") != "a=a/local a.b=b/local" {
		t.Errorf("got %v", got)
	}
	if !strings.Contains(readFile(dir, ".terraform/modules/modules.json"), `{"Key":"a.b","Source":"../b","Dir":"b"}`) {
		t.Errorf("modules.json: %s", readFile(dir, ".terraform/modules/modules.json"))
	}
}

// TestInstallSourceFromVariable: a module source built from a const
// variable is installed from the value the root variables give, through
// a nested module's argument too.
func TestInstallSourceFromVariable(t *testing.T) {
	dir := t.TempDir()
	testfiles.Write(t, dir, map[string]string{
		"main.tf":   "variable \"flavour\" {\n  const = true\n}\nmodule \"a\" {\n  source  = \"./${var.flavour}\"\n  flavour = var.flavour\n}\n",
		"x/main.tf": "",
		"y/main.tf": "variable \"flavour\" {\n  const = true\n}\nmodule \"b\" {\n  source = \"../${var.flavour == \"y\" ? \"x\" : \"y\"}\"\n}\n",
	})
	res, diags := Modules(Options{WorkDir: dir, HTTPClient: &http.Client{Transport: &http.Transport{DialContext: refuseDial}},
		RootVariables: func(map[string]*config.Variable) map[string]cty.Value {
			return map[string]cty.Value{"flavour": cty.StringVal("y")}
		}})
	if diags.HasErrors() {
		t.Fatal(summaries(diags))
	}
	var got []string
	for _, m := range res.Modules {
		got = append(got, m.Key+"="+m.Source)
	}
	if strings.Join(got, " ") != "a=./y a.b=../x" {
		t.Errorf("got %v", got)
	}
	if _, diags := Modules(Options{WorkDir: dir}); !diags.HasErrors() || diags[0].Summary != "No value for required variable" {
		t.Errorf("without a value: %v", summaries(diags))
	}
}

// TestInstallSharedPackage checks that two calls of one module version
// download it once, the second copying the first's files.
func TestInstallSharedPackage(t *testing.T) {
	l := newLoopback(t)
	l.serveRegistry("registry.example.com", map[string]registryModule{"acme/net/aws": netModules})
	dir := t.TempDir()
	call := "module \"%s\" {\n  source  = \"registry.example.com/acme/net/aws\"\n  version = \"1.0.0\"\n  cidr    = \"x\"\n}\n"
	testfiles.Write(t, dir, map[string]string{"main.tf": strings.ReplaceAll(call, "%s", "a") + strings.ReplaceAll(call, "%s", "b")})
	res, diags := Modules(Options{WorkDir: dir, HTTPClient: l.client()})
	if diags.HasErrors() {
		t.Fatal(summaries(diags))
	}
	if res.Modules[0].Origin != Downloaded || res.Modules[1].Origin != Cached || l.hitsOf("registry.example.com/archives/acme/net/aws/1.0.0.tar.gz") != 1 {
		t.Errorf("got %+v after %d downloads", res.Modules, l.hitsOf("registry.example.com/archives/acme/net/aws/1.0.0.tar.gz"))
	}
	if a, b := readFile(dir, ".terraform/modules/a/main.tf"), readFile(dir, ".terraform/modules/b/main.tf"); a == "" || a != b {
		t.Errorf("a: %q, b: %q", a, b)
	}
}
