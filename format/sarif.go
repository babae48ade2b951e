package format

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/url"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/hashicorp/hcl/v2"
)

// SARIFVersion is the version of the Static Analysis Results Interchange
// Format that NewSARIF writes, the one code-scanning services read.
const SARIFVersion = "2.1.0"

// sarifSchema is the address of the SARIF 2.1.0 JSON schema, which a SARIF
// log names as its $schema.
const sarifSchema = "https://json.schemastore.org/sarif-2.1.0.json"

// SARIFSourceRoot is the uriBaseId of every file URI: the directory the
// URIs are relative to, which the run's originalUriBaseIds gives.
const SARIFSourceRoot = "%SRCROOT%"

// SARIF is a SARIF log of one run of tfeval: a rule for every kind of
// diagnostic (its summary) and a result for every diagnostic.
type SARIF struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []SARIFRun `json:"runs"`
}

// SARIFRun is one run of a tool.
type SARIFRun struct {
	Tool SARIFTool `json:"tool"`
	// OriginalURIBaseIDs says which directory SARIFSourceRoot stands
	// for, when it is known.
	OriginalURIBaseIDs map[string]SARIFArtifactLocation `json:"originalUriBaseIds,omitempty"`
	// ColumnKind is how columns are counted: in UTF-16 code units, as
	// SARIF's default and the code-scanning services count them.
	ColumnKind string        `json:"columnKind"`
	Results    []SARIFResult `json:"results"`
}

// SARIFTool names the tool that made a run.
type SARIFTool struct {
	Driver SARIFDriver `json:"driver"`
}

// SARIFDriver is the tool itself and the rules its results refer to.
type SARIFDriver struct {
	Name           string      `json:"name"`
	Version        string      `json:"version,omitempty"`
	InformationURI string      `json:"informationUri,omitempty"`
	Rules          []SARIFRule `json:"rules"`
}

// SARIFRule is one kind of diagnostic.
type SARIFRule struct {
	// ID is the summary in lower case with words joined by hyphens, e.g.
	// "unsupported-argument".
	ID               string       `json:"id"`
	Name             string       `json:"name"`
	ShortDescription SARIFMessage `json:"shortDescription"`
	// FullDescription and Help say what the rule is and what to do about
	// its results; GitHub code scanning requires both.
	FullDescription      SARIFMessage      `json:"fullDescription"`
	Help                 SARIFHelp         `json:"help"`
	DefaultConfiguration SARIFRuleDefaults `json:"defaultConfiguration"`
}

// SARIFHelp is a rule's help, in plain text and Markdown.
type SARIFHelp struct {
	Text     string `json:"text"`
	Markdown string `json:"markdown,omitempty"`
}

// SARIFRuleDefaults is a rule's reporting configuration: its level.
type SARIFRuleDefaults struct {
	Level string `json:"level"`
}

// SARIFResult is one diagnostic.
type SARIFResult struct {
	RuleID    string          `json:"ruleId"`
	RuleIndex int             `json:"ruleIndex"`
	Level     string          `json:"level"`
	Message   SARIFMessage    `json:"message"`
	Locations []SARIFLocation `json:"locations"`
	// PartialFingerprints identify the result across commits, whatever
	// lines move above it (see SARIFFingerprint).
	PartialFingerprints map[string]string `json:"partialFingerprints,omitempty"`
}

// SARIFFingerprint is the key of a result's partialFingerprints: a hash
// of its rule, its file, the source lines of its region with the line
// before and after (or its message when it has none, line numbers left
// out) and how many results with the same before it there are, so that an
// alert survives its code moving within the file.
const SARIFFingerprint = "tfeval/v1"

// SARIFMessage is a plain-text message.
type SARIFMessage struct {
	Text string `json:"text"`
}

// SARIFLocation is where a result is.
type SARIFLocation struct {
	PhysicalLocation SARIFPhysicalLocation `json:"physicalLocation"`
}

