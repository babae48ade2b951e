package install

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclparse"

	"github.com/tfeval/tfeval/internal/literal"
)

// credentials are the registry tokens of one installation, by host.
type credentials map[string]string

// tokenEnvName is the TF_TOKEN_ variable for a host: the host with each
// "." written "_" and each "-" written "__" (an internationalised host
// must be written in its punycode form, xn--..., in the source address).
func tokenEnvName(host string) string {
	host = strings.ReplaceAll(host, "-", "__")
	return "TF_TOKEN_" + strings.ReplaceAll(host, ".", "_")
}

// token returns the bearer token for host: a TF_TOKEN_ variable wins over
// a CLI configuration's credentials block.
func (c credentials) token(env []string, host string) string {
	name := tokenEnvName(strings.ToLower(host))
	for _, kv := range env {
		if k, v, ok := strings.Cut(kv, "="); ok && strings.EqualFold(k, name) && v != "" {
			return v
		}
	}
	return c[strings.ToLower(host)]
}

// cliConfig is what installation takes from the CLI configuration: the
// registry tokens and the hosts whose services it names (hosts.go).
type cliConfig struct {
	creds credentials
	hosts hostServices
}

// loadCLIConfig reads the credentials and host blocks of the CLI
// configuration (TF_CLI_CONFIG_FILE, or ~/.terraformrc, or ~/.tofurc for
// OpenTofu) and the tokens `terraform login` stores in
// credentials.tfrc.json. A file that cannot be read is a warning:
// installation can go on without it.
func loadCLIConfig(env []string, tofu bool) (cliConfig, hcl.Diagnostics) {
	cfg := cliConfig{creds: credentials{}, hosts: hostServices{}}
	creds := cfg.creds
	var diags hcl.Diagnostics
	home := lookup(env, "HOME")
	var files []string
	if f := lookup(env, "TF_CLI_CONFIG_FILE"); f != "" {
		files = append(files, f)
	} else if tofu && lookup(env, "TOFU_CLI_CONFIG_FILE") != "" {
		files = append(files, lookup(env, "TOFU_CLI_CONFIG_FILE"))
	} else if home != "" {
		name := ".terraformrc"
		if tofu {
			name = ".tofurc"
		}
		files = append(files, filepath.Join(home, name))
	}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		diags = append(diags, readCLIConfig(f, src, cfg)...)
	}
	if home != "" {
		dirs := []string{filepath.Join(home, ".terraform.d")}
		if tofu {
			dirs = append([]string{filepath.Join(home, ".terraform.d")}, filepath.Join(home, ".tofu.d"))
		}
		for _, d := range dirs {
			readTokenFile(filepath.Join(d, "credentials.tfrc.json"), creds)
		}
	}
	return cfg, diags
}

// readCLIConfig takes the credentials "HOST" { token = "..." } and host
// "HOST" { services = {...} } blocks of a CLI configuration file and
// ignores everything else in it.
func readCLIConfig(name string, src []byte, cfg cliConfig) hcl.Diagnostics {
	p := hclparse.NewParser()
	var f *hcl.File
	var diags hcl.Diagnostics
	if strings.HasSuffix(name, ".json") {
		f, diags = p.ParseJSON(src, name)
	} else {
		f, diags = p.ParseHCL(src, name)
	}
	if diags.HasErrors() {
		return asWarnings(diags)
	}
	content, _, _ := f.Body.PartialContent(&hcl.BodySchema{Blocks: []hcl.BlockHeaderSchema{
		{Type: "credentials", LabelNames: []string{"host"}},
		{Type: "host", LabelNames: []string{"host"}},
	}})
	for _, b := range content.Blocks {
		if b.Type == "host" {
			diags = append(diags, cfg.hosts.read(b)...)
			continue
		}
		token, d := credentialsToken(b.Body)
		if d.HasErrors() {
			diags = append(diags, asWarnings(d)...)
			continue
		}
		if token != "" {
			cfg.creds[strings.ToLower(b.Labels[0])] = token
		}
	}
	return diags
}

// credentialsToken reads the optional token argument of a credentials
// block, ignoring anything else in it: what gohcl's decoding into a struct
// of an optional token string and the remaining body gives, diagnostics
// included (TestCredentialsTokenAgreesWithGohcl).
func credentialsToken(body hcl.Body) (string, hcl.Diagnostics) {
	content, _, diags := body.PartialContent(credentialsSchema)
	if content == nil {
		return "", diags
	}
	attr := content.Attributes["token"]
	if attr == nil {
		return "", diags
	}
	token, d := literal.String(attr.Expr)
	return token, append(diags, d...)
}

var credentialsSchema = &hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: "token"}}}

// readTokenFile takes the tokens of a credentials.tfrc.json file; one
// that is missing or not that file's JSON gives none.
func readTokenFile(name string, creds credentials) {
	src, err := os.ReadFile(name)
	if err != nil {
		return
	}
	var doc struct {
		Credentials map[string]struct {
			Token string `json:"token"`
		} `json:"credentials"`
	}
	if json.Unmarshal(src, &doc) != nil {
		return
	}
	for host, c := range doc.Credentials {
		if _, ok := creds[strings.ToLower(host)]; !ok && c.Token != "" {
			creds[strings.ToLower(host)] = c.Token
		}
	}
}

func asWarnings(diags hcl.Diagnostics) hcl.Diagnostics {
	out := make(hcl.Diagnostics, 0, len(diags))
	for _, d := range diags {
		c := *d
		c.Severity = hcl.DiagWarning
		c.Summary = "Unreadable CLI configuration: " + c.Summary
		out = append(out, &c)
	}
	return out
}

// lookup finds a variable in an os.Environ-style list.
func lookup(env []string, name string) string {
	for _, kv := range env {
		if k, v, ok := strings.Cut(kv, "="); ok && k == name {
			return v
		}
	}
	return ""
}
