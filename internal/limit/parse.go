package limit

import (
	"bytes"
	"reflect"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
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
	return parseTemplateAt(src, filename, hcl.InitialPos)
}

// parseTemplateAt is ParseTemplate for a template whose text starts at
// start of its file.
func parseTemplateAt(src []byte, filename string, start hcl.Pos) (hclsyntax.Expression, hcl.Diagnostics) {
	var cuts []int
	if len(src) >= cutBytes || bytes.Count(src, []byte{'\n'}) >= cutParts {
		cuts = scanSource(src, Template).cuts
	}
	if len(cuts) == 0 {
		return hclsyntax.ParseTemplate(src, filename, start)
	}
	var parts []hclsyntax.Expression
	var diags hcl.Diagnostics
	from, pos := 0, start
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
		Parts:    meldLiterals(parts),
		SrcRange: hcl.Range{Filename: filename, Start: start, End: pos},
	}, diags
}

// meldLiterals joins each run of literal text in parts into one literal, as
// hcl leaves them: pieces parsed apart each end and start with their own.
// hcl's own joining takes time that grows with the square of the run; this
// takes time that grows with its length.
func meldLiterals(parts []hclsyntax.Expression) []hclsyntax.Expression {
	melded := parts[:0:0]
	for i := 0; i < len(parts); {
		_, ok := literalText(parts[i])
		if !ok {
			melded = append(melded, parts[i])
			i++
			continue
		}
		j := i + 1
		for j < len(parts) {
			if _, ok := literalText(parts[j]); !ok {
				break
			}
			j++
		}
		if j == i+1 {
			melded = append(melded, parts[i])
			i = j
			continue
		}
		var b strings.Builder
		for _, p := range parts[i:j] {
			text, _ := literalText(p)
			b.WriteString(text)
		}
		melded = append(melded, &hclsyntax.LiteralValueExpr{
			Val:      cty.StringVal(b.String()),
			SrcRange: hcl.RangeBetween(parts[i].Range(), parts[j-1].Range()),
		})
		i = j
	}
	return melded
}

// literalText is the text of a template's literal part.
func literalText(e hclsyntax.Expression) (string, bool) {
	lit, ok := e.(*hclsyntax.LiteralValueExpr)
	if !ok || lit.Val.Type() != cty.String || !lit.Val.IsKnown() || lit.Val.IsNull() {
		return "", false
	}
	return lit.Val.AsString(), true
}

// ParseConfig parses a native syntax configuration file that passed
// CheckSource. A long heredoc would take hcl seconds to parse (see
// ParseTemplate), so each one CheckSource let through on the cost of its
// pieces is parsed apart: the file is parsed with the heredoc's text masked
// as a parenthesized number of the same lines and bytes, so every other
// range stays where it is, the body is parsed as a template in pieces,
// and the heredoc's expression takes the number's place.
func ParseConfig(src []byte, filename string) (*hcl.File, hcl.Diagnostics) {
	var heredocs []heredoc
	// Most long files have no heredoc at all: one look for its opening
	// spares them a second scan (CheckSource scanned them already).
	if (len(src) >= cutBytes || bytes.Count(src, []byte{'\n'}) >= cutParts) && bytes.Contains(src, []byte("<<")) {
		heredocs = scanSource(src, Config).heredocs
	}
	if len(heredocs) == 0 || !lexedHeredocs(src, heredocs) {
		return parseInPieces(src, filename)
	}
	masked := bytes.Clone(src)
	bodies := make(map[int]hclsyntax.Expression, len(heredocs))
	var bodyDiags hcl.Diagnostics
	for _, h := range heredocs {
		for i := h.start; i < h.end; i++ {
			if masked[i] != '\n' {
				masked[i] = ' '
			}
		}
		// "<<X\nX" is the shortest heredoc, room enough for "(0" and ")".
		masked[h.start], masked[h.start+1], masked[h.end-1] = '(', '0', ')'
		expr, diags := parseHeredoc(src, filename, h)
		bodyDiags = append(bodyDiags, diags...)
		bodies[h.start] = expr
	}
	file, diags := hclsyntax.ParseConfig(masked, filename, hcl.InitialPos)
	placed := 0
	if body, ok := file.Body.(*hclsyntax.Body); ok {
		hclsyntax.VisitAll(body, func(n hclsyntax.Node) hcl.Diagnostics {
			placed += replaceMasked(reflect.ValueOf(n), bodies)
			return nil
		})
	}
	if placed != len(bodies) {
		// A heredoc where no expression of a known shape holds it.
		return hclsyntax.ParseConfig(src, filename, hcl.InitialPos)
	}
	file.Bytes = src
	return file, append(diags, bodyDiags...)
}

