package limit

import (
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// ParseExpression parses one expression typed by a user (console input, an
// API caller's string) after the source checks, so hostile input gets a
// diagnostic instead of overflowing hcl's recursive parser.
func ParseExpression(src []byte, filename string) (hclsyntax.Expression, hcl.Diagnostics) {
	if diags := CheckSource(src, filename, hcl.InitialPos, Expression, 0); diags.HasErrors() {
		return nil, diags
	}
	return hclsyntax.ParseExpression(src, filename, hcl.InitialPos)
}