// SARIFPhysicalLocation is a region of a file.
type SARIFPhysicalLocation struct {
	ArtifactLocation SARIFArtifactLocation `json:"artifactLocation"`
	Region           SARIFRegion           `json:"region"`
}

// SARIFArtifactLocation is a file: relative to the directory its
// URIBaseID stands for, or an absolute URI without one.
type SARIFArtifactLocation struct {
	URI       string `json:"uri"`
	URIBaseID string `json:"uriBaseId,omitempty"`
}

// SARIFRegion is a range of lines and columns (1-based, the end column
// exclusive), columns in UTF-16 code units.
type SARIFRegion struct {
	StartLine   int `json:"startLine"`
	StartColumn int `json:"startColumn,omitempty"`
	EndLine     int `json:"endLine,omitempty"`
	EndColumn   int `json:"endColumn,omitempty"`
}

// SARIFOptions say what NewSARIF cannot learn from the diagnostics.
type SARIFOptions struct {
	// ToolVersion is tfeval's version.
	ToolVersion string
	// DefaultFile is the file a diagnostic without a source range is
	// reported in (at its first line): code-scanning services want a
	// location for every result. Typically the root module's first
	// configuration file; "" leaves such results without a file name.
	DefaultFile string
	// WorkDir is the directory the diagnostics' file names (and
	// DefaultFile) are relative to: the root module's, as Evaluate
	// writes them.
	WorkDir string
	// BaseDir is the directory URIs are relative to, which
	// code-scanning services take as the repository's root: the git
	// work tree's top, typically. "" means WorkDir; with both empty,
	// URIs are the file names as they are.
	BaseDir string
	// ReadFile, when not nil, reads a file by its absolute path: the
	// source that columns are counted in (UTF-16 code units) and that
	// fingerprints are made of. Without it, or for a file it cannot
	// read, columns are counted as the diagnostics count them.
	ReadFile func(path string) ([]byte, error)
}

// SARIFRoot is the diagnostics of one root module of a log of many.
type SARIFRoot struct {
	// Dir is the root module's directory, which the diagnostics' file
	// names are relative to.
	Dir string
	// DefaultFile, relative to Dir, is where a diagnostic without a
	// source range is reported (see SARIFOptions.DefaultFile).
	DefaultFile string
	Diagnostics hcl.Diagnostics
}

// NewSARIF is the SARIF log of diagnostics: one rule per distinct summary
// (the part before a colon, for summaries that name objects after one),
// in order of first appearance, and one result per diagnostic, with its
// level, its summary and detail as the message, its file and region, and
// a fingerprint. File URIs are relative to opts.BaseDir (else WorkDir)
// with the uriBaseId %SRCROOT%, which the run's originalUriBaseIds names
// when the directory is known; a file outside it gets an absolute file
// URI.
func NewSARIF(diags hcl.Diagnostics, opts SARIFOptions) *SARIF {
	return NewSARIFRoots([]SARIFRoot{{Dir: opts.WorkDir, DefaultFile: opts.DefaultFile, Diagnostics: diags}}, opts)
}

// NewSARIFRoots is NewSARIF of the diagnostics of many root modules, in
// one run: each diagnostic's file is relative to its root's Dir.
// opts.WorkDir and DefaultFile are not used.
func NewSARIFRoots(roots []SARIFRoot, opts SARIFOptions) *SARIF {
	w := &sarifWriter{opts: opts, index: map[string]int{}, seen: map[string]int{}, sources: map[string]*sarifSource{}}
	w.driver = SARIFDriver{Name: "tfeval", Version: opts.ToolVersion, InformationURI: "https://github.com/tfeval/tfeval", Rules: []SARIFRule{}}
	results := []SARIFResult{}
	for _, root := range roots {
		for _, d := range root.Diagnostics {
			results = append(results, w.result(root, d))
		}
	}
	run := SARIFRun{Tool: SARIFTool{Driver: w.driver}, ColumnKind: "utf16CodeUnits", Results: results}
	if base := w.baseDir(roots); base != "" && filepath.IsAbs(base) {
		u := (&url.URL{Scheme: "file", Path: filepath.ToSlash(base)}).String()
		if !strings.HasSuffix(u, "/") {
			u += "/"
		}
		run.OriginalURIBaseIDs = map[string]SARIFArtifactLocation{SARIFSourceRoot: {URI: u}}
	}
	return &SARIF{Schema: sarifSchema, Version: SARIFVersion, Runs: []SARIFRun{run}}
}

