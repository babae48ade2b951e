package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const quickstart = "../../testdata/examples/quickstart"

func run(t *testing.T, dir, stdin string, env []string, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	abs, err := filepath.Abs(dir)
	if err != nil {
		t.Fatal(err)
	}
	rc := Run(args, Env{Stdin: strings.NewReader(stdin), Stdout: &out, Stderr: &errb, Environ: env, WorkDir: abs})
	return rc, out.String(), errb.String()
}

func writeModule(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, src := range files {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestConsole(t *testing.T) {
	dir := writeModule(t, map[string]string{"main.tf": `
variable "n" { default = 2 }
locals { doubled = var.n * 2 }
`})
	tests := []struct {
		name, stdin string
		args        []string
		env         []string
		rc          int
		out         string
		errContains string
	}{
		{"value", "local.doubled\n", nil, nil, 0, "4\n", ""},
		{"several lines", "1 + 1\n\n\"a\"\n", nil, nil, 0, "2\n\"a\"\n", ""},
		{"exit stops reading", "1\nexit\n2\n", nil, nil, 0, "1\n", ""},
		{"var flag", "var.n\n", []string{"-var", "n=5"}, nil, 0, "\"5\"\n", ""},
		{"env var", "var.n\n", nil, []string{"TF_VAR_n=7"}, 0, "\"7\"\n", ""},
		{"type", "type({a = 1})\n", nil, nil, 0, "object({\n    a: number,\n})\n", ""},
		{"type nested", "[type(1)]\n", nil, nil, 1, "", "Error: Invalid use of type function"},
		{"syntax error", "1 +\n", nil, nil, 1, "", "Error: "},
		{"undeclared", "local.nope\n", nil, nil, 1, "", "Error: Reference to undeclared local value"},
		{"error then value", "local.nope\n3\n", nil, nil, 1, "3\n", ""},
		{"help", "help\n", nil, nil, 0, consoleHelp, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := append([]string{"console", "-no-color"}, tt.args...)
			rc, out, errText := run(t, dir, tt.stdin, tt.env, args...)
			if rc != tt.rc || out != tt.out || !strings.Contains(errText, tt.errContains) {
				t.Errorf("rc=%d out=%q err=%q; want rc=%d out=%q err containing %q", rc, out, errText, tt.rc, tt.out, tt.errContains)
			}
		})
	}
}

func TestConsoleDiagnosticLayout(t *testing.T) {
	dir := writeModule(t, map[string]string{"main.tf": "locals {\n  a = var.missing\n}\n"})
	rc, _, errText := run(t, dir, "1\n", nil, "console", "-no-color")
	if rc != 1 {
		t.Fatalf("rc = %d, want 1", rc)
	}
	want := "\nError: Reference to undeclared input variable\n\n  on main.tf line 2, in locals:\n   2:   a = var.missing\n\n"
	if !strings.HasPrefix(errText, want) {
		t.Errorf("stderr:\n%s\nwant prefix:\n%s", errText, want)
	}
}

func TestEvalHuman(t *testing.T) {
	rc, out, errText := run(t, ".", "", nil, "eval", "-no-color", quickstart)
	if rc != 0 {
		t.Fatalf("rc=%d stderr=%s", rc, errText)
	}
	for _, want := range []string{
		"# Root module\n",
		`terraform_data.server["web"] = {`,
		`"id" = (known after apply)`,
		"# module.network\n",
		"module.network.terraform_data.subnet[2] = {",
		"admin_password = (sensitive value)\n",
		"replica_count = 3\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("eval output lacks %q", want)
		}
	}
}

