package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"

	tfeval "github.com/tfeval/tfeval"
	"github.com/tfeval/tfeval/dialect"
	"github.com/tfeval/tfeval/format"
)

// The values of a failed assertion's references under its excerpt, as
// terraform test (v1.11.4) printed them for this module: sorted by name,
// a sensitive value left out, the excerpt of a multi-line condition whole.
func TestTestDiagnosticValues(t *testing.T) {
	dir := writeModule(t, map[string]string{
		"main.tf": `variable "x" {
  type    = number
  default = 1
}
variable "l" {
  type    = list(string)
  default = ["a", "b", "c"]
}
variable "sec" {
  type      = string
  default   = "hidden"
  sensitive = true
}
locals {
  m = { a = "1" }
}
output "n" {
  value = var.x * 1000000
}
`,
		"tests/a.tftest.hcl": `run "check" {
  command = plan
  assert {
    condition     = var.x == 2 && length(var.l) == 0
    error_message = "wrong x"
  }
  assert {
    condition     = var.sec == "x"
    error_message = "wrong secret"
  }
  assert {
    condition = (
      output.n == 1
      && local.m["a"] == "2"
    )
    error_message = "wrong output"
  }
}
`,
	})
	want := `
Error: Test assertion failed

  on tests/a.tftest.hcl line 4, in run "check":
   4:     condition     = var.x == 2 && length(var.l) == 0
    ├────────────────
    │ var.l is list of string with 3 elements
    │ var.x is 1

wrong x

Error: Test assertion failed

  on tests/a.tftest.hcl line 8, in run "check":
   8:     condition     = var.sec == "x"

wrong secret

Error: Test assertion failed

  on tests/a.tftest.hcl line 12, in run "check":
  12:     condition = (
  13:       output.n == 1
  14:       && local.m["a"] == "2"
  15:     )
    ├────────────────
    │ local.m["a"] is "1"
    │ output.n is 1000000

wrong output
`
	rc, _, errText := run(t, dir, "", nil, "test", "-no-color")
	if rc != 1 || errText != want {
		t.Errorf("exit %d, diagnostics:\n%s\nwant\n%s", rc, errText, want)
	}

	// The same values in the snippets of test -json.
	_, out, _ := run(t, dir, "", nil, "test", "-json")
	var snippets []string
	for _, line := range strings.Split(out, "\n") {
		var ev struct {
			Type       string
			Diagnostic struct{ Snippet json.RawMessage }
		}
		if json.Unmarshal([]byte(line), &ev) == nil && ev.Type == "diagnostic" {
			snippets = append(snippets, string(ev.Diagnostic.Snippet))
		}
	}
	wantJSON := []string{
		`{"context": "run \"check\"", "code": "    condition     = var.x == 2 && length(var.l) == 0", "start_line": 4, "highlight_start_offset": 20, "highlight_end_offset": 52, "values": [{"traversal": "var.l", "statement": "is list of string with 3 elements"}, {"traversal": "var.x", "statement": "is 1"}]}`,
		`{"context": "run \"check\"", "code": "    condition     = var.sec == \"x\"", "start_line": 8, "highlight_start_offset": 20, "highlight_end_offset": 34, "values": []}`,
		`{"context": "run \"check\"", "code": "    condition = (\n      output.n == 1\n      && local.m[\"a\"] == \"2\"\n    )", "start_line": 12, "highlight_start_offset": 16, "highlight_end_offset": 72, "values": [{"traversal": "local.m[\"a\"]", "statement": "is \"1\""}, {"traversal": "output.n", "statement": "is 1000000"}]}`,
	}
	if len(snippets) != len(wantJSON) {
		t.Fatalf("test -json: %d diagnostics, want %d:\n%s", len(snippets), len(wantJSON), out)
	}
	for i := range wantJSON {
		if g, w := sameJSON(t, snippets[i]), sameJSON(t, wantJSON[i]); g != w {
			t.Errorf("test -json snippet %d:\n%s\nwant\n%s", i, g, w)
		}
	}
}

// sameJSON is doc written in one way, to compare documents.
func sameJSON(t *testing.T, doc string) string {
	t.Helper()
	var v any
	if err := json.Unmarshal([]byte(doc), &v); err != nil {
		t.Errorf("%v: %s", err, doc)
	}
	return mustJSON(t, v)
}

