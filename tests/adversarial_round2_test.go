//go:build unix

package tests

import (
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tfeval/tfeval/internal/testfiles"
)

// roundTwoCases are the classes of issue #28: init inside the sandbox and
// bounded, every input file and output document bounded, no single
// function call past the limits. Each class has a small case that runs
// every time; the costly ones are long.
func roundTwoCases() []advCase {
	module := func(source string) string { return `module "m" { source = "` + source + `" }` + "\n" }
	return []advCase{
		// init obeys -sandbox.
		{
			name: "init: a page names a git::file:// repository outside", command: "init", sandbox: true, git: true,
			want:  "outside the directory modules may be read from",
			files: map[string]string{"main.tf": module("SERVER/module")},
			setup: func(t *testing.T, box, outside string) { gitInit(t, filepath.Join(outside, "repo")) },
			serve: func(outside string) http.Handler {
				return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
					w.Header().Set("X-Terraform-Get", "git::file://"+filepath.ToSlash(filepath.Join(outside, "repo")))
					w.WriteHeader(http.StatusNoContent)
				})
			},
		},
		{
			name: "init: a local repository whose alternates are outside", command: "init", sandbox: true, git: true,
			want:  "alternates",
			files: map[string]string{"main.tf": module("git::file://BOX/inner")},
			setup: func(t *testing.T, box, outside string) {
				gitInit(t, filepath.Join(outside, "repo"))
				gitInit(t, filepath.Join(box, "inner"))
				testfiles.Write(t, box, map[string]string{"inner/.git/objects/info/alternates": filepath.Join(outside, "repo", ".git", "objects") + "\n"})
			},
		},
		{
			name: "init: a configuration file linked outside", command: "init", sandbox: true, want: "outside the directory",
			files: map[string]string{"main.tf": "#\n"},
			setup: func(t *testing.T, box, outside string) {
				testfiles.Write(t, outside, map[string]string{"calls.tf": module("SERVER/" + secretText)})
				symlinkOrSkip(t, filepath.Join(outside, "calls.tf"), filepath.Join(box, "calls.tf"))
			},
			serve: func(string) http.Handler { return http.NotFoundHandler() },
		},
		{
			name: "init: a module source read from a file outside", command: "init", sandbox: true, tofu: true, want: "outside the directory",
			files: map[string]string{"main.tf": `locals { s = trimspace(file("../outside/secret.txt")) }` + "\n" + module("SERVER/${local.s}")},
			serve: func(string) http.Handler { return http.NotFoundHandler() },
		},
		{
			name: "init: a module cache directory linked outside", command: "init", sandbox: true, git: true, args: []string{"-cache-dir=cache"},
			want:  "outside the cache",
			files: map[string]string{"main.tf": module("git::file://BOX/inner?ref=main")},
			setup: func(t *testing.T, box, outside string) {
				gitInit(t, filepath.Join(box, "inner"))
				symlinkOrSkip(t, outside, filepath.Join(box, "cache", "refs"))
			},
		},
		{
			name: "init: an earlier installation linked outside", command: "init", sandbox: true, git: true,
			files: map[string]string{"main.tf": module("git::file://BOX/inner"),
				".terraform/modules/modules.json": `{"Modules":[{"Key":"m","Source":"git::file://BOX/inner","Dir":".terraform/modules/m"}]}`},
			setup: func(t *testing.T, box, outside string) {
				gitInit(t, filepath.Join(box, "inner"))
				symlinkOrSkip(t, outside, filepath.Join(box, ".terraform", "modules", "m"))
			},
		},

		// init is bounded and stops when asked.
		{
			name: "init: one oversized archive for three calls", command: "init", want: "larger than the limit",
			files: map[string]string{"main.tf": `module "a" { source = "SERVER/bomb.tar.gz" }` + "\n" + `module "b" { source = "SERVER/bomb.tar.gz" }` + "\n" + `module "c" { source = "SERVER/bomb.tar.gz" }` + "\n"},
			serve: func(string) http.Handler {
				served := 0
				return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
					if served++; served > 1 {
						http.Error(w, "fetched again", http.StatusTeapot)
						return
					}
					w.Header().Set("Content-Length", fmt.Sprint(1<<40))
					w.WriteHeader(http.StatusOK)
				})
			},
		},
		{
			name: "init: a server that trickles, with -timeout", command: "init", args: []string{"-timeout=1s"}, want: "Failed to download module",
			files: map[string]string{"main.tf": module("SERVER/slow.zip")},
			serve: func(string) http.Handler {
				return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
					w.WriteHeader(http.StatusOK)
					for {
						if _, err := w.Write([]byte("x")); err != nil {
							return
						}
						w.(http.Flusher).Flush()
						select {
						case <-r.Context().Done():
							return
						case <-time.After(100 * time.Millisecond):
						}
					}
				})
			},
		},
		{
			name: "init: a version constraint of a thousand conditions", command: "init", want: "conditions",
			files: map[string]string{"main.tf": "module \"m\" {\n  source  = \"example.com/a/b/c\"\n  version = \"" + strings.TrimSuffix(strings.Repeat(">= 1.0.0, ", 1000), ", ") + "\"\n}\n"},
		},
		{
			name: "init: two module calls per level for 20 levels", command: "init", long: true, want: "Too many modules",
			files: nestedModules(20, "module \"a\" { source = \"./m\" }\nmodule \"b\" { source = \"./m\" }\n"),
		},

		// Every input file and output document is bounded.
		{
			name: "a -data result for a data block without arguments", args: []string{"-data=data.json"},
			files: map[string]string{"main.tf": `data "aws_region" "r" {}`, "data.json": `{"data.aws_region.r": {"tags": {}}}`},
		},
		{
			name: "a -data file nested two million deep", args: []string{"-data=data.json"}, want: "nests more than",
			files: map[string]string{"main.tf": `data "aws_region" "r" {}`, "data.json": `{"data.aws_region.r": {"a": ` + lines(2_000_000, "[") + lines(2_000_000, "]") + `}}`},
		},
		{
			name: "a -data file of a million elements", args: []string{"-data=data.json"}, want: "more than 100000 values",
			files: map[string]string{"main.tf": `data "aws_region" "r" {}`, "data.json": `{"data.aws_region.r": {"a": [` + strings.TrimSuffix(lines(1_000_000, "1,"), ",") + `]}}`},
		},
		{
			name: "-schemas linked to /dev/zero", args: []string{"-schemas=schemas.json"}, want: "not a regular file",
			files: map[string]string{"main.tf": `output "a" { value = 1 }`},
			setup: func(t *testing.T, box, _ string) {
				symlinkOrSkip(t, "/dev/zero", filepath.Join(box, "schemas.json"))
			},
		},
		{
			name: "a schema object type of 50,000 attributes", args: []string{"-schemas=schemas.json"}, want: "and 49980 others are required",
			files: map[string]string{"schemas.json": hugeObjectSchema(50_000), "main.tf": "resource \"aws_thing\" \"t\" {\n  count = 2\n  obj   = {}\n}\n"},
		},
		{
			name: "a schema object type of 50,000 attributes, 1,000 instances", args: []string{"-schemas=schemas.json"}, long: true, want: "Evaluation step limit reached",
			files: map[string]string{"schemas.json": hugeObjectSchema(50_000), "main.tf": "resource \"aws_thing\" \"t\" {\n  count = 1000\n  obj   = {}\n}\n"},
		},
		{
			name: "40,000 duplicated blocks, as text", want: "Duplicate local value definition",
			files: map[string]string{"main.tf": lines(40_000, "locals {\n  a = 1\n}\n")},
		},
		{
			name: "40,000 duplicated blocks, as SARIF", args: []string{"-format=sarif"}, long: true, want: "Duplicate local value definition",
			files: map[string]string{"main.tf": lines(40_000, "locals {\n  a = 1\n}\n")},
		},
		{
			name: "show -json of an 8 MB string shared by six resources", command: "show", args: []string{"-json"},
			files: map[string]string{"main.tf": "locals { s = format(\"%8000000s\", \"\") }\nresource \"terraform_data\" \"r\" {\n  count = 6\n  input = local.s\n}\n"},
		},
		{
			name: "show -json past the output limit", command: "show", args: []string{"-json"}, long: true, want: "Limits.MaxOutputSize",
			files: map[string]string{"main.tf": "locals { s = format(\"%16000000s\", \"\") }\nresource \"terraform_data\" \"r\" {\n  count = 20\n  input = local.s\n}\n"},
		},

		// No single call runs past the limits.
		{
			name: "yamldecode of an alias bomb", want: "more than 100000 values",
			files: map[string]string{"main.tf": "locals {\n  doc = <<EOT\n" + yamlAliasBomb() + "EOT\n}\noutput \"n\" { value = length(yamldecode(local.doc)) }\n"},
		},
		{
			name: "regexall over 20 MB", want: "Evaluation step limit reached",
			files: map[string]string{"main.tf": "locals { s = format(\"%20000000s\", \"\") }\noutput \"n\" { value = length(regexall(\" \", local.s)) }\n"},
		},
		{
			name: "split of 20 MB", want: "elements",
			files: map[string]string{"main.tf": "locals { s = format(\"%20000000s\", \"\") }\noutput \"n\" { value = length(split(\" \", local.s)) }\n"},
		},
		{
			name: "replace over 20 MB", long: true, want: "Evaluation step limit reached",
			files: map[string]string{"main.tf": "locals { s = format(\"%20000000s\", \"\") }\noutput \"n\" { value = length(replace(local.s, \"/ /\", \"xy\")) }\n"},
		},
		{
			name: "length and substr of 4 MB a thousand times", want: "Evaluation step limit reached",
			files: map[string]string{"main.tf": "locals { s = format(\"%4000000s\", \"\") }\noutput \"n\" { value = [for i in range(1000) : length(local.s) + length(substr(local.s, 3999990, 5))] }\n"},
		},
		{
			name: "contains over 100,000 strings 100,000 times", want: "Evaluation step limit reached",
			files: map[string]string{"main.tf": "locals { l = [for i in flatten([for i in range(100) : range(1000)]) : \"s${i}\"] }\noutput \"n\" { value = length([for i in local.l : i if contains(local.l, \"none\")]) }\n"},
		},
		{
			name: "== on shared structures in a loop", want: "Evaluation step limit reached",
			files: map[string]string{"main.tf": strings.Replace(sharedChain(15), "output \"x\" { value = local.l15 }", "output \"x\" { value = length([for i in range(1000) : i if local.l14 == local.l14]) }", 1)},
		},
		{
			name: "filesha256 of a 16 MB file a thousand times", want: "Evaluation step limit reached",
			files: map[string]string{"main.tf": "output \"h\" { value = [for i in range(1000) : filesha256(\"big.bin\")] }\n"},
			setup: func(t *testing.T, box, _ string) {
				if err := os.WriteFile(filepath.Join(box, "big.bin"), make([]byte, 16<<20), 0o644); err != nil {
					t.Fatal(err)
				}
			},
		},
		{
			name: "console bcrypt at cost 13 in a loop", command: "console", stdin: "[for i in range(100) : bcrypt(\"x\", 13)]\n", want: "Evaluation step limit reached",
			files: map[string]string{"main.tf": "#\n"},
		},
		{
			name: "jsondecode of a million elements", want: "more than 100000 values",
			files: map[string]string{"main.tf": "locals { s = \"[${replace(format(\"%1000000s\", \"\"), \" \", \"1,\")}1]\" }\noutput \"n\" { value = length(jsondecode(local.s)) }\n"},
		},
	}
}

