package install

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tfeval/tfeval/dialect"

	"github.com/tfeval/tfeval/internal/testfiles"
)

// netModules are the versions of registry.example.com/acme/net/aws.
var netModules = registryModule{
	"1.0.0":        {"main.tf": `variable "cidr" {}` + "\n" + `output "v" { value = "1.0.0" }`},
	"1.2.0":        {"main.tf": `variable "cidr" {}` + "\n" + `output "v" { value = "1.2.0" }`},
	"1.3.0-beta.1": {"main.tf": `output "v" { value = "1.3.0-beta.1" }`},
	"2.0.0":        {"main.tf": `output "v" { value = "2.0.0" }`, "modules/sub/main.tf": `output "v" { value = "sub" }`},
}

// TestRegistryVersions installs one registry module under constraints
// and checks the version Terraform would choose was installed.
func TestRegistryVersions(t *testing.T) {
	l := newLoopback(t)
	l.serveRegistry("registry.example.com", map[string]registryModule{"acme/net/aws": netModules})
	tests := []struct {
		name, source, version string
		want                  string // version chosen; "" means an error
		wantDir               string
		errSummary            string
	}{
		{"no constraint takes the newest release", "registry.example.com/acme/net/aws", "", "2.0.0", ".terraform/modules/net", ""},
		{"pessimistic minor", "registry.example.com/acme/net/aws", "~> 1.0", "1.2.0", ".terraform/modules/net", ""},
		{"pessimistic patch", "registry.example.com/acme/net/aws", "~> 1.0.0", "1.0.0", ".terraform/modules/net", ""},
		{"range", "registry.example.com/acme/net/aws", ">= 1.0.0, < 2.0.0", "1.2.0", ".terraform/modules/net", ""},
		{"exclusion", "registry.example.com/acme/net/aws", "!= 2.0.0", "1.2.0", ".terraform/modules/net", ""},
		{"exact", "registry.example.com/acme/net/aws", "1.0.0", "1.0.0", ".terraform/modules/net", ""},
		{"range skips pre-releases", "registry.example.com/acme/net/aws", ">= 1.2.1, < 2.0.0", "", "", "Unresolvable module version constraint"},
		{"pre-release named exactly", "registry.example.com/acme/net/aws", "= 1.3.0-beta.1", "1.3.0-beta.1", ".terraform/modules/net", ""},
		{"pre-release not by range on its core", "registry.example.com/acme/net/aws", ">= 1.3.0-beta.0", "2.0.0", ".terraform/modules/net", ""},
		{"subdirectory", "registry.example.com/acme/net/aws//modules/sub", "2.0.0", "2.0.0", ".terraform/modules/net/modules/sub", ""},
		{"no match", "registry.example.com/acme/net/aws", "> 5.0", "", "", "Unresolvable module version constraint"},
		{"malformed constraint", "registry.example.com/acme/net/aws", "~> banana", "", "", "Invalid version constraint"},
		{"unknown module", "registry.example.com/acme/nope/aws", "", "", "", "Module not found"},
		{"host without a registry", "other.example.com/acme/net/aws", "", "", "", "Error accessing remote module registry"},
		{"missing subdirectory", "registry.example.com/acme/net/aws//nope", "", "", "", "Failed to install module"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			version := ""
			if tt.version != "" {
				version = "\n  version = \"" + tt.version + "\""
			}
			testfiles.Write(t, dir, map[string]string{"main.tf": "module \"net\" {\n  source = \"" + tt.source + "\"" + version + "\n  cidr = \"x\"\n}\n"})
			res, diags := Modules(Options{WorkDir: dir, HTTPClient: l.client()})
			if tt.errSummary != "" {
				if !diags.HasErrors() || diags[0].Summary != tt.errSummary {
					t.Fatalf("want %q, got:\n%s", tt.errSummary, summaries(diags))
				}
				d := diags[0]
				if d.Subject == nil || d.Subject.Filename != "main.tf" || d.Subject.Start.Line < 2 || d.Subject.Start.Line > 3 {
					t.Errorf("diagnostic has no range at the module call: %v", d.Subject)
				}
				if !strings.Contains(d.Detail, `"net"`) && !strings.Contains(d.Detail, "acme/") && d.Summary != "Invalid version constraint" {
					t.Errorf("detail names no module call: %s", d.Detail)
				}
				if len(res.Modules) != 0 {
					t.Errorf("modules recorded despite the error: %+v", res.Modules)
				}
				return
			}
			if diags.HasErrors() {
				t.Fatal(summaries(diags))
			}
			if len(res.Modules) != 1 || res.Modules[0].Version != tt.want || res.Modules[0].Dir != tt.wantDir {
				t.Fatalf("got %+v, want version %s in %s", res.Modules, tt.want, tt.wantDir)
			}
			if res.Modules[0].Source != strings.Split(tt.source, "?")[0] || res.Modules[0].Origin != Downloaded {
				t.Errorf("record %+v", res.Modules[0])
			}
			wantValue := tt.want
			if strings.Contains(tt.source, "//modules/sub") {
				wantValue = "sub"
			}
			if got := readFile(dir, tt.wantDir+"/main.tf"); !strings.Contains(got, `"`+wantValue+`"`) {
				t.Errorf("installed main.tf is %q, want the files of %s", got, wantValue)
			}
		})
	}
}

