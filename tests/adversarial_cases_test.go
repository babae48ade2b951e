//go:build unix

package tests

import (
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/tfeval/tfeval/internal/testfiles"
)

// secretText is what the files outside the sandbox of an adversarial case
// hold; no byte sequence of it may appear in any output.
const secretText = "tfeval-secret-3f9a61c2"

// advCase is one hostile input, run by the CLI (TestAdversarialCLI) and
// through the library with a deadline (TestAdversarialDeadline).
type advCase struct {
	name string
	// files is the module, written into box (the sandbox, and the working
	// directory unless chdir says otherwise).
	files map[string]string
	// setup, when set, adds what files cannot hold (links, FIFOs) in box,
	// next to outside, a directory beside box holding secret.txt.
	setup func(t *testing.T, box, outside string)
	// args are the CLI's options after the command (eval when command is "").
	command string
	args    []string
	// chdir is the working directory inside box ("" for box itself).
	chdir string
	// sandbox runs with -sandbox=. (relative, so resolved against chdir).
	sandbox bool
	// stdin is the console's input.
	stdin string
	// want is text the diagnostics or output must contain; "" means the
	// command must succeed.
	want string
	// tofu selects the OpenTofu dialect.
	tofu bool
	// serve, when set, is a server the case's files reach at SERVER (an
	// http://127.0.0.1 URL); what it is sent must hold nothing from
	// outside the sandbox.
	serve func(outside string) http.Handler
	// git says the case needs the git program.
	git bool
	// long marks a costly case that runs only with the long suites
	// (internal/longtest); a cheaper case of its class runs without them.
	long bool
}

// lines is n copies of line.
func lines(n int, line string) string { return strings.Repeat(line, n) }

// sharedChain is locals l0..lN, each an object whose two attributes are the
// one before: a few hundred bytes whose value doubles at every level.
func sharedChain(n int) string {
	var b strings.Builder
	b.WriteString("locals {\n  l0 = {a = 1}\n")
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "  l%d = {a = local.l%d, b = local.l%d}\n", i, i-1, i-1)
	}
	fmt.Fprintf(&b, "}\noutput \"x\" { value = local.l%d }\n", n)
	return b.String()
}

// nestedModules writes depth levels of module "m" under dir, each called
// with the given call block body.
func nestedModules(depth int, call string) map[string]string {
	files := map[string]string{}
	path := ""
	for i := 0; i < depth; i++ {
		files[path+"main.tf"] = call + "resource \"terraform_data\" \"r\" { input = 1 }\n"
		path += "m/"
	}
	files[path+"main.tf"] = "resource \"terraform_data\" \"r\" { input = 1 }\n"
	return files
}

func symlinkOrSkip(t *testing.T, target, link string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(link), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, link); err != nil {
		t.Skip("no symlinks:", err)
	}
}

func fifoOrSkip(t *testing.T, path string) {
	t.Helper()
	if err := syscall.Mkfifo(path, 0o644); err != nil {
		t.Skip("no FIFOs:", err)
	}
}