// pieceBytes is the least source a piece of parseInPieces holds (a
// variable for the tests).
var pieceBytes = 4096

// parseInPieces parses a configuration file as hclsyntax.ParseConfig
// does, giving the same file, but a long one in pieces of about pieceBytes
// cut after lines that are a lone "}": hcl's lexer collects all the tokens
// of what it parses in one slice, grown by appending, so a file of 100 kB
// allocates several times the tokens it ends with (half the bytes an
// evaluation of terraform-aws-vpc allocated), where pieces allocate
// little more than theirs. A cut is kept only where hcl's parse agrees it
// is between two top-level items: the piece before it parses without a
// diagnostic and its last item is a block closed by that "}" (not a brace
// in a heredoc, comment or string). Its blocks are then what the whole
// file's parse gives, with the same ranges, and the pieces' attributes
// and blocks are joined into the first piece's body in order. Any
// diagnostic, an unconfirmed cut, or an argument set in two pieces (which
// the whole parse reports) parses the whole file instead
// (TestParseInPieces, FuzzParseInPieces).
func parseInPieces(src []byte, filename string) (*hcl.File, hcl.Diagnostics) {
	if len(src) < 2*pieceBytes {
		return hclsyntax.ParseConfig(src, filename, hcl.InitialPos)
	}
	var file *hcl.File
	var body *hclsyntax.Body
	start := hcl.InitialPos
	for start.Byte < len(src) {
		end := len(src)
		if start.Byte+pieceBytes < len(src) {
			if i := bytes.Index(src[start.Byte+pieceBytes-1:], []byte("\n}\n")); i >= 0 {
				end = start.Byte + pieceBytes - 1 + i + 3
			}
		}
		f, diags := hclsyntax.ParseConfig(src[start.Byte:end], filename, start)
		b, ok := f.Body.(*hclsyntax.Body)
		if len(diags) > 0 || !ok || (end < len(src) && !closedAt(b, end-2)) {
			return hclsyntax.ParseConfig(src, filename, hcl.InitialPos)
		}
		if file == nil {
			file, body = f, b
		} else {
			for name, attr := range b.Attributes {
				if _, dup := body.Attributes[name]; dup {
					return hclsyntax.ParseConfig(src, filename, hcl.InitialPos)
				}
				body.Attributes[name] = attr
			}
			body.Blocks = append(body.Blocks, b.Blocks...)
			body.SrcRange.End = b.SrcRange.End
			body.EndRange = b.EndRange
		}
		start = hcl.Pos{Line: start.Line + bytes.Count(src[start.Byte:end], []byte{'\n'}), Column: 1, Byte: end}
	}
	file.Bytes = src
	return file, nil
}

// closedAt reports whether the last item of a body is a block whose
// closing brace is the byte at offset.
func closedAt(b *hclsyntax.Body, offset int) bool {
	if len(b.Blocks) == 0 {
		return false
	}
	last := b.Blocks[len(b.Blocks)-1]
	if last.CloseBraceRange.Start.Byte != offset {
		return false
	}
	for _, a := range b.Attributes {
		if a.SrcRange.End.Byte > offset {
			return false
		}
	}
	return true
}

// lexedHeredocs reports whether hcl's lexer finds heredocs where the scan
// found them, which it may not in text the scan follows less closely than
// the lexer (a marker in letters beyond ASCII, a closing line with other
// white space).
func lexedHeredocs(src []byte, heredocs []heredoc) bool {
	tokens, _ := hclsyntax.LexConfig(src, "", hcl.InitialPos)
	lexed := make(map[[2]int]bool)
	var open []int
	for _, tok := range tokens {
		switch tok.Type {
		case hclsyntax.TokenOHeredoc:
			open = append(open, tok.Range.Start.Byte)
		case hclsyntax.TokenCHeredoc:
			if len(open) > 0 {
				lexed[[2]int{open[len(open)-1], tok.Range.End.Byte}] = true
				open = open[:len(open)-1]
			}
		}
	}
	for _, h := range heredocs {
		if !lexed[[2]int{h.start, h.end}] {
			return false
		}
	}
	return true
}

