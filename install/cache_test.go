package install

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tfeval/tfeval/internal/testfiles"
)

// cacheTree is a root module calling registry, archive and git modules.
func cacheTree(repo string) map[string]string {
	return map[string]string{"main.tf": `
module "net" {
  source  = "registry.example.com/acme/net/aws"
  version = "~> 1.0"
  cidr    = "10.0.0.0/16"
}
module "zip" {
  source = "http://archive.example.com/vpc.tar.gz"
}
module "git" {
  source = "git::file://` + filepath.ToSlash(repo) + `?ref=v1"
}
`}
}

// TestCache checks that a second run in the same root makes no request,
// that another root with the shared cache downloads nothing (it asks the
// registry and the repository which version is newest, and nothing more),
// and that offline installation from the cache makes no request at all.
func TestCache(t *testing.T) {
	l := newLoopback(t)
	l.serveRegistry("registry.example.com", map[string]registryModule{"acme/net/aws": netModules})
	archive := filesArchive(t, "", map[string]string{"main.tf": "# vpc\n"})
	l.mux.HandleFunc("archive.example.com/vpc.tar.gz", func(w http.ResponseWriter, r *http.Request) { w.Write(archive) })
	repo := gitRepo(t, []gitCommit{{files: map[string]string{"main.tf": "# git\n"}, tags: []string{"v1"}}})
	cacheDir := filepath.Join(t.TempDir(), "cache")

	install := func(dir string, offline bool) *Result {
		t.Helper()
		res, diags := Modules(Options{WorkDir: dir, HTTPClient: l.client(), CacheDir: cacheDir, Offline: offline, Env: testEnv()})
		if diags.HasErrors() {
			t.Fatal(summaries(diags))
		}
		return res
	}
	check := func(dir string) {
		t.Helper()
		for name, want := range map[string]string{"net/main.tf": `"1.2.0"`, "zip/main.tf": "# vpc", "git/main.tf": "# git"} {
			if got := readFile(dir, ".terraform/modules/"+name); !strings.Contains(got, want) {
				t.Errorf("%s: %s = %q, want %q", dir, name, got, want)
			}
		}
	}
	origins := func(res *Result) string {
		var s []string
		for _, m := range res.Modules {
			s = append(s, m.Key+"="+m.Origin.String())
		}
		return strings.Join(s, " ")
	}

	first := t.TempDir()
	testfiles.Write(t, first, cacheTree(repo))
	res := install(first, false)
	check(first)
	if got := origins(res); got != "git=downloaded net=downloaded zip=downloaded" {
		t.Errorf("first run: %s", got)
	}
	served := l.requests()
	if served != 5 { // discovery, versions, download, archive; the archive module
		t.Errorf("first run made %d requests, want 5", served)
	}

	res = install(first, false)
	if l.requests() != served || res.Requests != 0 {
		t.Errorf("second run in the same root made %d requests (counted %d), want none", l.requests()-served, res.Requests)
	}
	if got := origins(res); got != "git=kept net=kept zip=kept" {
		t.Errorf("second run: %s", got)
	}

	second := t.TempDir()
	testfiles.Write(t, second, cacheTree(repo))
	res = install(second, false)
	check(second)
	if got := origins(res); got != "git=cached net=cached zip=cached" {
		t.Errorf("another root: %s", got)
	}
	if n := l.hitsOf("registry.example.com/archives/acme/net/aws/1.2.0.tar.gz") + l.hitsOf("archive.example.com/vpc.tar.gz"); n != 2 {
		t.Errorf("another root downloaded archives again: %d downloads in all", n)
	}
	served = l.requests()

	third := t.TempDir()
	testfiles.Write(t, third, cacheTree(repo))
	// Offline, even a repository that is gone is served from the cache.
	os.RemoveAll(repo)
	res = install(third, true)
	check(third)
	if l.requests() != served || res.Requests != 0 {
		t.Errorf("offline run made %d requests", l.requests()-served)
	}

	fourth := t.TempDir()
	testfiles.Write(t, fourth, map[string]string{"main.tf": "module \"new\" {\n  source  = \"registry.example.com/acme/net/aws\"\n  version = \"2.0.0\"\n}\n"})
	_, diags := Modules(Options{WorkDir: fourth, HTTPClient: l.client(), CacheDir: cacheDir, Offline: true})
	if len(diags) != 1 || diags[0].Summary != "Unresolvable module version constraint" || l.requests() != served {
		t.Errorf("offline run for a version not cached: %s", summaries(diags))
	}
}

// TestUpgrade checks that -upgrade chooses again where modules.json
// already satisfies the call, and that a changed constraint does too.
func TestUpgrade(t *testing.T) {
	l := newLoopback(t)
	l.serveRegistry("registry.example.com", map[string]registryModule{"acme/net/aws": netModules})
	dir := t.TempDir()
	call := func(version string) {
		testfiles.Write(t, dir, map[string]string{"main.tf": `module "net" {
  source  = "registry.example.com/acme/net/aws"
  version = "` + version + `"
  cidr    = "x"
}`})
	}
	run := func(upgrade bool) string {
		t.Helper()
		res, diags := Modules(Options{WorkDir: dir, HTTPClient: l.client(), Upgrade: upgrade})
		if diags.HasErrors() {
			t.Fatal(summaries(diags))
		}
		return res.Modules[0].Version + " " + res.Modules[0].Origin.String()
	}
	call("1.0.0")
	if got := run(false); got != "1.0.0 downloaded" {
		t.Errorf("got %s", got)
	}
	call(">= 1.0.0, < 2.0.0")
	if got := run(false); got != "1.0.0 kept" {
		t.Errorf("a constraint the installed version still meets: got %s", got)
	}
	if got := run(true); got != "1.2.0 downloaded" {
		t.Errorf("-upgrade: got %s", got)
	}
	call("2.0.0")
	if got := run(false); got != "2.0.0 downloaded" {
		t.Errorf("a constraint the installed version fails: got %s", got)
	}
}
