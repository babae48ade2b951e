package install

import (
	"path/filepath"
	"testing"

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
