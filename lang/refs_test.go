package lang

import (
	"fmt"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/tfeval/tfeval/dialect"
)

// TestReferenceRange: the range Terraform's reference parser gives the
// object a traversal names, or its error for one that names none.
func TestReferenceRange(t *testing.T) {
	for _, tc := range []struct {
		src, want string
		ok        bool
	}{
		{"local.x.y", "1:1-8", true},
		{"path.module", "1:1-12", true},
		{"aws_s3_bucket.b[0].id", "1:1-19", true},
		{"data.aws_region.r.name", "1:1-18", true},
		{"module.m.out.x", "1:1-13", true},
		{"self.id", "1:1-5", true},
		{"local", "error: Invalid reference", true},
		{"data.x", "error: Invalid reference", true},
		{"template.x", "error: Reserved symbol name", true},
		{"string", "", false},
	} {
		t.Run(tc.src, func(t *testing.T) {
			trav, d := hclsyntax.ParseTraversalAbs([]byte(tc.src), "t", hcl.InitialPos)
			if d.HasErrors() {
				t.Fatal(d)
			}
			rng, diags, ok := ReferenceRange(trav, dialect.Terraform)
			got := ""
			switch {
			case diags.HasErrors():
				got = "error: " + diags[0].Summary
			case ok:
				got = fmt.Sprintf("%d:%d-%d", rng.Start.Line, rng.Start.Column, rng.End.Column)
			}
			if got != tc.want || ok != tc.ok {
				t.Errorf("got %q %v, want %q %v", got, ok, tc.want, tc.ok)
			}
		})
	}
}
