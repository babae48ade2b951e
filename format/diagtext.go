package format

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/mitchellh/go-wordwrap"
)

// DiagnosticPrinter writes diagnostics in Terraform's human layout: a blank
// line, "Error: summary", the source excerpt, then the detail wrapped at 77
// columns; with colour, framed as Terraform frames them on a terminal.
type DiagnosticPrinter struct {
	w       io.Writer
	color   bool
	workDir string
	// sources holds text that is not on disk, such as the console input line.
	sources map[string][]byte
	cache   map[string][]byte
}

// NewDiagnosticPrinter prints on w, with colour or not; source excerpts
// are read from files relative to workDir.
func NewDiagnosticPrinter(w io.Writer, color bool, workDir string) *DiagnosticPrinter {
	return &DiagnosticPrinter{w: w, color: color, workDir: workDir, sources: map[string][]byte{}, cache: map[string][]byte{}}
}

// SetSource gives the text of a "file" that is not on disk, such as a
// console input line, for the excerpts of diagnostics in it.
func (p *DiagnosticPrinter) SetSource(name string, src []byte) {
	p.sources[name] = src
}

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
		if snippet := p.snippet(*d.Subject); snippet != "" {
			buf.WriteString("\n" + snippet)
		}
	}
	if d.Detail != "" {
		buf.WriteString("\n")
		for _, para := range strings.Split(d.Detail, "\n") {
			buf.WriteString(wordwrap.WrapString(para, detailWidth) + "\n")
		}
	}
	if p.color {
		fmt.Fprint(p.w, boxed(buf.String(), d.Severity))
		return
	}
	fmt.Fprint(p.w, "\n"+buf.String())
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

func (p *DiagnosticPrinter) snippet(rng hcl.Range) string {
	src := p.source(rng.Filename)
	if src == nil || rng.Start.Line < 1 {
		return ""
	}
	var lines []string
	sc := bufio.NewScanner(bytes.NewReader(src))
	sc.Buffer(make([]byte, 0, 64*1024), 16*1024*1024)
	for n := 1; sc.Scan(); n++ {
		if n >= rng.Start.Line && n <= rng.End.Line {
			lines = append(lines, fmt.Sprintf("%4d: %s", n, strings.TrimRight(sc.Text(), "\r")))
		}
		if n > rng.End.Line || len(lines) >= 5 {
			break
		}
	}
	if len(lines) == 0 {
		return ""
	}
	return fmt.Sprintf("  on %s line %d:\n%s\n", rng.Filename, rng.Start.Line, strings.Join(lines, "\n"))
}

func (p *DiagnosticPrinter) source(name string) []byte {
	if s, ok := p.sources[name]; ok {
		return s
	}
	if s, ok := p.cache[name]; ok {
		return s
	}
	path := name
	if !filepath.IsAbs(path) {
		path = filepath.Join(p.workDir, path)
	}
	var src []byte
	if st, err := os.Stat(path); err == nil && st.Mode().IsRegular() && st.Size() < 8<<20 {
		src, _ = os.ReadFile(path)
	}
	p.cache[name] = src
	return src
}