// The snippets of validate -json, as terraform validate -json (v1.11.4)
// wrote them for this module: an operand's value, the type alone of an
// unknown one, the function called and its signature, the longest
// reference that resolves, and the lines of a call spread over lines but
// an empty one.
func TestValidateJSONSnippets(t *testing.T) {
	dir := writeModule(t, map[string]string{
		"main.tf": "variable \"s\" {\n  type = string\n}\nlocals {\n  obj = { b = \"x\" }\n}\noutput \"a\" {\n  value = local.obj.b + var.s\n}\noutput \"b\" {\n  value = upper(var.s, local.obj)\n}\noutput \"c\" {\n  value = max(\n\n    local.obj...)\n}\noutput \"d\" {\n  value = local.obj.c\n}\n",
	})
	_, out, errText := run(t, dir, "", nil, "validate", "-json")
	var doc struct {
		Diagnostics []struct {
			Summary string
			Snippet json.RawMessage
		}
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("%v:\n%s%s", err, out, errText)
	}
	want := map[string]string{
		"Unsupported attribute":            `{"context": "output \"d\"", "code": "  value = local.obj.c", "start_line": 19, "highlight_start_offset": 19, "highlight_end_offset": 21, "values": [{"traversal": "local.obj", "statement": "is object with 1 attribute \"b\""}]}`,
		"Too many function arguments":      `{"context": "output \"b\"", "code": "  value = upper(var.s, local.obj)", "start_line": 11, "highlight_start_offset": 23, "highlight_end_offset": 32, "values": [{"traversal": "local.obj", "statement": "is object with 1 attribute \"b\""}, {"traversal": "var.s", "statement": "is a string"}], "function_call": {"called_as": "upper", "signature": {"name": "upper", "params": [{"name": "str", "type": "string"}], "return_type": "string"}}}`,
		"Invalid operand":                  `{"context": "output \"a\"", "code": "  value = local.obj.b + var.s", "start_line": 8, "highlight_start_offset": 10, "highlight_end_offset": 21, "values": [{"traversal": "local.obj.b", "statement": "is \"x\""}]}`,
		"Invalid expanding argument value": `{"context": "output \"c\"", "code": "  value = max(\n    local.obj...)", "start_line": 14, "highlight_start_offset": 20, "highlight_end_offset": 29, "values": [{"traversal": "local.obj", "statement": "is object with 1 attribute \"b\""}], "function_call": {"called_as": "max", "signature": {"name": "max", "params": [], "variadic_param": {"name": "numbers", "type": "number"}, "return_type": "number"}}}`,
	}
	if len(doc.Diagnostics) != len(want) {
		t.Fatalf("%d diagnostics, want %d:\n%s", len(doc.Diagnostics), len(want), out)
	}
	for _, d := range doc.Diagnostics {
		w, ok := want[d.Summary]
		if !ok {
			t.Errorf("%s: unexpected diagnostic", d.Summary)
			continue
		}
		if g, w := sameJSON(t, string(d.Snippet)), sameJSON(t, w); g != w {
			t.Errorf("%s: snippet\n%s\nwant\n%s", d.Summary, g, w)
		}
	}
}