// TestRegistryDefaultHost checks that an address without a host goes to
// each dialect's own registry.
func TestRegistryDefaultHost(t *testing.T) {
	l := newLoopback(t)
	l.serveRegistry("registry.terraform.io", map[string]registryModule{"acme/net/aws": {"1.0.0": {"main.tf": "# terraform\n"}}})
	l.serveRegistry("registry.opentofu.org", map[string]registryModule{"acme/net/aws": {"1.0.0": {"main.tf": "# tofu\n"}}})
	for _, tt := range []struct {
		d          dialect.Dialect
		host, text string
	}{{dialect.Terraform, "registry.terraform.io", "# terraform"}, {dialect.Tofu, "registry.opentofu.org", "# tofu"}} {
		dir := t.TempDir()
		testfiles.Write(t, dir, map[string]string{"main.tf": `module "net" { source = "acme/net/aws" }`})
		res, diags := Modules(Options{WorkDir: dir, Dialect: tt.d, HTTPClient: l.client()})
		if diags.HasErrors() {
			t.Fatal(summaries(diags))
		}
		if res.Modules[0].Source != tt.host+"/acme/net/aws" || !strings.Contains(readFile(dir, ".terraform/modules/net/main.tf"), tt.text) {
			t.Errorf("%s: got %+v", tt.d, res.Modules)
		}
	}
}

// TestRegistryCredentials checks that the token of TF_TOKEN_<host> or a
// CLI configuration's credentials block is sent to the registry.
func TestRegistryCredentials(t *testing.T) {
	l := newLoopback(t)
	var got []string
	l.mux.HandleFunc("private.example-corp.com/.well-known/terraform.json", func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte(`{"modules.v1": "https://private.example-corp.com/m/"}`))
	})
	l.mux.HandleFunc("private.example-corp.com/m/acme/net/aws/versions", func(w http.ResponseWriter, r *http.Request) {
		got = append(got, r.Header.Get("Authorization"))
		if r.Header.Get("Authorization") == "" {
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		w.Write([]byte(`{"modules":[{"versions":[{"version":"1.0.0"}]}]}`))
	})
	l.mux.HandleFunc("private.example-corp.com/m/acme/net/aws/1.0.0/download", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Terraform-Get", "./pkg.tar.gz")
		w.WriteHeader(http.StatusNoContent)
	})
	archive := filesArchive(t, "", map[string]string{"main.tf": "# private\n"})
	l.mux.HandleFunc("private.example-corp.com/m/acme/net/aws/1.0.0/pkg.tar.gz", func(w http.ResponseWriter, r *http.Request) { w.Write(archive) })

	home := t.TempDir()
	testfiles.Write(t, home, map[string]string{".terraformrc": `credentials "private.example-corp.com" { token = "from-file" }` + "\n" + `plugin_cache_dir = "/tmp"`})
	tests := []struct {
		name string
		env  []string
		want string
	}{
		{"environment", []string{"TF_TOKEN_private_example__corp_com=from-env"}, "Bearer from-env"},
		{"environment wins over the file", []string{"HOME=" + home, "TF_TOKEN_private_example__corp_com=from-env"}, "Bearer from-env"},
		{"CLI configuration", []string{"HOME=" + home}, "Bearer from-file"},
		{"TF_CLI_CONFIG_FILE", []string{"TF_CLI_CONFIG_FILE=" + filepath.Join(home, ".terraformrc")}, "Bearer from-file"},
		{"none", nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got = nil
			dir := t.TempDir()
			testfiles.Write(t, dir, map[string]string{"main.tf": `module "p" { source = "private.example-corp.com/acme/net/aws" }`})
			_, diags := Modules(Options{WorkDir: dir, Env: tt.env, HTTPClient: l.client()})
			if len(got) != 1 || got[0] != tt.want {
				t.Fatalf("Authorization %q, want %q", got, tt.want)
			}
			if tt.want == "" {
				if !diags.HasErrors() || !strings.Contains(diags[0].Detail, "TF_TOKEN_private_example__corp_com") {
					t.Errorf("want an error naming the token variable, got:\n%s", summaries(diags))
				}
			} else if diags.HasErrors() || readFile(dir, ".terraform/modules/p/main.tf") != "# private\n" {
				t.Errorf("not installed:\n%s", summaries(diags))
			}
		})
	}
}

