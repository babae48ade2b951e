package limit

import (
	"bytes"
	"unicode/utf8"
)

// depthBound scans a native syntax source that starts in expression mode
// (a configuration file or a single expression) without lexing it, and
// returns a number at least as large as the depth checkNesting would find.
// It tracks strings, template sequences and comments the way hcl's scanner
// does and counts every byte that could be an operator or an index step,
// so it can only overestimate. ok is false when the source has something
// it does not follow exactly (a heredoc whose marker is not ASCII or whose
// text has a carriage return not before a newline, a string, comment or
// heredoc left open, brackets left open at the end, invalid UTF-8); the
// caller then lexes, as it did before: ordinary files skip a second
// lexing pass.
//
// It stops as soon as the bound passes stop, returning what it has: the
// caller lexes then anyway, and an absurdly deep source does not grow a
// frame stack as deep as itself.
func depthBound(src []byte, stop int) (bound int, ok bool) {
	if !utf8.Valid(src) {
		return 0, false // the scanner may take bytes after a bad one with it
	}
	// Each frame is an open bracket, quote or template sequence; extra
	// counts the operators since the frame's last separator, as in
	// checkNesting.
	type frame struct {
		quote bool // a quoted string: the bytes inside are template text
		// closer is the byte that closes the frame.
		closer byte
		// lines says a newline ends an item here: the file's body and
		// braces, where checkNesting resets at newlines too.
		lines bool
		// marker is a heredoc's closing marker: the bytes inside are
		// template text, by lines. lineStart says the scan is at the
		// start of one of them, where the marker may close the heredoc
		// (not after a template sequence on the same line).
		marker    []byte
		lineStart bool
		extra     int
	}
	stack := make([]frame, 1, 16)
	stack[0].lines = true
	depth, max := 0, 0
	push := func(f frame) {
		stack = append(stack, f)
		depth++
		if depth > max {
			max = depth
		}
	}
	// pop closes the innermost frame. A closer that does not match it (or
	// has nothing to close) gives up: hcl's scanner would stay in the mode
	// it was in while checkNesting pops, and the two part ways.
	pop := func(closer byte) bool {
		if len(stack) == 1 || stack[len(stack)-1].closer != closer {
			return false
		}
		depth -= 1 + stack[len(stack)-1].extra
		stack = stack[:len(stack)-1]
		return true
	}
	operator := func() {
		stack[len(stack)-1].extra++
		depth++
		if depth > max {
			max = depth
		}
	}
	for i := 0; i < len(src) && max <= stop; i++ {
		// Most bytes (names, spaces, digits, text) change nothing: they
		// are passed over in a tight loop, and the switches below see
		// only the bytes they have a case for.
		if top := &stack[len(stack)-1]; top.marker != nil {
			if top.lineStart {
				top.lineStart = false
				// The lexer closes the heredoc at a line that is the
				// marker once spaces are trimmed; the newline after it
				// is the code's again.
				end := bytes.IndexByte(src[i:], '\n')
				if end < 0 {
					return 0, false // the heredoc is left open
				}
				// A carriage return is a line's only before its newline:
				// anywhere else the lexer has no token for it.
				line := src[i : i+end]
				if bytes.Equal(bytes.TrimSpace(line), top.marker) && bytes.IndexByte(bytes.TrimSuffix(line, []byte{'\r'}), '\r') < 0 {
					depth -= 1 + top.extra
					stack = stack[:len(stack)-1]
					i += end - 1
					continue
				}
			}
			for i < len(src) && !heredocBytes[src[i]] {
				i++
			}
			if i == len(src) {
				break
			}
			switch src[i] {
			case '\n':
				top.lineStart = true
			case '\r':
				if i+1 == len(src) || src[i+1] != '\n' {
					return 0, false // the lexer has no token for it
				}
			case '$', '%':
				var opens bool
				if i, opens = templateSequence(src, i); opens {
					push(frame{closer: '}'})
				}
			}
			continue
		}
		if stack[len(stack)-1].quote {
			for i < len(src) && !quoteBytes[src[i]] {
				i++
			}
			if i == len(src) {
				break
			}
			switch src[i] {
			case '\\':
				i++ // an escape takes the next byte, whatever it is
			case '"':
				pop('"')
			case '\n':
				return 0, false // a quoted string spans no lines: hcl's to report
			case '$', '%':
				var opens bool
				if i, opens = templateSequence(src, i); opens {
					push(frame{closer: '}'})
				}
			}
			continue
		}
		for i < len(src) && !codeBytes[src[i]] {
			i++
		}
		if i == len(src) {
			break
		}
		switch c := src[i]; c {
		case '"':
			push(frame{quote: true, closer: '"'})
		case '{':
			push(frame{lines: true, closer: '}'})
		case '(':
			push(frame{closer: ')'})
		case '[':
			// An index step nests what comes before it one level deeper;
			// counting every "[" as one is never less than the lexer.
			operator()
			push(frame{closer: ']'})
		case '}', ']', ')':
			if !pop(c) {
				return 0, false
			}
		case ',':
			depth -= stack[len(stack)-1].extra
			stack[len(stack)-1].extra = 0
		case '\n':
			if top := &stack[len(stack)-1]; top.lines {
				depth -= top.extra
				top.extra = 0
			}
		case '#':
			i = lineEnd(src, i)
		case '/':
			if i+1 < len(src) && src[i+1] == '/' {
				i = lineEnd(src, i)
				continue
			}
			if i+1 < len(src) && src[i+1] == '*' {
				end := bytes.Index(src[i+2:], []byte("*/"))
				if end < 0 {
					return 0, false
				}
				i += 2 + end + 1
				continue
			}
			operator()
		case '<':
			if i+1 < len(src) && src[i+1] == '<' {
				marker, text, known := heredocStart(src, i)
				if !known {
					return 0, false
				}
				if marker != nil {
					push(frame{marker: marker, lineStart: true})
					i = text - 1
					continue
				}
			}
			operator()
		case '*', '+', '-', '%', '>', '!', '?', '&', '|':
			operator()
		case '=':
			if i+1 < len(src) && src[i+1] == '=' {
				operator()
			}
		}
	}
	if max > stop {
		return max, true
	}
	if len(stack) != 1 {
		return 0, false
	}
	return max, true
}