func TestEvalJSON(t *testing.T) {
	rc, out, _ := run(t, quickstart, "", nil, "eval", "-json")
	if rc != 0 {
		t.Fatalf("rc=%d", rc)
	}
	var doc struct {
		Diagnostics []any
		Outputs     map[string]struct {
			Sensitive bool
			Unknown   any
			Value     any
		}
		Resources []struct {
			Address      string
			AfterUnknown map[string]any `json:"after_unknown"`
		}
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	if got := doc.Outputs["replica_count"].Value; got != 3.0 {
		t.Errorf("replica_count = %v, want 3", got)
	}
	if !doc.Outputs["admin_password"].Sensitive {
		t.Error("admin_password not sensitive")
	}
	if doc.Outputs["server_ids"].Unknown == false {
		t.Error("server_ids should be unknown")
	}
	if len(doc.Resources) != 8 {
		t.Errorf("got %d resources, want 8", len(doc.Resources))
	}
}

func TestValidateJSON(t *testing.T) {
	bad := writeModule(t, map[string]string{"main.tf": "variable \"a\" {}\nvariable \"a\" {}\n"})
	rc, out, _ := run(t, bad, "", nil, "validate", "-json")
	if rc != 1 {
		t.Errorf("rc = %d, want 1", rc)
	}
	var doc struct {
		Valid       bool
		ErrorCount  int `json:"error_count"`
		Diagnostics []struct {
			Summary string
			Range   *struct {
				Filename string
				Start    struct{ Line int }
			}
		}
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Valid || doc.ErrorCount != 1 || doc.Diagnostics[0].Summary != "Duplicate variable declaration" {
		t.Errorf("unexpected document: %s", out)
	}
	if r := doc.Diagnostics[0].Range; r == nil || r.Filename != "main.tf" || r.Start.Line != 2 {
		t.Errorf("range = %+v, want main.tf line 2", r)
	}
	rc, out, _ = run(t, quickstart, "", nil, "validate")
	if rc != 0 || !strings.Contains(out, "Success!") {
		t.Errorf("quickstart validate: rc=%d out=%q", rc, out)
	}
}

func TestVarsJSON(t *testing.T) {
	rc, out, errText := run(t, quickstart, "", []string{"TF_VAR_environment=prod"}, "vars", "-json", "-var", "project=cli")
	if rc != 0 {
		t.Fatalf("rc=%d stderr=%s", rc, errText)
	}
	var doc struct {
		Variables []struct {
			Name   string
			Value  json.RawMessage
			Source struct{ Kind, Description string }
		}
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, v := range doc.Variables {
		got[v.Name] = v.Source.Kind + " " + string(v.Value)
	}
	want := map[string]string{
		"project":        `var "cli"`,
		"environment":    `env "prod"`,
		"admin_password": "default ",
	}
	for name, w := range want {
		if got[name] != w {
			t.Errorf("%s: got %q, want %q", name, got[name], w)
		}
	}
	if !strings.HasPrefix(got["network"], "auto-file ") {
		t.Errorf("network source: %q", got["network"])
	}
}

// TestVarsHuman: vars runs eval's evaluation, so with one required
// variable unset the others still show their values; each variable is a
// block of labelled lines, wrapped to the terminal's width, with values
// laid out as the console prints them.
func TestVarsHuman(t *testing.T) {
	dir := writeModule(t, map[string]string{"main.tf": `
variable "a" { type = string }
variable "b" { default = { k = "bee" } }
variable "c" {
  type        = number
  description = "A number with a description long enough that it has to be wrapped on a narrow terminal."
}
`})
	rc, out, errText := run(t, dir, "", []string{"COLUMNS=50"}, "vars", "-no-color", "-var", "c=3")
	if rc != exitError || !strings.Contains(errText, "No value for required variable") {
		t.Errorf("rc=%d stderr=%s", rc, errText)
	}
	want := `a
  type:   string
  value:  (not set)
  source: not set

b
  type:   any
  value:  {
            "k" = "bee"
          }
  source: default value declared at main.tf:3,1-13

c
  type:   number
  value:  3
  source: set using -var="c=..."
  about:  A number with a description long enough
          that it has to be wrapped on a narrow
          terminal.
`
	if out != want {
		t.Errorf("vars output:\n%s\nwant:\n%s", out, want)
	}
}

func TestUsageAndExitCodes(t *testing.T) {
	tests := []struct {
		args []string
		rc   int
		out  string
	}{
		{nil, exitUsage, "Usage: tfeval"},
		{[]string{"-help"}, exitOK, "Exit status:"},
		{[]string{"version"}, exitOK, "tfeval v"},
		{[]string{"frobnicate"}, exitUsage, ""},
		{[]string{"eval", "-dialect=cobol"}, exitUsage, ""},
		{[]string{"eval", "a", "b"}, exitUsage, ""},
		{[]string{"eval", "-chdir=does-not-exist"}, exitUsage, ""},
	}
	for _, tt := range tests {
		rc, out, _ := run(t, ".", "", nil, tt.args...)
		if rc != tt.rc || !strings.Contains(out, tt.out) {
			t.Errorf("%q: rc=%d out=%.60q; want rc=%d containing %q", tt.args, rc, out, tt.rc, tt.out)
		}
	}
}

func TestColour(t *testing.T) {
	dir := writeModule(t, map[string]string{"main.tf": "locals { a = var.missing }\n"})
	var errb bytes.Buffer
	Run([]string{"console"}, Env{Stdin: strings.NewReader("1\n"), Stdout: &bytes.Buffer{}, Stderr: &errb, WorkDir: dir, Terminal: true})
	if !strings.Contains(errb.String(), "\x1b[") || !strings.Contains(errb.String(), "╷") {
		t.Errorf("terminal output has no colour box: %q", errb.String())
	}
	errb.Reset()
	Run([]string{"console"}, Env{Stdin: strings.NewReader("1\n"), Stdout: &bytes.Buffer{}, Stderr: &errb, WorkDir: dir, Terminal: true, Environ: []string{"NO_COLOR=1"}})
	if strings.Contains(errb.String(), "\x1b[") {
		t.Errorf("NO_COLOR ignored: %q", errb.String())
	}
}

func TestOptionsBeforeCommand(t *testing.T) {
	outside := writeModule(t, map[string]string{"secret.txt": "s3cret"})
	dir := writeModule(t, map[string]string{"main.tf": `locals { s = file("` + filepath.Join(outside, "secret.txt") + `") }`})
	rc, _, errText := run(t, dir, "local.s\n", nil, "-sandbox="+dir, "-no-color=true", "console")
	if rc != 1 || !strings.Contains(errText, "is outside the") {
		t.Errorf("-sandbox before the command was not applied: rc=%d stderr=%q", rc, errText)
	}
	rc, out, _ := run(t, dir, "tofu.workspace\n", nil, "-dialect=tofu", "console")
	if rc != 0 || out != "\"default\"\n" {
		t.Errorf("-dialect before the command: rc=%d out=%q", rc, out)
	}
}

// TestDataAndMissingModules: -data gives data source results to eval and
// console, -missing-modules=unknown evaluates past a module that is not
// installed, and a wrong value of it is a usage error.
func TestDataAndMissingModules(t *testing.T) {
	dir := t.TempDir()
	for name, src := range map[string]string{
		"main.tf": `
module "net" {
  source = "example/net/aws"
}
data "aws_region" "r" {}
resource "aws_s3_bucket" "b" {
  count  = length(data.aws_region.r.name) > 0 ? 1 : 0
  bucket = "logs-${data.aws_region.r.name}"
  tags   = { vpc = module.net.vpc_id }
}`,
		"data.json": `{"data.aws_region.r": {"name": "eu-west-1"}}`,
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	rc, out, errText := run(t, dir, "", nil, "eval", "-json", "-missing-modules=unknown", "-data=data.json")
	if rc != exitOK {
		t.Fatalf("exit %d: %s %s", rc, out, errText)
	}
	for _, want := range []string{`"address": "aws_s3_bucket.b[0]"`, `"bucket": "logs-eu-west-1"`, `"summary": "Module not installed"`, `"severity": "warning"`} {
		if !strings.Contains(out, want) {
			t.Errorf("eval -json lacks %s:\n%s", want, out)
		}
	}
	rc, out, _ = run(t, dir, "data.aws_region.r.name\n", nil, "console", "-missing-modules=unknown", "-data=data.json")
	if rc != exitOK || strings.TrimSpace(out) != `"eu-west-1"` {
		t.Errorf("console: exit %d, %q", rc, out)
	}
	if rc, _, errText := run(t, dir, "", nil, "eval", "-no-color"); rc != exitError || !strings.Contains(errText, "-missing-modules=unknown") {
		t.Errorf("without the option: exit %d, %s", rc, errText)
	}
	if rc, _, errText := run(t, dir, "", nil, "eval", "-missing-modules=maybe"); rc != exitUsage || !strings.Contains(errText, "error or unknown") {
		t.Errorf("a wrong -missing-modules: exit %d, %s", rc, errText)
	}
}
