package format

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"

	"github.com/tfeval/tfeval/config"
)

// Diagnostics print in Terraform's layout: the summary, the source lines
// of the range, and the detail wrapped at 77 columns; sources not on disk
// come from SetSource.
func TestDiagnosticPrinter(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte("variable \"a\" {}\nvariable \"a\" {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	p := NewDiagnosticPrinter(&b, DiagnosticOptions{WorkDir: dir})
	p.SetSource("<input>", []byte("1 +"))
	p.Print(hcl.Diagnostics{
		{Severity: hcl.DiagError, Summary: "Duplicate variable declaration", Detail: "A variable named \"a\" was already declared at main.tf:1,1-13. Variable names must be unique within a module.",
			Subject: &hcl.Range{Filename: "main.tf", Start: hcl.Pos{Line: 2, Column: 1}, End: hcl.Pos{Line: 2, Column: 13}}},
		{Severity: hcl.DiagWarning, Summary: "Odd", Subject: &hcl.Range{Filename: "<input>", Start: hcl.Pos{Line: 1, Column: 1}, End: hcl.Pos{Line: 1, Column: 4}}},
	})
	want := `
Error: Duplicate variable declaration

  on main.tf line 2:
   2: variable "a" {}

A variable named "a" was already declared at main.tf:1,1-13. Variable names
must be unique within a module.

Warning: Odd

  on <input> line 1:
   1: 1 +
`
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
}

// TestDiagnosticContext: the excerpt's heading names the top-level block
// the range is in, as Terraform's does, but not for a block's own header.
func TestDiagnosticContext(t *testing.T) {
	dir := t.TempDir()
	src := "run \"setup\" {\n  assert {\n    condition     = output.x == 1\n    error_message = \"x\"\n  }\n}\n"
	if err := os.WriteFile(filepath.Join(dir, "a.tftest.hcl"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	at := func(line, col int) *hcl.Range {
		off := 0
		for l := 1; l < line; l++ {
			off += strings.Index(src[off:], "\n") + 1
		}
		off += col - 1
		return &hcl.Range{Filename: "a.tftest.hcl", Start: hcl.Pos{Line: line, Column: col, Byte: off}, End: hcl.Pos{Line: line, Column: col + 1, Byte: off + 1}}
	}
	for _, tc := range []struct {
		subject *hcl.Range
		want    string
	}{
		{at(3, 21), "  on a.tftest.hcl line 3, in run \"setup\":\n"},
		{at(1, 1), "  on a.tftest.hcl line 1:\n"},
	} {
		var b bytes.Buffer
		NewDiagnosticPrinter(&b, DiagnosticOptions{WorkDir: dir}).Print(hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "S", Subject: tc.subject}})
		if !strings.Contains(b.String(), tc.want) {
			t.Errorf("got\n%s\nwant a line %q", b.String(), tc.want)
		}
	}
}

// TestSourcesUseConfig: the blocks diagnostics are in, taken from the
// loaded configuration's parse (UseConfig), are the ones Sources finds by
// parsing each file, for every line of every file of a module tree (a
// child module, an override file, a file with a syntax error) and for a
// root below the working directory as a scan names it; a text given with
// SetSource keeps its own blocks.
func TestSourcesUseConfig(t *testing.T) {
	work := t.TempDir()
	files := map[string]string{
		"env/main.tf":          "variable \"a\" {\n  type = string\n}\n\nmodule \"m\" {\n  source = \"../mod\"\n}\n\nlocals {\n  x = 1\n}\n",
		"env/main_override.tf": "locals {\n  x = 2\n}\n",
		"mod/main.tf":          "resource \"null_resource\" \"r\" {\n  triggers = {\n    a = \"b\"\n  }\n}\n\noutput \"o\" {\n  value = 1\n}\n",
		"mod/broken.tf":        "data \"x\" \"y\" {\n  a = \n}\n\nterraform {\n}\n",
	}
	for name, src := range files {
		path := filepath.Join(work, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cfg, _ := config.Load(".", config.Options{WorkDir: filepath.Join(work, "env")})
	if cfg == nil || cfg.Children["m"] == nil {
		t.Fatal("the module tree did not load")
	}
	for _, opts := range []DiagnosticOptions{
		{WorkDir: filepath.Join(work, "env")},
		{WorkDir: work, Root: "env"},
	} {
		// A diagnostic at the start of every line of every file, named as
		// the configuration names the file.
		var diags hcl.Diagnostics
		for _, name := range []string{"main.tf", "main_override.tf", "../mod/main.tf", "../mod/broken.tf"} {
			src := files[filepath.Join("env", name)]
			for off, line := 0, 1; off < len(src); line++ {
				p := hcl.Pos{Line: line, Column: 1, Byte: off}
				diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "S", Subject: &hcl.Range{Filename: name, Start: p, End: p}})
				off += strings.Index(src[off:], "\n") + 1
			}
		}
		parsed := NewSources(opts)
		parsed.UseConfig(cfg)
		got, want := parsed.Diagnostics(diags), NewSources(opts).Diagnostics(diags)
		named := 0
		for i := range want {
			g, w := got[i].Snippet, want[i].Snippet
			if g == nil || w == nil {
				t.Fatalf("%+v: no snippet", diags[i].Subject)
			}
			if (g.Context == nil) != (w.Context == nil) || g.Context != nil && *g.Context != *w.Context {
				t.Errorf("root %q, %s: context %s, want %s", opts.Root, diags[i].Subject, contextText(g.Context), contextText(w.Context))
			}
			if w.Context != nil {
				named++
			}
		}
		if named < 10 {
			t.Errorf("root %q: only %d of %d diagnostics are in a block", opts.Root, named, len(want))
		}
	}

	// A text given for a file's name is what its blocks are found in.
	s := NewSources(DiagnosticOptions{WorkDir: filepath.Join(work, "env")})
	s.SetSource("main.tf", []byte("output \"given\" {\n  value = 1\n}\n"))
	s.UseConfig(cfg)
	p := hcl.Pos{Line: 2, Column: 1, Byte: 20}
	d := s.Diagnostics(hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "S", Subject: &hcl.Range{Filename: "main.tf", Start: p, End: p}}})
	if c := d[0].Snippet.Context; c == nil || *c != `output "given"` {
		t.Errorf("context of a given text: %s, want output \"given\"", contextText(c))
	}
}

