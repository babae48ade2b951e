package limit

import (
	"encoding/binary"
	"fmt"
	"math/big"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/tfeval/tfeval/internal/elements"
)

// MaxNumberExponent bounds the binary exponent of the numbers evaluation
// may create, about 1e±9864 in decimal. cty writes numbers out in full
// decimal (templates, tostring, jsonencode, the console), which for 9e99999999
// would take hours; everything real is many orders of magnitude inside.
const MaxNumberExponent = 1 << 15

// maxDecimalExponent is MaxNumberExponent in decimal, for messages.
const maxDecimalExponent = 9864

// hugeFloat reports whether f is finite and beyond MaxNumberExponent.
func hugeFloat(f *big.Float) bool {
	if f.IsInf() || f.Sign() == 0 {
		return false
	}
	exp := f.MantExp(nil)
	return exp > MaxNumberExponent || exp < -MaxNumberExponent
}

// Bounds of the numbers hugeFloat accepts, as cty values: a finite
// non-zero f is beyond MaxNumberExponent exactly when |f| >= 2^M or
// |f| < 2^(-M-1), M being MaxNumberExponent.
var (
	hugeAbove = cty.NumberVal(new(big.Float).SetMantExp(big.NewFloat(1), MaxNumberExponent))
	hugeBelow = cty.NumberVal(new(big.Float).SetMantExp(big.NewFloat(1), -MaxNumberExponent-1))
	negAbove  = cty.NumberVal(new(big.Float).Neg(hugeAbove.AsBigFloat()))
	negBelow  = cty.NumberVal(new(big.Float).Neg(hugeBelow.AsBigFloat()))
)

// hugeValue is hugeFloat of a known, unmarked number, found by comparing
// it with the bounds: cty compares numbers in place, where AsBigFloat
// would copy the number for every check.
func hugeValue(v cty.Value) bool {
	less := func(a, b cty.Value) bool { return isTrue(a.LessThan(b)) }
	// Each comparison costs 300 to 400 instructions, so the most common
	// numbers, positive ones inside the bounds, are settled by two.
	switch {
	case !less(v, hugeBelow): // v >= 2^(-M-1)
		return !less(v, hugeAbove) && finite(v)
	case !less(negBelow, v): // v <= -2^(-M-1)
		return !less(negAbove, v) && finite(v)
	}
	// Strictly between the lower bounds: huge unless zero.
	return less(cty.Zero, v) || less(v, cty.Zero)
}

// HugePlainNumber is HugeNumber for a known, unmarked, non-null number,
// without the checks HugeNumber makes first: for evaluators that have
// already made them.
func HugePlainNumber(v cty.Value) bool {
	return hugeValue(v)
}

// isTrue reports whether v is the known, unmarked true (comparing with
// cty.True is exact, where Value.True walks the value for marks).
func isTrue(v cty.Value) bool {
	return v == cty.True
}

// finite reports whether a known, unmarked number is neither infinity.
func finite(v cty.Value) bool {
	return isTrue(v.LessThan(cty.PositiveInfinity)) && isTrue(cty.NegativeInfinity.LessThan(v))
}

// HugeNumber reports whether v is, or contains, a known number beyond
// MaxNumberExponent.
func HugeNumber(v cty.Value) bool {
	return mayHoldNumbers(v.Type()) && hugeIn(v)
}

// hugeIn is HugeNumber of a value whose type may hold numbers: the type of
// each part is looked at once, by the level above it, instead of again at
// every level below (and for every element of a collection).
func hugeIn(v cty.Value) bool {
	v, _ = v.Unmark()
	if !v.IsKnown() || v.IsNull() {
		return false
	}
	switch ty := v.Type(); {
	case ty == cty.Number:
		return hugeValue(v)
	case ty.IsObjectType():
		for name, at := range ty.AttributeTypes() {
			if mayHoldNumbers(at) && hugeIn(v.GetAttr(name)) {
				return true
			}
		}
	case ty.IsTupleType():
		ets := ty.TupleElementTypes()
		for i, et := range ets {
			if mayHoldNumbers(et) && hugeIn(v.Index(elements.Index(i))) {
				return true
			}
		}
	case ty.IsCollectionType():
		// Every element is of the element type, which the caller found
		// may hold numbers (an element of dynamic type is checked too).
		for it := elements.Of(v); it.Next(); {
			if _, e := it.Element(); hugeIn(e) {
				return true
			}
		}
	}
	return false
}

