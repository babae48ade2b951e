package install

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/tfeval/tfeval/dialect"

	"github.com/tfeval/tfeval/internal/testfiles"
)

// A host block of the CLI configuration replaces service discovery for its
// host: a public registry address is installed from the mirror it names,
// over plain http too, and the public host is never asked. Relative URLs
// are resolved as a discovery document's, against https://HOST/; a host
// block without modules.v1 means the host has no module registry.
func TestHostBlocks(t *testing.T) {
	l := newLoopback(t)
	l.serveRegistry("mirror.example.com", map[string]registryModule{"acme/net/aws": netModules})
	tests := []struct {
		name    string
		d       dialect.Dialect
		config  string
		source  string
		want    string // the version installed; "" for an error
		errText string
	}{
		{"http mirror for registry.terraform.io", dialect.Terraform,
			"host \"registry.terraform.io\" {\n  services = {\n    \"modules.v1\" = \"http://mirror.example.com/api/modules/v1/\"\n  }\n}\n",
			"acme/net/aws", "2.0.0", ""},
		{"https mirror, JSON configuration", dialect.Terraform,
			`{"host": {"registry.terraform.io": {"services": {"modules.v1": "https://mirror.example.com/api/modules/v1"}}}}`,
			"registry.terraform.io/acme/net/aws", "2.0.0", ""},
		{"OpenTofu's registry", dialect.Tofu,
			"host \"registry.opentofu.org\" {\n  services = {\n    \"modules.v1\" = \"http://mirror.example.com/api/modules/v1/\"\n    \"login.v1\"   = { client = \"x\" }\n  }\n}\n",
			"acme/net/aws", "2.0.0", ""},
		{"relative URL against the host", dialect.Terraform,
			"host \"mirror.example.com\" {\n  services = {\n    \"modules.v1\" = \"/api/modules/v1/\"\n  }\n}\n",
			"mirror.example.com/acme/net/aws", "2.0.0", ""},
		{"no modules.v1", dialect.Terraform,
			"host \"registry.terraform.io\" {\n  services = {\n    \"providers.v1\" = \"http://mirror.example.com/api/providers/v1/\"\n  }\n}\n",
			"acme/net/aws", "", "does not provide a module registry"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			name := "cli.tfrc"
			if strings.HasPrefix(tt.config, "{") {
				name += ".json"
			}
			testfiles.Write(t, dir, map[string]string{
				name:      tt.config,
				"main.tf": "module \"net\" {\n  source  = \"" + tt.source + "\"\n  version = \"~> 2.0\"\n}\n",
			})
			before := l.requests()
			res, diags := Modules(Options{WorkDir: dir, Dialect: tt.d, HTTPClient: l.client(), Env: []string{"TF_CLI_CONFIG_FILE=" + filepath.Join(dir, name)}})
			if tt.want == "" {
				if !diags.HasErrors() || !strings.Contains(summaries(diags), tt.errText) {
					t.Fatalf("want an error with %q, got:\n%s", tt.errText, summaries(diags))
				}
			} else {
				if diags.HasErrors() || len(res.Modules) != 1 || res.Modules[0].Version != tt.want {
					t.Fatalf("got %+v\n%s", res.Modules, summaries(diags))
				}
				if got := readFile(dir, ".terraform/modules/net/main.tf"); !strings.Contains(got, tt.want) {
					t.Errorf("installed main.tf: %q", got)
				}
			}
			for _, public := range []string{"registry.terraform.io", "registry.opentofu.org", "mirror.example.com"} {
				if n := l.hitsOf(public + "/.well-known/terraform.json"); n != 0 {
					t.Errorf("%s was asked for its services %d times", public, n)
				}
			}
			if tt.want != "" && l.requests() == before {
				t.Error("nothing was requested from the mirror")
			}
		})
	}
}