// parseHeredoc parses heredoc h of src, in pieces, as hcl would whole.
func parseHeredoc(src []byte, filename string, h heredoc) (hclsyntax.Expression, hcl.Diagnostics) {
	expr, diags := parseTemplateAt(src[h.body:h.closer], filename, posAt(src, h.body))
	t, ok := expr.(*hclsyntax.TemplateExpr)
	if !ok {
		t = &hclsyntax.TemplateExpr{Parts: []hclsyntax.Expression{expr}}
	}
	t.Parts = meldLiterals(t.Parts)
	if h.flush {
		flushIndent(t.Parts)
	}
	t.SrcRange = hcl.Range{Filename: filename, Start: posAt(src, h.start), End: posAt(src, h.end)}
	return t, diags
}

// flushIndent removes from the lines of a flush heredoc's parts the indent
// they share, as hcl does: every line that is not blank (white space to
// its end) counts, and a line starting with a sequence has none. The
// heredoc is splittable: its parts are literal text and interpolations, and
// its lines start with spaces and tabs, then a visible ASCII character or
// the line's end, so the indent's characters are bytes.
func flushIndent(parts []hclsyntax.Expression) {
	type lineStart struct{ part, at int }
	var starts []lineStart
	indent := -1
	count := func(n int) {
		if indent < 0 || n < indent {
			indent = n
		}
	}
	atLineStart := true
	for i, p := range parts {
		text, ok := literalText(p)
		if !ok {
			if atLineStart {
				count(0)
			}
			atLineStart = false
			continue
		}
		for at := 0; at < len(text); {
			end := strings.IndexByte(text[at:], '\n')
			if end < 0 {
				end = len(text)
			} else {
				end += at + 1
			}
			if at > 0 || atLineStart {
				line := text[at:end]
				spaces := len(line) - len(strings.TrimLeft(line, " \t"))
				if rest := line[spaces:]; rest != "\n" && rest != "\r\n" { // blank lines keep theirs
					count(spaces)
					starts = append(starts, lineStart{i, at})
				}
			}
			at = end
		}
		atLineStart = strings.HasSuffix(text, "\n")
	}
	if indent <= 0 {
		return
	}
	for k := 0; k < len(starts); {
		i := starts[k].part
		lit := parts[i].(*hclsyntax.LiteralValueExpr)
		text := lit.Val.AsString()
		var b strings.Builder
		from := 0
		for ; k < len(starts) && starts[k].part == i; k++ {
			b.WriteString(text[from:starts[k].at])
			from = starts[k].at + indent
			if starts[k].at == 0 {
				lit.SrcRange.Start.Column += indent
				lit.SrcRange.Start.Byte += indent
			}
		}
		b.WriteString(text[from:])
		lit.Val = cty.StringVal(b.String())
	}
}

// replaceMasked puts the heredocs of bodies (by the offset where each
// starts) in place of the parenthesized numbers masking them among the
// expressions node (a pointer to an hclsyntax node) holds directly, and
// says how many it put.
func replaceMasked(node reflect.Value, bodies map[int]hclsyntax.Expression) int {
	if node.Kind() != reflect.Pointer || node.Elem().Kind() != reflect.Struct {
		return 0
	}
	return replaceIn(node.Elem(), bodies)
}

var expressionType = reflect.TypeFor[hclsyntax.Expression]()

// replaceIn replaces masked heredocs in the fields of struct v, the
// elements of its slices of expressions, and the fields of the structs in
// its slices (an object's items).
func replaceIn(v reflect.Value, bodies map[int]hclsyntax.Expression) int {
	placed := 0
	for i := range v.NumField() {
		f := v.Field(i)
		if !f.CanSet() {
			continue
		}
		switch {
		case f.Type() == expressionType:
			placed += replaceValue(f, bodies)
		case f.Kind() == reflect.Slice && f.Type().Elem() == expressionType:
			for j := range f.Len() {
				placed += replaceValue(f.Index(j), bodies)
			}
		case f.Kind() == reflect.Slice && f.Type().Elem().Kind() == reflect.Struct:
			for j := range f.Len() {
				placed += replaceIn(f.Index(j), bodies)
			}
		}
	}
	return placed
}

// replaceValue replaces the expression in v when it is a masked heredoc.
func replaceValue(v reflect.Value, bodies map[int]hclsyntax.Expression) int {
	p, ok := v.Interface().(*hclsyntax.ParenthesesExpr)
	if !ok {
		return 0
	}
	body, ok := bodies[p.SrcRange.Start.Byte]
	if !ok {
		return 0
	}
	v.Set(reflect.ValueOf(body))
	return 1
}
