package limit

import (
	"strings"
	"testing"
)

func TestByteChecks(t *testing.T) {
	many := strings.Repeat("a = b + c\n", 60) // 120 openers
	tests := []struct {
		name, src string
		limit     int
	}{
		{"empty", "", 10},
		{"few openers, no number", "a = b\n", 10},
		{"an opener over the limit", many, 100},
		{"a huge exponent before the limit", "a = 1e10000\n" + many, 500},
		{"a huge exponent after the limit", many + "a = 1e+10000\n", 100},
		{"a huge exponent just at the limit's opener", "{{{1e-9999", 3},
		{"an exponent sign counted as an opener", "1e+1 1e-1", 1},
		{"a point then an exponent", "a = .5e1234\n", 10},
		{"a long run of digits", "a = " + strings.Repeat("7", 1200) + " + 1\n", 1},
		{"digits between openers", "(1)(22)(333).4.", 2},
		{"short numbers", "a = [1.5, 2e3, 3E-12, 0.25]\n", 100},
	}
	for _, tt := range tests {
		few, huge := byteChecks([]byte(tt.src), tt.limit)
		if want := fewOpeners([]byte(tt.src), tt.limit); few != want {
			t.Errorf("%s: few %v, fewOpeners %v", tt.name, few, want)
		}
		if want := mayHaveHugeLiteral([]byte(tt.src)); huge != want {
			t.Errorf("%s: mayHuge %v, mayHaveHugeLiteral %v", tt.name, huge, want)
		}
	}
}

// FuzzByteChecks holds the one pass to the two checks it makes.
func FuzzByteChecks(f *testing.F) {
	f.Add([]byte("a = 1e10000 + (b)"), 2)
	f.Add([]byte("{{{1e-9999"), 3)
	f.Add([]byte("(1)(22)(333).4."), 1)
	f.Add([]byte(".5e1234 + 9"), 0)
	f.Fuzz(func(t *testing.T, src []byte, limit int) {
		if limit < 0 || limit > 1<<20 {
			return
		}
		few, huge := byteChecks(src, limit)
		if want := fewOpeners(src, limit); few != want {
			t.Errorf("%q, %d: few %v, fewOpeners %v", src, limit, few, want)
		}
		if want := mayHaveHugeLiteral(src); huge != want {
			t.Errorf("%q, %d: mayHuge %v, mayHaveHugeLiteral %v", src, limit, huge, want)
		}
	})
}
