package numtext

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/zclconf/go-cty/cty"
)

// check compares Append with big.Float's own Text('f', -1).
func check(t *testing.T, f *big.Float) {
	t.Helper()
	if got, want := string(Append([]byte("x"), f)), "x"+f.Text('f', -1); got != want {
		t.Fatalf("%s (prec %d): got %q, want %q", f.Text('g', 30), f.Prec(), got, want)
	}
}

func TestAppend(t *testing.T) {
	parse := func(s string, prec uint) *big.Float {
		f, _, err := big.ParseFloat(s, 10, prec, big.ToNearestEven)
		if err != nil {
			t.Fatal(err)
		}
		return f
	}
	for _, s := range []string{"0", "-0", "1", "-1", "443", "8080", "1e18", "9223372036854775807", "-9223372036854775808",
		"9223372036854775808", "1e30", "0.5", "-2.5e-3", "123456789.000001", "1e-400"} {
		for _, prec := range []uint{8, 24, 53, 64, 65, 512} {
			check(t, parse(s, prec))
		}
	}
	check(t, new(big.Float).SetInf(false))
	check(t, new(big.Float).SetInf(true))
	// An integer held with too few bits rounds: its shortest decimal is
	// not its plain digits.
	check(t, new(big.Float).SetPrec(10).SetInt64(123457))
	r := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		n := r.Int64N(math.MaxInt64) >> r.IntN(63)
		if r.IntN(2) == 0 {
			n = -n
		}
		check(t, new(big.Float).SetPrec(uint(1+r.IntN(100))).SetInt64(n))
		check(t, cty.NumberIntVal(n).AsBigFloat())
	}
}

func TestString(t *testing.T) {
	for _, v := range []cty.Value{cty.NumberIntVal(42), cty.NumberIntVal(-7), cty.NumberFloatVal(0.25), cty.MustParseNumberVal("1e40")} {
		if got, want := String(v), v.AsBigFloat().Text('f', -1); got != want {
			t.Errorf("String(%#v) = %q, want %q", v, got, want)
		}
	}
}

func TestAppendAllocations(t *testing.T) {
	f := cty.NumberIntVal(12345).AsBigFloat()
	buf := make([]byte, 0, 32)
	if n := testing.AllocsPerRun(100, func() { _ = Append(buf[:0], f) }); n != 0 {
		t.Errorf("Append of a whole number: %.0f allocations, want 0", n)
	}
}

// FuzzAppend compares Append with Text for mant × 2^exp held at any
// precision: whole numbers on both sides of 2^63 and of the precision,
// fractions and huge numbers.
func FuzzAppend(f *testing.F) {
	for _, seed := range []struct {
		mant int64
		exp  int16
		prec uint16
	}{{443, 0, 512}, {-1, 62, 64}, {1, 63, 64}, {123457, 0, 10}, {3, -1, 53}, {1, 60, 53}, {0, 0, 64}, {7, 300, 512}} {
		f.Add(seed.mant, seed.exp, seed.prec)
	}
	f.Fuzz(func(t *testing.T, mant int64, exp int16, prec uint16) {
		if prec == 0 || prec > 4096 || exp > 4096 || exp < -4096 {
			return
		}
		bf := new(big.Float).SetPrec(uint(prec)).SetInt64(mant)
		check(t, bf.SetMantExp(bf, int(exp)))
	})
}
