package install

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/tfeval/tfeval/internal/testfiles"
)

// TestInstallBounds: what a hostile tree or server can make init do is
// bounded, each bound a diagnostic at the module call.
func TestInstallBounds(t *testing.T) {
	l := newLoopback(t)
	bomb := filesArchive(t, "", map[string]string{"main.tf": strings.Repeat("#", 64<<10)})
	l.mux.HandleFunc("bombs.example.com/bomb.tar.gz", func(w http.ResponseWriter, r *http.Request) { w.Write(bomb) })
	l.mux.HandleFunc("many.example.com/.well-known/terraform.json", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `{"modules.v1": "/v1/"}`)
	})
	l.mux.HandleFunc("many.example.com/v1/a/b/c/versions", func(w http.ResponseWriter, r *http.Request) {
		var b strings.Builder
		b.WriteString(`{"modules":[{"versions":[`)
		for i := range maxVersions + 1 {
			if i > 0 {
				b.WriteString(",")
			}
			fmt.Fprintf(&b, `{"version":"1.0.%d"}`, i)
		}
		b.WriteString(`]}]}`)
		w.Write([]byte(b.String()))
	})
	var calls strings.Builder
	for i := range 30 {
		fmt.Fprintf(&calls, "module \"m%d\" { source = \"./m\" }\n", i)
	}
	terms := strings.TrimSuffix(strings.Repeat(">= 1.0.0, ", maxConstraintTerms+1), ", ")
	for _, tt := range []struct {
		name   string
		files  map[string]string
		opts   Options
		detail string
		// requests is how many requests the archive may take.
		requests int
	}{
		{name: "the same bomb for five calls", files: map[string]string{"main.tf": strings.Repeat(`module "a" { source = "http://bombs.example.com/bomb.tar.gz" }`+"\n", 1) +
			`module "b" { source = "http://bombs.example.com/bomb.tar.gz" }` + "\n" + `module "c" { source = "http://bombs.example.com/bomb.tar.gz" }` + "\n"},
			opts: Options{MaxPackageSize: 32 << 10}, detail: "more than 32 KiB", requests: 1},
		{name: "module fan-out", files: map[string]string{"main.tf": calls.String(), "m/main.tf": ""}, opts: Options{MaxModules: 10}, detail: "more than 10 module calls"},
		{name: "a constraint of many terms", files: map[string]string{"main.tf": `module "m" {` + "\n" + `source = "many.example.com/a/b/c"` + "\n" + `version = "` + terms + `"` + "\n}\n"}, detail: "conditions"},
		{name: "a registry of many versions", files: map[string]string{"main.tf": `module "m" { source = "many.example.com/a/b/c" }`}, detail: "versions of the module"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			testfiles.Write(t, dir, tt.files)
			opts := tt.opts
			opts.WorkDir, opts.HTTPClient = dir, l.client()
			before := l.hitsOf("bombs.example.com/bomb.tar.gz")
			_, diags := Modules(opts)
			if !diags.HasErrors() || !strings.Contains(summaries(diags), tt.detail) {
				t.Fatalf("want an error about %q, got:\n%s", tt.detail, summaries(diags))
			}
			for _, d := range diags {
				if d.Subject == nil {
					t.Errorf("no range: %s", d.Detail)
				}
			}
			if n := l.hitsOf("bombs.example.com/bomb.tar.gz") - before; n > tt.requests {
				t.Errorf("the archive was fetched %d times", n)
			}
			// Failed downloads leave nothing behind.
			entries, _ := os.ReadDir(filepath.Join(dir, ".terraform", "modules"))
			for _, e := range entries {
				if e.Name() != "modules.json" && (tt.requests > 0 || strings.HasPrefix(e.Name(), ".tfeval")) {
					t.Errorf("left behind: %s", e.Name())
				}
			}
		})
	}
}

// TestGitBounds: a repository whose tree is larger than a package may be
// is refused from git's listing of it, before its files are written; a
// git that stalls ends with the context or the request timeout; a
// repository that lists endless refs is cut off.
func TestGitBounds(t *testing.T) {
	many := map[string]string{}
	for i := range 30 {
		many[fmt.Sprintf("f%02d.tf", i)] = "#\n"
	}
	repo := gitRepo(t, []gitCommit{{files: many}})
	dir := t.TempDir()
	testfiles.Write(t, dir, map[string]string{"main.tf": `module "m" { source = "git::file://` + filepath.ToSlash(repo) + `" }`})
	_, diags := Modules(Options{WorkDir: dir, Env: testEnv(), MaxPackageFiles: 10})
	if !strings.Contains(summaries(diags), "the repository has more than 10 files") {
		t.Errorf("want the listing refused, got:\n%s", summaries(diags))
	}

	if runtime.GOOS == "windows" {
		t.Skip("the stand-in git is a shell script")
	}
	bin := t.TempDir()
	scripts := map[string]string{
		"stall":   "#!/bin/sh\nexec sleep 600\n",
		"endless": "#!/bin/sh\nexec yes '0123456789012345678901234567890123456789\trefs/heads/x'\n",
	}
	for name, script := range scripts {
		if err := os.WriteFile(filepath.Join(bin, name), []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	cache := filepath.Join(t.TempDir(), "cache")
	for _, tt := range []struct {
		name, git, detail string
		timeout           time.Duration
		context           time.Duration
	}{
		{"stalled, context", "stall", "git was stopped", 0, 300 * time.Millisecond},
		{"stalled, request timeout", "stall", "did not finish within", 300 * time.Millisecond, 0},
		{"endless refs", "endless", "larger than", 0, 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			testfiles.Write(t, dir, map[string]string{"main.tf": `module "m" { source = "git::https://example.com/x.git?ref=main" }`})
			ctx := context.Background()
			if tt.context > 0 {
				var cancel context.CancelFunc
				ctx, cancel = context.WithTimeout(ctx, tt.context)
				defer cancel()
			}
			done := make(chan string, 1)
			go func() {
				// With a cache, the ref is asked for with ls-remote first.
				_, diags := Modules(Options{WorkDir: dir, Env: testEnv(), Git: filepath.Join(bin, tt.git), CacheDir: cache, RequestTimeout: tt.timeout, Context: ctx})
				done <- summaries(diags)
			}()
			select {
			case got := <-done:
				if !strings.Contains(got, tt.detail) {
					t.Errorf("want %q, got:\n%s", tt.detail, got)
				}
			case <-time.After(60 * time.Second):
				t.Fatal("init did not return")
			}
		})
	}
}
