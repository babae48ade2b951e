package limit

import (
	"bytes"

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

// ParseTemplate parses a bare template (a template file, templatestring's
// argument) that passed CheckSource. hcl combines a template's literal
// parts in time that grows with the square of their number, and every
// line is a part, so a template of thousands of lines would take seconds:
// it is parsed instead in pieces cut at line starts where nothing is open
// (see maybeCut), and their parts joined into one template, which renders
// the same text with the same source ranges.
func ParseTemplate(src []byte, filename string) (hclsyntax.Expression, hcl.Diagnostics) {
	var cuts []int
	if len(src) >= cutBytes || bytes.Count(src, []byte{'\n'}) >= cutParts {
		cuts = scanSource(src, Template).cuts
	}
	if len(cuts) == 0 {
		return hclsyntax.ParseTemplate(src, filename, hcl.InitialPos)
	}
	var parts []hclsyntax.Expression
	var diags hcl.Diagnostics
	from, pos := 0, hcl.InitialPos
	for _, to := range append(cuts, len(src)) {
		piece, pieceDiags := hclsyntax.ParseTemplate(src[from:to], filename, pos)
		diags = append(diags, pieceDiags...)
		if t, ok := piece.(*hclsyntax.TemplateExpr); ok {
			parts = append(parts, t.Parts...)
		} else {
			parts = append(parts, piece)
		}
		pos = rangeAt(src[from:to], filename, pos, to-from).Start
		from = to
	}
	return &hclsyntax.TemplateExpr{
		Parts:    parts,
		SrcRange: hcl.Range{Filename: filename, Start: hcl.InitialPos, End: pos},
	}, diags
}
