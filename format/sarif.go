package format

import (
	"path/filepath"
	"strings"
	"unicode"

	"github.com/hashicorp/hcl/v2"
)

// SARIFVersion is the version of the Static Analysis Results Interchange
// Format that NewSARIF writes, the one code-scanning services read.
const SARIFVersion = "2.1.0"

// sarifSchema is the address of the SARIF 2.1.0 JSON schema, which a SARIF
// log names as its $schema.
const sarifSchema = "https://json.schemastore.org/sarif-2.1.0.json"

// SARIF is a SARIF log of one run of tfeval: a rule for every kind of
// diagnostic (its summary) and a result for every diagnostic.
type SARIF struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []SARIFRun `json:"runs"`
}

// SARIFRun is one run of a tool.
type SARIFRun struct {
	Tool    SARIFTool     `json:"tool"`
	Results []SARIFResult `json:"results"`
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
}

// SARIFResult is one diagnostic.
type SARIFResult struct {
	RuleID    string          `json:"ruleId"`
	RuleIndex int             `json:"ruleIndex"`
	Level     string          `json:"level"`
	Message   SARIFMessage    `json:"message"`
	Locations []SARIFLocation `json:"locations"`
}

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

// SARIFArtifactLocation is a file, relative to the root the run was made in.
type SARIFArtifactLocation struct {
	URI       string `json:"uri"`
	URIBaseID string `json:"uriBaseId,omitempty"`
}

// SARIFRegion is a range of lines and columns (1-based, the end column
// exclusive).
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
}

// NewSARIF is the SARIF log of diagnostics: one rule per distinct summary
// (the part before a colon, for summaries that name objects after one),
// in order of first appearance, and one result per diagnostic, with its
// level, its summary and detail as the message, and its file and region.
// File names are relative to the working directory, with forward slashes,
// and use the uriBaseId %SRCROOT%.
func NewSARIF(diags hcl.Diagnostics, opts SARIFOptions) *SARIF {
	driver := SARIFDriver{Name: "tfeval", Version: opts.ToolVersion, InformationURI: "https://github.com/tfeval/tfeval", Rules: []SARIFRule{}}
	index := map[string]int{}
	results := []SARIFResult{}
	for _, d := range diags {
		summary, _, _ := strings.Cut(d.Summary, ":")
		id := ruleID(summary)
		i, ok := index[id]
		if !ok {
			i = len(driver.Rules)
			index[id] = i
			driver.Rules = append(driver.Rules, SARIFRule{ID: id, Name: ruleName(summary), ShortDescription: SARIFMessage{Text: summary}})
		}
		r := SARIFResult{RuleID: id, RuleIndex: i, Level: "error", Message: SARIFMessage{Text: sarifMessage(d)}, Locations: []SARIFLocation{}}
		if d.Severity == hcl.DiagWarning {
			r.Level = "warning"
		}
		if loc, ok := sarifLocation(d.Subject, opts.DefaultFile); ok {
			r.Locations = append(r.Locations, loc)
		}
		results = append(results, r)
	}
	return &SARIF{Schema: sarifSchema, Version: SARIFVersion, Runs: []SARIFRun{{Tool: SARIFTool{Driver: driver}, Results: results}}}
}

// sarifMessage is a diagnostic's summary and detail as one text.
func sarifMessage(d *hcl.Diagnostic) string {
	if d.Detail == "" {
		return d.Summary
	}
	return d.Summary + ": " + d.Detail
}

// sarifLocation is where a diagnostic is: its subject, or the first line of
// the default file; false when there is neither.
func sarifLocation(subject *hcl.Range, defaultFile string) (SARIFLocation, bool) {
	if subject == nil || subject.Filename == "" || subject.Start.Line < 1 {
		if defaultFile == "" {
			return SARIFLocation{}, false
		}
		return SARIFLocation{PhysicalLocation: SARIFPhysicalLocation{
			ArtifactLocation: SARIFArtifactLocation{URI: filepath.ToSlash(defaultFile), URIBaseID: "%SRCROOT%"},
			Region:           SARIFRegion{StartLine: 1},
		}}, true
	}
	reg := SARIFRegion{StartLine: subject.Start.Line, StartColumn: max(subject.Start.Column, 1)}
	if subject.End.Line >= subject.Start.Line {
		reg.EndLine = subject.End.Line
		if subject.End.Line > subject.Start.Line || subject.End.Column > reg.StartColumn {
			reg.EndColumn = subject.End.Column
		}
	}
	return SARIFLocation{PhysicalLocation: SARIFPhysicalLocation{
		ArtifactLocation: SARIFArtifactLocation{URI: filepath.ToSlash(subject.Filename), URIBaseID: "%SRCROOT%"},
		Region:           reg,
	}}, true
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
