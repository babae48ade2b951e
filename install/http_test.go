package install

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/tfeval/tfeval/internal/testfiles"
)

// TestHTTPSources installs modules from an archive server: archives by
// extension and by ?archive=, and pages naming their location.
func TestHTTPSources(t *testing.T) {
	l := newLoopback(t)
	tgz := filesArchive(t, "", map[string]string{"main.tf": "# tgz\n", "sub/main.tf": "# sub\n"})
	zipped := zipArchive(t, map[string]string{"main.tf": "# zip\n"}, nil)
	l.mux.HandleFunc("archive.example.com/vpc.tar.gz", func(w http.ResponseWriter, r *http.Request) { w.Write(tgz) })
	l.mux.HandleFunc("archive.example.com/vpc.zip", func(w http.ResponseWriter, r *http.Request) { w.Write(zipped) })
	l.mux.HandleFunc("archive.example.com/download", func(w http.ResponseWriter, r *http.Request) { w.Write(zipped) })
	l.mux.HandleFunc("archive.example.com/page", func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Query().Get("terraform-get") != "1" {
			t.Errorf("page asked without terraform-get=1: %s", r.URL)
		}
		w.Header().Set("X-Terraform-Get", "/vpc.tar.gz")
		w.WriteHeader(http.StatusNoContent)
	})
	l.mux.HandleFunc("archive.example.com/html", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, `<html><head><meta name="terraform-get" content="https://archive.example.com/vpc.zip"></head></html>`)
	})
	l.mux.HandleFunc("archive.example.com/loop", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Terraform-Get", "/loop")
		w.WriteHeader(http.StatusNoContent)
	})
	l.mux.HandleFunc("archive.example.com/redirect", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/redirect.zip", http.StatusFound)
	})
	l.mux.HandleFunc("archive.example.com/redirect.zip", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/redirect", http.StatusFound)
	})
	l.mux.HandleFunc("archive.example.com/big.zip", func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte(strings.Repeat("x", 5<<10)))
	})
	tests := []struct{ name, source, file, want, summary, detail string }{
		{"tar.gz by extension", "http://archive.example.com/vpc.tar.gz", "main.tf", "# tgz\n", "", ""},
		{"https zip", "https://archive.example.com/vpc.zip", "main.tf", "# zip\n", "", ""},
		{"archive argument", "http://archive.example.com/download?archive=zip", "main.tf", "# zip\n", "", ""},
		{"subdirectory", "http://archive.example.com/vpc.tar.gz//sub", "sub/main.tf", "# sub\n", "", ""},
		{"X-Terraform-Get", "http://archive.example.com/page", "main.tf", "# tgz\n", "", ""},
		{"meta tag", "http://archive.example.com/html", "main.tf", "# zip\n", "", ""},
		{"location loop", "http://archive.example.com/loop", "", "", "Failed to download module", "a loop?"},
		{"redirect loop", "http://archive.example.com/redirect.zip", "", "", "Failed to download module", "redirects"},
		{"not found", "http://archive.example.com/missing.zip", "", "", "Failed to download module", "404"},
		{"download too large", "http://archive.example.com/big.zip", "", "", "Failed to download module", "larger than the limit"},
		{"unknown archive format", "http://archive.example.com/x?archive=rar", "", "", "Invalid module source address", "rar"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			testfiles.Write(t, dir, map[string]string{"main.tf": "module \"m\" {\n  source = \"" + tt.source + "\"\n}\n"})
			res, diags := Modules(Options{WorkDir: dir, HTTPClient: l.client(), MaxPackageSize: 4 << 10})
			if tt.summary != "" {
				if len(diags) != 1 || diags[0].Summary != tt.summary || !strings.Contains(diags[0].Detail, tt.detail) || diags[0].Subject == nil || diags[0].Subject.Start.Line != 2 {
					t.Fatalf("want %q (%s) at line 2, got:\n%s", tt.summary, tt.detail, summaries(diags))
				}
				return
			}
			if diags.HasErrors() {
				t.Fatal(summaries(diags))
			}
			rec := res.Modules[0]
			if rec.Source != tt.source {
				t.Errorf("Source = %q, want it as written", rec.Source)
			}
			if got := readFile(dir, ".terraform/modules/m/"+tt.file); got != tt.want {
				t.Errorf("%s = %q, want %q", tt.file, got, tt.want)
			}
		})
	}
}
