package install

import (
	"archive/tar"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"

	"github.com/tfeval/tfeval/dialect"
	"github.com/tfeval/tfeval/internal/testfiles"
)

// FuzzParseSource checks that any source address parses or gives an
// error, never a panic, and that a parsed one keeps its subdirectory
// inside the package and reads back to itself.
func FuzzParseSource(f *testing.F) {
	for _, s := range []string{"./a", "hashicorp/consul/aws", "a.io/b/c/d//e/*", "git::https://x.io/r.git//s?ref=v1&depth=2",
		"git@github.com:a/b.git", "github.com/a/b//c?ref=x", "https://x.io/a.zip?archive=tgz", "/abs//sub", "s3::x", "git::x@y:1/z"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, addr string) {
		s, err := parseSource(addr, dialect.Terraform)
		if err != nil {
			return
		}
		if _, err := cleanSubdir(s.subdir); err != nil {
			t.Fatalf("%q: subdir %q: %v", addr, s.subdir, err)
		}
		if s.kind == registryKind || s.kind == gitKind {
			again, err := parseSource(s.text, dialect.Terraform)
			if err != nil || again.text != s.text {
				t.Fatalf("%q reads as %q, which reads as %+v (%v)", addr, s.text, again, err)
			}
		}
	})
}

// FuzzExtractArchive unpacks any bytes as each archive format into a
// directory of a parent that must hold nothing else afterwards: an
// archive is unpacked within the limits (checked by checkTree), or is an
// error; it never panics and never writes or links outside.
func FuzzExtractArchive(f *testing.F) {
	f.Add(byte(0), tarGz(f, []tarEntry{{name: "d/", kind: tar.TypeDir}, {name: "d/main.tf", body: "a"}, {name: "l", kind: tar.TypeSymlink, link: "d/main.tf"}, {name: "h", kind: tar.TypeLink, link: "d/main.tf"}}))
	f.Add(byte(0), tarGz(f, []tarEntry{{name: "l", kind: tar.TypeSymlink, link: "."}, {name: "l/../evil.tf", body: "x"}}))
	f.Add(byte(0), tarGz(f, []tarEntry{{name: "self", kind: tar.TypeSymlink, link: "."}, {name: "out", kind: tar.TypeSymlink, link: "self/.."}}))
	f.Add(byte(1), zipArchive(f, map[string]string{"main.tf": "z", "../x": "y"}, map[string]string{"l": "../../x"}))
	f.Add(byte(2), []byte("not an archive"))
	formats := []string{"tar.gz", "zip", "tar", "tar.bz2"}
	f.Fuzz(func(t *testing.T, format byte, data []byte) {
		parent := t.TempDir()
		src := filepath.Join(parent, "archive")
		if err := os.WriteFile(src, data, 0o644); err != nil {
			t.Fatal(err)
		}
		dst := filepath.Join(parent, "out", "pkg")
		err := extractArchive(formats[int(format)%len(formats)], src, dst, 64<<10, 50)
		if err == nil {
			if err := checkTree(dst, 64<<10, 50); err != nil {
				t.Fatalf("unpacked a package checkTree refuses: %v", err)
			}
		}
		entries, _ := os.ReadDir(parent)
		outEntries, _ := os.ReadDir(filepath.Join(parent, "out"))
		if len(entries) != 2 || len(outEntries) > 1 {
			t.Fatalf("written outside the package: %v %v", entries, outEntries)
		}
	})
}

// FuzzRegistryAnswers installs a registry module from a registry whose
// answers (service discovery, versions, the download's location) are
// anything: the installation ends with the module installed or a
// diagnostic at the call, never a panic, and with a sandbox never reads a
// location outside it.
func FuzzRegistryAnswers(f *testing.F) {
	f.Add(`{"modules.v1": "/v1/"}`, `{"modules":[{"versions":[{"version":"1.0.0"}]}]}`, "/a.tar.gz//*")
	f.Add(`{"modules.v1": "https://other.example.com/v1"}`, `{"modules":[{"versions":[{"version":"2.0.0-beta"},{"version":"x"}]}]}`, "git::file:///etc")
	f.Add(`{"modules.v1": 1}`, `{"modules":[]}`, "file:///etc/passwd")
	f.Add(`[]`, `{"modules":[{"versions":null}]}`, "../../../x")
	f.Add(`{"modules.v1": "file:///v1/"}`, `{}`, "/a.tar.gz//../..")
	archive := filesArchive(f, "top/", map[string]string{"main.tf": "# module\n"})
	f.Fuzz(func(t *testing.T, discovery, versions, location string) {
		l := newLoopback(t)
		l.mux.HandleFunc("registry.example.com/.well-known/terraform.json", func(w http.ResponseWriter, r *http.Request) { w.Write([]byte(discovery)) })
		l.mux.HandleFunc("registry.example.com/", func(w http.ResponseWriter, r *http.Request) {
			switch {
			case strings.HasSuffix(r.URL.Path, "/versions"):
				w.Write([]byte(versions))
			case strings.HasSuffix(r.URL.Path, "/download"):
				w.Header().Set("X-Terraform-Get", location)
				w.WriteHeader(http.StatusNoContent)
			case strings.HasSuffix(r.URL.Path, ".tar.gz"):
				w.Write(archive)
			default:
				http.NotFound(w, r)
			}
		})
		root := t.TempDir()
		box := filepath.Join(root, "box")
		testfiles.Write(t, box, map[string]string{"main.tf": `module "m" { source = "registry.example.com/a/b/c" }`})
		before := dirListing(t, root)
		_, diags := Modules(Options{WorkDir: box, Sandbox: ".", HTTPClient: l.client(), Env: testEnv(), Git: "/nonexistent/git"})
		for _, d := range diags {
			if d.Severity == hcl.DiagError && d.Subject == nil {
				t.Fatalf("no range: %s: %s", d.Summary, d.Detail)
			}
		}
		// Only the box changed.
		after := dirListing(t, root)
		for _, line := range strings.Split(after, "\n") {
			if line != "" && !strings.HasPrefix(line, box) && !strings.Contains(before, line) {
				t.Fatalf("changed outside the sandbox: %s", line)
			}
		}
	})
}
