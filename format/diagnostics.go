package format

import "github.com/hashicorp/hcl/v2"

// Diagnostic is a diagnostic as terraform validate -json writes it.
type Diagnostic struct {
	Severity string `json:"severity"`
	Summary  string `json:"summary"`
	Detail   string `json:"detail"`
	Range    *Range `json:"range,omitempty"`
	// Snippet is the source excerpt, with the values of the references
	// of the expression the diagnostic is about; none where the source
	// was not read (Diagnostics) or cannot be.
	Snippet *Snippet `json:"snippet,omitempty"`
}

// Range is a source range: the file name relative to the working
// directory, 1-based lines and columns, 0-based byte offsets, End exclusive.
type Range struct {
	Filename string `json:"filename"`
	Start    Pos    `json:"start"`
	End      Pos    `json:"end"`
}

// Pos is a source position.
type Pos struct {
	Line   int `json:"line"`
	Column int `json:"column"`
	Byte   int `json:"byte"`
}

// RangeOf converts a source range for the JSON documents.
func RangeOf(r hcl.Range) *Range {
	return &Range{
		Filename: r.Filename,
		Start:    Pos{r.Start.Line, r.Start.Column, r.Start.Byte},
		End:      Pos{r.End.Line, r.End.Column, r.End.Byte},
	}
}

// Diagnostics converts diagnostics for the JSON documents, without
// snippets (Sources.Diagnostics writes them).
func Diagnostics(diags hcl.Diagnostics) []Diagnostic {
	return (*Sources)(nil).Diagnostics(diags)
}

// Diagnostics converts diagnostics for the JSON documents, each with its
// snippet, as terraform validate -json writes them; s nil writes none.
func (s *Sources) Diagnostics(diags hcl.Diagnostics) []Diagnostic {
	out := make([]Diagnostic, 0, len(diags))
	for _, d := range diags {
		dj := Diagnostic{Severity: "error", Summary: d.Summary, Detail: d.Detail}
		if d.Severity == hcl.DiagWarning {
			dj.Severity = "warning"
		}
		if d.Subject != nil {
			// An empty range is written a byte wide, as Terraform
			// writes it (a missing argument's, a child default's).
			r := *d.Subject
			if r.Empty() {
				r.End.Byte++
				r.End.Column++
			}
			dj.Range = RangeOf(r)
			if s != nil {
				dj.Snippet = s.Snippet(d)
			}
		}
		out = append(out, dj)
	}
	return out
}