// sarifWriter makes the rules and results of one log.
type sarifWriter struct {
	opts    SARIFOptions
	driver  SARIFDriver
	index   map[string]int          // rule index by id
	seen    map[string]int          // results by fingerprint input, for the ordinal
	sources map[string]*sarifSource // files read, by absolute path; nil for unreadable
}

// baseDir is the directory URIs are relative to.
func (w *sarifWriter) baseDir(roots []SARIFRoot) string {
	if w.opts.BaseDir != "" {
		return w.opts.BaseDir
	}
	if len(roots) == 1 {
		return roots[0].Dir
	}
	return ""
}

func (w *sarifWriter) result(root SARIFRoot, d *hcl.Diagnostic) SARIFResult {
	summary, _, _ := strings.Cut(d.Summary, ":")
	id := ruleID(summary)
	level := "error"
	if d.Severity == hcl.DiagWarning {
		level = "warning"
	}
	i, ok := w.index[id]
	if !ok {
		i = len(w.driver.Rules)
		w.index[id] = i
		w.driver.Rules = append(w.driver.Rules, newSARIFRule(id, summary, level))
	}
	r := SARIFResult{RuleID: id, RuleIndex: i, Level: level, Message: SARIFMessage{Text: sarifMessage(d)}, Locations: []SARIFLocation{}}
	loc, src, ok := w.location(root, d.Subject)
	if ok {
		r.Locations = append(r.Locations, loc)
	}
	r.PartialFingerprints = map[string]string{SARIFFingerprint: w.fingerprint(id, loc.PhysicalLocation.ArtifactLocation.URI, src, r.Message.Text)}
	return r
}

// newSARIFRule is the rule of the diagnostics with a summary.
func newSARIFRule(id, summary, level string) SARIFRule {
	kind := "an error"
	if level == "warning" {
		kind = "a warning"
	}
	full := fmt.Sprintf("%s: %s that Terraform or OpenTofu reports for this configuration, which tfeval finds by evaluating it as they would, without running them.", summary, kind)
	help := fmt.Sprintf("%s\n\nThe result's message is the diagnostic as Terraform words it, with what is wrong and where. tfeval reads the configuration, its variables and installed modules as terraform plan does; values it cannot know (data sources it does not read, attributes without provider schemas) are unknown rather than errors. See https://github.com/tfeval/tfeval/blob/main/docs/missing-information.md.", full)
	markdown := fmt.Sprintf("**%s**: %s that Terraform or OpenTofu reports for this configuration, which tfeval finds by evaluating it as they would, without running them.\n\nThe result's message is the diagnostic as Terraform words it, with what is wrong and where. Values tfeval cannot know are unknown rather than errors: see [what tfeval cannot know](https://github.com/tfeval/tfeval/blob/main/docs/missing-information.md).", summary, kind)
	return SARIFRule{
		ID: id, Name: ruleName(summary),
		ShortDescription:     SARIFMessage{Text: summary},
		FullDescription:      SARIFMessage{Text: full},
		Help:                 SARIFHelp{Text: help, Markdown: markdown},
		DefaultConfiguration: SARIFRuleDefaults{Level: level},
	}
}

// sarifMessage is a diagnostic's summary and detail as one text.
func sarifMessage(d *hcl.Diagnostic) string {
	if d.Detail == "" {
		return d.Summary
	}
	return d.Summary + ": " + d.Detail
}

