package funcs

import (
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"regexp"
	"testing"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function/stdlib"

	"github.com/tfeval/tfeval/internal/limit"
)

// jsonNumbers are numbers at the edges of the whole-number shortcut.
func jsonNumbers() []cty.Value {
	lit := func(s string) cty.Value {
		v, err := cty.ParseNumberVal(s)
		if err != nil {
			panic(err)
		}
		return v
	}
	negZero := new(big.Float).Neg(new(big.Float))
	low := new(big.Float).SetPrec(8).SetInt64(1<<20 + 1) // rounds: a unit in the last place of 2^13
	return []cty.Value{
		cty.Zero, cty.NumberVal(negZero), cty.NumberIntVal(1), cty.NumberIntVal(-1), lit("443"), lit("-443"),
		cty.NumberIntVal(math.MaxInt64), cty.NumberIntVal(math.MinInt64), lit("9223372036854775808"), lit("-9223372036854775809"),
		lit("123456789012345678901234567890"), lit("1e30"), lit("2.5"), lit("-0.1"), lit("1e-7"), lit("100"), lit("1e2"),
		cty.NumberFloatVal(3), cty.NumberFloatVal(0.1), cty.NumberFloatVal(1e300), cty.NumberFloatVal(1 << 53), cty.NumberFloatVal(1<<53 + 2),
		cty.NumberVal(low), cty.NumberVal(new(big.Float).SetPrec(1).SetInt64(96)),
		cty.NumberIntVal(8).Multiply(lit("0.125")), lit("7").Divide(lit("7")),
	}
}

// TestJSONEncodeMatchesCty compares jsonencode with go-cty's on numbers at
// the edges of the shortcut, on random whole and fractional numbers of
// every precision, and on nested values with marks, nulls and unknowns.
func TestJSONEncodeMatchesCty(t *testing.T) {
	vals := jsonNumbers()
	r := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		n := r.Int64() >> r.IntN(64)
		if r.IntN(2) == 0 {
			n = -n
		}
		prec := uint(1 + r.IntN(600))
		vals = append(vals, cty.NumberVal(new(big.Float).SetPrec(prec).SetInt64(n)))
		vals = append(vals, cty.NumberVal(new(big.Float).SetPrec(prec).SetFloat64(r.NormFloat64()*math.Pow(10, float64(r.IntN(40)-20)))))
		v, _ := cty.ParseNumberVal(fmt.Sprint(n))
		vals = append(vals, v)
	}
	strs := []cty.Value{cty.StringVal(""), cty.StringVal(`<a href="x">&'é` + "\u2028\x01\t"), cty.StringVal("ünïcode ✓"), cty.StringVal("del\x7f and \u2029"), cty.StringVal("plain-ascii_text 123 {}[]")}
	vals = append(vals, strs...)
	vals = append(vals,
		cty.True, cty.NullVal(cty.String), cty.NullVal(cty.DynamicPseudoType), cty.UnknownVal(cty.String), cty.DynamicVal,
		cty.ListVal(strs), cty.SetVal(strs), cty.MapVal(map[string]cty.Value{"b<": cty.NumberIntVal(2), "a": cty.NumberFloatVal(0.5)}),
		cty.TupleVal([]cty.Value{cty.NumberIntVal(1), cty.StringVal("x"), cty.NullVal(cty.Bool), cty.EmptyObjectVal, cty.EmptyTupleVal}),
		cty.ObjectVal(map[string]cty.Value{"z": cty.NumberIntVal(1), "B": cty.ListValEmpty(cty.String), "a": cty.MapValEmpty(cty.Number), "é": cty.True}),
		cty.ObjectVal(map[string]cty.Value{"secret": cty.StringVal("x").Mark("sensitive"), "n": cty.NumberIntVal(3)}),
		cty.ObjectVal(map[string]cty.Value{"u": cty.UnknownVal(cty.Number), "n": cty.NumberIntVal(3)}),
		cty.ListVal([]cty.Value{cty.NullVal(cty.DynamicPseudoType)}),
		cty.ObjectVal(map[string]cty.Value{"d": cty.NullVal(cty.DynamicPseudoType)}),
		cty.PositiveInfinity, cty.ListVal([]cty.Value{cty.NegativeInfinity}),
	)
	for _, v := range vals {
		checkJSONEncode(t, v)
	}
}