// TestRegistryBadAnswers checks that a registry answering garbage, with
// errors or with redirect loops gives a diagnostic at the module call
// and writes nothing.
func TestRegistryBadAnswers(t *testing.T) {
	l := newLoopback(t)
	discovery := func(host, doc string) {
		l.mux.HandleFunc(host+"/.well-known/terraform.json", func(w http.ResponseWriter, r *http.Request) { w.Write([]byte(doc)) })
	}
	versions := func(host, body string) {
		l.mux.HandleFunc(host+"/v1/a/b/c/versions", func(w http.ResponseWriter, r *http.Request) { w.Write([]byte(body)) })
	}
	discovery("garbage-discovery.example.com", "<html>hello</html>")
	discovery("no-modules.example.com", `{"providers.v1": "/p/"}`)
	discovery("garbage-versions.example.com", `{"modules.v1": "/v1/"}`)
	versions("garbage-versions.example.com", `{"modules": "nope"}`)
	discovery("empty-versions.example.com", `{"modules.v1": "/v1/"}`)
	versions("empty-versions.example.com", `{"modules": []}`)
	discovery("loop.example.com", `{"modules.v1": "/v1/"}`)
	l.mux.HandleFunc("loop.example.com/v1/a/b/c/versions", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/v1/a/b/c/versions", http.StatusFound)
	})
	discovery("no-location.example.com", `{"modules.v1": "/v1/"}`)
	versions("no-location.example.com", `{"modules":[{"versions":[{"version":"1.0.0"}]}]}`)
	l.mux.HandleFunc("no-location.example.com/v1/a/b/c/1.0.0/download", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusNoContent) })
	discovery("registry-location.example.com", `{"modules.v1": "/v1/"}`)
	versions("registry-location.example.com", `{"modules":[{"versions":[{"version":"1.0.0"}]}]}`)
	l.mux.HandleFunc("registry-location.example.com/v1/a/b/c/1.0.0/download", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Terraform-Get", "other/mod/aws")
		w.WriteHeader(http.StatusNoContent)
	})
	discovery("status.example.com", `{"modules.v1": "/v1/"}`)
	l.mux.HandleFunc("status.example.com/v1/a/b/c/versions", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusBadGateway) })

	tests := []struct{ host, summary, detail string }{
		{"garbage-discovery.example.com", "Error accessing remote module registry", "not a JSON object"},
		{"no-modules.example.com", "Error accessing remote module registry", "does not provide a module registry"},
		{"garbage-versions.example.com", "Error accessing remote module registry", "not a list of module versions"},
		{"empty-versions.example.com", "Error accessing remote module registry", "not a list of module versions"},
		{"loop.example.com", "Error accessing remote module registry", "redirects"},
		{"no-location.example.com", "Failed to download module", "X-Terraform-Get"},
		{"registry-location.example.com", "Failed to download module", "not a git or http(s) address"},
		{"status.example.com", "Error accessing remote module registry", "502 Bad Gateway"},
		{"unreachable.invalid", "Error accessing remote module registry", "service discovery"},
	}
	for _, tt := range tests {
		t.Run(tt.host, func(t *testing.T) {
			dir := t.TempDir()
			testfiles.Write(t, dir, map[string]string{"main.tf": `module "m" { source = "` + tt.host + `/a/b/c" }`})
			client := l.client()
			if tt.host == "unreachable.invalid" {
				client = &http.Client{Transport: &http.Transport{Proxy: nil, DialContext: refuseDial}}
			}
			_, diags := Modules(Options{WorkDir: dir, HTTPClient: client})
			if len(diags) != 1 || diags[0].Summary != tt.summary || !strings.Contains(diags[0].Detail, tt.detail) {
				t.Fatalf("want %s (%s), got:\n%s", tt.summary, tt.detail, summaries(diags))
			}
			if diags[0].Subject == nil || diags[0].Subject.Start.Line != 1 || !strings.Contains(diags[0].Detail, `"m"`) {
				t.Errorf("diagnostic not at the call: %v %s", diags[0].Subject, diags[0].Detail)
			}
			entries, _ := os.ReadDir(filepath.Join(dir, ".terraform", "modules"))
			if len(entries) != 1 || entries[0].Name() != "modules.json" {
				t.Errorf("install directory holds %v, want modules.json alone", entries)
			}
		})
	}
}
