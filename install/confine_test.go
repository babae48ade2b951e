package install

import (
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/tfeval/tfeval/dialect"
	"github.com/tfeval/tfeval/internal/testfiles"
)

// secretText is what the files outside the sandbox hold: it must appear
// nowhere in what init installs, reports or sends.
const secretText = "tfeval-init-secret-7c1e"

// sandboxCase is a checkout installed with -sandbox: box is the sandbox
// (and the root module), outside a directory beside it that holds the
// secret and a git repository of it.
type sandboxCase struct {
	name string
	// files are the root module's, with BOX, OUTSIDE and REPO (the
	// outside repository) replaced by their paths.
	files map[string]string
	// setup adds what files cannot (links, repositories, cache entries).
	setup  func(t *testing.T, box, outside, repo string)
	cache  bool // CacheDir "cache", inside box
	tofu   bool
	detail string // text a diagnostic must hold; "" for success
}

func TestSandboxedInit(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	l := newLoopback(t)
	var mu sync.Mutex
	var sent []string
	l.mux.HandleFunc("registry.example.com/.well-known/terraform.json", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `{"modules.v1": "/v1/"}`)
	})
	l.mux.HandleFunc("registry.example.com/v1/acme/net/aws/versions", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `{"modules":[{"versions":[{"version":"1.0.0"}]}]}`)
	})
	// The registry and the page name where the test put the outside
	// repository, in the query of their own URL.
	l.mux.HandleFunc("registry.example.com/v1/acme/net/aws/1.0.0/download", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Terraform-Get", "git::file://"+l.outsideRepo())
		w.WriteHeader(http.StatusNoContent)
	})
	l.mux.HandleFunc("pages.example.com/", func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		sent = append(sent, r.URL.String())
		mu.Unlock()
		switch r.URL.Path {
		case "/git":
			w.Header().Set("X-Terraform-Get", "git::file://"+l.outsideRepo())
			w.WriteHeader(http.StatusNoContent)
		case "/meta":
			w.Header().Set("Content-Type", "text/html")
			fmt.Fprintf(w, `<meta name="terraform-get" content="file://%s">`, l.outsideRepo())
		default:
			http.NotFound(w, r)
		}
	})
	module := `module "m" { source = "%s" }` + "\n"
	cases := []sandboxCase{
		{name: "registry names a git::file:// repository outside", files: map[string]string{"main.tf": fmt.Sprintf(module, "registry.example.com/acme/net/aws")}, detail: "outside the directory modules may be read from"},
		{name: "page names a git::file:// repository outside", files: map[string]string{"main.tf": fmt.Sprintf(module, "http://pages.example.com/git")}, detail: "outside the directory modules may be read from"},
		{name: "meta tag names a path", files: map[string]string{"main.tf": fmt.Sprintf(module, "http://pages.example.com/meta")}, detail: "not one tfeval installs from"},
		{name: "objects of a local repository linked out", files: map[string]string{"main.tf": fmt.Sprintf(module, "git::file://BOX/inner")},
			setup: func(t *testing.T, box, outside, repo string) {
				inner := innerRepo(t, box)
				os.RemoveAll(filepath.Join(inner, ".git", "objects"))
				symlinkOrSkip(t, filepath.Join(repo, ".git", "objects"), filepath.Join(inner, ".git", "objects"))
			}, detail: "a link to"},
		{name: "refs of a local repository linked out", files: map[string]string{"main.tf": fmt.Sprintf(module, "git::file://BOX/inner")},
			setup: func(t *testing.T, box, outside, repo string) {
				inner := innerRepo(t, box)
				symlinkOrSkip(t, filepath.Join(repo, ".git", "refs", "heads"), filepath.Join(inner, ".git", "refs", "tags", "outside"))
			}, detail: "a link to"},
		{name: "alternates of a local repository outside", files: map[string]string{"main.tf": fmt.Sprintf(module, "git::file://BOX/inner")},
			setup: func(t *testing.T, box, outside, repo string) {
				inner := innerRepo(t, box)
				testfiles.Write(t, inner, map[string]string{".git/objects/info/alternates": filepath.Join(repo, ".git", "objects") + "\n"})
			}, detail: "alternates"},
		{name: "a .git file naming a git directory outside", files: map[string]string{"main.tf": fmt.Sprintf(module, "git::file://BOX/inner")},
			setup: func(t *testing.T, box, outside, repo string) {
				testfiles.Write(t, box, map[string]string{"inner/.git": "gitdir: " + filepath.Join(repo, ".git") + "\n", "inner/main.tf": "#\n"})
			}, detail: "git directory"},
		{name: "a local repository without links", files: map[string]string{"main.tf": fmt.Sprintf(module, "git::file://BOX/inner")},
			setup: func(t *testing.T, box, outside, repo string) { innerRepo(t, box) }},
		{name: "configuration file linked out", files: map[string]string{"main.tf": "#\n"},
			setup: func(t *testing.T, box, outside, repo string) {
				testfiles.Write(t, outside, map[string]string{"calls.tf": fmt.Sprintf(module, "http://pages.example.com/"+secretText)})
				symlinkOrSkip(t, filepath.Join(outside, "calls.tf"), filepath.Join(box, "calls.tf"))
			}, detail: "outside the directory"},
		{name: "a source read from a file outside", tofu: true, files: map[string]string{"main.tf": `locals { s = trimspace(file("../outside/secret.txt")) }` + "\n" + fmt.Sprintf(module, "http://pages.example.com/${local.s}")},
			detail: "outside the directory"},
		{name: "an earlier installation linked out", files: map[string]string{"main.tf": fmt.Sprintf(module, "git::file://BOX/inner"),
			".terraform/modules/modules.json": `{"Modules":[{"Key":"","Source":"","Dir":"."},{"Key":"m","Source":"git::file://BOX/inner","Dir":".terraform/modules/m"}]}`},
			setup: func(t *testing.T, box, outside, repo string) {
				innerRepo(t, box)
				symlinkOrSkip(t, outside, filepath.Join(box, ".terraform", "modules", "m"))
			}},
		{name: "a cache entry whose files are not its content", cache: true, files: map[string]string{"main.tf": fmt.Sprintf(module, "git::file://BOX/inner?ref=main")},
			setup: func(t *testing.T, box, outside, repo string) {
				inner := innerRepo(t, box)
				commit := strings.TrimSpace(gitOutput(t, inner, "rev-parse", "HEAD"))
				hash := strings.Repeat("ab", 32)
				c := &cache{dir: filepath.Join(box, "cache")}
				src, _ := parseSource("git::file://"+filepath.ToSlash(inner)+"?ref=main", dialect.Terraform)
				testfiles.Write(t, box, map[string]string{
					rel(box, c.gitRef(src, commit)):      `{"content": "` + hash + `"}`,
					"cache/content/" + hash + "/main.tf": "# tampered\n",
				})
				symlinkOrSkip(t, filepath.Join(outside, "secret.txt"), filepath.Join(box, "cache", "content", hash, "secret.txt"))
			}},
		{name: "a cache directory linked out", cache: true, files: map[string]string{"main.tf": fmt.Sprintf(module, "git::file://BOX/inner?ref=main")},
			setup: func(t *testing.T, box, outside, repo string) {
				innerRepo(t, box)
				symlinkOrSkip(t, outside, filepath.Join(box, "cache", "refs"))
			}, detail: "outside the cache"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			root := t.TempDir()
			box, outside := filepath.Join(root, "box"), filepath.Join(root, "outside")
			testfiles.Write(t, outside, map[string]string{"secret.txt": secretText + "\n"})
			repo := gitRepo(t, []gitCommit{{files: map[string]string{"main.tf": "# " + secretText + "\n"}}})
			l.setOutsideRepo(repo)
			files := map[string]string{}
			for name, text := range c.files {
				files[name] = strings.NewReplacer("BOX", filepath.ToSlash(box), "OUTSIDE", filepath.ToSlash(outside), "REPO", filepath.ToSlash(repo)).Replace(text)
			}
			testfiles.Write(t, box, files)
			if c.setup != nil {
				c.setup(t, box, outside, repo)
			}
			before := dirListing(t, outside)
			opts := Options{WorkDir: box, Sandbox: ".", HTTPClient: l.client(), Env: testEnv()}
			if c.cache {
				opts.CacheDir = "cache"
			}
			if c.tofu {
				opts.Dialect = dialect.Tofu
			}
			mu.Lock()
			sent = nil
			mu.Unlock()
			_, diags := Modules(opts)
			text := summaries(diags)
			switch {
			case c.detail == "" && diags.HasErrors():
				t.Fatalf("want success, got:\n%s", text)
			case c.detail != "" && !strings.Contains(text, c.detail):
				t.Fatalf("want an error about %q, got:\n%s", c.detail, text)
			}
			if strings.Contains(text, secretText) {
				t.Errorf("a diagnostic shows what is outside:\n%s", text)
			}
			mu.Lock()
			for _, u := range sent {
				if strings.Contains(u, secretText) {
					t.Errorf("sent %s", u)
				}
			}
			mu.Unlock()
			if got := dirListing(t, outside); got != before {
				t.Errorf("outside changed:\n%s\nwas\n%s", got, before)
			}
			installed := filepath.Join(box, ".terraform", "modules")
			filepath.WalkDir(installed, func(p string, d os.DirEntry, err error) error {
				if err == nil && d.Type().IsRegular() && strings.Contains(readFile(p, ""), secretText) {
					t.Errorf("installed %s from outside", p)
				}
				if err == nil && d.Type()&os.ModeSymlink != 0 {
					if target, _ := filepath.EvalSymlinks(p); !strings.HasPrefix(target, box) {
						t.Errorf("installed a link out: %s", p)
					}
				}
				return nil
			})
		})
	}
}