// adversarialCases has at least one case of every class of issue #21. It
// is made when called, not at start: TestAdversarialCLI's child is this
// test binary, which should start at once.
func adversarialCases() []advCase {
	return append([]advCase{
		// Sandbox: files of the module linked outside, a relative sandbox,
		// and files that are not regular.
		{
			name: "configuration file linked outside the sandbox", sandbox: true, want: "outside the directory",
			files: map[string]string{"main.tf": `output "a" { value = 1 }`},
			setup: func(t *testing.T, box, outside string) {
				symlinkOrSkip(t, filepath.Join(outside, "secret.txt"), filepath.Join(box, "link.tf"))
			},
		},
		{
			name: "auto variables file linked outside the sandbox", sandbox: true, want: "outside the directory",
			files: map[string]string{"main.tf": "variable \"v\" {\n  default = \"x\"\n}\noutput \"a\" { value = var.v }\n"},
			setup: func(t *testing.T, box, outside string) {
				symlinkOrSkip(t, filepath.Join(outside, "secret.txt"), filepath.Join(box, "x.auto.tfvars"))
			},
		},
		{
			name: "terraform.tfvars linked to a file outside the sandbox", sandbox: true, want: "outside the directory",
			files: map[string]string{"main.tf": "variable \"v\" {\n  default = \"x\"\n}\n"},
			setup: func(t *testing.T, box, outside string) {
				symlinkOrSkip(t, filepath.Join(outside, "secret.txt"), filepath.Join(box, "terraform.tfvars"))
			},
		},
		{
			name: "module file linked outside the sandbox", sandbox: true, want: "outside the directory",
			files: map[string]string{"main.tf": `module "m" { source = "./m" }`, "m/keep.tf": ""},
			setup: func(t *testing.T, box, outside string) {
				symlinkOrSkip(t, filepath.Join(outside, "secret.txt"), filepath.Join(box, "m", "main.tf"))
			},
		},
		{
			name: "relative sandbox with -chdir", sandbox: true, chdir: "inner", want: "outside the directory",
			files: map[string]string{"inner/main.tf": `output "a" { value = file("../secret.txt") }`, "secret.txt": secretText},
		},
		{
			name: "file() of a FIFO", want: "not a regular file",
			files: map[string]string{"main.tf": `output "a" { value = file("fifo") }`},
			setup: func(t *testing.T, box, _ string) { fifoOrSkip(t, filepath.Join(box, "fifo")) },
		},
		{
			name: "templatefile() of a FIFO", want: "not a regular file",
			files: map[string]string{"main.tf": `output "a" { value = templatefile("fifo", {}) }`},
			setup: func(t *testing.T, box, _ string) { fifoOrSkip(t, filepath.Join(box, "fifo")) },
		},
		{
			name: "filesha256() of a FIFO", want: "not a regular file",
			files: map[string]string{"main.tf": `output "a" { value = filesha256("fifo") }`},
			setup: func(t *testing.T, box, _ string) { fifoOrSkip(t, filepath.Join(box, "fifo")) },
		},
		{
			name: "terraform.tfvars that is a FIFO", want: "not a regular file",
			files: map[string]string{"main.tf": `variable "v" { default = 1 }`},
			setup: func(t *testing.T, box, _ string) { fifoOrSkip(t, filepath.Join(box, "terraform.tfvars")) },
		},
		{
			name: "file(/dev/stdin)", want: "not a regular file",
			files: map[string]string{"main.tf": `output "a" { value = file("/dev/stdin") }`},
		},

		// Walks over values that share structure, and output.
		{name: "shared structure, 26 levels", want: "Value too large", files: map[string]string{"main.tf": sharedChain(26)}},
		{name: "shared structure, 18 levels, -json", args: []string{"-json"}, want: "Value too large", files: map[string]string{"main.tf": sharedChain(18)}},
		{
			name: "jsonencode of a shared 8x8x8 structure", want: "Value too large",
			files: map[string]string{"main.tf": `locals {
  a = [for i in range(8) : "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"]
  b = [for i in range(8) : local.a]
  c = [for i in range(8) : local.b]
  d = [for i in range(8) : local.c]
  e = [for i in range(8) : local.d]
  f = [for i in range(8) : local.e]
  g = [for i in range(8) : local.f]
}
output "x" { value = length(jsonencode([for i in range(8) : local.g])) }
`},
		},

		// Conversions of large tuples.
		{
			name: "toset of 20,000 strings", long: true,
			files: map[string]string{"main.tf": `locals {
  s = toset(flatten([for i in range(200) : [for j in range(100) : "${i}-${j}"]]))
  l = tolist([for k in local.s : { k = k }])
  m = tomap({ for k in local.s : k => k })
}
output "n" { value = [length(local.l), length(local.m)] }
`},
		},
		{
			// Parameters of type list(any) and distinct's comparisons.
			name: "distinct and contains over 20,000 strings",
			files: map[string]string{"main.tf": `locals {
  all = flatten([for i in range(200) : [for j in range(100) : "${i}-${j}"]])
  d   = distinct(concat(local.all, local.all))
}
output "n" { value = [length(local.d), contains(local.all, "199-99"), index(local.all, "199-99")] }
`},
		},

		// Parsing.
		{name: "40 MB of comments", long: true, want: "Source too large", files: map[string]string{"main.tf": lines(20<<20, "#\n")}},
		// Parsed in pieces, as a template file is: Terraform parses it too.
		{name: "a heredoc of 40,000 lines", files: map[string]string{"main.tf": "locals {\n  a = <<EOT\n" + lines(40000, "line of heredoc text\n") + "EOT\n}\n"}},
		{name: "a heredoc of 40,000 lines in one directive", want: "Template too large", files: map[string]string{"main.tf": "locals {\n  a = <<EOT\n%{ if true }\n" + lines(40000, "line of heredoc text\n") + "%{ endif }\nEOT\n}\n"}},
		{name: "100,000 $${ escapes", want: "Template too large", files: map[string]string{"main.tf": "locals {\n  a = \"" + lines(100000, "$${x}") + "\"\n}\n"}},
		{name: "an integer literal of 100,000 digits", want: "Number too large", files: map[string]string{"main.tf": `output "x" { value = "${` + lines(100000, "9") + `}" }`}},
		{name: "tonumber of three million digits", want: "more than", files: map[string]string{"main.tf": "output \"x\" { value = tonumber(local.s) }\nlocals { s = \"" + lines(3_000_000, "9") + "\" }\n"}},
		{name: "jsondecode of three million digits", long: true, want: "more than", files: map[string]string{"main.tf": "output \"x\" { value = jsondecode(local.s) }\nlocals { s = \"[" + lines(3_000_000, "9") + "]\" }\n"}},

		// Instances, modules and the evaluation budget.
		{
			name: "count = 99999 over a 1,000-element for expression", long: true, want: "Evaluation step limit reached",
			files: map[string]string{"main.tf": "resource \"terraform_data\" \"r\" {\n  count = 99999\n  input = [for i in range(1000) : i]\n}\n"},
		},
		{
			// cty sorts a set anew at every walk: planning must walk it once
			// (and reads its strings without cty's sort), writing must not
			// cost more per instance as instances are added.
			name: "for_each over a set of 90,000 strings", long: true, args: []string{"-json"},
			files: map[string]string{"main.tf": `locals {
  keys = flatten([for a in range(300) : [for b in range(300) : "k${a}-${b}"]])
}
resource "terraform_data" "r" {
  for_each = toset(local.keys)
  input    = each.key
}
`},
		},
		{name: "ten nested module levels with count = 10", want: "Too many instances", files: nestedModules(10, "module \"m\" {\n  source = \"./m\"\n  count  = 10\n}\n")},
		{name: "two module calls per level for 20 levels", want: "Too many modules", files: nestedModules(20, "module \"a\" { source = \"./m\" }\nmodule \"b\" { source = \"./m\" }\n")},
		{name: "two module calls per level for 20 levels, validate", long: true, command: "validate", want: "Too many modules", files: nestedModules(20, "module \"a\" { source = \"./m\" }\nmodule \"b\" { source = \"./m\" }\n")},

		{
			name: "a module source built from a costly local", long: true, want: "Too many elements",
			files: map[string]string{"main.tf": `locals {
  n = length(flatten([for a in range(1000) : [for b in range(1000) : [for c in range(1000) : c]]]))
}
module "m" { source = "./m${local.n}" }
`},
		},
		{
			name: "vars with terraform.tfvars linked outside the sandbox", command: "vars", sandbox: true, want: "outside the directory",
			files: map[string]string{"main.tf": "variable \"v\" {\n  default = \"x\"\n}\n"},
			setup: func(t *testing.T, box, outside string) {
				symlinkOrSkip(t, filepath.Join(outside, "secret.txt"), filepath.Join(box, "terraform.tfvars"))
			},
		},

		// Recursive templates, and a console that evaluates what it needs.
		{
			name: "recursive templatefile (OpenTofu)", tofu: true, want: "Evaluation step limit reached",
			files: map[string]string{
				"main.tf": `output "x" { value = templatefile("${path.module}/t.tftpl", {n = 0}) }`,
				"t.tftpl": `%{ if n < 40 }${templatefile("t.tftpl", {n = n + 1})}${templatefile("t.tftpl", {n = n + 1})}%{ endif }x`,
			},
		},
		{
			name: "console printing 1 over a thousand bcrypt calls", command: "console", stdin: "1\n",
			files: map[string]string{"main.tf": "locals {\n" + func() string {
				var b strings.Builder
				for i := range 1000 {
					fmt.Fprintf(&b, "  h%d = bcrypt(\"x\", 10)\n", i)
				}
				return b.String()
			}() + "}\n"},
		},
	}, roundTwoCases()...)
}

// writeCase writes a case's module and setup into a fresh directory and
// returns the sandbox directory and the working directory. In the files,
// BOX and OUTSIDE stand for those directories and SERVER for server.
func writeCase(t *testing.T, c advCase, server string) (box, workDir string) {
	t.Helper()
	if c.git {
		if _, err := exec.LookPath("git"); err != nil {
			t.Skip("git is not installed")
		}
	}
	root := t.TempDir()
	outside := filepath.Join(root, "outside")
	box = filepath.Join(root, "box")
	testfiles.Write(t, outside, map[string]string{"secret.txt": secretText + "\n", "main.tf": `output "leak" { value = "` + secretText + `" }`})
	if err := os.MkdirAll(box, 0o755); err != nil {
		t.Fatal(err)
	}
	places := strings.NewReplacer("BOX", filepath.ToSlash(box), "OUTSIDE", filepath.ToSlash(outside), "SERVER", server)
	files := map[string]string{}
	for name, text := range c.files {
		files[name] = places.Replace(text)
	}
	testfiles.Write(t, box, files)
	if c.setup != nil {
		c.setup(t, box, outside)
	}
	return box, filepath.Join(box, c.chdir)
}
