package limit

import (
	"bytes"
	"fmt"
	"unicode/utf8"

	"github.com/hashicorp/hcl/v2"
)

// MaxSourceTokens bounds the tokens of one native syntax source (a
// configuration or variables file, a template, a console line). hcl lexes
// a whole source into a slice of tokens of about 100 bytes each before it
// parses, and allocates several times that while parsing, so a file of
// 40 MB of one-byte comment lines would take gigabytes, and hcl parses
// about half a million tokens a second. Half a million tokens is a
// configuration file of several megabytes, or a variables file setting
// over a hundred thousand variables.
const MaxSourceTokens = 500_000

// maxTemplateCost bounds the work hcl's template parser does to combine a
// template's literal parts: it joins each part to the string of the parts
// before it and removes it from the list of parts, which takes time that
// grows with the square of the number of parts (a heredoc line, and each
// "$" and "%" in the text, is one or two parts). 2^29 is a template of
// about 8,000 parts, which hcl parses in about half a second; a heredoc
// of a few thousand lines stays well inside.
const maxTemplateCost = 1 << 29

// sourceScan is a linear scan of a native syntax source that follows
// strings, templates, heredocs and comments as hcl's scanner does, closely
// enough to bound, before hcl sees the source, the two costs of parsing it
// that grow faster than its length: the number of tokens (memory), and for
// each template the cost of combining its literal parts (time). Both
// counts may be over the exact ones, never far under.
type sourceScan struct {
	src    []byte
	tokens int
	// worst is the largest template cost met, at worstAt (a byte offset).
	worst, worstAt int
	// stack holds the open templates and the interpolations in them.
	stack []scanFrame
	// directives counts the if and for directives open in a template
	// file's own text; cuts are where ParseTemplateCuts cuts it.
	directives int
	cuts       []int
	// config says the source is a configuration file, whose heredocs may
	// be parsed in pieces.
	config bool
	// heredocs are the long heredocs of a configuration's own text (not
	// inside another template) that ParseConfig parses in pieces; their
	// cost is that of the pieces, not recorded in worst.
	heredocs []heredoc
}

// heredoc locates a heredoc in a source: src[start:end] from "<<" to the
// end of the closing marker's line (without its line break), and its body
// src[body:closer], every line of it, each ending in a newline.
type heredoc struct {
	start, body, closer, end int
	flush                    bool
}

// scanFrame is an open template (a quoted string, a heredoc, or a whole
// template file) or an interpolation or directive inside one.
type scanFrame struct {
	kind   frameKind
	start  int    // offset where the frame opened
	marker []byte // heredoc: the line that ends it
	body   int    // heredoc: the offset of its first line
	flush  bool   // heredoc: "<<-", whose lines lose their common indent
	top    bool   // heredoc: in the configuration's own text
	parts  int    // template: literal parts so far
	braces int    // interpolation: braces open inside it
}

type frameKind int

const (
	quoteFrame frameKind = iota
	heredocFrame
	fileFrame // a whole template file
	interpFrame
)

// scanSource scans src in the grammar syntax says.
func scanSource(src []byte, syntax Syntax) *sourceScan {
	s := &sourceScan{src: src, config: syntax == Config}
	i := 0
	if syntax == Template {
		s.stack = append(s.stack, scanFrame{kind: fileFrame})
	}
	for i < len(src) && s.tokens <= MaxSourceTokens {
		if n := len(s.stack); n > 0 && s.stack[n-1].kind != interpFrame {
			i = s.literal(i)
		} else {
			i = s.code(i)
		}
	}
	for len(s.stack) > 0 {
		s.closeTemplate(len(src))
	}
	return s
}