// location is where a diagnostic is: its subject, or the first line of
// the root's default file; false when there is neither. src is the
// source text of the region's lines and those around them, when the file
// could be read.
func (w *sarifWriter) location(root SARIFRoot, subject *hcl.Range) (loc SARIFLocation, src string, ok bool) {
	if subject == nil || subject.Filename == "" || subject.Start.Line < 1 {
		if root.DefaultFile == "" {
			return SARIFLocation{}, "", false
		}
		return SARIFLocation{PhysicalLocation: SARIFPhysicalLocation{
			ArtifactLocation: w.artifact(root.Dir, root.DefaultFile),
			Region:           SARIFRegion{StartLine: 1, StartColumn: 1, EndLine: 1, EndColumn: 1},
		}}, "", true
	}
	file := w.source(root.Dir, subject.Filename)
	start, startText := columnOf(file, subject.Start)
	reg := SARIFRegion{StartLine: subject.Start.Line, StartColumn: start}
	end := start
	endLine := subject.End.Line
	if endLine >= subject.Start.Line {
		end, _ = columnOf(file, subject.End)
		if endLine == subject.Start.Line && end < start {
			end = start
		}
	} else {
		endLine = subject.Start.Line
	}
	reg.EndLine, reg.EndColumn = endLine, end
	if startText >= 0 {
		src = file.lineWindow(subject.Start.Line-1, endLine+1)
	}
	return SARIFLocation{PhysicalLocation: SARIFPhysicalLocation{
		ArtifactLocation: w.artifact(root.Dir, subject.Filename),
		Region:           reg,
	}}, src, true
}

// artifact is the location of a file named relative to dir: a URI
// relative to the base directory, or an absolute file URI outside it.
func (w *sarifWriter) artifact(dir, name string) SARIFArtifactLocation {
	if dir == "" && !filepath.IsAbs(name) {
		// Names relative to a directory not given: as they are.
		return SARIFArtifactLocation{URI: relativeURI(filepath.ToSlash(name)), URIBaseID: SARIFSourceRoot}
	}
	abs := name
	if !filepath.IsAbs(abs) {
		abs = filepath.Join(dir, name)
	}
	base := w.opts.BaseDir
	if base == "" {
		base = dir
	}
	rel, err := filepath.Rel(base, abs)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return SARIFArtifactLocation{URI: (&url.URL{Scheme: "file", Path: filepath.ToSlash(abs)}).String()}
	}
	return SARIFArtifactLocation{URI: relativeURI(filepath.ToSlash(rel)), URIBaseID: SARIFSourceRoot}
}

// relativeURI is a slash-separated relative path as a URI reference:
// each segment escaped, so that spaces, '%', '#' and '?' stay part of the
// name.
func relativeURI(p string) string {
	segs := strings.Split(path.Clean(p), "/")
	for i, s := range segs {
		segs[i] = url.PathEscape(s)
	}
	u := strings.Join(segs, "/")
	if strings.Contains(segs[0], ":") {
		// A first segment with a colon would read as a scheme.
		u = "./" + u
	}
	return u
}

// source is the file named relative to dir, or nil.
func (w *sarifWriter) source(dir, name string) *sarifSource {
	if w.opts.ReadFile == nil {
		return nil
	}
	abs := name
	if !filepath.IsAbs(abs) {
		abs = filepath.Join(dir, name)
	}
	if src, ok := w.sources[abs]; ok {
		return src
	}
	var src *sarifSource
	if text, err := w.opts.ReadFile(abs); err == nil {
		src = newSARIFSource(text)
	}
	w.sources[abs] = src
	return src
}

// sarifSource is a file's text with where each of its lines starts, so
// that a diagnostic's columns and lines cost its own lines, not the whole
// file: a log of many diagnostics in one file stays linear.
type sarifSource struct {
	text []byte
	// starts are the byte offsets of the lines' starts; starts[0] is 0.
	starts []int
}

