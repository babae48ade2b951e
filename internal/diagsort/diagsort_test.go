package diagsort

import (
	"math/rand/v2"
	"testing"

	"github.com/hashicorp/hcl/v2"
)

func TestByPosition(t *testing.T) {
	at := func(file string, b int) *hcl.Range {
		return &hcl.Range{Filename: file, Start: hcl.Pos{Byte: b}, End: hcl.Pos{Byte: b + 1}}
	}
	want := hcl.Diagnostics{
		{Summary: "a", Subject: at("a.tf", 3)},
		{Summary: "b", Subject: at("a.tf", 9)},
		{Summary: "c", Subject: at("a.tf", 9)},
		{Summary: "d", Subject: at("b.tf", 0)},
		{Summary: "e"},
		{Summary: "f"},
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 20 {
		got := append(hcl.Diagnostics(nil), want...)
		// Shuffle a, the pair b-c (whose order must hold, as the two
		// without a subject) and d.
		units := [][]*hcl.Diagnostic{{want[0]}, {want[1], want[2]}, {want[3]}}
		r.Shuffle(len(units), func(i, j int) { units[i], units[j] = units[j], units[i] })
		got = got[:0]
		for _, u := range units {
			got = append(got, u...)
		}
		got = append(got, want[4], want[5])
		ByPosition(got)
		for i := range want {
			if got[i] != want[i] {
				t.Fatalf("position %d: got %q, want %q", i, got[i].Summary, want[i].Summary)
			}
		}
	}
}
