package limit

import (
	"encoding/json"
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// DefaultMaxNesting is the nesting depth allowed when a limit is 0: far
// beyond hand-written configuration, far below what overflows the stack.
const DefaultMaxNesting = 500

// Syntax says which hcl grammar a source text is in.
type Syntax int

const (
	// Config is a native syntax configuration or variables file.
	Config Syntax = iota
	// Expression is a single native syntax expression.
	Expression
	// Template is a bare template, as templatefile reads.
	Template
)

// frame is one open bracket, quote or template sequence; extra counts the
// operators and index steps in it since the last separator, because hcl
// nests each of those one level deeper too.
type frame struct {
	tok   hclsyntax.TokenType
	extra int
}

// CheckNesting reports an error when src nests brackets, template sequences,
// operators or index steps deeper than max (0 means DefaultMaxNesting). It
// only lexes, which is iterative, so it is safe on any input.
func CheckNesting(src []byte, filename string, start hcl.Pos, syntax Syntax, max int) hcl.Diagnostics {
	return checkNesting(src, filename, start, syntax, max, 0)
}

func checkNesting(src []byte, filename string, start hcl.Pos, syntax Syntax, max, base int) hcl.Diagnostics {
	if max <= 0 {
		max = DefaultMaxNesting
	}
	if fewOpeners(src, max-base) {
		return nil // each level needs at least one opening or operator byte
	}
	return boundedNesting(src, filename, start, syntax, max, base)
}

// boundedNesting is checkNesting of a source with more openers than max
// (which is set): the finer byte-level bound, then the lexer.
func boundedNesting(src []byte, filename string, start hcl.Pos, syntax Syntax, max, base int) hcl.Diagnostics {
	if syntax != Template {
		if bound, ok := depthBound(src, max-base); ok && bound <= max-base {
			return nil
		}
	}
	return lexedNesting(src, filename, start, syntax, max, base)
}

// lexedNesting is checkNesting on the lexer's tokens, exact where the
// byte-level bounds are not.
func lexedNesting(src []byte, filename string, start hcl.Pos, syntax Syntax, max, base int) hcl.Diagnostics {
	toks := lex(src, filename, start, syntax)
	stack := []frame{{tok: hclsyntax.TokenNil}}
	depth := base
	prev := hclsyntax.TokenNil
	for _, t := range toks {
		top := &stack[len(stack)-1]
		switch t.Type {
		case hclsyntax.TokenOBrace, hclsyntax.TokenOBrack, hclsyntax.TokenOParen, hclsyntax.TokenOQuote,
			hclsyntax.TokenOHeredoc, hclsyntax.TokenTemplateInterp, hclsyntax.TokenTemplateControl:
			if t.Type == hclsyntax.TokenOBrack && endsTerm(prev) {
				top.extra++ // an index step wraps what came before it
				depth++
			}
			stack = append(stack, frame{tok: t.Type})
			depth++
		case hclsyntax.TokenCBrace, hclsyntax.TokenCBrack, hclsyntax.TokenCParen, hclsyntax.TokenCQuote,
			hclsyntax.TokenCHeredoc, hclsyntax.TokenTemplateSeqEnd:
			if len(stack) > 1 {
				depth -= 1 + top.extra
				stack = stack[:len(stack)-1]
			}
		case hclsyntax.TokenComma:
			depth -= top.extra
			top.extra = 0
		case hclsyntax.TokenNewline:
			// Newlines end an item only in bodies and object constructors.
			if top.tok == hclsyntax.TokenNil || top.tok == hclsyntax.TokenOBrace {
				depth -= top.extra
				top.extra = 0
			}
		case hclsyntax.TokenStar, hclsyntax.TokenSlash, hclsyntax.TokenPlus, hclsyntax.TokenMinus,
			hclsyntax.TokenPercent, hclsyntax.TokenEqualOp, hclsyntax.TokenNotEqual,
			hclsyntax.TokenLessThan, hclsyntax.TokenLessThanEq, hclsyntax.TokenGreaterThan,
			hclsyntax.TokenGreaterThanEq, hclsyntax.TokenAnd, hclsyntax.TokenOr, hclsyntax.TokenBang,
			hclsyntax.TokenQuestion:
			top.extra++
			depth++
		}
		if t.Type != hclsyntax.TokenComment {
			prev = t.Type
		}
		if depth > max {
			return tooDeep(t.Range, max)
		}
	}
	return nil
}

// lex splits src into tokens by its grammar; errors are left to the parser.
func lex(src []byte, filename string, start hcl.Pos, syntax Syntax) hclsyntax.Tokens {
	var toks hclsyntax.Tokens
	switch syntax {
	case Expression:
		toks, _ = hclsyntax.LexExpression(src, filename, start)
	case Template:
		toks, _ = hclsyntax.LexTemplate(src, filename, start)
	default:
		toks, _ = hclsyntax.LexConfig(src, filename, start)
	}
	return toks
}

// endsTerm reports whether a token can end an expression term, so that a
// following "[" indexes it rather than starting a tuple.
func endsTerm(t hclsyntax.TokenType) bool {
	switch t {
	case hclsyntax.TokenIdent, hclsyntax.TokenNumberLit, hclsyntax.TokenCBrack, hclsyntax.TokenCParen,
		hclsyntax.TokenCBrace, hclsyntax.TokenCQuote, hclsyntax.TokenCHeredoc:
		return true
	}
	return false
}

func tooDeep(rng hcl.Range, max int) hcl.Diagnostics {
	return hcl.Diagnostics{{
		Severity: hcl.DiagError,
		Summary:  "Expression nested too deeply",
		Detail:   fmt.Sprintf("This source nests brackets, template sequences or operators more than %d levels deep, the limit for untrusted input (Limits.MaxNesting).", max),
		Subject:  rng.Ptr(),
	}}
}

// CheckJSONNesting is CheckNesting for the JSON syntax: it counts arrays and
// objects, and the templates inside strings, which hcl parses when it
// evaluates them.
func CheckJSONNesting(src []byte, filename string, max int) hcl.Diagnostics {
	if max <= 0 {
		max = DefaultMaxNesting
	}
	if fewOpeners(src, max) {
		return nil
	}
	depth := 0
	pos := hcl.InitialPos
	advance := func(to int) {
		for ; pos.Byte < to; pos.Byte++ {
			if src[pos.Byte] == '\n' {
				pos.Line++
				pos.Column = 1
			} else if src[pos.Byte]&0xC0 != 0x80 {
				pos.Column++
			}
		}
	}
	for i := 0; i < len(src); i++ {
		switch src[i] {
		case '[', '{':
			depth++
			if depth > max {
				advance(i)
				end := pos
				end.Byte++
				end.Column++
				return tooDeep(hcl.Range{Filename: filename, Start: pos, End: end}, max)
			}
		case ']', '}':
			if depth > 0 {
				depth--
			}
		case '"':
			j, tmpl, ok := jsonTemplate(src, i)
			if ok {
				advance(i)
				if diags := checkNesting(tmpl, filename, pos, Template, max, depth); diags.HasErrors() {
					return diags
				}
			}
			i = j
		}
	}
	return nil
}

// jsonTemplate scans the JSON string that opens at src[i]: it returns the
// offset of its closing quote (len(src) when there is none) and, when the
// string holds a template sequence that hcl will parse, its decoded text.
func jsonTemplate(src []byte, i int) (end int, tmpl []byte, ok bool) {
	j, hasTemplate := i+1, false
	for ; j < len(src) && src[j] != '"'; j++ {
		switch src[j] {
		case '\\':
			j++
		case '{':
			hasTemplate = hasTemplate || src[j-1] == '$' || src[j-1] == '%'
		}
	}
	if !hasTemplate || j >= len(src) {
		return j, nil, false
	}
	var s string
	if json.Unmarshal(src[i:j+1], &s) != nil {
		return j, nil, false
	}
	return j, []byte(s), true
}

// openerBytes are the bytes some token that nests a level starts with or contains.
var openerBytes = func() (set [256]bool) {
	for _, c := range []byte("{[(\"<>*/+-%=!&|?") {
		set[c] = true
	}
	return set
}()

// fewOpeners reports whether src has at most limit bytes that can start
// a nesting level: an upper bound on the depth that lets ordinary sources
// skip lexing. It stops counting past limit, since a large file always
// has more and is left to the finer bound.
func fewOpeners(src []byte, limit int) bool {
	// "==" is counted through its bytes, '=' being one of them.
	n := 0
	for _, c := range src {
		if openerBytes[c] {
			if n++; n > limit {
				return false
			}
		}
	}
	return true
}
