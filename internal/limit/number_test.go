package limit

import (
	"bytes"
	"math/big"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
)

func TestCheckSourceNumbers(t *testing.T) {
	tests := []struct {
		name, src string
		syntax    Syntax
		json      bool
		bad       bool
	}{
		{"ordinary", "a = 1.5e10\nb = 443\n", Config, false, false},
		{"at the bound", "a = 1e9864\n", Config, false, false},
		{"just beyond", "a = 1e9865\n", Config, false, true},
		{"tiny", "a = 1e-99999\n", Config, false, true},
		{"in a string", "a = \"1e99999\"\n", Config, false, false},
		{"in a comment", "# 1e99999\na = 1\n", Config, false, false},
		{"in a heredoc", "a = <<EOT\n1e99999\nEOT\n", Config, false, false},
		{"in an interpolation", "a = \"x${1e99999}\"\n", Config, false, true},
		{"expression", "[1, 2e77777]", Expression, false, true},
		{"template", "%{ if 3E+12345 > 1 }x%{ endif }", Template, false, true},
		{"json number", `{"a": [1, -7.5e+54775807]}`, Config, true, true},
		{"json string", `{"a": "3e12345 is a commit"}`, Config, true, false},
		{"json template", `{"a": "${1e12345}"}`, Config, true, true},
		{"json ordinary", `{"a": 1e300, "b": "${1 + 2}"}`, Config, true, false},
	}
	for _, tt := range tests {
		var diags hcl.Diagnostics
		if tt.json {
			diags = CheckJSONSource([]byte(tt.src), "x.tf.json", 0)
		} else {
			diags = CheckSource([]byte(tt.src), "x.tf", hcl.InitialPos, tt.syntax, 0)
		}
		if diags.HasErrors() != tt.bad {
			t.Errorf("%s: errors = %v, want %v", tt.name, diags, tt.bad)
			continue
		}
		if tt.bad && (diags[0].Summary != "Number too large" || diags[0].Subject == nil || diags[0].Subject.Start.Byte == 0) {
			t.Errorf("%s: diagnostic %+v has no useful range", tt.name, diags[0])
		}
	}
}

func TestHugeNumber(t *testing.T) {
	huge, _ := cty.ParseNumberVal("1e10000")
	tiny, _ := cty.ParseNumberVal("1e-10000")
	tests := []struct {
		v    cty.Value
		want bool
	}{
		{cty.NumberIntVal(1), false},
		{cty.Zero, false},
		{cty.PositiveInfinity, false},
		{huge, true},
		{tiny, true},
		{huge.Mark("sensitive"), true},
		{cty.ObjectVal(map[string]cty.Value{"a": cty.StringVal("x"), "b": cty.ListVal([]cty.Value{huge})}), true},
		{cty.TupleVal([]cty.Value{cty.UnknownVal(cty.Number), cty.NullVal(cty.Number)}), false},
		{cty.MapVal(map[string]cty.Value{"k": cty.StringVal("1e99999")}), false},
	}
	for _, tt := range tests {
		if got := HugeNumber(tt.v); got != tt.want {
			t.Errorf("HugeNumber(%#v) = %v", tt.v, got)
		}
	}
}