// code scans one token of expression syntax at src[i] and returns the
// offset after it.
func (s *sourceScan) code(i int) int {
	src := s.src
	c := src[i]
	switch {
	case c == ' ' || c == '\t':
		// A run of them (indentation) at once: they make no token.
		for i++; i < len(src) && (src[i] == ' ' || src[i] == '\t'); i++ {
		}
		return i
	case c == '#' || c == '/' && i+1 < len(src) && src[i+1] == '/':
		s.tokens++
		if j := bytes.IndexByte(src[i:], '\n'); j >= 0 {
			return i + j + 1
		}
		return len(src)
	case c == '/' && i+1 < len(src) && src[i+1] == '*':
		s.tokens++
		if j := bytes.Index(src[i+2:], []byte("*/")); j >= 0 {
			return i + 2 + j + 2
		}
		return i + 1 // not a comment: hcl scans on after the "/"
	case c >= '0' && c <= '9':
		// Only the digits: whatever follows may be a token of its own.
		s.tokens++
		for i < len(src) && src[i] >= '0' && src[i] <= '9' {
			i++
		}
		return i
	case isWordByte(c) && c != '-':
		s.tokens++
		for i < len(src) && isWordByte(src[i]) {
			i++
		}
		return i
	case c >= 0x80:
		// hcl may make a token of each character it does not expect.
		s.tokens++
		for i++; i < len(src) && src[i]&0xC0 == 0x80; i++ {
		}
		return i
	case c == '"':
		s.tokens++
		s.stack = append(s.stack, scanFrame{kind: quoteFrame, start: i, parts: 1})
		return i + 1
	case c == '<' && i+1 < len(src) && src[i+1] == '<':
		if marker, body, _ := heredocStart(src, i); marker != nil {
			s.tokens++
			s.stack = append(s.stack, scanFrame{kind: heredocFrame, start: i, marker: marker,
				body: body, flush: src[i+2] == '-', top: s.config && len(s.stack) == 0})
			return body
		}
	case c == '{':
		if n := len(s.stack); n > 0 {
			s.stack[n-1].braces++
		}
	case c == '}':
		if n := len(s.stack); n > 0 {
			if s.stack[n-1].braces == 0 {
				s.tokens++
				s.stack = s.stack[:n-1] // back in the template
				return i + 1
			}
			s.stack[n-1].braces--
		}
	}
	s.tokens++
	return i + 1
}

// literal scans template text at src[i], up to the end of a line, an
// interpolation or directive, or the end of the template, and returns the
// offset after what it scanned.
func (s *sourceScan) literal(i int) int {
	src := s.src
	top := &s.stack[len(s.stack)-1]
	if top.kind == heredocFrame && (i == 0 || src[i-1] == '\n') {
		if end, ok := heredocEnd(src, i, top.marker); ok {
			s.tokens++
			s.stack = s.stack[:len(s.stack)-1]
			// hcl's heredoc ends before a carriage return ending its line.
			h := heredoc{start: top.start, body: top.body, closer: i, end: end, flush: top.flush}
			if src[end-1] == '\r' {
				h.end--
			}
			if top.top && (top.parts >= cutParts || i-top.start >= cutBytes) && h.splittable(src) {
				s.heredocs = append(s.heredocs, h)
			} else {
				s.recordCost(*top, i)
			}
			return end
		}
	}
	start := i
	s.tokens++ // the literal text
	for ; i < len(src); i++ {
		switch c := src[i]; c {
		case '\r':
			s.tokens++
		case '\\':
			if top.kind == quoteFrame {
				i++
			}
		case '"':
			if top.kind == quoteFrame {
				s.tokens += 2
				s.closeTemplate(i)
				return i + 1
			}
		case '\n':
			if top.kind == quoteFrame {
				// hcl ends the string here with an error; so do we.
				s.tokens++
				s.closeTemplate(i)
				return i + 1
			}
			// Every line of a heredoc or template file is a part.
			top.parts++
			s.tokens++
			s.maybeCut(top, i+1)
			return i + 1
		case '$', '%':
			// Each of these splits the literal around it, and "${"
			// or "%{" (not "$${") opens a sequence.
			top.parts += 2
			s.tokens += 2
			if i+1 < len(src) && src[i+1] == '{' && (i == start || src[i-1] != c) {
				if c == '%' && top.kind == fileFrame {
					s.directives += directiveDepth(src[i+2:])
				}
				s.stack = append(s.stack, scanFrame{kind: interpFrame, start: i})
				return i + 2
			}
		}
	}
	return i
}

// Template files are parsed in pieces of about cutParts lines or cutBytes
// bytes, so that hcl's cost of combining literal parts grows with the
// size of a piece rather than with the square of the file's lines.
const (
	cutParts = 1024
	cutBytes = 64 << 10
)

// maybeCut records a cut of the template file at offset at, the start of a
// line, when the piece before it is long enough and the text can be cut
// there without changing what it renders: no sequence or directive is
// open, and the next line does not start with one, whose "~" would trim
// the line before it. The piece's cost is recorded as a template's.
func (s *sourceScan) maybeCut(top *scanFrame, at int) {
	if top.kind != fileFrame || len(s.stack) != 1 || s.directives != 0 ||
		at >= len(s.src) || s.src[at] == '$' || s.src[at] == '%' ||
		top.parts < cutParts && at-top.start < cutBytes {
		return
	}
	s.recordCost(*top, at)
	s.cuts = append(s.cuts, at)
	top.parts, top.start = 0, at
}

