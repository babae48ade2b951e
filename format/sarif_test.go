package format

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/tfeval/tfeval/internal/sarifcheck"
)

// The SARIF log of diagnostics of every kind is a valid SARIF 2.1.0 log,
// and each result has its rule, message, file and region.
func TestSARIFSchema(t *testing.T) {
	rng := func(file string, l1, c1, l2, c2 int) *hcl.Range {
		return &hcl.Range{Filename: file, Start: hcl.Pos{Line: l1, Column: c1}, End: hcl.Pos{Line: l2, Column: c2}}
	}
	diags := hcl.Diagnostics{
		{Severity: hcl.DiagError, Summary: "Unsupported argument", Detail: `An argument named "nme" is not expected here.`, Subject: rng("main.tf", 3, 3, 3, 6)},
		{Severity: hcl.DiagError, Summary: "Unsupported argument", Detail: "Another.", Subject: rng("modules/net/main.tf", 7, 5, 9, 1)},
		{Severity: hcl.DiagWarning, Summary: "Deprecated value used", Subject: rng(`sub\dir.tf`, 1, 1, 1, 1)},
		{Severity: hcl.DiagError, Summary: "No value for required variable", Detail: `The root module input variable "name" is not set.`},
		{Severity: hcl.DiagError, Summary: "Cycle: local.a, local.b", Detail: "", Subject: rng("main.tf", 10, 1, 10, 20)},
	}
	doc := NewSARIF(diags, SARIFOptions{ToolVersion: "0.1.0", DefaultFile: "main.tf", WorkDir: "/repo/infra"})
	b, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	var decoded any
	if err := json.Unmarshal(b, &decoded); err != nil {
		t.Fatal(err)
	}
	for _, p := range sarifcheck.Schema(decoded) {
		t.Error(p)
	}
	for _, p := range sarifcheck.GitHub(decoded) {
		t.Error("GitHub:", p)
	}
	run := doc.Runs[0]
	if got, want := len(run.Results), len(diags); got != want {
		t.Fatalf("%d results, want %d", got, want)
	}
	var ids []string
	for _, r := range run.Tool.Driver.Rules {
		ids = append(ids, r.ID)
	}
	if want := "[unsupported-argument deprecated-value-used no-value-for-required-variable cycle]"; fmt.Sprint(ids) != want {
		t.Errorf("rules %v, want %s", ids, want)
	}
	for i, r := range run.Results {
		if len(r.Locations) != 1 {
			t.Errorf("result %d has %d locations", i, len(r.Locations))
			continue
		}
		loc := r.Locations[0].PhysicalLocation
		if loc.ArtifactLocation.URI == "" || loc.Region.StartLine < 1 {
			t.Errorf("result %d: location %+v lacks a file or a line", i, loc)
		}
	}
	if got := run.Results[1].Locations[0].PhysicalLocation; got.ArtifactLocation.URI != "modules/net/main.tf" || got.Region != (SARIFRegion{StartLine: 7, StartColumn: 5, EndLine: 9, EndColumn: 1}) {
		t.Errorf("multi-line region %+v", got)
	}
	if got := run.Results[3].Locations[0].PhysicalLocation; got.ArtifactLocation.URI != "main.tf" || got.Region.StartLine != 1 {
		t.Errorf("a diagnostic without a range is at %+v, want main.tf line 1", got)
	}
	if got := run.Results[2].Level; got != "warning" {
		t.Errorf("warning level %q", got)
	}
}

// sarifDoc is a log decoded as a generic document, for the checks.
func sarifDoc(t *testing.T, log *SARIF) any {
	t.Helper()
	b, err := json.Marshal(log)
	if err != nil {
		t.Fatal(err)
	}
	var doc any
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	for _, p := range append(sarifcheck.Schema(doc), sarifcheck.GitHub(doc)...) {
		t.Error(p)
	}
	return doc
}

// parseDiags are the diagnostics of parsing src as main.tf in dir.
func parseDiags(t *testing.T, dir, name, src string) hcl.Diagnostics {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	_, diags := hclsyntax.ParseConfig([]byte(src), name, hcl.InitialPos)
	if !diags.HasErrors() {
		t.Fatalf("%q parses without an error", src)
	}
	return diags
}

// TestSARIFColumns: columns are UTF-16 code units of the line, which
// differ from hcl's columns after an emoji (one character, two units)
// and a combining accent (two characters hcl counts as one).
func TestSARIFColumns(t *testing.T) {
	dir := t.TempDir()
	// The error is the "!" after the string.
	diags := parseDiags(t, dir, "main.tf", "locals {\n  x = \"😀e\u0301\" !\n}\n")
	log := NewSARIF(diags, SARIFOptions{WorkDir: dir, ReadFile: os.ReadFile})
	sarifDoc(t, log)
	reg := log.Runs[0].Results[0].Locations[0].PhysicalLocation.Region
	// `  x = "` is 7 units, then 😀 (2), e (1), U+0301 (1), `" ` (2): the
	// "!" is the 14th unit, column 14.
	if reg.StartLine != 2 || reg.StartColumn != 14 {
		t.Errorf("region %+v starts at column %d; want line 2, column 14 (hcl says %d)", reg, reg.StartColumn, diags[0].Subject.Start.Column)
	}
	if log.Runs[0].ColumnKind != "utf16CodeUnits" {
		t.Errorf("columnKind %q", log.Runs[0].ColumnKind)
	}
	// Without the source, hcl's columns as they are.
	plain := NewSARIF(diags, SARIFOptions{WorkDir: dir}).Runs[0].Results[0].Locations[0].PhysicalLocation.Region
	if plain.StartColumn != diags[0].Subject.Start.Column {
		t.Errorf("without the source, column %d, want hcl's %d", plain.StartColumn, diags[0].Subject.Start.Column)
	}
}