func newSARIFSource(text []byte) *sarifSource {
	starts := []int{0}
	for i, c := range text {
		if c == '\n' {
			starts = append(starts, i+1)
		}
	}
	return &sarifSource{text: text, starts: starts}
}

// line is the text of the 1-based line n without its newline, and the
// offset where it starts; false when the file has no such line.
func (s *sarifSource) line(n int) ([]byte, int, bool) {
	if n < 1 || n > len(s.starts) {
		return nil, 0, false
	}
	start, end := s.starts[n-1], len(s.text)
	if n < len(s.starts) {
		end = s.starts[n] - 1
	}
	return s.text[start:end], start, true
}

// columnOf is the 1-based column of pos in UTF-16 code units, counted in
// src when pos's byte offset lies on its line, and the byte offset of pos
// in src then (-1 otherwise). Without the source, the column is pos's.
func columnOf(src *sarifSource, pos hcl.Pos) (int, int) {
	if src == nil {
		return max(pos.Column, 1), -1
	}
	text, lineStart, ok := src.line(pos.Line)
	if !ok {
		return max(pos.Column, 1), -1
	}
	if pos.Byte < lineStart || pos.Byte > lineStart+len(text) {
		// A range made up by tfeval rather than read by the parser:
		// its column counts characters of the line.
		prefix := text
		n, units := 0, 0
		for len(prefix) > 0 && n < pos.Column-1 {
			r, size := utf8.DecodeRune(prefix)
			prefix = prefix[size:]
			units += utf16.RuneLen(r)
			n++
		}
		return units + 1, -1
	}
	units := 0
	for prefix := text[:pos.Byte-lineStart]; len(prefix) > 0; {
		r, size := utf8.DecodeRune(prefix)
		prefix = prefix[size:]
		if n := utf16.RuneLen(r); n > 0 {
			units += n
		} else {
			units++
		}
	}
	return units + 1, pos.Byte
}

// lineWindow is the text of lines from to to (1-based, inclusive) of
// src, those that exist, each with its newline.
func (s *sarifSource) lineWindow(from, to int) string {
	var b strings.Builder
	for n := max(from, 1); n <= to; n++ {
		text, _, ok := s.line(n)
		if !ok {
			break
		}
		b.Write(text)
		b.WriteByte('\n')
	}
	return b.String()
}

// lineNumbers are the places a message names by line and column
// ("main.tf:3,5-9"), which a fingerprint leaves out.
var lineNumbers = regexp.MustCompile(`:\d+(,\d+)?(-\d+(,\d+)?)?`)

// fingerprint is a result's SARIFFingerprint: its rule, file and source
// lines (else its message without line numbers), and the number of
// results with the same before it.
func (w *sarifWriter) fingerprint(id, uri, src, message string) string {
	what := strings.Join(strings.Fields(src), " ")
	if what == "" {
		what = lineNumbers.ReplaceAllString(message, "")
	}
	key := id + "\x00" + uri + "\x00" + what
	n := w.seen[key]
	w.seen[key] = n + 1
	sum := sha256.Sum256(fmt.Appendf(nil, "%s\x00%d", key, n))
	return hex.EncodeToString(sum[:16])
}

// ruleID is a summary in lower case with its words joined by hyphens.
func ruleID(summary string) string {
	words := strings.FieldsFunc(strings.ToLower(summary), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	if len(words) == 0 {
		return "diagnostic"
	}
	return strings.Join(words, "-")
}

// ruleName is a summary's words capitalised and joined, as SARIF's rule
// names are written.
func ruleName(summary string) string {
	words := strings.FieldsFunc(summary, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	var b strings.Builder
	for _, w := range words {
		r := []rune(w)
		b.WriteString(strings.ToUpper(string(r[0])) + string(r[1:]))
	}
	if b.Len() == 0 {
		return "Diagnostic"
	}
	return b.String()
}
