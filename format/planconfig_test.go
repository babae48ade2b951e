package format

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/tfeval/tfeval"
	"github.com/tfeval/tfeval/dialect"
	"github.com/tfeval/tfeval/internal/testfiles"
)

// An expression is described by what it refers to, each reference followed
// by the shorter ones down to the object it names and then the object
// containing that one, and by its value when it has one without them.
func TestExpression(t *testing.T) {
	for _, tc := range []struct {
		src  string
		d    dialect.Dialect
		want string
	}{
		{`"abc"`, dialect.Terraform, `{"constant_value":"abc"}`},
		{`{ a = 1, b = [true, null] }`, dialect.Terraform, `{"constant_value":{"a":1,"b":[true,null]}}`},
		{`null`, dialect.Terraform, `{"constant_value":null}`},
		{`toset(["a"])`, dialect.Terraform, `{}`},
		{`var.a`, dialect.Terraform, `{"references":["var.a"]}`},
		{`var.a.b["c"]`, dialect.Terraform, `{"references":["var.a.b[\"c\"]","var.a.b","var.a"]}`},
		{`var.list[count.index]`, dialect.Terraform, `{"references":["var.list","count.index"]}`},
		{`each.value.az`, dialect.Terraform, `{"references":["each.value.az","each.value"]}`},
		{`terraform_data.x.input.tags`, dialect.Terraform, `{"references":["terraform_data.x.input.tags","terraform_data.x.input","terraform_data.x"]}`},
		{`terraform_data.x[0].id`, dialect.Terraform, `{"references":["terraform_data.x[0].id","terraform_data.x[0]","terraform_data.x"]}`},
		{`terraform_data.x[*].id`, dialect.Terraform, `{"references":["terraform_data.x"]}`},
		{`data.d.k["a"].v`, dialect.Terraform, `{"references":["data.d.k[\"a\"].v","data.d.k[\"a\"]","data.d.k"]}`},
		{`module.m.out`, dialect.Terraform, `{"references":["module.m.out","module.m"]}`},
		{`module.m[1].out.x`, dialect.Terraform, `{"references":["module.m[1].out.x","module.m[1].out","module.m[1]"]}`},
		{`module.m["y"]`, dialect.Terraform, `{"references":["module.m[\"y\"]","module.m"]}`},
		{`module.m[0]`, dialect.Tofu, `{"references":["module.m[0]","module.m"]}`},
		{`module.m`, dialect.Terraform, `{"references":["module.m"]}`},
		{`[for s in local.l : upper(s)]`, dialect.Terraform, `{"references":["local.l"]}`},
		{`true || local.x == "y"`, dialect.Terraform, `{"constant_value":true,"references":["local.x"]}`},
		{`provider::mock::upper(local.x)`, dialect.Terraform, `{"references":["local.x"]}`},
		{`provider::mock::upper(local.x)`, dialect.Tofu, `{"references":["local.x","provider::mock::upper"]}`},
	} {
		expr, diags := hclsyntax.ParseExpression([]byte(tc.src), "test.tf", hcl.InitialPos)
		if diags.HasErrors() {
			t.Fatalf("%s: %s", tc.src, diags.Error())
		}
		w := &configWriter{d: tc.d}
		b, _ := json.Marshal(w.expression(expr))
		if string(b) != tc.want {
			t.Errorf("%s (%s): %s, want %s", tc.src, tc.d, b, tc.want)
		}
	}
}

// A provider's full name has the dialect's registry host when its source
// has none; the built-in provider has its own.
func TestProviderFullName(t *testing.T) {
	for _, tc := range []struct {
		local string
		d     dialect.Dialect
		want  string
	}{
		{"terraform", dialect.Terraform, "terraform.io/builtin/terraform"},
		{"aws", dialect.Terraform, "registry.terraform.io/hashicorp/aws"},
		{"aws", dialect.Tofu, "registry.opentofu.org/hashicorp/aws"},
	} {
		if got := providerFullName(nil, tc.local, tc.d); got != tc.want {
			t.Errorf("%s (%s): %s, want %s", tc.local, tc.d, got, tc.want)
		}
	}
}

// Module instance addresses split at their calls, keys with dots included.
func TestSplitModuleAddr(t *testing.T) {
	for addr, want := range map[string]string{
		"":                            "[]",
		"module.a":                    "[module.a]",
		`module.a["x.y"].module.b[0]`: `[module.a["x.y"] module.b[0]]`,
		`module.a["q\"]"].module.b`:   `[module.a["q\"]"] module.b]`,
	} {
		if got := fmt.Sprint(splitModuleAddr(addr)); got != want {
			t.Errorf("%q: %s, want %s", addr, got, want)
		}
	}
	if got := parentModule(`module.a["x"].module.b`); got != `module.a["x"]` {
		t.Errorf("parent %q", got)
	}
}

