package install

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/hashicorp/hcl/v2"

	"github.com/tfeval/tfeval/internal/testfiles"
)

// tarEntry is one entry of a test archive.
type tarEntry struct {
	name, body, link string
	kind             byte // tar.TypeReg (default), TypeDir, TypeSymlink, TypeLink
}

func tarGz(t testing.TB, entries []tarEntry) []byte {
	t.Helper()
	var buf bytes.Buffer
	gz := gzip.NewWriter(&buf)
	tw := tar.NewWriter(gz)
	for _, e := range entries {
		h := &tar.Header{Name: e.name, Mode: 0o644, Typeflag: e.kind, Linkname: e.link}
		if e.kind == 0 {
			h.Typeflag = tar.TypeReg
			h.Size = int64(len(e.body))
		}
		if e.kind == tar.TypeDir {
			h.Mode = 0o755
		}
		if err := tw.WriteHeader(h); err != nil {
			t.Fatal(err)
		}
		if h.Typeflag == tar.TypeReg {
			tw.Write([]byte(e.body))
		}
	}
	tw.Close()
	gz.Close()
	return buf.Bytes()
}

// filesArchive is a tar.gz of files, each under prefix.
func filesArchive(t testing.TB, prefix string, files map[string]string) []byte {
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	var entries []tarEntry
	for _, n := range names {
		entries = append(entries, tarEntry{name: prefix + n, body: files[n]})
	}
	return tarGz(t, entries)
}

func zipArchive(t testing.TB, files map[string]string, links map[string]string) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		w, err := zw.Create(n)
		if err != nil {
			t.Fatal(err)
		}
		w.Write([]byte(files[n]))
	}
	for n, target := range links {
		h := &zip.FileHeader{Name: n}
		h.SetMode(os.ModeSymlink | 0o777)
		w, err := zw.CreateHeader(h)
		if err != nil {
			t.Fatal(err)
		}
		w.Write([]byte(target))
	}
	zw.Close()
	return buf.Bytes()
}

// loopback is a set of test servers on 127.0.0.1 reached under made-up
// host names: an HTTPS one (registries) and a plain HTTP one (archives),
// with a client that sends every request to them and counts requests.
type loopback struct {
	t        testing.TB
	tlsSrv   *httptest.Server
	plainSrv *httptest.Server
	mux      *http.ServeMux
	mu       sync.Mutex
	hits     map[string]int
	total    int
	// outside is the repository TestSandboxedInit's servers point at.
	outside string
}

func newLoopback(t testing.TB) *loopback {
	l := &loopback{t: t, mux: http.NewServeMux(), hits: map[string]int{}}
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		l.mu.Lock()
		l.hits[r.Host+r.URL.Path]++
		l.total++
		l.mu.Unlock()
		l.mux.ServeHTTP(w, r)
	})
	l.tlsSrv = httptest.NewTLSServer(h)
	l.plainSrv = httptest.NewServer(h)
	t.Cleanup(l.tlsSrv.Close)
	t.Cleanup(l.plainSrv.Close)
	return l
}

// client sends https requests to the TLS server and http ones to the
// plain one, whatever the host name.
func (l *loopback) client() *http.Client {
	pool := x509.NewCertPool()
	pool.AddCert(l.tlsSrv.Certificate())
	tr := &http.Transport{
		DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
			target := l.plainSrv.Listener.Addr().String()
			if strings.HasSuffix(addr, ":443") {
				target = l.tlsSrv.Listener.Addr().String()
			}
			var d net.Dialer
			return d.DialContext(ctx, "tcp", target)
		},
		TLSClientConfig: &tls.Config{RootCAs: pool, ServerName: "example.com"},
	}
	return &http.Client{Transport: tr}
}

// requests is the number of requests served so far.
func (l *loopback) requests() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.total
}

// hitsOf is the number of requests for host+path.
func (l *loopback) hitsOf(hostPath string) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.hits[hostPath]
}

// registryModule is a module a test registry serves: version → files.
type registryModule map[string]map[string]string

// serveRegistry makes host a module registry whose base URL is
// /api/modules/v1/ and whose packages are tar.gz archives under
// /archives/ (served with a top directory, selected by "//*").
func (l *loopback) serveRegistry(host string, modules map[string]registryModule) {
	l.mux.HandleFunc(host+"/.well-known/terraform.json", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `{"modules.v1": "/api/modules/v1/", "providers.v1": "/api/providers/v1/"}`)
	})
	for addr, versions := range modules {
		l.mux.HandleFunc(host+"/api/modules/v1/"+addr+"/versions", func(w http.ResponseWriter, r *http.Request) {
			var vs []map[string]string
			for v := range versions {
				vs = append(vs, map[string]string{"version": v})
			}
			sort.Slice(vs, func(i, j int) bool { return vs[i]["version"] < vs[j]["version"] })
			json.NewEncoder(w).Encode(map[string]any{"modules": []any{map[string]any{"versions": vs}}})
		})
		for v, files := range versions {
			archive := filesArchive(l.t, "top-"+strings.ReplaceAll(addr, "/", "-")+"/", files)
			l.mux.HandleFunc(host+"/api/modules/v1/"+addr+"/"+v+"/download", func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("X-Terraform-Get", "/archives/"+addr+"/"+v+".tar.gz//*")
				w.WriteHeader(http.StatusNoContent)
			})
			l.mux.HandleFunc(host+"/archives/"+addr+"/"+v+".tar.gz", func(w http.ResponseWriter, r *http.Request) {
				w.Write(archive)
			})
		}
	}
}

// gitRepo makes a git repository in a temporary directory: each commit
// is a set of files (added or replaced) and the tags to put on it. It
// returns the repository's directory.
func gitRepo(t testing.TB, commits []gitCommit) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	dir := t.TempDir()
	git := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1",
			"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com",
			"GIT_AUTHOR_DATE=2020-01-01T00:00:00Z", "GIT_COMMITTER_DATE=2020-01-01T00:00:00Z")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git("init", "--quiet", "--initial-branch=main")
	for _, c := range commits {
		testfiles.Write(t, dir, c.files)
		for name, target := range c.links {
			os.Symlink(target, filepath.Join(dir, name))
		}
		git("add", "-A")
		git("commit", "--quiet", "-m", "commit")
		for _, tag := range c.tags {
			git("tag", tag)
		}
	}
	return dir
}

type gitCommit struct {
	files map[string]string
	links map[string]string
	tags  []string
}

// testEnv is an environment for git that ignores the machine's git
// configuration.
func testEnv() []string {
	return []string{"PATH=" + os.Getenv("PATH"), "HOME=/nonexistent", "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1"}
}

// summaries lists the diagnostics' summaries and details, for failures.
func summaries(diags hcl.Diagnostics) string {
	var b strings.Builder
	for _, d := range diags {
		fmt.Fprintf(&b, "%s: %s", d.Summary, d.Detail)
		if d.Subject != nil {
			fmt.Fprintf(&b, " [%s]", d.Subject)
		}
		b.WriteString("\n")
	}
	return b.String()
}

// readFile reads a file under dir, "" when missing.
func readFile(dir, name string) string {
	b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(name)))
	if err != nil {
		return ""
	}
	return string(b)
}

// refuseDial stands for a host that cannot be reached.
func refuseDial(ctx context.Context, network, addr string) (net.Conn, error) {
	return nil, &net.OpError{Op: "dial", Net: network, Err: fmt.Errorf("connection refused")}
}
