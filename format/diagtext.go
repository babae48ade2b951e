package format

import (
	"bytes"
	"fmt"
	"io"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/mitchellh/go-wordwrap"

	"github.com/tfeval/tfeval/dialect"
)

// DiagnosticPrinter writes diagnostics in Terraform's human layout: a blank
// line, "Error: summary", the source excerpt with the values of what the
// expression refers to, then the detail wrapped at 77 columns; with
// colour, framed as Terraform frames them on a terminal.
type DiagnosticPrinter struct {
	w     io.Writer
	color bool
	src   *Sources
	width uint
}

// DiagnosticOptions say how a DiagnosticPrinter prints and where it may
// read the source excerpts from.
type DiagnosticOptions struct {
	// Color frames diagnostics and colours their headings, for a terminal.
	Color bool
	// WorkDir is the directory relative file names are found in.
	WorkDir string
	// Sandbox, when not empty, is the only directory excerpts are read
	// from (relative to WorkDir); an unusable one leaves WorkDir alone.
	Sandbox string
	// Named are files the user named (-var-file, -data), read wherever
	// they are.
	Named []string
	// Root, when not empty, is the root module the diagnostics are of, in
	// a run over many (relative to WorkDir): their file names are
	// relative to it, and are shown relative to WorkDir, and a diagnostic
	// without a file says which root it is of.
	Root string
	// Dialect is the language whose built-in functions the signatures in
	// snippets are of.
	Dialect dialect.Dialect
	// Width is the width detail text is wrapped to fit within, one column
	// short of it, as Terraform wraps; 0 for its default of 78 columns.
	// terraform test's JUnit report uses 80.
	Width int
}

// NewDiagnosticPrinter prints on w as opts say.
func NewDiagnosticPrinter(w io.Writer, opts DiagnosticOptions) *DiagnosticPrinter {
	width := detailWidth
	if opts.Width > 1 {
		width = opts.Width - 1
	}
	return &DiagnosticPrinter{w: w, color: opts.Color, src: NewSources(opts), width: uint(width)}
}

// SetSource gives the text of a "file" that is not on disk, such as a
// console input line, for the excerpts of diagnostics in it.
func (p *DiagnosticPrinter) SetSource(name string, src []byte) {
	p.src.SetSource(name, src)
}

// Sources are the source texts the printer reads its excerpts from, for
// the snippets of the same diagnostics written as JSON.
func (p *DiagnosticPrinter) Sources() *Sources { return p.src }

// detailWidth is where Terraform wraps detail text when not on a terminal:
// lines of at most 77 columns, one less than its default 78-column width.
const detailWidth = 77

// Print writes each diagnostic in turn.
func (p *DiagnosticPrinter) Print(diags hcl.Diagnostics) {
	for _, d := range diags {
		p.printOne(d)
	}
}

func (p *DiagnosticPrinter) printOne(d *hcl.Diagnostic) {
	var buf bytes.Buffer
	sev := "Error"
	if d.Severity == hcl.DiagWarning {
		sev = "Warning"
	}
	if p.color {
		code := "31"
		if d.Severity == hcl.DiagWarning {
			code = "33"
		}
		fmt.Fprintf(&buf, "\x1b[%s;1m%s: \x1b[0m\x1b[1m%s\x1b[0m\n", code, sev, d.Summary)
	} else {
		fmt.Fprintf(&buf, "%s: %s\n", sev, d.Summary)
	}
	if d.Subject != nil {
		if sn := p.src.Snippet(d); sn != nil {
			buf.WriteString("\n")
			p.writeSnippet(&buf, d, sn)
		} else {
			// Terraform says where, and that it cannot show it (a
			// child default's failed rule is "on  line 0").
			subject := p.src.inRoot(*d.Subject)
			fmt.Fprintf(&buf, "\n  on %s line %d:\n  (source code not available)\n", subject.Filename, subject.Start.Line)
		}
	} else if p.src.root != "" {
		fmt.Fprintf(&buf, "\n  in the root module %s\n", p.src.root)
	}
	if d.Detail != "" {
		buf.WriteString("\n")
		for _, para := range strings.Split(d.Detail, "\n") {
			buf.WriteString(wordwrap.WrapString(para, p.width) + "\n")
		}
	}
	if p.color {
		fmt.Fprint(p.w, boxed(buf.String(), d.Severity))
		return
	}
	fmt.Fprint(p.w, "\n"+buf.String())
}

// writeSnippet writes the excerpt of d: where it is, the lines of the
// snippet (numbered on from the first, as Terraform numbers them even
// where an empty line was left out), and under them the function the
// diagnostic is about and the values of what its expression refers to.
func (p *DiagnosticPrinter) writeSnippet(buf *bytes.Buffer, d *hcl.Diagnostic, sn *Snippet) {
	subject := p.src.inRoot(*d.Subject)
	in := ""
	if sn.Context != nil {
		in = ", in " + *sn.Context
	}
	fmt.Fprintf(buf, "  on %s line %d%s:\n", subject.Filename, subject.Start.Line, in)
	at := 0 // where the line starts in sn.Code
	// Every line, as Terraform shows them (maxSnippetLines bounds them).
	for i, line := range sn.lines {
		if p.color {
			// The range underlined, as on Terraform's terminal.
			from := min(max(sn.HighlightStartOffset-at, 0), len(line))
			to := min(max(sn.HighlightEndOffset-at, 0), len(line))
			if from < to {
				line = line[:from] + "\x1b[4m" + line[from:to] + "\x1b[0m" + line[to:]
			}
		}
		at += len(sn.lines[i]) + 1
		fmt.Fprintf(buf, "%4d: %s\n", sn.StartLine+i, line)
	}
	call := sn.FunctionCall
	if len(sn.Values) == 0 && (call == nil || call.Signature == nil) {
		return
	}
	bold, gray, reset := "", "", ""
	if p.color {
		bold, gray, reset = "\x1b[1m", "\x1b[90m", "\x1b[0m"
	}
	fmt.Fprintf(buf, "    %s├────────────────%s\n", gray, reset)
	if call != nil && call.Signature != nil {
		params := make([]string, 0, len(call.Signature.Params)+1)
		for _, p := range call.Signature.Params {
			params = append(params, p.Name)
		}
		if v := call.Signature.VariadicParam; v != nil {
			params = append(params, v.Name+"...")
		}
		fmt.Fprintf(buf, "    %s│%s while calling %s%s%s(%s)\n", gray, reset, bold, call.CalledAs, reset, strings.Join(params, ", "))
	}
	for _, v := range sn.Values {
		fmt.Fprintf(buf, "    %s│%s %s%s%s %s\n", gray, reset, bold, v.Traversal, reset, v.Statement)
	}
}

// boxed frames a diagnostic with the box-drawing characters Terraform uses on a terminal.
func boxed(text string, sev hcl.DiagnosticSeverity) string {
	color := "\x1b[31m"
	if sev == hcl.DiagWarning {
		color = "\x1b[33m"
	}
	var b strings.Builder
	b.WriteString(color + "╷\x1b[0m\n")
	for _, l := range strings.Split(strings.TrimRight(text, "\n"), "\n") {
		b.WriteString(color + "│\x1b[0m " + l + "\n")
	}
	b.WriteString(color + "╵\x1b[0m\n")
	return b.String()
}