// mayHoldNumbers reports whether values of type ty can contain a number.
func mayHoldNumbers(ty cty.Type) bool {
	switch {
	case ty == cty.Number || ty == cty.DynamicPseudoType:
		return true
	case ty.IsCollectionType():
		return mayHoldNumbers(ty.ElementType())
	case ty.IsObjectType():
		for _, at := range ty.AttributeTypes() {
			if mayHoldNumbers(at) {
				return true
			}
		}
	case ty.IsTupleType():
		for _, et := range ty.TupleElementTypes() {
			if mayHoldNumbers(et) {
				return true
			}
		}
	}
	return false
}

// NumberTooLarge is the diagnostic for a number beyond MaxNumberExponent at rng.
func NumberTooLarge(rng hcl.Range) *hcl.Diagnostic {
	return &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  "Number too large",
		Detail:   fmt.Sprintf("This number lies outside 1e-%d to 1e%d in magnitude, or is written with more than %d characters, beyond which reading it or writing it out in decimal could take hours; tfeval refuses such numbers.", maxDecimalExponent, maxDecimalExponent, maxNumberLiteral),
		Subject:  rng.Ptr(),
	}
}

// MaxNumberText is maxNumberLiteral, for the functions that read numbers
// from text (tonumber, jsondecode, yamldecode).
const MaxNumberText = maxNumberLiteral

// LongNumberText reports whether s holds a run of digits (with a point or
// an exponent among them) longer than MaxNumberText, which reading as a
// number would take time that grows with the square of its length.
func LongNumberText(s string) bool {
	if len(s) <= MaxNumberText {
		return false
	}
	run := 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= '0' && c <= '9' || c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-':
			if run++; run > MaxNumberText {
				return true
			}
		default:
			run = 0
		}
	}
	return false
}

// maxNumberLiteral bounds, in bytes, a number literal: a longer one is
// refused without being read, since reading a number takes time that grows
// with the square of its digits (a million digits take a minute), and a
// number within MaxNumberExponent needs fewer digits than this unless it
// is padded with zeros.
const maxNumberLiteral = 2*maxDecimalExponent + 64

// digitRunForLexing is the length of a run of digits that makes a source
// worth lexing for its numbers: far shorter than any number beyond
// MaxNumberExponent, far longer than real ones.
const digitRunForLexing = 1000

// mayHaveHugeLiteral reports whether src has an exponent of four or more
// digits after a digit or a point, or a long run of digits: ordinary
// sources are ruled out without lexing. Only digits and points can start
// either, so the bytes between them are passed over (nextDigitOrPoint); the
// letter e, far more common, is looked at only after one.
func mayHaveHugeLiteral(src []byte) bool {
	return mayHaveHugeLiteralFrom(src, 0)
}

// mayHaveHugeLiteralFrom is mayHaveHugeLiteral of src from offset i on,
// which does not start inside a run of digits.
func mayHaveHugeLiteralFrom(src []byte, i int) bool {
	for ; i < len(src); i++ {
		i = nextDigitOrPoint(src, i)
		if i == len(src) {
			break
		}
		huge, j := literalAt(src, i)
		if huge {
			return true
		}
		i = j - 1
	}
	return false
}

// literalAt looks at the digit or point at src[i], the start of a run of
// digits or a point: huge when the run is long or an exponent of four or
// more digits follows it, and j the offset after the run (or the point),
// where an exponent may start.
func literalAt(src []byte, i int) (huge bool, j int) {
	j = i + 1
	if src[i] != '.' {
		for j < len(src) && isDigit(src[j]) {
			j++
		}
		if inName(src, i) {
			// Not a number, whatever follows: the rest of a name, or
			// of the text of a string.
			return false, j
		}
		if j-i >= digitRunForLexing {
			return true, j
		}
	}
	if j < len(src) && (src[j] == 'e' || src[j] == 'E') {
		k := j + 1
		if k < len(src) && (src[k] == '+' || src[k] == '-') {
			k++
		}
		n := 0
		for ; k < len(src) && isDigit(src[k]); k++ {
			n++
		}
		if n >= 4 {
			return true, j
		}
	}
	return false, j
}

// digitOrPoint are the bytes mayHaveHugeLiteral stops at.
var digitOrPoint = byteSet("0123456789.")

// nextDigitOrPoint returns the offset of the first digit or point of src
// at or after i, len(src) when there is none. Most of a source has neither,
// so it is passed over eight bytes at a time: a word none of whose bytes
// lies between '.' and '9' holds neither (only '/' lies between them too),
// and the bytes of a word that has one are looked at one by one.
func nextDigitOrPoint(src []byte, i int) int {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	for {
		for ; i+8 <= len(src); i += 8 {
			w := binary.LittleEndian.Uint64(src[i:])
			// Each byte's low seven bits, b: b+0x52 sets the byte's
			// high bit when b >= '.', 0xB9-b when b <= '9', and neither
			// carries into the next byte (b+0x52 <= 0xD1, 0xB9-b >= 0x3A).
			// A byte whose own high bit is set is not ASCII.
			b := w &^ highs
			if (b+(0x80-'.')*ones)&((0x80+'9')*ones-b)&^w&highs != 0 {
				break
			}
		}
		end := min(i+8, len(src))
		for ; i < end; i++ {
			if digitOrPoint[src[i]] {
				return i
			}
		}
		if i == len(src) {
			return i
		}
	}
}