// contextText is a snippet's context for a test's message.
func contextText(c *string) string {
	if c == nil {
		return "none"
	}
	return *c
}

// A range whose source cannot be shown (a child module's default, which
// Terraform v1.11.4 reports with no range) prints where it is and that
// the source is not available, as Terraform's does; in JSON an empty range
// is widened by a byte, as Terraform writes it.
func TestDiagnosticWithoutSource(t *testing.T) {
	d := &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid value for variable", Detail: "bad x.", Subject: &hcl.Range{}}
	var b bytes.Buffer
	NewDiagnosticPrinter(&b, DiagnosticOptions{WorkDir: t.TempDir()}).Print(hcl.Diagnostics{d})
	want := `
Error: Invalid value for variable

  on  line 0:
  (source code not available)

bad x.
`
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
	got := Diagnostics(hcl.Diagnostics{d, {Severity: hcl.DiagError, Summary: "Missing required argument",
		Subject: &hcl.Range{Filename: "main.tf", Start: hcl.Pos{Line: 1, Column: 12, Byte: 11}, End: hcl.Pos{Line: 1, Column: 12, Byte: 11}}}})
	for i, want := range []Range{
		{Filename: "", Start: Pos{0, 0, 0}, End: Pos{0, 1, 1}},
		{Filename: "main.tf", Start: Pos{1, 12, 11}, End: Pos{1, 13, 12}},
	} {
		if *got[i].Range != want {
			t.Errorf("range %d: got %+v, want %+v", i, *got[i].Range, want)
		}
	}
}
