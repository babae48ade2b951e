package numtext

import (
	"math/big"
	"strconv"

	"github.com/zclconf/go-cty/cty"

	"github.com/tfeval/tfeval/internal/elements"
)

// Append appends f as f.Text('f', -1) would write it. When f is a whole
// number below 2^63 held with a unit in the last place of at most 1, every
// other decimal with as few digits is at least 1 away from it, so the
// shortest decimal that reads back as f is its plain digits.
func Append(b []byte, f *big.Float) []byte {
	if !f.IsInf() && f.IsInt() && !(f.Sign() == 0 && f.Signbit()) {
		if f.Sign() == 0 {
			return append(b, '0')
		}
		if exp := f.MantExp(nil); exp <= 63 && exp < int(f.Prec()) {
			if i, acc := f.Int64(); acc == big.Exact {
				return strconv.AppendInt(b, i, 10)
			}
		}
	}
	return f.Append(b, 'f', -1)
}

// String is the text of a known, unmarked, non-null number value, as
// go-cty's conversion of it to a string gives.
func String(v cty.Value) string {
	var buf [24]byte
	return string(Append(buf[:0], elements.BigFloat(v)))
}