// eval -json writes the snippets terraform plan -json (v1.11.4) wrote for
// this module's failed precondition.
func TestEvalJSONSnippets(t *testing.T) {
	dir := writeModule(t, map[string]string{
		"main.tf": `variable "s" {
  default = "a"
}
locals {
  set = toset(["a", "b"])
}
resource "terraform_data" "a" {
  lifecycle {
    precondition {
      condition     = var.s == "b" && length(local.set) == 3
      error_message = "pre"
    }
  }
}
`,
	})
	_, out, errText := run(t, dir, "", nil, "eval", "-json")
	var doc struct {
		Diagnostics []struct{ Snippet json.RawMessage }
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil || len(doc.Diagnostics) != 1 {
		t.Fatalf("%v:\n%s%s", err, out, errText)
	}
	want := `{"context": "resource \"terraform_data\" \"a\"", "code": "      condition     = var.s == \"b\" && length(local.set) == 3", "start_line": 10, "highlight_start_offset": 22, "highlight_end_offset": 60, "values": [{"traversal": "local.set", "statement": "is set of string with 2 elements"}, {"traversal": "var.s", "statement": "is \"a\""}]}`
	if g, w := sameJSON(t, string(doc.Diagnostics[0].Snippet)), sameJSON(t, want); g != w {
		t.Errorf("snippet\n%s\nwant\n%s", g, w)
	}
}

// A failed assertion names an ephemeral value it refers to (a sensitive
// one it leaves out), as terraform test -json (v1.11.4) wrote for this
// module, even where the condition's result is not ephemeral; an
// assertion whose condition is null does not. A condition that is not a
// bool is said to be an invalid "run value".
func TestTestDiagnosticEphemeralValues(t *testing.T) {
	dir := writeModule(t, map[string]string{
		"main.tf": `variable "e" {
  type      = string
  default   = "eph"
  ephemeral = true
}
variable "n" {
  type    = number
  default = 2
}
`,
		"tests/a.tftest.hcl": `run "r" {
  command = plan
  assert {
    condition     = var.e == "x"
    error_message = "e1"
  }
  assert {
    condition     = ephemeralasnull(var.e) == "x" && var.n == 5
    error_message = "e2"
  }
  assert {
    condition     = var.e == "x" ? null : null
    error_message = "e3"
  }
  assert {
    condition     = var.n
    error_message = "e4"
  }
}
`,
	})
	_, out, _ := run(t, dir, "", nil, "test", "-json")
	var got []string
	for _, line := range strings.Split(out, "\n") {
		var ev struct {
			Type       string
			Diagnostic struct {
				Summary, Detail string
				Snippet         struct{ Values json.RawMessage }
			}
		}
		if json.Unmarshal([]byte(line), &ev) == nil && ev.Type == "diagnostic" {
			got = append(got, ev.Diagnostic.Summary+": "+ev.Diagnostic.Detail+" "+string(ev.Diagnostic.Snippet.Values))
		}
	}
	want := []string{
		`Test assertion failed: e1 [{"traversal":"var.e","statement":"has an ephemeral value"}]`,
		`Test assertion failed: e2 [{"traversal":"var.e","statement":"has an ephemeral value"},{"traversal":"var.n","statement":"is 2"}]`,
		`Invalid condition run: Condition expression must return either true or false, not null. []`,
		// terraform test's own words, not those of a precondition.
		`Invalid condition run: Invalid condition run value: bool required, but have number. [{"traversal":"var.n","statement":"is 2"}]`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("diagnostics:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// A function's signature is shown where Terraform has it: for a call the
// expression makes itself (count.index among its values), not for one in
// a for expression's body, whose context Terraform finds no functions in
// (terraform validate -json, v1.11.4).
func TestValidateJSONFunctionSignatures(t *testing.T) {
	dir := writeModule(t, map[string]string{
		"main.tf": `locals {
  m = { k = { a = 1 } }
  u = [for k, v in local.m : upper(v)]
  v = upper(local.m)
  w = [for x in upper(local.m) : x]
  y = { for k, v in local.m : k => v if lower(v) }
}
resource "terraform_data" "x" {
  count = 1
  input = [upper(count.index, 1), [for i in [1] : lower(i, count.index)], [for i in lower(count.index, 2) : i]]
}
`,
	})
	_, out, errText := run(t, dir, "", nil, "validate", "-json")
	var doc struct {
		Diagnostics []struct {
			Range   struct{ Start struct{ Line, Column int } }
			Snippet struct {
				FunctionCall struct {
					CalledAs  string          `json:"called_as"`
					Signature json.RawMessage `json:"signature"`
				} `json:"function_call"`
			}
		}
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("%v:\n%s%s", err, out, errText)
	}
	got := map[string]bool{}
	for _, d := range doc.Diagnostics {
		got[fmt.Sprintf("%d:%d %s", d.Range.Start.Line, d.Range.Start.Column, d.Snippet.FunctionCall.CalledAs)] = d.Snippet.FunctionCall.Signature != nil
	}
	cases := []struct {
		call      string
		signature bool
	}{
		{"3:36 upper", false},
		{"4:13 upper", true},
		{"5:23 upper", true},
		{"6:47 lower", false},
		{"10:31 upper", true},
		{"10:60 lower", false},
		{"10:104 lower", true},
	}
	for _, c := range cases {
		sig, ok := got[c.call]
		if !ok {
			t.Errorf("%s: no diagnostic:\n%s", c.call, out)
		} else if sig != c.signature {
			t.Errorf("%s: signature %v, want %v", c.call, sig, c.signature)
		}
	}
}

// TestDiagnosticContextsFromConfig: the commands that print a root's
// diagnostics with their excerpts take the blocks they are in from the
// loaded configuration's parse (report.config, format.Sources.UseConfig),
// and print exactly what parsing the files again gives: validate (text
// and -json), eval, show, vars and console, on one root and (those that
// take it) with -recursive, with diagnostics in a root's files, an
// override file and a shared child module's.
func TestDiagnosticContextsFromConfig(t *testing.T) {
	tree := writeModule(t, map[string]string{
		"env/main.tf":          "module \"m\" {\n  source = \"../mod\"\n}\n\nlocals {\n  x = 1\n}\n\nresource \"null_resource\" \"r\" {\n  triggers = {\n    a = var.nope\n  }\n}\n",
		"env/main_override.tf": "locals {\n  x = local.gone\n}\n",
		"env2/main.tf":         "module \"m\" {\n  source = \"../mod\"\n}\n\noutput \"p\" {\n  value = var.nothing\n}\n",
		"mod/main.tf":          "locals {\n  y = 1\n}\n\noutput \"o\" {\n  value = local.missing\n}\n",
	})
	roots := []string{"env", "env2"}
	// want is what the diagnostics of root print as without the
	// configuration: every file they point into is parsed again.
	want := func(root string, recursive bool, cmd string) string {
		dir := filepath.Join(tree, root)
		var diags hcl.Diagnostics
		switch cmd {
		case "validate":
			diags = tfeval.Validate(tfeval.Options{WorkDir: dir})
		case "console":
			diags = tfeval.Evaluate(tfeval.Options{WorkDir: dir, Console: true, Lazy: true}).Diagnostics
		default:
			diags = tfeval.Evaluate(tfeval.Options{WorkDir: dir}).Diagnostics
		}
		var b strings.Builder
		opts := format.DiagnosticOptions{WorkDir: dir}
		if recursive {
			opts.WorkDir, opts.Root = tree, root
		}
		format.NewDiagnosticPrinter(&b, opts).Print(diags)
		return b.String()
	}
	for _, cmd := range []string{"validate", "eval", "show"} {
		args := []string{cmd}
		if cmd == "show" {
			args = append(args, "-json")
		}
		var all string
		for _, root := range roots {
			_, _, stderr := run(t, filepath.Join(tree, root), "", nil, args...)
			w := want(root, false, cmd)
			if !printedFirst(stderr, w) {
				t.Errorf("%s %s: printed\n%s\nwant\n%s", cmd, root, stderr, w)
			}
			all += want(root, true, cmd)
		}
		_, _, stderr := run(t, tree, "", nil, append(args, "-recursive", "-no-progress")...)
		if !printedFirst(stderr, all) {
			t.Errorf("%s -recursive: printed\n%s\nwant\n%s", cmd, stderr, all)
		}
		for _, in := range []string{`, in resource "null_resource" "r":`, `, in locals:`, `, in output "o":`, `, in output "p":`} {
			if !strings.Contains(stderr, in) {
				t.Errorf("%s -recursive: no diagnostic names the block %s", cmd, in)
			}
		}
	}

	// vars and console print the evaluation's diagnostics alike.
	for _, cmd := range []string{"vars", "console"} {
		for _, root := range roots {
			_, _, stderr := run(t, filepath.Join(tree, root), "", nil, cmd)
			if w := want(root, false, cmd); !printedFirst(stderr, w) {
				t.Errorf("%s %s: printed\n%s\nwant\n%s", cmd, root, stderr, w)
			}
		}
	}

	// validate -json: the document's snippets are those of the files
	// parsed again.
	for _, root := range roots {
		dir := filepath.Join(tree, root)
		diags := tfeval.Validate(tfeval.Options{WorkDir: dir})
		doc := format.NewValidateDocument(diags)
		doc.Diagnostics = format.NewSources(format.DiagnosticOptions{WorkDir: dir}).Diagnostics(diags)
		b, _ := json.MarshalIndent(doc, "", "  ")
		if _, out, _ := run(t, dir, "", nil, "validate", "-json"); out != string(b)+"\n" {
			t.Errorf("validate -json %s: wrote\n%s\nwant\n%s", root, out, b)
		}
	}

	// Each command's report carries the configuration its diagnostics
	// are of, for them to be printed from.
	env := Env{WorkDir: filepath.Join(tree, "env"), Stdin: strings.NewReader(""), Stdout: io.Discard, Stderr: io.Discard}
	for name, root := range map[string]func(*common, Env) report{"validate": validateRoot, "eval": evalRoot, "show": showRoot} {
		c := &common{command: name, dialect: dialect.Terraform, ctx: context.Background()}
		if rep := root(c, env); rep.config == nil || len(rep.diags) == 0 {
			t.Errorf("%s: report without its configuration (%d diagnostics)", name, len(rep.diags))
		}
	}
}

// printedFirst reports whether stderr is the diagnostics diags, with
// notes alone between and after them (eval's, a scan's summary).
func printedFirst(stderr, diags string) bool {
	var kept []string
	for _, line := range strings.Split(stderr, "\n") {
		if !strings.Contains(line, "No values are printed") && !strings.HasPrefix(line, "tfeval ") {
			kept = append(kept, line)
		}
	}
	return strings.TrimRight(strings.Join(kept, "\n"), "\n") == strings.TrimRight(diags, "\n")
}