// templateSequence reads the '$' or '%' at src[i] in template text (a
// quoted string's or a heredoc's): "${" and "%{" open a template sequence;
// "$${" and "%%{" are the text "${" and "%{", as the lexer takes them, and
// a doubled sign before anything else is two signs. last is the offset of
// the last byte read.
func templateSequence(src []byte, i int) (last int, opens bool) {
	c := src[i]
	switch {
	case i+2 < len(src) && src[i+1] == c && src[i+2] == '{':
		return i + 2, false
	case i+1 < len(src) && src[i+1] == '{':
		return i + 1, true
	}
	return i, false
}

// codeBytes are the bytes depthBound acts on outside quoted strings,
// quoteBytes those it acts on inside them, heredocBytes those inside
// heredocs.
var codeBytes, quoteBytes, heredocBytes = byteSet(`"{([}]),` + "\n" + `#/<*+-%>!?&|=`), byteSet(`\"$%` + "\n"), byteSet("$%\r\n")

// byteSet is the set of the bytes of s.
func byteSet(s string) (set [256]bool) {
	for i := range len(s) {
		set[s[i]] = true
	}
	return set
}

// lineEnd is the offset of the newline that ends the line holding src[i],
// or the last offset when the line runs to the end. A line comment takes
// its newline, so no count is reset there: whether hcl scans a newline
// token after the comment or not, the bound stays above its depth.
func lineEnd(src []byte, i int) int {
	if j := bytes.IndexByte(src[i:], '\n'); j >= 0 {
		return i + j
	}
	return len(src) - 1
}