func checkJSONEncode(t *testing.T, v cty.Value) {
	t.Helper()
	want, wantErr := stdlib.JSONEncodeFunc.Call([]cty.Value{v})
	got, gotErr := jsonEncodeFunc.Call([]cty.Value{v})
	if (gotErr == nil) != (wantErr == nil) || (gotErr != nil && gotErr.Error() != wantErr.Error()) {
		t.Errorf("jsonencode(%#v): error %v, want %v", v, gotErr, wantErr)
		return
	}
	if wantErr == nil && (!got.RawEquals(want) || got.GoString() != want.GoString()) {
		t.Errorf("jsonencode(%#v) = %#v, want %#v", v, got, want)
	}
}

// FuzzJSONEncodeNumber compares the encoding of arbitrary numbers, read
// from decimal text at any precision, with go-cty's.
func FuzzJSONEncodeNumber(f *testing.F) {
	for _, s := range []string{"0", "-0", "443", "1e30", "9223372036854775807", "0.1", "-2.5e-3"} {
		f.Add(s, uint16(512))
	}
	f.Fuzz(func(t *testing.T, s string, prec uint16) {
		if len(s) > 200 || prec == 0 || prec > 4096 {
			return
		}
		bf, _, err := big.ParseFloat(s, 10, uint(prec), big.ToNearestEven)
		if err != nil || bf.MantExp(nil) > 4096 || bf.MantExp(nil) < -4096 {
			// Writing out a number of millions of digits takes go-cty
			// minutes too; that is not what this compares.
			return
		}
		checkJSONEncode(t, cty.NumberVal(bf))
		checkJSONEncode(t, cty.ListVal([]cty.Value{cty.NumberVal(bf)}))
	})
}

// FuzzJSONString compares the string quoting of jsonencode with
// encoding/json's, which go-cty uses.
func FuzzJSONString(f *testing.F) {
	for _, s := range []string{"", "abc", `a"b\c`, "<&>", "\u2028", "\xff", "tab\there", "ünï"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want, err := json.Marshal(s)
		got, ok := appendJSONString([]byte("x"), s)
		if err != nil || !ok || string(got) != "x"+string(want) {
			t.Fatalf("appendJSONString(%q) = %q, %v; json.Marshal = %q, %v", s, got, ok, want, err)
		}
	})
}

// FuzzDecodeJSON holds jsondecode's one-pass decoder to go-cty's: where it
// answers, go-cty gives the same value; where go-cty fails, it does not
// answer.
func FuzzDecodeJSON(f *testing.F) {
	for _, s := range []string{`{"a": [1, "x", null, true], "b": {"c": {}}}`, `[]`, `null`, `"s"`, `-1.5e3`,
		`{"a": 1, "a": 2}`, `{"a": 1, "a": "x"}`, `[1] [2]`, `{"e\u0301": "\ud83d\ude00"}`, `[{"a": [[]]}]`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if limit.LongNumberText(s) || hugeExponent.MatchString(s) || len(s) > 1<<16 {
			return // refused before decoding, or slow for go-cty's decoder too
		}
		got, ok := decodeJSON(s)
		want, err := stdlib.JSONDecodeFunc.Call([]cty.Value{cty.StringVal(s)})
		switch {
		case ok && err != nil:
			t.Errorf("%q decodes to %#v, but go-cty fails: %v", s, got, err)
		case ok && !got.RawEquals(want):
			t.Errorf("%q decodes to %#v, go-cty gives %#v", s, got, want)
		}
	})
}

// hugeExponent finds numbers whose exponent takes long to apply at
// go-cty's precision.
var hugeExponent = regexp.MustCompile(`[eE][-+]?0*[0-9]{5,}`)
