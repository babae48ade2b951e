package limit

import "github.com/hashicorp/hcl/v2"

// CheckSource is CheckNesting plus a check that no number literal in src
// lies beyond MaxNumberExponent: the checks a native syntax source gets
// before hcl parses it, in that order (the costs of parsing it, see
// checkCosts, first).
func CheckSource(src []byte, filename string, start hcl.Pos, syntax Syntax, maxNesting int) hcl.Diagnostics {
	if diags := checkCosts(src, filename, start, syntax); diags.HasErrors() {
		return diags
	}
	max := maxNesting
	if max <= 0 {
		max = DefaultMaxNesting
	}
	few, mayHuge := byteChecks(src, max)
	if !few {
		if diags := boundedNesting(src, filename, start, syntax, max, 0); diags.HasErrors() {
			return diags
		}
	}
	if !mayHuge {
		return nil
	}
	return lexedNumbers(src, filename, start, syntax)
}

// byteChecks makes the two byte-level checks CheckSource starts with in
// one pass over src: few is fewOpeners(src, limit), mayHuge is
// mayHaveHugeLiteral(src). Most files have fewer openers than the limit
// and are read once, not twice; past the opener over the limit the number
// check goes on alone, eight bytes at a time. The two look at different
// bytes (a run of digits passed over holds no opener), so each finds what
// it would alone (FuzzByteChecks).
func byteChecks(src []byte, limit int) (few, mayHuge bool) {
	n := 0
	for i := 0; i < len(src); i++ {
		c := src[i]
		switch {
		case openerBytes[c]:
			if n++; n > limit {
				return false, mayHaveHugeLiteralFrom(src, i+1)
			}
		case digitOrPoint[c]:
			huge, j := literalAt(src, i)
			if huge {
				return fewOpeners(src[i:], limit-n), true
			}
			i = j - 1
		}
	}
	return true, false
}
