package limit

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
)

// TestParseTemplateInPieces checks that a long template, parsed in pieces,
// renders what hcl's parse of the whole renders, with the same ranges.
func TestParseTemplateInPieces(t *testing.T) {
	var b strings.Builder
	for i := range 6000 {
		switch i % 500 {
		case 7:
			b.WriteString("%{ if flag ~}\n  on\n%{ else ~}\n  off\n%{ endif ~}\n")
		case 9:
			b.WriteString("%{ for n in names }\n- ${n}\n%{ endfor }\n")
		case 11:
			b.WriteString("trimmed before   \n${~ name}\n")
		case 13:
			b.WriteString("escaped $${not} and %%{not} 100%\n")
		default:
			// Every other line trims the spaces ending the line before.
			b.WriteString("line of text for ${name}   \n${~ name}\n")
		}
	}
	src := []byte(b.String())
	if cuts := scanSource(src, Template).cuts; len(cuts) < 2 {
		t.Fatalf("a template of %d bytes was cut %d times", len(src), len(cuts))
	}
	ctx := &hcl.EvalContext{Variables: map[string]cty.Value{
		"name":  cty.StringVal("x"),
		"flag":  cty.True,
		"names": cty.ListVal([]cty.Value{cty.StringVal("a"), cty.StringVal("b")}),
	}}
	whole, diags := hclsyntax.ParseTemplate(src, "t.tmpl", hcl.InitialPos)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	pieces, diags := ParseTemplate(src, "t.tmpl")
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	want, _ := whole.Value(ctx)
	got, diags := pieces.Value(ctx)
	if diags.HasErrors() || !got.RawEquals(want) {
		t.Errorf("pieces render differently (%v)", diags)
	}
	if got, want := pieces.Range(), whole.Range(); got != want {
		t.Errorf("range %v, want %v", got, want)
	}

	// An error in a late piece points where it points in the whole file.
	_, wantDiags := whole.Value(&hcl.EvalContext{})
	_, gotDiags := pieces.Value(&hcl.EvalContext{})
	if len(gotDiags) == 0 || len(wantDiags) == 0 || *gotDiags[len(gotDiags)-1].Subject != *wantDiags[len(wantDiags)-1].Subject {
		t.Errorf("last diagnostic at %v, want %v", gotDiags[len(gotDiags)-1].Subject, wantDiags[len(wantDiags)-1].Subject)
	}
}

// TestParseConfigHeredocsInPieces checks that a file whose long heredocs
// are parsed in pieces has the very expressions, ranges and all, that
// hcl's parse of the whole file has.
func TestParseConfigHeredocsInPieces(t *testing.T) {
	lines := func(n int, line func(i int) string) string {
		var b strings.Builder
		for i := range n {
			b.WriteString(line(i))
		}
		return b.String()
	}
	tests := map[string]string{
		"plain": "a = <<EOT\n" + lines(3000, func(i int) string { return "kind: Thing   # a line of yaml\n" }) + "  EOT  \nb = 1\n",
		"interpolations and escapes": "a = upper(<<EOT\n" + lines(3000, func(i int) string {
			return []string{"name: ${var.n} $${not} 100%\n", "\n", "  ${x}\n", "%{ if c }y%{ endif }\n", "text ${~ x} \n"}[i%5]
		}) + "EOT\n)\nb = [<<EOT\nshort\nEOT\n, 2]\n",
		"directives across lines": "a = <<EOT\n" + lines(3000, func(i int) string {
			return []string{"%{ for v in l ~}\n", "  - ${v}\n", "%{ endfor ~}\n", "\n", "    \n", "plain\n"}[i%6]
		}) + "EOT\n",
		"flush": "locals {\n  a = <<-EOT\n" + lines(3000, func(i int) string {
			return []string{"    spec:\n", "      name: ${v}\n", "\n", "   \n", "\t    tabbed\n", "    ${v} first\n"}[i%6]
		}) + "    EOT\n  b = { k = <<-EOT\n" + lines(3000, func(i int) string {
			return []string{"      deep ✓\n", "        deeper\n", "\r\n", "      ${v}\n"}[i%4]
		}) + "  EOT\n  }\n}\n",
		"crlf": "a = <<EOT\r\n" + lines(3000, func(i int) string { return "line ${v}\r\n" }) + "EOT\r\nb = c\r\n",
		// The scan does not take a form feed for white space; the lexer does,
		// so the parse falls back to hcl's whole.
		"a closing line only hcl ends": "a = <<EOT\n" + lines(3000, func(i int) string { return "x\n" }) + "EOT\f\nb = <<EOT\ny\nEOT\n",
		"unicode before":               "a = \"✓✓✓\"\nb = <<EOT\n" + lines(3000, func(i int) string { return "é ${x} ✓\n" }) + "EOT\n",
	}
	for name, src := range tests {
		s := scanSource([]byte(src), Config)
		if len(s.heredocs) == 0 {
			t.Errorf("%s: no heredoc is parsed in pieces", name)
			continue
		}
		want, wantDiags := hclsyntax.ParseConfig([]byte(src), "x.tf", hcl.InitialPos)
		got, gotDiags := ParseConfig([]byte(src), "x.tf")
		if len(gotDiags) != len(wantDiags) {
			t.Errorf("%s: diagnostics %v, want %v", name, gotDiags, wantDiags)
		}
		if !reflect.DeepEqual(got.Body, want.Body) {
			t.Errorf("%s: the file parsed in pieces differs from hcl's parse of it whole", name)
		}
		if string(got.Bytes) != src {
			t.Errorf("%s: the file's bytes are not its source", name)
		}
	}
}