// TestHugeValue compares the comparison-based check with hugeFloat on
// numbers at and around both bounds, at several precisions and both
// signs, and on random ones.
func TestHugeValue(t *testing.T) {
	var fs []*big.Float
	for _, prec := range []uint{24, 53, 64, 512} {
		for _, exp := range []int{MaxNumberExponent, MaxNumberExponent + 1, -MaxNumberExponent, -MaxNumberExponent - 1, -MaxNumberExponent + 1, 0, 1, 64} {
			one := new(big.Float).SetPrec(prec).SetMantExp(big.NewFloat(0.5), exp) // 2^(exp-1)
			ulp := new(big.Float).SetPrec(prec).SetMantExp(big.NewFloat(0.5), exp-int(prec))
			below := new(big.Float).SetPrec(prec).Sub(one, ulp)
			above := new(big.Float).SetPrec(prec).Add(one, ulp)
			for _, f := range []*big.Float{one, below, above} {
				fs = append(fs, f, new(big.Float).Neg(f))
			}
		}
	}
	r := rand.New(rand.NewPCG(5, 6))
	for range 2000 {
		f := new(big.Float).SetPrec(uint(1+r.IntN(200))).SetMantExp(big.NewFloat(r.Float64()+0.5), r.IntN(4*MaxNumberExponent)-2*MaxNumberExponent)
		if r.IntN(2) == 0 {
			f.Neg(f)
		}
		fs = append(fs, f)
	}
	fs = append(fs, new(big.Float), new(big.Float).Neg(new(big.Float)), new(big.Float).SetInf(false), new(big.Float).SetInf(true))
	for _, f := range fs {
		if got, want := hugeValue(cty.NumberVal(f)), hugeFloat(f); got != want {
			t.Errorf("%s (prec %d): hugeValue %v, hugeFloat %v", f.Text('g', 10), f.Prec(), got, want)
		}
	}
}

func TestMayHaveHugeLiteral(t *testing.T) {
	long := strings.Repeat("7", digitRunForLexing)
	for src, want := range map[string]bool{
		"a = 1e1000":                       true,
		"a = 2.5E+1234\n":                  true,
		"a = 1.e-9999":                     true,
		"a = xe1234":                       false, // a name, not a number
		"a = \"L-8E6360\"":                 false, // a code in a string
		"a = x-1e5000":                     false, // one name
		"a = x_2-1e5000":                   false,
		"a = 5-1e5000":                     true, // 5 minus a number
		"a = x.1e5000":                     true, // x[1e5000] in the old index syntax
		"a = \"\u00e91e5000\"":             true, // a name of other letters is not looked into
		"a = (1e5000)":                     true,
		"e1234 = 1":                        false,
		"a = 1e123":                        false,
		"a = \"" + long + "\"":             true,
		"a = " + long[1:] + " + 1":         false,
		"a = " + long[1:] + "x" + long[1:]: false,
		"":                                 false,
	} {
		if got := mayHaveHugeLiteral([]byte(src)); got != want || plainMayHaveHugeLiteral([]byte(src)) != want {
			t.Errorf("mayHaveHugeLiteral(%q) = %v, want %v", src, got, want)
		}
	}
}

// TestNextDigitOrPoint puts every byte value at every offset of a word
// and of the tail after it, among bytes of either side of the range the
// words are tested for, and holds nextDigitOrPoint to a byte-by-byte scan
// from every start.
func TestNextDigitOrPoint(t *testing.T) {
	for _, fill := range []byte{'a', '-', '/', ':', 0x7f, 0x80, 0xae, 0xb9, 0xff} {
		for c := 0; c < 256; c++ {
			for at := 0; at < 19; at++ {
				src := bytes.Repeat([]byte{fill}, 19)
				src[at] = byte(c)
				for i := 0; i <= len(src); i++ {
					want := i
					for want < len(src) && !(src[want] >= '0' && src[want] <= '9' || src[want] == '.') {
						want++
					}
					if got := nextDigitOrPoint(src, i); got != want {
						t.Fatalf("nextDigitOrPoint(%q, %d) = %d, want %d", src, i, got, want)
					}
				}
			}
		}
	}
}

// plainMayHaveHugeLiteral is mayHaveHugeLiteral byte by byte: a run of
// digitRunForLexing digits, or an e or E after a digit or a point and
// before an optional sign and four digits.
func plainMayHaveHugeLiteral(src []byte) bool {
	run := 0
	name := false // the run of digits continues a name (inName)
	for i, c := range src {
		if c >= '0' && c <= '9' {
			if run == 0 {
				name = inName(src, i)
			}
			if run++; run >= digitRunForLexing && !name {
				return true
			}
			continue
		}
		prevRun := run
		run = 0
		if prevRun > 0 && name {
			continue
		}
		if (c == 'e' || c == 'E') && i > 0 && (src[i-1] >= '0' && src[i-1] <= '9' || src[i-1] == '.') {
			j := i + 1
			if j < len(src) && (src[j] == '+' || src[j] == '-') {
				j++
			}
			n := 0
			for ; j < len(src) && src[j] >= '0' && src[j] <= '9'; j++ {
				n++
			}
			if n >= 4 {
				return true
			}
		}
	}
	return false
}

