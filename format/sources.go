package format

import (
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	hcljson "github.com/hashicorp/hcl/v2/json"

	"github.com/tfeval/tfeval/config"
	"github.com/tfeval/tfeval/dialect"
	"github.com/tfeval/tfeval/internal/limit"
	"github.com/tfeval/tfeval/internal/sandbox"
)

// Sources reads the source text diagnostics point into, for their
// excerpts (DiagnosticPrinter) and the snippets of their JSON form
// (Sources.Diagnostics), each file once, from within a sandbox. It is
// not safe for concurrent use.
type Sources struct {
	workDir string
	// box is the sandbox: no source excerpt is read from outside it, so a
	// diagnostic about a file that links outside cannot show what is there.
	box sandbox.Dir
	// named are the files the command line names (-var-file, -data), which
	// the user chose and may be anywhere.
	named map[string]bool
	// texts holds text that is not on disk, such as the console input line.
	texts map[string][]byte
	cache map[string]*sourceText
	// blocks are each source's top-level blocks, for the block a
	// diagnostic is in.
	blocks map[string][]topBlock
	// parsed are the native syntax files of a loaded configuration, as
	// parsed (UseConfig), by the name diagnostics give them.
	parsed map[string]*hclsyntax.Body
	// jsonFiles are the JSON sources parsed, for where in them a
	// diagnostic is (nil for one that could not be).
	jsonFiles map[string]*hcl.File
	root      string
	d         dialect.Dialect
}

// NewSources reads sources as opts say (Color is not used).
func NewSources(opts DiagnosticOptions) *Sources {
	s := &Sources{workDir: opts.WorkDir, named: map[string]bool{}, texts: map[string][]byte{}, cache: map[string]*sourceText{}, blocks: map[string][]topBlock{}, root: opts.Root, d: opts.Dialect}
	// An unusable sandbox fails the command itself; excerpts then show nothing.
	box, err := sandbox.New(opts.Sandbox, opts.WorkDir)
	if err != nil {
		box, _ = sandbox.New(opts.WorkDir, "")
	}
	s.box = box
	for _, name := range opts.Named {
		s.named[name] = true
	}
	return s
}

// SetSource gives the text of a "file" that is not on disk, such as a
// console input line.
func (s *Sources) SetSource(name string, src []byte) {
	s.texts[name] = src
	delete(s.cache, name)
	delete(s.blocks, name)
	delete(s.jsonFiles, name)
	delete(s.parsed, name)
}

// UseConfig lets s take the top-level blocks of the configuration files
// of cfg's modules (which block a diagnostic is in) from their parse,
// rather than parse the files again: the file names of a root's
// diagnostics are mostly of those files, and parsing them is most of
// what writing the diagnostics would cost.
func (s *Sources) UseConfig(cfg *config.Config) {
	if cfg == nil || cfg.Module == nil {
		return
	}
	for i, b := range cfg.Module.Bodies {
		body, ok := b.(*hclsyntax.Body)
		if !ok || i >= len(cfg.Module.Files) {
			continue
		}
		name := s.inRootName(cfg.Module.Files[i])
		if _, given := s.texts[name]; given {
			continue // SetSource's text is what diagnostics in name show
		}
		if s.parsed == nil {
			s.parsed = map[string]*hclsyntax.Body{}
		}
		s.parsed[name] = body
	}
	for _, child := range cfg.Children {
		s.UseConfig(child)
	}
}

// inRoot is the name a file of rng is read by: in a run over many roots,
// relative to the directory of them all.
func (s *Sources) inRoot(rng hcl.Range) hcl.Range {
	rng.Filename = s.inRootName(rng.Filename)
	return rng
}

// inRootName is inRoot of a file name.
func (s *Sources) inRootName(name string) string {
	if s.root != "" && name != "" && !filepath.IsAbs(name) && !strings.HasPrefix(name, "<") {
		return filepath.Join(s.root, name)
	}
	return name
}

