package format

import "github.com/hashicorp/hcl/v2"

// ValidateFormatVersion is the version of the `validate -json` document,
// the one terraform validate -json writes.
const ValidateFormatVersion = "1.0"

// ValidateDocument is the `validate -json` document, as terraform validate
// -json writes it. Its fields are in name order, as the document has
// always been written.
type ValidateDocument struct {
	Diagnostics   []Diagnostic `json:"diagnostics"`
	ErrorCount    int          `json:"error_count"`
	FormatVersion string       `json:"format_version"`
	Valid         bool         `json:"valid"`
	WarningCount  int          `json:"warning_count"`
}

// NewValidateDocument is the document of a validation's diagnostics.
func NewValidateDocument(diags hcl.Diagnostics) *ValidateDocument {
	doc := &ValidateDocument{FormatVersion: ValidateFormatVersion, Valid: !diags.HasErrors(), Diagnostics: Diagnostics(diags)}
	for _, d := range diags {
		if d.Severity == hcl.DiagError {
			doc.ErrorCount++
		} else {
			doc.WarningCount++
		}
	}
	return doc
}