// FuzzMayHaveHugeLiteral holds mayHaveHugeLiteral, which stops only at
// digits and points, to the byte-by-byte reading.
func FuzzMayHaveHugeLiteral(f *testing.F) {
	for _, s := range []string{"a = 1e1000", "a = 2.5E+1234\n", "a = 1.e-9999", "a = xe1234", ".e1234", "1..e12345", "1ee1234", "9e+-1234",
		"a = " + strings.Repeat("7", digitRunForLexing-1) + ".7e1", strings.Repeat("1", digitRunForLexing)} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		if got, want := mayHaveHugeLiteral(src), plainMayHaveHugeLiteral(src); got != want {
			t.Fatalf("mayHaveHugeLiteral(%q) = %v, want %v", src, got, want)
		}
	})
}

// FuzzMayHaveHugeLiteralSound holds mayHaveHugeLiteral to hcl's lexer:
// where it rules a source out, no number literal hcl reads there is huge,
// in any of the three syntaxes.
func FuzzMayHaveHugeLiteralSound(f *testing.F) {
	for _, s := range []string{"a = 1e1000", "a = \"L-8E6360\"", "a = x-1e5000", "a = 5-1e5000", "a = x.1e5000", "${a}1e5000",
		"a = <<EOT\nx1e5000\nEOT\n", "a = \"${x}1e5000\"", "a = [x-1,2e5000]", "%{ if a }9e9999%{ endif }"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		if mayHaveHugeLiteral(src) {
			return
		}
		for _, syntax := range []Syntax{Config, Expression, Template} {
			if diags := lexedNumbers(src, "f.tf", hcl.InitialPos, syntax); diags.HasErrors() {
				t.Fatalf("mayHaveHugeLiteral(%q) = false, but %v", src, diags)
			}
		}
	})
}

// FuzzHugeNumber holds HugeNumber, which looks at the type of each part
// once and compares numbers with the bounds, to a plain walk that reads
// every number and asks hugeFloat, on values of every kind of structure
// (sizeTestValue's) whose numbers are replaced by zeros, small and huge
// numbers of either sign.
func FuzzHugeNumber(f *testing.F) {
	f.Add([]byte{3, 5, 1, 1, 2, 3, 4, 5, 6, 7, 8, 0, 1}, []byte{0, 1, 2})
	f.Add([]byte{4, 19, 3, 3, 3, 2, 6, 1, 7, 0, 5, 4, 8, 2, 2, 2, 1, 0, 3, 19}, []byte{3, 4, 5, 6})
	f.Add([]byte{6, 1, 0}, []byte{2})
	f.Fuzz(func(t *testing.T, shape, numbers []byte) {
		huge, _ := cty.ParseNumberVal("1e10000")
		tiny, _ := cty.ParseNumberVal("-1e-10000")
		choices := []cty.Value{cty.Zero, cty.NumberIntVal(7), cty.NumberIntVal(-3), huge, tiny, cty.NumberFloatVal(0.5), cty.PositiveInfinity}
		v, _ := cty.Transform(sizeTestValue(shape, 0), func(_ cty.Path, v cty.Value) (cty.Value, error) {
			u, marks := v.Unmark()
			if u.Type() != cty.Number || !u.IsKnown() || u.IsNull() {
				return v, nil
			}
			c := choices[0]
			if len(numbers) > 0 {
				c, numbers = choices[int(numbers[0])%len(choices)], numbers[1:]
			}
			return c.WithMarks(marks), nil
		})
		want := false
		cty.Walk(v, func(_ cty.Path, v cty.Value) (bool, error) {
			v, _ = v.Unmark()
			if v.Type() == cty.Number && v.IsKnown() && !v.IsNull() && hugeFloat(v.AsBigFloat()) {
				want = true
			}
			return true, nil
		})
		if got := HugeNumber(v); got != want {
			t.Fatalf("HugeNumber(%#v) = %v, want %v", v, got, want)
		}
	})
}