// configurationOf is the configuration part of the plan of files.
func configurationOf(t *testing.T, files map[string]string, d dialect.Dialect) Configuration {
	t.Helper()
	ev := tfeval.Evaluate(tfeval.Options{WorkDir: testfiles.Dir(t, files), Dialect: d})
	if ev.HasErrors() {
		t.Fatal(ev.Diagnostics.Error())
	}
	p, err := NewPlan(ev.Result, PlanOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return p.Configuration
}

// Provider configuration entries are each module's own: one for each
// provider it requires (by local name, and by type), configures or uses,
// keyed by the module's address. A child's entry for a provider its
// caller also has resolves to the caller's, and is not written; so a
// built-in resource in a child module of a root that uses none has a
// configuration of its own. (Terraform v1.11.4 writes exactly these; its
// jsonconfig rules are unchanged in v1.15 and in OpenTofu.)
func TestProviderConfigKeys(t *testing.T) {
	const data = `resource "terraform_data" "r" { input = 1 }` + "\n"
	const requireTF = "terraform {\n  required_providers {\n    tf = { source = \"terraform.io/builtin/terraform\" }\n  }\n}\n"
	for _, tc := range []struct {
		name  string
		files map[string]string
		// keys are the written entries, each with its module address; uses
		// the resources' keys by module path.
		keys map[string]string
		uses map[string]string
	}{
		{
			name:  "built-in resource only in a child",
			files: map[string]string{"main.tf": `module "m" { source = "./m" }`, "m/main.tf": data},
			keys:  map[string]string{"module.m:terraform": "module.m"},
			uses:  map[string]string{"m": "module.m:terraform"},
		},
		{
			name:  "built-in resource in the root and a child",
			files: map[string]string{"main.tf": `module "m" { source = "./m" }` + "\n" + data, "m/main.tf": data},
			keys:  map[string]string{"terraform": ""},
			uses:  map[string]string{"": "terraform", "m": "terraform"},
		},
		{
			name:  "only in a grandchild",
			files: map[string]string{"main.tf": `module "a" { source = "./a" }`, "a/main.tf": `module "b" { source = "./b" }`, "a/b/main.tf": data},
			keys:  map[string]string{"module.a.module.b:terraform": "module.a.module.b"},
			uses:  map[string]string{"a/b": "module.a.module.b:terraform"},
		},
		{
			name:  "a child and its child",
			files: map[string]string{"main.tf": `module "m" { source = "./m" }`, "m/main.tf": data + `module "n" { source = "./n" }`, "m/n/main.tf": data},
			keys:  map[string]string{"module.m:terraform": "module.m"},
			uses:  map[string]string{"m": "module.m:terraform", "m/n": "module.m:terraform"},
		},
		{
			name:  "built-in provider required under another name, its function called",
			files: map[string]string{"main.tf": requireTF + `output "x" { value = provider::tf::encode_tfvars({ a = 1 }) }`},
			keys:  map[string]string{"terraform": "", "tf": ""},
		},
		{
			name:  "required under another name in the root, used in a child",
			files: map[string]string{"main.tf": requireTF + `module "m" { source = "./m" }`, "m/main.tf": data},
			keys:  map[string]string{"terraform": "", "tf": ""},
			uses:  map[string]string{"m": "terraform"},
		},
	} {
		for _, d := range []dialect.Dialect{dialect.Terraform, dialect.Tofu} {
			t.Run(tc.name+"/"+d.String(), func(t *testing.T) {
				conf := configurationOf(t, tc.files, d)
				got := map[string]string{}
				for key, pc := range conf.ProviderConfig {
					got[key] = pc.ModuleAddress
					if pc.FullName != "terraform.io/builtin/terraform" {
						t.Errorf("%s: full name %s", key, pc.FullName)
					}
				}
				if fmt.Sprint(got) != fmt.Sprint(tc.keys) {
					t.Errorf("entries %v, want %v", got, tc.keys)
				}
				uses := map[string]string{}
				var walk func(path string, m ConfigModule)
				walk = func(path string, m ConfigModule) {
					for _, r := range m.Resources {
						uses[path] = r.ProviderConfigKey
					}
					for name, call := range m.ModuleCalls {
						p := name
						if path != "" {
							p = path + "/" + name
						}
						walk(p, call.Module)
					}
				}
				walk("", conf.RootModule)
				if len(tc.uses) > 0 && fmt.Sprint(uses) != fmt.Sprint(tc.uses) {
					t.Errorf("resources use %v, want %v", uses, tc.uses)
				}
			})
		}
	}
}

// Every argument is written, also one that neither refers to anything nor
// has a value without its functions (as {}); a module call's source built
// from a const variable is written as it resolved.
func TestConfigurationArguments(t *testing.T) {
	files := map[string]string{
		"main.tf": `
variable "src" {
  type    = string
  default = "./m"
  const   = true
}
resource "terraform_data" "r" {
  input            = upper("a")
  triggers_replace = [1]
}
module "m" {
  source = var.src
  a      = upper("a")
}
`,
		"m/main.tf": `variable "a" {}`,
	}
	conf := configurationOf(t, files, dialect.Terraform)
	b, _ := json.Marshal(conf.RootModule.Resources[0].Expressions)
	if want := `{"input":{},"triggers_replace":{"constant_value":[1]}}`; string(b) != want {
		t.Errorf("resource arguments %s, want %s", b, want)
	}
	call := conf.RootModule.ModuleCalls["m"]
	b, _ = json.Marshal(call.Expressions)
	if want := `{"a":{}}`; string(b) != want {
		t.Errorf("module call arguments %s, want %s", b, want)
	}
	if call.Source != "./m" {
		t.Errorf("module call source %q, want ./m", call.Source)
	}
	// OpenTofu evaluates a source from locals and variables early.
	files["main.tf"] = "locals {\n  src = \"./m\"\n}\nmodule \"m\" {\n  source = local.src\n  a      = 1\n}\n"
	if got := configurationOf(t, files, dialect.Tofu).RootModule.ModuleCalls["m"].Source; got != "./m" {
		t.Errorf("OpenTofu: module call source %q, want ./m", got)
	}
}