// TestParseTemplateCutsKeepTrims checks that a template cut among "~"
// markers has hcl's very parts: a "~" trims only the text beside it on its
// line, and no cut falls before a line starting with a sequence.
func TestParseTemplateCutsKeepTrims(t *testing.T) {
	src := []byte(strings.Repeat("t ${x ~}\n   \n  y\n\n   ${~ x}\n", 3000))
	if cuts := scanSource(src, Template).cuts; len(cuts) < 2 {
		t.Fatalf("a template of %d bytes was cut %d times", len(src), len(cuts))
	}
	whole, _ := hclsyntax.ParseTemplate(src, "t.tmpl", hcl.InitialPos)
	pieces, _ := ParseTemplate(src, "t.tmpl")
	if !reflect.DeepEqual(pieces, whole) {
		t.Error("the template parsed in pieces differs from hcl's parse of it whole")
	}
}

// pieceSources are configurations whose lone "}" lines are cuts of every
// kind: between blocks, inside heredocs, comments and multi-line
// expressions, before attributes, duplicates and syntax errors.
var pieceSources = []string{
	"a {\n}\nb {\n}\nc {\n  x = 1\n}\n",
	"# head\n\na \"l\" {\n  x = [\n    1,\n  ]\n}\n\n// between\nb {\n  y = <<EOT\n}\nc {\n}\nEOT\n}\nz = 1\nd {\n}\n",
	"a {\n}\n/* open\n}\nb {\n}\n*/\nc {\n}\n",
	"a {\n}\nx = 1\nb {\n}\nx = 2\nc {\n}\n",
	"a {\n}\nb {\n  x = \"${\n}\n\"\n}\nc {\n}\n",
	"a {\n}\nb {\n  x = {\n}\n}\nc {\n}\n",
	"a {\n}\nb {\n}\n}\nc {\n}\n",
	"a {\n}\nb {\n  x = \n}\nc {\n}\n",
	"a {\n}\r\nb {\r\n}\r\nc {\n}\n",
	"a {\n  b {\n    c {\n}\n}\n}\nd {\n}\ne = 1\n",
	"a {\n}\nb {\n}\nc {\n}\nd",
	"a {\n}\nb {\n}\n\"quoted\" {\n}\nc {\n}\n",
	"a {\n}\nb { x = 1 }\n}\nc {\n}\n",
	"a {\n}\né {\n  ü = \"日本\"\n}\nc {\n}\n\n\n",
	"a {\n  x = <<-EOT\n    ${y}\n    }\n  EOT\n}\nb {\n}\n",
}

// checkPieces holds parseInPieces to hclsyntax.ParseConfig on src at
// every piece size from 1 byte to the whole.
func checkPieces(t *testing.T, src []byte) {
	t.Helper()
	defer func(n int) { pieceBytes = n }(pieceBytes)
	want, wantDiags := hclsyntax.ParseConfig(src, "x.tf", hcl.InitialPos)
	for n := 1; n <= len(src); n = n*2 + 1 {
		pieceBytes = n
		got, gotDiags := parseInPieces(src, "x.tf")
		if !reflect.DeepEqual(got, want) || !reflect.DeepEqual(gotDiags, wantDiags) {
			t.Fatalf("pieces of %d bytes of %q: not the whole file's parse (%v; %v)", n, src, gotDiags, wantDiags)
		}
	}
}

// TestParseInPieces holds the pieces' parse to the whole file's, on the
// cuts of pieceSources and on every configuration of the tests' data.
func TestParseInPieces(t *testing.T) {
	for _, src := range pieceSources {
		checkPieces(t, []byte(src))
	}
	var files []string
	filepath.WalkDir("../..", func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".tf") {
			files = append(files, path)
		}
		return nil
	})
	if len(files) < 20 {
		t.Fatalf("only %d test configurations found", len(files))
	}
	for _, name := range files {
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		checkPieces(t, src)
	}
}

// FuzzParseInPieces holds the pieces' parse to the whole file's on any
// source.
func FuzzParseInPieces(f *testing.F) {
	for _, src := range pieceSources {
		f.Add([]byte(src))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		if len(src) > 4096 {
			return
		}
		checkPieces(t, src)
	})
}

// TestParseInPiecesBytes holds what the pieces save: a file of 400
// variable blocks (69 kB) parsed in pieces allocates at most 85% of the
// bytes its whole parse does (78% when written); the difference is the
// growth of the whole file's token slice.
func TestParseInPiecesBytes(t *testing.T) {
	var b strings.Builder
	for i := range 400 {
		fmt.Fprintf(&b, "variable \"v%d\" {\n  description = \"The variable number %d, a string\"\n  type        = list(object({ a = string, b = optional(number, 3) }))\n  default     = [{ a = \"x\" }]\n}\n\n", i, i)
	}
	src := []byte(b.String())
	measure := func(parse func()) uint64 {
		var m0, m1 runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&m0)
		for range 5 {
			parse()
		}
		runtime.ReadMemStats(&m1)
		return (m1.TotalAlloc - m0.TotalAlloc) / 5
	}
	whole := measure(func() { hclsyntax.ParseConfig(src, "x.tf", hcl.InitialPos) })
	pieces := measure(func() { parseInPieces(src, "x.tf") })
	t.Logf("%d bytes of source: %d bytes allocated whole, %d in pieces (%.2fx)", len(src), whole, pieces, float64(pieces)/float64(whole))
	if float64(pieces) > 0.85*float64(whole) {
		t.Errorf("parsing in pieces allocated %d bytes, more than 85%% of the whole parse's %d", pieces, whole)
	}
}