// context names the top-level block of a native syntax file a range is
// in, as Terraform names it after the line number: `run "setup"`,
// `resource "aws_s3_bucket" "b"`, `locals`; "" outside any block.
func (s *Sources) context(rng hcl.Range) string {
	if strings.HasSuffix(rng.Filename, ".json") {
		return s.jsonContext(rng)
	}
	blocks, ok := s.blocks[rng.Filename]
	if !ok {
		blocks = s.topBlocks(rng.Filename)
		s.blocks[rng.Filename] = blocks
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

// jsonContext is where in a JSON file a range is, as hcl's JSON
// navigation names it (and Terraform after the line number): the
// property path of the innermost object or array holding the byte
// before the range, `variable` or `resource.aws_s3_bucket.b`.
func (s *Sources) jsonContext(rng hcl.Range) string {
	f, ok := s.jsonFiles[rng.Filename]
	if !ok {
		if src := s.source(rng.Filename); src != nil {
			text := []byte(src.text)
			if !limit.CheckJSONSource(text, rng.Filename, 0).HasErrors() {
				f, _ = hcljson.Parse(text, rng.Filename)
			}
		}
		if s.jsonFiles == nil {
			s.jsonFiles = map[string]*hcl.File{}
		}
		s.jsonFiles[rng.Filename] = f
	}
	if f == nil {
		return ""
	}
	nav, ok := f.Nav.(interface{ ContextString(offset int) string })
	if !ok {
		return ""
	}
	return nav.ContextString(rng.Start.Byte - 1)
}

// topBlock is a top-level block's byte range and its header as a
// diagnostic names it.
type topBlock struct {
	start, end int
	name       string
}

// topBlocks are a file's top-level blocks in order, found once: a file
// of thousands of diagnostics is not walked again for each. They are
// taken from the configuration's parse of the file when there is one
// (UseConfig), which read the same file by the same name with the same
// checks; otherwise the file is parsed. A source that would cost hcl too
// much to parse (the checks configuration files get first) has none.
func (s *Sources) topBlocks(name string) []topBlock {
	src := s.source(name)
	if src == nil {
		return nil
	}
	body := s.parsed[name]
	if body == nil {
		text := []byte(src.text)
		if limit.CheckSource(text, name, hcl.InitialPos, limit.Config, 0).HasErrors() {
			return nil
		}
		f, _ := limit.ParseConfig(text, name)
		if f == nil {
			return nil
		}
		var ok bool
		if body, ok = f.Body.(*hclsyntax.Body); !ok {
			return nil
		}
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

// lineAt is the number of the line byte offset b is on.
func (s *sourceText) lineAt(b int) int {
	return sort.Search(len(s.starts), func(i int) bool { return s.starts[i] > b })
}

// withBytes is rng with byte offsets that agree with its lines and
// columns: a range made without them (Byte 0 past the first line) has
// them worked out from its lines and columns (as bytes).
func (s *sourceText) withBytes(rng hcl.Range) hcl.Range {
	fix := func(p hcl.Pos) hcl.Pos {
		if p.Line < 1 || p.Line > s.lineCount() || s.lineAt(p.Byte) == p.Line {
			return p
		}
		p.Byte = s.starts[p.Line-1] + min(max(p.Column-1, 0), len(s.line(p.Line)))
		return p
	}
	rng.Start, rng.End = fix(rng.Start), fix(rng.End)
	return rng
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

func (s *Sources) source(name string) *sourceText {
	if t, ok := s.cache[name]; ok {
		return t
	}
	var src []byte
	if t, ok := s.texts[name]; ok {
		src = t
	} else {
		path := name
		if !filepath.IsAbs(path) {
			path = filepath.Join(s.workDir, path)
		}
		box := s.box
		if s.named[name] {
			box = sandbox.Dir{}
		}
		src, _ = box.ReadFile(path, 8<<20)
	}
	var text *sourceText
	if src != nil {
		text = newSourceText(src)
	}
	s.cache[name] = text
	return text
}
