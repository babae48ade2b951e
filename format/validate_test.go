package format

import (
	"encoding/json"
	"testing"

	"github.com/hashicorp/hcl/v2"
)

// The validate document counts errors and warnings, and is valid without
// errors; its fields keep the order they have always had.
func TestValidateDocument(t *testing.T) {
	for _, tc := range []struct {
		diags hcl.Diagnostics
		want  string
	}{
		{nil, `{"diagnostics":[],"error_count":0,"format_version":"1.0","valid":true,"warning_count":0}`},
		{hcl.Diagnostics{{Severity: hcl.DiagWarning, Summary: "w"}, {Severity: hcl.DiagError, Summary: "e", Subject: &hcl.Range{Filename: "a.tf", Start: hcl.Pos{Line: 1, Column: 1}, End: hcl.Pos{Line: 1, Column: 2, Byte: 1}}}},
			`{"diagnostics":[{"severity":"warning","summary":"w","detail":""},{"severity":"error","summary":"e","detail":"","range":{"filename":"a.tf","start":{"line":1,"column":1,"byte":0},"end":{"line":1,"column":2,"byte":1}}}],"error_count":1,"format_version":"1.0","valid":false,"warning_count":1}`},
	} {
		b, _ := json.Marshal(NewValidateDocument(tc.diags))
		if string(b) != tc.want {
			t.Errorf("got  %s\nwant %s", b, tc.want)
		}
	}
}