// outsideRepo is the repository the registry and pages of TestSandboxedInit
// point at.
func (l *loopback) outsideRepo() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.outside
}

func (l *loopback) setOutsideRepo(dir string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.outside = filepath.ToSlash(dir)
}

// innerRepo makes a git repository of one module at box/inner, on the
// branch main.
func innerRepo(t *testing.T, box string) string {
	t.Helper()
	repo := gitRepo(t, []gitCommit{{files: map[string]string{"main.tf": "# inner\n"}}})
	inner := filepath.Join(box, "inner")
	if err := os.Rename(repo, inner); err != nil {
		if out, err := exec.Command("cp", "-R", repo, inner).CombinedOutput(); err != nil {
			t.Fatalf("%v: %s", err, out)
		}
	}
	return inner
}

func gitOutput(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = testEnv()
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}

func rel(base, p string) string {
	r, _ := filepath.Rel(base, p)
	return filepath.ToSlash(r)
}

func symlinkOrSkip(t *testing.T, target, link string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(link), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, link); err != nil {
		t.Skip("no symbolic links:", err)
	}
}

// dirListing is every path under dir with its size, to see that nothing
// there changed.
func dirListing(t *testing.T, dir string) string {
	var b strings.Builder
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		info, _ := d.Info()
		fmt.Fprintf(&b, "%s %d\n", p, info.Size())
		return nil
	})
	return b.String()
}
