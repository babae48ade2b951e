package funcs

import (
	"strconv"
	"unicode"
	"unicode/utf8"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
)

// The encode_* functions of the built-in provider write a value as
// Terraform's own writer does: a constant expression in HCL's canonical
// layout. The layout, as observed of that writer (and held to it by
// TestHCLValueText and FuzzHCLValueText):
//
//   - null, true, false; a number in full decimal (the infinities as
//     "+ Inf" and "-Inf"); a string quoted on one line, with \n, \r, \t,
//     \" and \\ escaped, "${" and "%{" doubled to "$${" and "%%{", and
//     every rune that is not printable as \uXXXX or \UXXXXXXXX;
//   - a list, set or tuple on one line: "[a, b]", "[]" when empty;
//   - a map or object as "{}" when empty, else with each attribute on a
//     line of its own, its name bare if it is an identifier and quoted if
//     not, and the "=" of consecutive lines whose value fits on the line
//     aligned one column after the widest name (in grapheme clusters);
//   - each line indented two spaces for each level its previous lines
//     opened, counted a line at a time: a line that opens n brackets more
//     than it closes adds one level, closing them takes it away again, so
//     a list of objects is written "[{ ... }, { ... }]" with the "}, {"
//     lines at the level of the attributes.
//
// This is the writer's behaviour, quirks included, so that the results
// are the same byte for byte; it keeps hcl's writer and what that links
// in out of every process.

// hclLine is one line of a value being written: its text after the
// indentation, and for an attribute line, the name's width, where the
// name ends and whether its value closes on the line.
type hclLine struct {
	text    []byte
	net     int  // brackets opened less brackets closed on the line
	named   bool // an attribute line: text is NAME then " = VALUE"
	nameEnd int  // the end of the name in text
	nameCol int  // the name's width in grapheme clusters
}

// hclWriter collects the lines of one value or file.
type hclWriter struct {
	lines []hclLine
	cur   hclLine
}

// hclValueExpr writes a wholly known value as an expression, without a
// final newline (encode_expr).
func hclValueExpr(v cty.Value) string {
	var w hclWriter
	w.value(v)
	w.endLine()
	return w.layout(false)
}

// hclAttributes writes the named values as the attributes of a file, in
// the order given, each line ended by a newline (encode_tfvars). Every
// name is an identifier.
func hclAttributes(names []string, vals map[string]cty.Value) string {
	var w hclWriter
	for _, name := range names {
		w.attribute(name, vals[name])
	}
	return w.layout(true)
}

func (w *hclWriter) endLine() {
	w.lines = append(w.lines, w.cur)
	w.cur = hclLine{}
}

func (w *hclWriter) open(b byte) {
	w.cur.text = append(w.cur.text, b)
	w.cur.net++
}

func (w *hclWriter) close(b byte) {
	w.cur.text = append(w.cur.text, b)
	w.cur.net--
}

// attribute writes one line "NAME = VALUE" (more lines if the value has
// attributes of its own) and ends it.
func (w *hclWriter) attribute(name string, v cty.Value) {
	if hclsyntax.ValidIdentifier(name) {
		w.cur.text = append(w.cur.text, name...)
	} else {
		w.cur.text = appendHCLString(w.cur.text, name)
	}
	w.cur.named = true
	w.cur.nameEnd = len(w.cur.text)
	w.cur.nameCol = hclColumns(w.cur.text)
	w.cur.text = append(w.cur.text, " = "...)
	w.value(v)
	w.endLine()
}

func (w *hclWriter) value(v cty.Value) {
	ty := v.Type()
	switch {
	case v.IsNull():
		w.cur.text = append(w.cur.text, "null"...)
	case ty == cty.Bool:
		w.cur.text = strconv.AppendBool(w.cur.text, v.True())
	case ty == cty.Number:
		s := v.AsBigFloat().Text('f', -1)
		if s[0] == '+' {
			// "+Inf" is read back as an operator and a name, which the
			// layout separates.
			w.cur.text = append(w.cur.text, "+ "...)
			s = s[1:]
		}
		w.cur.text = append(w.cur.text, s...)
	case ty == cty.String:
		w.cur.text = appendHCLString(w.cur.text, v.AsString())
	case ty.IsListType() || ty.IsSetType() || ty.IsTupleType():
		w.open('[')
		i := 0
		for it := v.ElementIterator(); it.Next(); i++ {
			if i > 0 {
				w.cur.text = append(w.cur.text, ", "...)
			}
			_, e := it.Element()
			w.value(e)
		}
		w.close(']')
	case ty.IsMapType() || ty.IsObjectType():
		w.open('{')
		if v.LengthInt() == 0 {
			w.close('}')
			return
		}
		w.endLine()
		for it := v.ElementIterator(); it.Next(); {
			k, e := it.Element()
			w.attribute(k.AsString(), e)
		}
		w.close('}')
	default:
		panic("hclValueExpr of " + ty.FriendlyName())
	}
}

