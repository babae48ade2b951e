package install

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/gohcl"
	"github.com/hashicorp/hcl/v2/hclparse"

	"github.com/tfeval/tfeval/internal/testfiles"
)

func TestTokenEnvName(t *testing.T) {
	tests := []struct{ host, want string }{
		{"app.terraform.io", "TF_TOKEN_app_terraform_io"},
		{"my-registry.example-corp.com", "TF_TOKEN_my__registry_example__corp_com"},
		{"xn--caf-dma.example", "TF_TOKEN_xn____caf__dma_example"},
	}
	for _, tt := range tests {
		if got := tokenEnvName(tt.host); got != tt.want {
			t.Errorf("%s: %s, want %s", tt.host, got, tt.want)
		}
	}
}

func TestLoadCredentials(t *testing.T) {
	home := t.TempDir()
	testfiles.Write(t, home, map[string]string{
		".terraformrc":                       "credentials \"A.example.com\" {\n  token = \"a-rc\"\n}\nprovider_installation {\n  direct {}\n}\n",
		".tofurc":                            "credentials \"a.example.com\" {\n  token = \"a-tofu\"\n}\n",
		".terraform.d/credentials.tfrc.json": `{"credentials": {"a.example.com": {"token": "a-json"}, "b.example.com": {"token": "b-json"}}}`,
		"bad.tfrc":                           "credentials {\n",
		"cli.tfrc.json":                      `{"credentials": {"c.example.com": {"token": "c-cli-json"}}}`,
	})
	tests := []struct {
		name     string
		env      []string
		tofu     bool
		host     string
		want     string
		warnings int
	}{
		{"rc file wins over credentials.tfrc.json", []string{"HOME=" + home}, false, "a.example.com", "a-rc", 0},
		{"credentials.tfrc.json", []string{"HOME=" + home}, false, "b.example.com", "b-json", 0},
		{"tofurc for OpenTofu", []string{"HOME=" + home}, true, "a.example.com", "a-tofu", 0},
		{"environment first", []string{"HOME=" + home, "TF_TOKEN_a_example_com=env"}, false, "a.example.com", "env", 0},
		{"JSON CLI configuration", []string{"TF_CLI_CONFIG_FILE=" + filepath.Join(home, "cli.tfrc.json")}, false, "c.example.com", "c-cli-json", 0},
		{"unreadable configuration is a warning", []string{"TF_CLI_CONFIG_FILE=" + filepath.Join(home, "bad.tfrc")}, false, "a.example.com", "", 1},
		{"none", nil, false, "a.example.com", "", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cli, diags := loadCLIConfig(tt.env, tt.tofu)
			if got := cli.creds.token(tt.env, tt.host); got != tt.want {
				t.Errorf("token %q, want %q", got, tt.want)
			}
			if len(diags) != tt.warnings || diags.HasErrors() {
				t.Errorf("diagnostics:\n%s", summaries(diags))
			}
		})
	}
}

// TestCredentialsTokenAgreesWithGohcl holds credentialsToken to what
// gohcl's decoding into the struct it replaced gives, token and
// diagnostics, for bodies of every outcome in both syntaxes.
func TestCredentialsTokenAgreesWithGohcl(t *testing.T) {
	bodies := []string{
		"", "token = \"t\"", "token = \"\"", "token = null", "token = 12", "token = true",
		"token = var.x", "token = \"${f()}\"", "token = [\"a\"]", "other = 1\ntoken = \"t\"",
		"token {\n}", "x {\n}\ntoken = \"t\"",
	}
	jsonBodies := []string{`{}`, `{"token": "t"}`, `{"token": null}`, `{"token": 5}`, `{"token": "${var.x}"}`, `{"token": ["a"], "x": 1}`, `{"token": {"a": 1}}`}
	type decoded struct {
		Token  string   `hcl:"token,optional"`
		Remain hcl.Body `hcl:",remain"`
	}
	check := func(name, src string) {
		p := hclparse.NewParser()
		var f *hcl.File
		var diags hcl.Diagnostics
		if strings.HasSuffix(name, ".json") {
			f, diags = p.ParseJSON([]byte(src), name)
		} else {
			f, diags = p.ParseHCL([]byte(src), name)
		}
		if diags.HasErrors() {
			t.Fatalf("%s: %s", src, diags)
		}
		var want decoded
		wantD := gohcl.DecodeBody(f.Body, nil, &want)
		got, gotD := credentialsToken(f.Body)
		if got != want.Token || describeDiags(gotD) != describeDiags(wantD) {
			t.Errorf("%s: %q, %s; gohcl: %q, %s", src, got, describeDiags(gotD), want.Token, describeDiags(wantD))
		}
	}
	for _, src := range bodies {
		check("c.tfrc", src)
	}
	for _, src := range jsonBodies {
		check("c.tfrc.json", src)
	}
}

// describeDiags writes every field of each diagnostic, ranges by value.
func describeDiags(diags hcl.Diagnostics) string {
	s := ""
	for _, d := range diags {
		s += fmt.Sprintf("[%d %q %q %v %v %v %v]", d.Severity, d.Summary, d.Detail, d.Subject, d.Context, d.Expression, d.EvalContext)
	}
	return s
}
