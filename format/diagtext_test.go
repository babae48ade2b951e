package format

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/hashicorp/hcl/v2"
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
