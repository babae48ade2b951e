package install

import (
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/tfeval/tfeval/config"

	"github.com/tfeval/tfeval/internal/testfiles"
)

// manifestTree is a root module calling a registry module, a local module
// that calls a registry module's subdirectory (which calls a sibling
// directory of its package), and an archive.
var manifestTree = map[string]string{
	"main.tf": `
module "net" {
  source  = "registry.example.com/acme/net/aws"
  version = "~> 1.1"
  cidr    = "10.0.0.0/16"
}
module "app" {
  source = "./modules/app"
}
module "vpc" {
  source = "http://archive.example.com/vpc.tar.gz"
}
`,
	"modules/app/main.tf": `
module "db" {
  source  = "registry.example.com/acme/db/aws//modules/pg"
  version = ">= 3.0.0"
}
`,
}

var dbModules = registryModule{
	"3.0.0": {"modules/pg/main.tf": "# old\n"},
	"3.1.0": {
		"modules/pg/main.tf":     "variable \"size\" {\n  default = 1\n}\nmodule \"common\" {\n  source = \"../common\"\n}\n",
		"modules/common/main.tf": "output \"name\" {\n  value = \"common\"\n}\n",
	},
}

// TestManifestMatchesTerraform installs a tree and checks that its
// modules.json holds the records terraform init writes for it, and that
// the loader reads it exactly as it reads terraform init's own file.
func TestManifestMatchesTerraform(t *testing.T) {
	l := newLoopback(t)
	l.serveRegistry("registry.example.com", map[string]registryModule{"acme/net/aws": netModules, "acme/db/aws": dbModules})
	vpc := filesArchive(t, "", map[string]string{"main.tf": "output \"id\" {\n  value = \"vpc\"\n}\n"})
	l.mux.HandleFunc("archive.example.com/vpc.tar.gz", func(w http.ResponseWriter, r *http.Request) { w.Write(vpc) })
	dir := t.TempDir()
	testfiles.Write(t, dir, manifestTree)

	// Before installation the loader cannot find the remote modules.
	if _, diags := config.Load(".", config.Options{WorkDir: dir}); !strings.Contains(summaries(diags), "Module not installed") {
		t.Fatalf("loading before installation: %s", summaries(diags))
	}
	if _, diags := Modules(Options{WorkDir: dir, HTTPClient: l.client()}); diags.HasErrors() {
		t.Fatal(summaries(diags))
	}

	terraform, err := os.ReadFile("testdata/terraform-init-modules.json")
	if err != nil {
		t.Fatal(err)
	}
	ours, err := os.ReadFile(filepath.Join(dir, ".terraform/modules/modules.json"))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := records(t, ours), records(t, terraform); !reflect.DeepEqual(got, want) {
		t.Errorf("modules.json records differ from terraform init's:\n got  %v\n want %v", got, want)
	}

	ourTree := loadTree(t, dir)
	if err := os.WriteFile(filepath.Join(dir, ".terraform/modules/modules.json"), terraform, 0o644); err != nil {
		t.Fatal(err)
	}
	theirTree := loadTree(t, dir)
	if ourTree != theirTree {
		t.Errorf("the loader reads our modules.json as\n%s\nand terraform init's as\n%s", ourTree, theirTree)
	}
	for _, want := range []string{"module.app.module.db.module.common in .terraform/modules/app.db/modules/common", "module.vpc in .terraform/modules/vpc", "variables size outputs"} {
		if !strings.Contains(ourTree, want) {
			t.Errorf("tree lacks %q:\n%s", want, ourTree)
		}
	}
}

// records reads a modules.json into sorted lines.
func records(t *testing.T, b []byte) []string {
	t.Helper()
	var doc struct{ Modules []Record }
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, r := range doc.Modules {
		out = append(out, r.Key+" | "+r.Source+" | "+r.Version+" | "+r.Dir)
	}
	sort.Strings(out)
	return out
}

// loadTree loads the tree at dir and describes it: each module's path,
// directory, source, variables and outputs, and the diagnostics.
func loadTree(t *testing.T, dir string) string {
	t.Helper()
	cfg, diags := config.Load(".", config.Options{WorkDir: dir})
	var lines []string
	var walk func(c *config.Config)
	walk = func(c *config.Config) {
		addr := "root"
		if len(c.Path) > 0 {
			addr = "module." + strings.Join(c.Path, ".module.")
		}
		var vars, outs []string
		for n := range c.Module.Variables {
			vars = append(vars, n)
		}
		for n := range c.Module.Outputs {
			outs = append(outs, n)
		}
		sort.Strings(vars)
		sort.Strings(outs)
		lines = append(lines, addr+" in "+c.Module.SourceDir+" from "+c.SourceAddr+" variables "+strings.Join(vars, ",")+" outputs "+strings.Join(outs, ","))
		for _, child := range c.Children {
			walk(child)
		}
	}
	walk(cfg)
	sort.Strings(lines)
	return strings.Join(lines, "\n") + "\n" + summaries(diags)
}