// layout indents the lines and aligns the "=" of the runs of attribute
// lines whose value closes on the line.
func (w *hclWriter) layout(finalNewline bool) string {
	lines := w.lines
	indent := make([]int, len(lines))
	var stack []int
	for i, l := range lines {
		switch {
		case l.net > 0:
			indent[i] = len(stack)
			stack = append(stack, l.net)
		case l.net < 0:
			for closed := -l.net; closed > 0 && len(stack) > 0; {
				top := &stack[len(stack)-1]
				if closed < *top {
					*top -= closed
					break
				}
				closed -= *top
				stack = stack[:len(stack)-1]
			}
			indent[i] = len(stack)
		default:
			indent[i] = len(stack)
		}
	}
	// The width each aligned line's name is padded to: the widest name
	// of its run (all of one run are at one indentation).
	pad := make([]int, len(lines))
	for i := 0; i < len(lines); {
		if !aligned(lines[i]) {
			i++
			continue
		}
		j, widest := i, 0
		for ; j < len(lines) && aligned(lines[j]); j++ {
			widest = max(widest, 2*indent[j]+lines[j].nameCol)
		}
		for k := i; k < j; k++ {
			pad[k] = widest - 2*indent[k] - lines[k].nameCol
		}
		i = j
	}
	var out []byte
	for i, l := range lines {
		if i > 0 {
			out = append(out, '\n')
		}
		out = appendSpaces(out, 2*indent[i])
		if pad[i] > 0 {
			out = append(out, l.text[:l.nameEnd]...)
			out = appendSpaces(out, pad[i])
			out = append(out, l.text[l.nameEnd:]...)
		} else {
			out = append(out, l.text...)
		}
	}
	if finalNewline && len(lines) > 0 {
		out = append(out, '\n')
	}
	return string(out)
}

// aligned reports whether a line's "=" is aligned with its neighbours':
// an attribute whose value opens no more than it closes.
func aligned(l hclLine) bool { return l.named && l.net == 0 }

func appendSpaces(b []byte, n int) []byte {
	for ; n > 0; n-- {
		b = append(b, ' ')
	}
	return b
}

// hclColumns is the width of a name as written, in the grapheme clusters
// hcl's lexer counts for each of the name's tokens (a quoted name is
// several tokens where it holds "$${" or "%%{").
func hclColumns(name []byte) int {
	ascii := true
	for _, c := range name {
		if c >= utf8.RuneSelf {
			ascii = false
			break
		}
	}
	if ascii {
		return len(name)
	}
	toks, _ := hclsyntax.LexExpression(name, "", hcl.InitialPos)
	n := 0
	for _, t := range toks {
		if t.Type != hclsyntax.TokenEOF {
			n += t.Range.End.Column - t.Range.Start.Column
		}
	}
	return n
}

// appendHCLString appends s as a quoted string of one line whose value
// is s, with no template sequence.
func appendHCLString(b []byte, s string) []byte {
	b = append(b, '"')
	for i, r := range s {
		switch r {
		case '\n':
			b = append(b, `\n`...)
		case '\r':
			b = append(b, `\r`...)
		case '\t':
			b = append(b, `\t`...)
		case '"':
			b = append(b, `\"`...)
		case '\\':
			b = append(b, `\\`...)
		case '$', '%':
			b = append(b, byte(r))
			if i+1 < len(s) && s[i+1] == '{' {
				b = append(b, byte(r))
			}
		default:
			switch {
			case unicode.IsPrint(r):
				b = utf8.AppendRune(b, r)
			case r < 0x10000:
				b = append(b, `\u`...)
				b = appendHex(b, uint32(r), 4)
			default:
				b = append(b, `\U`...)
				b = appendHex(b, uint32(r), 8)
			}
		}
	}
	return append(b, '"')
}

// appendHex appends r in lowercase hexadecimal, zero-padded to n digits.
func appendHex(b []byte, r uint32, n int) []byte {
	const digits = "0123456789abcdef"
	for shift := 4 * (n - 1); shift >= 0; shift -= 4 {
		b = append(b, digits[(r>>uint(shift))&0xf])
	}
	return b
}
