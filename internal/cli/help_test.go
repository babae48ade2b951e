package cli

import (
	"bytes"
	"flag"
	"strings"
	"testing"
)

// TestCommandHelp checks that every command's -help, and tfeval help
// COMMAND, describe the command for a person: usage, what it does, its
// arguments, options and examples; that every option a help lists is one
// the command takes, and every option a command takes is described.
func TestCommandHelp(t *testing.T) {
	for _, name := range commandNames() {
		t.Run(name, func(t *testing.T) {
			cmd := commands[name]
			rc, viaHelp, _ := run(t, ".", "", nil, "help", name)
			if rc != exitOK || !strings.HasPrefix(viaHelp, "Usage: tfeval "+name) {
				t.Fatalf("tfeval help %s: rc=%d out=%q", name, rc, viaHelp)
			}
			if cmd.about == "" || cmd.summary == "" {
				t.Error("no description")
			}
			if cmd.run == nil && cmd.root == nil {
				return
			}
			rc, viaFlag, _ := run(t, ".", "", nil, name, "-help")
			if rc != exitOK || viaFlag != viaHelp {
				t.Errorf("%s -help (rc=%d) differs from tfeval help %s:\n%s", name, rc, name, viaFlag)
			}
			for _, want := range []string{"\nArguments:\n  DIR", "\nOptions:\n", "\nExamples:\n  "} {
				if !strings.Contains(viaHelp, want) {
					t.Errorf("help lacks %q", want)
				}
			}
			// Go's generated flag listing says "value" and "(default ...)".
			if strings.Contains(viaHelp, "  -chdir string") || strings.Contains(viaHelp, "(default \"") {
				t.Errorf("help is Go's flag dump:\n%s", viaHelp)
			}
			// The flags the command registers are those its help and the
			// option table describe.
			fs := flag.NewFlagSet(name, flag.ContinueOnError)
			var c common
			c.registerCommand(fs, name, Env{})
			registered := map[string]bool{}
			fs.VisitAll(func(f *flag.Flag) { registered[f.Name] = true })
			for _, o := range cmd.options {
				if _, ok := optionHelp[o]; !ok {
					t.Errorf("option %s has no description", o)
				}
				if !registered[o] {
					t.Errorf("help lists -%s, which the command does not take", o)
				}
			}
			for o := range registered {
				if _, ok := optionHelp[o]; !ok {
					t.Errorf("-%s is taken but described nowhere", o)
				}
			}
		})
	}
	// Every description belongs to some command.
	for o := range optionHelp {
		used := false
		for _, cmd := range commands {
			for _, co := range cmd.options {
				used = used || co == o
			}
		}
		if !used {
			t.Errorf("option %s is in no command's help", o)
		}
	}
}

func TestSuggestCommand(t *testing.T) {
	for given, want := range map[string]string{
		"evl":      "eval",
		"evall":    "eval",
		"vaildate": "validate",
		"valid":    "validate",
		"consle":   "console",
		"grpah":    "graph",
		"var":      "vars",
		"ini":      "init",
		"plan":     "",
		"x":        "",
		"apply":    "",
	} {
		if got := suggestCommand(given); got != want {
			t.Errorf("suggestCommand(%q) = %q, want %q", given, got, want)
		}
	}
	rc, out, errText := run(t, ".", "", nil, "evl", ".")
	if rc != exitUsage || out != "" || !strings.Contains(errText, `unknown command "evl"; did you mean "eval"?`) {
		t.Errorf("rc=%d out=%q stderr=%q", rc, out, errText)
	}
	rc, _, errText = run(t, ".", "", nil, "help", "valdate")
	if rc != exitUsage || !strings.Contains(errText, `did you mean "validate"?`) {
		t.Errorf("help valdate: rc=%d stderr=%q", rc, errText)
	}
}

// TestOptionsAfterDirectory: options may follow the directory argument,
// as with many command-line tools, and "--" ends the options.
func TestOptionsAfterDirectory(t *testing.T) {
	dir := writeModule(t, map[string]string{"m/main.tf": `variable "x" {}
output "x" { value = var.x }
`})
	for _, args := range [][]string{
		{"eval", "-no-color", "m", "-var", "x=1"},
		{"eval", "m", "-var=x=1", "-no-color"},
		{"eval", "-var", "x=1", "--", "m"},
	} {
		rc, out, errText := run(t, dir, "", nil, args...)
		if rc != exitOK || !strings.Contains(out, "x = \"1\"") {
			t.Errorf("%q: rc=%d out=%q stderr=%q", args, rc, out, errText)
		}
	}
	rc, _, errText := run(t, dir, "", nil, "eval", "m", "-var", "x=1", "n")
	if rc != exitUsage || !strings.Contains(errText, `unexpected argument "n"`) {
		t.Errorf("two directories: rc=%d stderr=%q", rc, errText)
	}
	rc, _, errText = run(t, dir, "", nil, "eval", "m", "-bogus")
	if rc != exitUsage || !strings.Contains(errText, `tfeval help eval`) {
		t.Errorf("unknown option: rc=%d stderr=%q", rc, errText)
	}
}

// TestEvalWithErrorsPrintsNoValues: with an error, values that look valid
// (a variable that failed its validation, outputs computed past the
// error) are not printed; the diagnostics are, and -json keeps both.
func TestEvalWithErrorsPrintsNoValues(t *testing.T) {
	dir := writeModule(t, map[string]string{"main.tf": `variable "n" {
  type = number
  validation {
    condition     = var.n <= 10
    error_message = "At most 10."
  }
}
output "double" { value = var.n * 2 }
`})
	rc, out, errText := run(t, dir, "", nil, "eval", "-no-color", "-var", "n=11")
	if rc != exitError || out != "" || !strings.Contains(errText, "At most 10.") || !strings.Contains(errText, "No values are printed") {
		t.Errorf("rc=%d out=%q stderr=%q", rc, out, errText)
	}
	rc, out, _ = run(t, dir, "", nil, "eval", "-json", "-var", "n=11")
	if rc != exitError || !strings.Contains(out, `At most 10.`) {
		t.Errorf("-json: rc=%d out=%q", rc, out)
	}
	rc, out, _ = run(t, dir, "", nil, "eval", "-no-color", "-var", "n=4")
	if rc != exitOK || !strings.Contains(out, "double = 8") {
		t.Errorf("valid: rc=%d out=%q", rc, out)
	}
}

// TestUsage: tfeval alone and -help list every command.
func TestUsage(t *testing.T) {
	var out bytes.Buffer
	Run([]string{"-help"}, Env{Stdout: &out, Stderr: &out})
	for _, name := range commandNames() {
		if !strings.Contains(out.String(), "\n  "+name+" ") {
			t.Errorf("usage lacks %s:\n%s", name, out.String())
		}
	}
}
