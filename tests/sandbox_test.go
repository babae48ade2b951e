package tests

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"

	"github.com/tfeval/tfeval"

	"github.com/tfeval/tfeval/internal/testfiles"
)

// sandboxFixture is a sandbox directory holding a module, next to a secret
// file outside it; it returns the sandbox and the secret's path.
func sandboxFixture(t *testing.T, files map[string]string) (string, string) {
	t.Helper()
	root := t.TempDir()
	secret := filepath.Join(root, "secret.txt")
	if err := os.WriteFile(secret, []byte("the secret"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(root, "outside"), 0o755); err != nil {
		t.Fatal(err)
	}
	testfiles.Write(t, filepath.Join(root, "outside"), map[string]string{"main.tf": `output "leak" { value = "outside" }`, "data.txt": "outside data"})
	box := filepath.Join(root, "box")
	if err := os.Mkdir(box, 0o755); err != nil {
		t.Fatal(err)
	}
	testfiles.Write(t, box, files)
	return box, secret
}

// evalSandboxed evaluates the module in box with the sandbox set to box.
func evalSandboxed(box string) *tfeval.Evaluation {
	return tfeval.Evaluate(tfeval.Options{WorkDir: box, Sandbox: box})
}

// wantRefused asserts that evaluation failed with a diagnostic that has a
// source range, and that the secret appears in no output value.
func wantRefused(t *testing.T, ev *tfeval.Evaluation, want string) {
	t.Helper()
	refused(t, ev, want, true)
}

// wantFileRefused is wantRefused for a whole file that is not read, which
// has no place in a source to point at.
func wantFileRefused(t *testing.T, ev *tfeval.Evaluation, want string) {
	t.Helper()
	refused(t, ev, want, false)
}

func refused(t *testing.T, ev *tfeval.Evaluation, want string, ranged bool) {
	t.Helper()
	found := false
	for _, d := range ev.Diagnostics {
		if d.Severity == hcl.DiagError && strings.Contains(d.Summary+" "+d.Detail, want) {
			found = true
			if ranged && d.Subject == nil {
				t.Errorf("refusal %q has no source range", d.Summary)
			}
		}
	}
	if !found {
		t.Errorf("want an error containing %q, got %v", want, ev.Diagnostics)
	}
	for _, o := range ev.Outputs() {
		if o.Value.IsKnown() && strings.Contains(o.Value.GoString(), "secret") {
			t.Errorf("output %s leaks the secret: %#v", o.Name, o.Value)
		}
	}
}

func symlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		t.Skip("no symlinks:", err)
	}
}

func TestSandboxDotDot(t *testing.T) {
	box, _ := sandboxFixture(t, map[string]string{"main.tf": `output "x" { value = file("../secret.txt") }`})
	wantRefused(t, evalSandboxed(box), "outside the directory")
}

func TestSandboxDotDotInsidePath(t *testing.T) {
	box, _ := sandboxFixture(t, map[string]string{"main.tf": `output "x" { value = file("${path.module}/sub/../../secret.txt") }`, "sub/keep": ""})
	wantRefused(t, evalSandboxed(box), "outside the directory")
}

func TestSandboxAbsolutePath(t *testing.T) {
	box, secret := sandboxFixture(t, nil)
	testfiles.Write(t, box, map[string]string{"main.tf": `output "x" { value = file("` + filepath.ToSlash(secret) + `") }`})
	wantRefused(t, evalSandboxed(box), "outside the directory")
}

func TestSandboxHome(t *testing.T) {
	home := t.TempDir()
	testfiles.Write(t, home, map[string]string{"secret.txt": "the secret"})
	t.Setenv("HOME", home)
	box, _ := sandboxFixture(t, map[string]string{"main.tf": `output "x" { value = file("~/secret.txt") }`})
	wantRefused(t, evalSandboxed(box), "outside the directory")
}

func TestSandboxFileSymlink(t *testing.T) {
	box, secret := sandboxFixture(t, map[string]string{"main.tf": `output "x" { value = file("link.txt") }`})
	symlink(t, secret, filepath.Join(box, "link.txt"))
	wantRefused(t, evalSandboxed(box), "outside the directory")
}

func TestSandboxDirectorySymlink(t *testing.T) {
	box, secret := sandboxFixture(t, map[string]string{"main.tf": `output "x" { value = file("dir/secret.txt") }`})
	symlink(t, filepath.Dir(secret), filepath.Join(box, "dir"))
	wantRefused(t, evalSandboxed(box), "outside the directory")
}

func TestSandboxFilesetPatterns(t *testing.T) {
	for name, call := range map[string]string{
		"parent base":       `fileset("..", "*.txt")`,
		"parent pattern":    `fileset(path.module, "../*.txt")`,
		"absolute base":     `fileset("/", "*")`,
		"doublestar parent": `fileset(path.module, "../**")`,
	} {
		t.Run(name, func(t *testing.T) {
			box, _ := sandboxFixture(t, map[string]string{"main.tf": `output "x" { value = ` + call + ` }`, "in.txt": "in"})
			wantRefused(t, evalSandboxed(box), "outside the directory")
		})
	}
}

