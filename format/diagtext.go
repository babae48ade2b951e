package format

import (
	"bytes"
	"fmt"
	"io"
	"path/filepath"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/mitchellh/go-wordwrap"

	"github.com/tfeval/tfeval/internal/limit"
	"github.com/tfeval/tfeval/internal/sandbox"
)

// DiagnosticPrinter writes diagnostics in Terraform's human layout: a blank
// line, "Error: summary", the source excerpt, then the detail wrapped at 77
// columns; with colour, framed as Terraform frames them on a terminal.
type DiagnosticPrinter struct {
	w       io.Writer
	color   bool
	workDir string
	// box is the sandbox: no source excerpt is read from outside it, so a
	// diagnostic about a file that links outside cannot show what is there.
	box sandbox.Dir
	// named are the files the command line names (-var-file, -data), which
	// the user chose and may be anywhere.
	named map[string]bool
	// sources holds text that is not on disk, such as the console input line.
	sources map[string][]byte
	cache   map[string]*sourceText
	// blocks are each source's top-level blocks, for the block a
	// diagnostic is in.
	blocks map[string][]topBlock
	root   string
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
}

// NewDiagnosticPrinter prints on w as opts say.
func NewDiagnosticPrinter(w io.Writer, opts DiagnosticOptions) *DiagnosticPrinter {
	p := &DiagnosticPrinter{w: w, color: opts.Color, workDir: opts.WorkDir, named: map[string]bool{}, sources: map[string][]byte{}, cache: map[string]*sourceText{}, blocks: map[string][]topBlock{}, root: opts.Root}
	// An unusable sandbox fails the command itself; excerpts then show nothing.
	box, err := sandbox.New(opts.Sandbox, opts.WorkDir)
	if err != nil {
		box, _ = sandbox.New(opts.WorkDir, "")
	}
	p.box = box
	for _, name := range opts.Named {
		p.named[name] = true
	}
	return p
}

// SetSource gives the text of a "file" that is not on disk, such as a
// console input line, for the excerpts of diagnostics in it.
func (p *DiagnosticPrinter) SetSource(name string, src []byte) {
	p.sources[name] = src
	delete(p.cache, name)
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
		subject := *d.Subject
		if p.root != "" && subject.Filename != "" && !filepath.IsAbs(subject.Filename) && !strings.HasPrefix(subject.Filename, "<") {
			subject.Filename = filepath.Join(p.root, subject.Filename)
		}
		if snippet := p.snippet(subject); snippet != "" {
			buf.WriteString("\n" + snippet)
		}
	} else if p.root != "" {
		fmt.Fprintf(&buf, "\n  in the root module %s\n", p.root)
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
	for n := rng.Start.Line; n <= rng.End.Line && n <= src.lineCount() && len(lines) < 5; n++ {
		lines = append(lines, fmt.Sprintf("%4d: %s", n, excerptLine(strings.TrimRight(src.line(n), "\r"))))
	}
	if len(lines) == 0 {
		return ""
	}
	context := ""
	if c := p.context(rng); c != "" {
		context = ", in " + c
	}
	return fmt.Sprintf("  on %s line %d%s:\n%s\n", rng.Filename, rng.Start.Line, context, strings.Join(lines, "\n"))
}

// context names the top-level block of a native syntax file a range is
// in, as Terraform names it after the line number: `run "setup"`,
// `resource "aws_s3_bucket" "b"`, `locals`; "" outside any block.
func (p *DiagnosticPrinter) context(rng hcl.Range) string {
	if strings.HasSuffix(rng.Filename, ".json") {
		return ""
	}
	blocks, ok := p.blocks[rng.Filename]
	if !ok {
		blocks = p.topBlocks(rng.Filename)
		p.blocks[rng.Filename] = blocks
	}
	// The byte before the range, as Terraform looks: a diagnostic about a
	// block's header is not "in" that block.
	at := rng.Start.Byte - 1
	i := sort.Search(len(blocks), func(i int) bool { return blocks[i].end > at })
	if i < len(blocks) && blocks[i].start <= at {
		return blocks[i].name
	}
	return ""
}

// topBlock is a top-level block's byte range and its header as a
// diagnostic names it.
type topBlock struct {
	start, end int
	name       string
}

// topBlocks are a file's top-level blocks in order, found once: a file
// of thousands of diagnostics is not walked again for each. A source that
// would cost hcl too much to parse (the checks configuration files get
// first) has none.
func (p *DiagnosticPrinter) topBlocks(name string) []topBlock {
	src := p.source(name)
	if src == nil {
		return nil
	}
	text := []byte(src.text)
	if limit.CheckSource(text, name, hcl.InitialPos, limit.Config, 0).HasErrors() {
		return nil
	}
	f, _ := hclsyntax.ParseConfig(text, name, hcl.InitialPos)
	if f == nil {
		return nil
	}
	body, ok := f.Body.(*hclsyntax.Body)
	if !ok {
		return nil
	}
	out := make([]topBlock, 0, len(body.Blocks))
	for _, b := range body.Blocks {
		header := b.Type
		for _, l := range b.Labels {
			header += fmt.Sprintf(" %q", l)
		}
		r := b.Range()
		out = append(out, topBlock{start: r.Start.Byte, end: r.End.Byte, name: header})
	}
	return out
}

// sourceText is a file's text with where each of its lines starts, found
// once: a file with tens of thousands of diagnostics (duplicated blocks)
// is not read again from its start for each one.
type sourceText struct {
	text   string
	starts []int // byte offset of each line, the first at 0
}

func newSourceText(src []byte) *sourceText {
	s := &sourceText{text: string(src), starts: []int{0}}
	for i, c := range src {
		if c == '\n' && i+1 < len(src) {
			s.starts = append(s.starts, i+1)
		}
	}
	return s
}

func (s *sourceText) lineCount() int { return len(s.starts) }

// line is line n (from 1) without its newline.
func (s *sourceText) line(n int) string {
	if n < len(s.starts) {
		return s.text[s.starts[n-1] : s.starts[n]-1]
	}
	return strings.TrimSuffix(s.text[s.starts[n-1]:], "\n")
}

// maxExcerptLine bounds, in bytes, a source line shown under a diagnostic:
// a line of a generated or hostile file can be megabytes long.
const maxExcerptLine = 1000

// excerptLine is line, cut at maxExcerptLine bytes (at a character
// boundary) with an ellipsis.
func excerptLine(line string) string {
	if len(line) <= maxExcerptLine {
		return line
	}
	cut := maxExcerptLine
	for cut > 0 && !utf8.RuneStart(line[cut]) {
		cut--
	}
	return line[:cut] + "…"
}

func (p *DiagnosticPrinter) source(name string) *sourceText {
	if s, ok := p.cache[name]; ok {
		return s
	}
	var src []byte
	if s, ok := p.sources[name]; ok {
		src = s
	} else {
		path := name
		if !filepath.IsAbs(path) {
			path = filepath.Join(p.workDir, path)
		}
		box := p.box
		if p.named[name] {
			box = sandbox.Dir{}
		}
		src, _ = box.ReadFile(path, 8<<20)
	}
	var text *sourceText
	if src != nil {
		text = newSourceText(src)
	}
	p.cache[name] = text
	return text
}