// TestSARIFFingerprints: a result keeps its fingerprint when lines are
// added above it, and results alike get distinct ones.
func TestSARIFFingerprints(t *testing.T) {
	dir := t.TempDir()
	bad := "resource \"x\" \"y\" {\n  a = (\n}\n"
	fp := func(src string) []string {
		diags := parseDiags(t, dir, "main.tf", src)
		log := NewSARIF(append(diags, diags...), SARIFOptions{WorkDir: dir, ReadFile: os.ReadFile})
		sarifDoc(t, log)
		var out []string
		for _, r := range log.Runs[0].Results {
			out = append(out, r.PartialFingerprints[SARIFFingerprint])
		}
		return out
	}
	before, after := fp(bad), fp("# a comment\n\nlocals {}\n"+bad)
	if len(before) != 2 || before[0] == "" || before[0] == before[1] {
		t.Fatalf("fingerprints %q: want two distinct ones", before)
	}
	if strings.Join(before, ",") != strings.Join(after, ",") {
		t.Errorf("fingerprints changed when lines were added above: %q, then %q", before, after)
	}
	if changed := fp("resource \"x\" \"y\" {\n  b = (\n}\n"); changed[0] == before[0] {
		t.Error("a result of other code has the same fingerprint")
	}
}

// TestSARIFBaseDir: URIs are relative to the base directory, which
// originalUriBaseIds names; a file outside it has an absolute URI.
func TestSARIFBaseDir(t *testing.T) {
	repo := t.TempDir()
	root := filepath.Join(repo, "envs", "prod")
	diags := parseDiags(t, root, "main.tf", "locals {\n  x = (\n}\n")
	diags = append(diags, parseDiags(t, root, "../../modules/my net/main.tf", "locals {\n  y = (\n}\n")...)
	outside := &hcl.Diagnostic{Severity: hcl.DiagWarning, Summary: "Elsewhere", Subject: &hcl.Range{Filename: "../../../elsewhere.tf", Start: hcl.Pos{Line: 1, Column: 1}, End: hcl.Pos{Line: 1, Column: 2, Byte: 1}}}
	missing := &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "No value for required variable"}
	diags = append(diags, outside, missing)
	log := NewSARIF(diags, SARIFOptions{WorkDir: root, BaseDir: repo, DefaultFile: "main.tf", ReadFile: os.ReadFile})
	sarifDoc(t, log)
	var uris []string
	for _, r := range log.Runs[0].Results {
		a := r.Locations[0].PhysicalLocation.ArtifactLocation
		uris = append(uris, a.URIBaseID+" "+a.URI)
	}
	want := []string{
		"%SRCROOT% envs/prod/main.tf",
		"%SRCROOT% modules/my%20net/main.tf",
		" file://" + filepath.ToSlash(filepath.Dir(repo)) + "/elsewhere.tf",
		"%SRCROOT% envs/prod/main.tf",
	}
	if strings.Join(uris, "\n") != strings.Join(want, "\n") {
		t.Errorf("URIs:\n%s\nwant\n%s", strings.Join(uris, "\n"), strings.Join(want, "\n"))
	}
	if got := log.Runs[0].OriginalURIBaseIDs[SARIFSourceRoot].URI; got != "file://"+filepath.ToSlash(repo)+"/" {
		t.Errorf("originalUriBaseIds names %q, want the base directory", got)
	}
}

// TestSARIFRoots: the diagnostics of many roots are one run, each file
// relative to the base, with one rule per kind across the roots.
func TestSARIFRoots(t *testing.T) {
	repo := t.TempDir()
	a := parseDiags(t, filepath.Join(repo, "a"), "main.tf", "locals {\n  x = (\n}\n")
	b := parseDiags(t, filepath.Join(repo, "b", "c"), "main.tf", "locals {\n  x = (\n}\n")
	log := NewSARIFRoots([]SARIFRoot{
		{Dir: filepath.Join(repo, "a"), Diagnostics: a},
		{Dir: filepath.Join(repo, "b", "c"), Diagnostics: b},
	}, SARIFOptions{BaseDir: repo, ReadFile: os.ReadFile})
	sarifDoc(t, log)
	run := log.Runs[0]
	if len(log.Runs) != 1 || len(run.Results) != len(a)+len(b) || len(run.Tool.Driver.Rules) != len(a) {
		t.Fatalf("%d runs, %d results, %d rules", len(log.Runs), len(run.Results), len(run.Tool.Driver.Rules))
	}
	if got := run.Results[len(a)].Locations[0].PhysicalLocation.ArtifactLocation.URI; got != "b/c/main.tf" {
		t.Errorf("the second root's file is %q", got)
	}
}