// directiveDepth is how a directive whose text (after "%{") is rest changes
// the nesting of directives: +1 for if and for, -1 for endif and endfor.
func directiveDepth(rest []byte) int {
	rest = bytes.TrimLeft(rest, "~ \t\r\n")
	j := 0
	for j < len(rest) && isWordByte(rest[j]) {
		j++
	}
	switch string(rest[:j]) {
	case "if", "for":
		return 1
	case "endif", "endfor":
		return -1
	}
	return 0
}

// closeTemplate ends the innermost open frame (and, at the end of the
// source, any interpolation left open), recording the cost of a template.
func (s *sourceScan) closeTemplate(at int) {
	f := s.stack[len(s.stack)-1]
	s.stack = s.stack[:len(s.stack)-1]
	if f.kind == interpFrame {
		return
	}
	s.recordCost(f, at)
}

// recordCost records the cost of parsing the template of frame f, which
// ends at offset at.
func (s *sourceScan) recordCost(f scanFrame, at int) {
	bytes := at - f.start
	// Each part is joined to the text before it, and each removal moves
	// the parts after it.
	// parts is at most MaxSourceTokens and bytes at most a file's size,
	// so this cannot overflow.
	cost := f.parts*f.parts*8 + f.parts*(bytes/2)
	if cost > s.worst {
		s.worst, s.worstAt = cost, f.start
	}
}

// isWordByte reports whether c continues an ASCII identifier or number.
func isWordByte(c byte) bool {
	return wordBytes[c]
}

// wordBytes are the bytes of names: letters, digits, '_' and '-'.
var wordBytes = byteSet("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-")

// heredocStart recognises "<<EOT\n" or "<<-EOT\n" at src[i]: the marker
// ("EOT"; nil when src[i] is not a heredoc's opener) and the offset of the
// first line of the body. known is false when the name goes on into bytes
// beyond ASCII, which the lexer takes by Unicode's classes of identifier
// characters: it may or may not be a heredoc.
func heredocStart(src []byte, i int) (marker []byte, body int, known bool) {
	j := i + 2
	if j < len(src) && src[j] == '-' {
		j++
	}
	if j < len(src) && src[j] >= utf8.RuneSelf {
		return nil, 0, false
	}
	if j >= len(src) || !(src[j] >= 'a' && src[j] <= 'z' || src[j] >= 'A' && src[j] <= 'Z' || src[j] == '_') {
		return nil, 0, true
	}
	k := j
	for k < len(src) && isWordByte(src[k]) {
		k++
	}
	switch {
	case k < len(src) && src[k] >= utf8.RuneSelf:
		return nil, 0, false
	case k < len(src) && src[k] == '\n':
		return src[j:k], k + 1, true
	case k+1 < len(src) && src[k] == '\r' && src[k+1] == '\n':
		return src[j:k], k + 2, true
	}
	return nil, 0, true
}

// splittable reports whether ParseConfig can parse the heredoc's body in
// pieces: always as a template, but a flush heredoc's indent is removed
// after, from the literal text (see flushIndent), which is only the same as
// hcl's removal, from each line's first token, when no directive nests
// literal text, no "~" trims white space first, and the white space
// starting every line is spaces and tabs, followed by a visible ASCII
// character or the line's end.
func (h heredoc) splittable(src []byte) bool {
	if !h.flush {
		return true
	}
	body := src[h.body:h.closer]
	if bytes.Contains(body, []byte("%{")) || bytes.Contains(body, []byte("{~")) || bytes.Contains(body, []byte("~}")) {
		return false
	}
	for line := range bytes.Lines(body) {
		rest := bytes.TrimLeft(line, " \t")
		if len(rest) == 0 {
			return false
		}
		if c := rest[0]; !(c > ' ' && c < 0x7f || c == '\n' || c == '\r' && len(rest) > 1 && rest[1] == '\n') {
			return false
		}
	}
	return true
}