// isDigit reports whether c is an ASCII digit.
func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// inName reports whether the digit at src[i] continues a name: going back
// over digits and dashes, an ASCII letter or underscore comes first. hcl
// reads a name from such a letter on through letters, digits, underscores
// and dashes, so no number starts at i ("L-8E6360", a quota code; outside
// a string, x-1e5000 is one name); inside a string it is text. Generated
// modules full of such codes are then not lexed a second time for their
// numbers (FuzzMayHaveHugeLiteralSound holds this to hcl's lexer).
func inName(src []byte, i int) bool {
	k := i - 1
	for k >= 0 && (isDigit(src[k]) || src[k] == '-') {
		k--
	}
	if k < 0 {
		return false
	}
	c := src[k]
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_'
}

// hugeLiteral reports whether a number literal is beyond MaxNumberExponent
// or too long to read (maxNumberLiteral). A literal that does not parse is
// not huge: it is its parser's error to report.
func hugeLiteral(lit []byte) bool {
	if len(lit) > maxNumberLiteral {
		return true
	}
	// hcl reads literals at 512 bits.
	f, _, err := big.ParseFloat(string(lit), 10, 512, big.ToNearestEven)
	return err == nil && hugeFloat(f)
}

// checkNumbers reports the first number literal of a native syntax source
// beyond MaxNumberExponent.
func checkNumbers(src []byte, filename string, start hcl.Pos, syntax Syntax) hcl.Diagnostics {
	if !mayHaveHugeLiteral(src) {
		return nil
	}
	return lexedNumbers(src, filename, start, syntax)
}

// lexedNumbers is checkNumbers on the lexer's tokens, for a source the
// byte-level check could not rule out.
func lexedNumbers(src []byte, filename string, start hcl.Pos, syntax Syntax) hcl.Diagnostics {
	for _, t := range lex(src, filename, start, syntax) {
		if t.Type != hclsyntax.TokenNumberLit {
			continue
		}
		if hugeLiteral(t.Bytes) {
			return hcl.Diagnostics{NumberTooLarge(t.Range)}
		}
	}
	return nil
}

// CheckJSONSource is CheckJSONNesting plus the number check of CheckSource,
// for JSON numbers and for the literals of templates inside JSON strings.
func CheckJSONSource(src []byte, filename string, maxNesting int) hcl.Diagnostics {
	if jsonTokens(src) > MaxSourceTokens {
		return tooManyTokens(src, filename, hcl.InitialPos)
	}
	if diags := CheckJSONNesting(src, filename, maxNesting); diags.HasErrors() {
		return diags
	}
	if len(src) >= 4096 {
		for i := 0; i < len(src); i++ {
			if src[i] != '"' {
				continue
			}
			j, tmpl, ok := jsonTemplate(src, i)
			if ok && checkCosts(tmpl, filename, hcl.InitialPos, Template).HasErrors() {
				return checkCosts(tmpl, filename, posAt(src, i), Template)
			}
			i = j
		}
	}
	if !mayHaveHugeLiteral(src) {
		return nil
	}
	for i := 0; i < len(src); i++ {
		switch c := src[i]; {
		case c == '"':
			j, tmpl, ok := jsonTemplate(src, i)
			if ok {
				if diags := checkNumbers(tmpl, filename, posAt(src, i), Template); diags.HasErrors() {
					return diags
				}
			}
			i = j
		case c == '-' || (c >= '0' && c <= '9'):
			j := i + 1
			for ; j < len(src) && (src[j] >= '0' && src[j] <= '9' || src[j] == '.' || src[j] == 'e' || src[j] == 'E' || src[j] == '+' || src[j] == '-'); j++ {
			}
			if hugeLiteral(src[i:j]) {
				return hcl.Diagnostics{NumberTooLarge(hcl.Range{Filename: filename, Start: posAt(src, i), End: posAt(src, j)})}
			}
			i = j - 1
		}
	}
	return nil
}

// posAt is the position of byte offset off in src.
func posAt(src []byte, off int) hcl.Pos {
	pos := hcl.InitialPos
	for ; pos.Byte < off; pos.Byte++ {
		if src[pos.Byte] == '\n' {
			pos.Line++
			pos.Column = 1
		} else if src[pos.Byte]&0xC0 != 0x80 {
			pos.Column++
		}
	}
	return pos
}