// gitInit makes a git repository of one module at dir, whose file holds the
// secret, on the branch main.
func gitInit(t *testing.T, dir string) {
	t.Helper()
	testfiles.Write(t, dir, map[string]string{"main.tf": "# " + secretText + "\n"})
	for _, args := range [][]string{
		{"init", "--quiet", "--initial-branch=main"},
		{"add", "-A"},
		{"commit", "--quiet", "-m", "x"},
	} {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1",
			"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
}

// hugeObjectSchema is a provider schema document whose aws_thing has an
// attribute of an object type of n attributes.
func hugeObjectSchema(n int) string {
	var b strings.Builder
	for i := range n {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `"a%05d":"string"`, i)
	}
	return `{"format_version":"1.0","provider_schemas":{"registry.terraform.io/hashicorp/aws":{"resource_schemas":{"aws_thing":{"version":0,"block":{"attributes":{"obj":{"type":["object",{` + b.String() + `}],"optional":true}}}}}}}}`
}

// yamlAliasBomb is a YAML document of a few hundred bytes whose aliases
// repeat its first list ten times at each of eight levels.
func yamlAliasBomb() string {
	var b strings.Builder
	b.WriteString(`l0: &l0 ["x","x","x","x","x","x","x","x","x","x"]` + "\n")
	for i := 1; i <= 8; i++ {
		fmt.Fprintf(&b, "l%d: &l%d [%s]\n", i, i, strings.TrimSuffix(strings.Repeat(fmt.Sprintf("*l%d,", i-1), 10), ","))
	}
	return b.String()
}