func TestSandboxFilesetThroughSymlinkedDirectory(t *testing.T) {
	box, secret := sandboxFixture(t, map[string]string{"main.tf": `output "x" { value = fileset(path.module, "**") }`, "in.txt": "in"})
	symlink(t, filepath.Dir(secret), filepath.Join(box, "dir"))
	ev := evalSandboxed(box)
	if ev.HasErrors() {
		wantRefused(t, ev, "outside the directory")
		return
	}
	out, _ := ev.Output("x")
	for it := out.Value.ElementIterator(); it.Next(); {
		_, v := it.Element()
		if strings.HasPrefix(v.AsString(), "dir/") {
			t.Errorf("fileset lists %s, outside the sandbox", v.AsString())
		}
	}
}

func TestSandboxTemplatefile(t *testing.T) {
	box, _ := sandboxFixture(t, map[string]string{"main.tf": `output "x" { value = templatefile("../secret.txt", {}) }`})
	wantRefused(t, evalSandboxed(box), "outside the directory")
}

func TestSandboxTemplatefileNested(t *testing.T) {
	box, _ := sandboxFixture(t, map[string]string{
		"main.tf": `output "x" { value = templatefile("t.tftpl", {}) }`,
		"t.tftpl": `${file("../secret.txt")}`,
	})
	wantRefused(t, evalSandboxed(box), "outside the directory")
}

func TestSandboxHashFunctions(t *testing.T) {
	for _, fn := range []string{"filemd5", "filesha1", "filesha256", "filesha512", "filebase64sha256", "filebase64sha512", "filebase64", "fileexists"} {
		t.Run(fn, func(t *testing.T) {
			box, _ := sandboxFixture(t, map[string]string{"main.tf": `output "x" { value = ` + fn + `("../secret.txt") }`})
			wantRefused(t, evalSandboxed(box), "outside the directory")
		})
	}
}

func TestSandboxModuleSource(t *testing.T) {
	for name, source := range map[string]string{"relative": "../outside", "nested relative": "./sub/../../outside"} {
		t.Run(name, func(t *testing.T) {
			box, _ := sandboxFixture(t, map[string]string{"main.tf": `module "m" { source = "` + source + `" }`, "sub/keep.txt": ""})
			ev := evalSandboxed(box)
			if !ev.HasErrors() {
				t.Fatalf("module outside the sandbox was loaded: %v", ev.Diagnostics)
			}
			for _, d := range ev.Diagnostics {
				if d.Severity == hcl.DiagError && d.Subject == nil {
					t.Errorf("error %q has no source range", d.Summary)
				}
			}
		})
	}
}

func TestSandboxModuleSourceSymlink(t *testing.T) {
	box, secret := sandboxFixture(t, map[string]string{"main.tf": `module "m" { source = "./link" }`})
	symlink(t, filepath.Join(filepath.Dir(secret), "outside"), filepath.Join(box, "link"))
	ev := evalSandboxed(box)
	if !ev.HasErrors() {
		t.Fatalf("module behind a symlink out of the sandbox was loaded: %v", ev.Diagnostics)
	}
}

func TestSandboxAllowsInside(t *testing.T) {
	box, _ := sandboxFixture(t, map[string]string{
		"main.tf":  `output "x" { value = [file("in.txt"), filemd5("in.txt"), templatefile("t.tftpl", {}), tolist(fileset(path.module, "*.txt"))[0]] }` + "\n" + `module "m" { source = "./mod" }`,
		"in.txt":   "in",
		"t.tftpl":  "tmpl",
		"mod/x.tf": `output "y" { value = file("${path.module}/../in.txt") }`,
	})
	ev := evalSandboxed(box)
	if ev.HasErrors() {
		t.Fatalf("unexpected errors: %v", ev.Diagnostics)
	}
}

// TestSandboxModuleFiles: files of the module itself (configuration files,
// the variables files loaded without being asked, the files of a called
// module) that link outside the sandbox are not read, and nothing of what
// they hold reaches a value or a diagnostic.
func TestSandboxModuleFiles(t *testing.T) {
	for name, link := range map[string]string{
		"configuration file":      "link.tf",
		"auto variables file":     "x.auto.tfvars",
		"terraform.tfvars":        "terraform.tfvars",
		"file of a called module": "mod/main.tf",
	} {
		t.Run(name, func(t *testing.T) {
			box, secret := sandboxFixture(t, map[string]string{
				"main.tf":     "variable \"v\" {\n  default = \"none\"\n}\noutput \"v\" { value = var.v }\nmodule \"m\" { source = \"./mod\" }\n",
				"mod/keep.tf": "",
			})
			// The target holds a configuration that would leak, and is
			// also a valid variables file.
			if err := os.WriteFile(secret, []byte("v = \"the secret\"\n"), 0o600); err != nil {
				t.Fatal(err)
			}
			symlink(t, secret, filepath.Join(box, link))
			ev := evalSandboxed(box)
			wantFileRefused(t, ev, "outside the directory")
			for _, d := range ev.Diagnostics {
				if strings.Contains(d.Summary+d.Detail, "the secret") {
					t.Errorf("a diagnostic shows the secret: %s: %s", d.Summary, d.Detail)
				}
			}
		})
	}
}

// TestSandboxRelativeToWorkDir: a relative sandbox is resolved against the
// working directory for the loader and the file functions alike, whatever
// the process directory is.
func TestSandboxRelativeToWorkDir(t *testing.T) {
	box, _ := sandboxFixture(t, map[string]string{"inner/main.tf": `output "x" { value = file("../in.txt") }`, "in.txt": "in the box, outside inner"})
	ev := tfeval.Evaluate(tfeval.Options{WorkDir: filepath.Join(box, "inner"), Sandbox: "."})
	wantRefused(t, ev, "outside the directory")
}