// heredocEnd reports whether the line at src[i] closes a heredoc with
// marker (spaces around it allowed), and the offset after the marker.
func heredocEnd(src []byte, i int, marker []byte) (int, bool) {
	j := i
	for j < len(src) && (src[j] == ' ' || src[j] == '\t') {
		j++
	}
	if !bytes.HasPrefix(src[j:], marker) {
		return 0, false
	}
	k := j + len(marker)
	for k < len(src) && (src[k] == ' ' || src[k] == '\t' || src[k] == '\r') {
		k++
	}
	if k < len(src) && src[k] != '\n' {
		return 0, false
	}
	return k, true
}

// checkCosts refuses a source with more tokens than MaxSourceTokens or a
// template too costly to parse, before hcl lexes and parses it.
func checkCosts(src []byte, filename string, start hcl.Pos, syntax Syntax) hcl.Diagnostics {
	if len(src) < 4096 || withinCosts(src) {
		return nil // too short to be costly, or too few parts
	}
	return scannedCosts(src, filename, start, syntax)
}

// withinCosts reports whether counts of a few bytes show that src is within
// both bounds, which spares real files the scan (they are mostly well
// within): the scan counts at most three tokens for each byte it passes,
// and a template's parts are one, plus one for each newline and two for
// each "$" and "%" in it, so neither can exceed what the counts of those
// bytes in the whole source and its length give (see
// TestWithinCostsBoundsTheScan).
func withinCosts(src []byte) bool {
	if 3*len(src) > MaxSourceTokens {
		return false
	}
	parts := int64(1 + bytes.Count(src, []byte{'\n'}) + 2*(bytes.Count(src, []byte{'$'})+bytes.Count(src, []byte{'%'})))
	return parts*parts*8+parts*int64(len(src)/2) <= maxTemplateCost
}

// scannedCosts is checkCosts by the scan.
func scannedCosts(src []byte, filename string, start hcl.Pos, syntax Syntax) hcl.Diagnostics {
	s := scanSource(src, syntax)
	if !utf8.Valid(src) {
		// The scan cannot follow how hcl splits invalid text; each byte
		// might be a token.
		s.tokens = max(s.tokens, len(src))
	}
	if s.tokens > MaxSourceTokens {
		return tooManyTokens(src, filename, start)
	}
	worst, worstAt := s.worst, s.worstAt
	for _, h := range s.heredocs {
		// ParseConfig parses the body in pieces: their cost, not the whole's.
		if w := scanSource(src[h.body:h.closer], Template).worst; w > worst {
			worst, worstAt = w, h.start
		}
	}
	if worst > maxTemplateCost {
		return hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Template too large",
			Detail:   "This template has too many lines, or too many \"$\" and \"%\" characters, for its text to be parsed in reasonable time: the parser combines its parts in time that grows with the square of their number. Split it into several templates, or into a file read with file().",
			Subject:  rangeAt(src, filename, start, worstAt).Ptr(),
		}}
	}
	return nil
}

// jsonTokens counts, over rather than under, the tokens hcl's JSON
// scanner makes of src: punctuation, and each string, number or keyword.
func jsonTokens(src []byte) int {
	n := 0
	for i := 0; i < len(src); i++ {
		switch c := src[i]; {
		case c == '"':
			n++
			for i++; i < len(src) && src[i] != '"'; i++ {
				if src[i] == '\\' {
					i++
				}
			}
		case c == '{' || c == '}' || c == '[' || c == ']' || c == ',' || c == ':':
			n++
		case c == ' ' || c == '\t' || c == '\r' || c == '\n':
		default:
			n++
			for i+1 < len(src) && isWordByte(src[i+1]) {
				i++
			}
		}
	}
	return n
}

// tooManyTokens is the diagnostic for a source with more than MaxSourceTokens.
func tooManyTokens(src []byte, filename string, start hcl.Pos) hcl.Diagnostics {
	return hcl.Diagnostics{{
		Severity: hcl.DiagError,
		Summary:  "Source too large",
		Detail:   fmt.Sprintf("This source has more than %d tokens, the limit for one file: parsing it would take too much memory.", MaxSourceTokens),
		Subject:  rangeAt(src, filename, start, 0).Ptr(),
	}}
}

// rangeAt is a one-byte range at offset off of src, which starts at start.
func rangeAt(src []byte, filename string, start hcl.Pos, off int) hcl.Range {
	pos := start
	for i := 0; i < off && i < len(src); i++ {
		pos.Byte++
		if src[i] == '\n' {
			pos.Line++
			pos.Column = 1
		} else if src[i]&0xC0 != 0x80 {
			pos.Column++
		}
	}
	end := pos
	end.Byte++
	end.Column++
	return hcl.Range{Filename: filename, Start: pos, End: end}
}
