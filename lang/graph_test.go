package lang

import (
	"strings"
	"testing"

	"github.com/tfeval/tfeval/config"
)

// TestCompareIDs holds the order of a node's dependencies to the order of
// their display names, which compareIDs compares without making them.
func TestCompareIDs(t *testing.T) {
	root := &config.Config{}
	a := &config.Config{Path: []string{"a"}}
	ab := &config.Config{Path: []string{"a", "b"}}
	long := &config.Config{Path: []string{strings.Repeat("m", 70), strings.Repeat("n", 70)}}
	// Paths that share calls, or whose names run into what follows them.
	abc := &config.Config{Path: []string{"a", "b", "c"}}
	aVar := &config.Config{Path: []string{"a", "var"}}
	ab2 := &config.Config{Path: []string{"ab"}}
	aDot := &config.Config{Path: []string{"a.module"}}
	empty := &config.Config{Path: []string{""}}
	nodes := []*node{
		{kind: nodeVar, cfg: root, name: "x"},
		{kind: nodeVar, cfg: root, name: "xy"},
		{kind: nodeLocal, cfg: root, name: "x"},
		{kind: nodeLocal, cfg: root, name: ""},
		{kind: nodeCall, cfg: root, name: "a"},
		{kind: nodeCall, cfg: root, name: "a.b"},
		{kind: nodeOutput, cfg: root, name: "o"},
		{kind: nodeCheck, cfg: root, name: "c"},
		{kind: nodeResource, cfg: root, name: "local_file.f"},
		{kind: nodeResource, cfg: root, name: "module"},
		{kind: nodeResource, cfg: root, name: "module.a"},
		{kind: nodeResource, cfg: root, name: "var"},
		{kind: nodeResource, cfg: root, name: "var.x"},
		{kind: nodeResource, cfg: root, name: "data.d.e"},
		{kind: nodeResource, cfg: root, name: "checks"},
		{kind: nodeVar, cfg: a, name: "x"},
		{kind: nodeOutput, cfg: a, name: "x"},
		{kind: nodeResource, cfg: a, name: "z.y"},
		{kind: nodeVar, cfg: ab, name: "x"},
		{kind: nodeLocal, cfg: ab, name: "l"},
		{kind: nodeVar, cfg: long, name: strings.Repeat("v", 40)},
		{kind: nodeLocal, cfg: long, name: strings.Repeat("v", 40)},
		{kind: nodeVar, cfg: abc, name: "x"},
		{kind: nodeResource, cfg: abc, name: "r.s"},
		{kind: nodeVar, cfg: aVar, name: "x"},
		{kind: nodeResource, cfg: aVar, name: "x"},
		{kind: nodeCall, cfg: a, name: "b"},
		{kind: nodeResource, cfg: a, name: "module.b"},
		{kind: nodeResource, cfg: a, name: "var.x"},
		{kind: nodeVar, cfg: ab2, name: "x"},
		{kind: nodeResource, cfg: ab2, name: ""},
		{kind: nodeVar, cfg: aDot, name: "x"},
		{kind: nodeResource, cfg: aDot, name: "b.var.x"},
		{kind: nodeOutput, cfg: empty, name: "o"},
		{kind: nodeResource, cfg: empty, name: ""},
		{kind: nodeResource, cfg: root, name: "module..output.o"},
	}
	for _, x := range nodes {
		for _, y := range nodes {
			if got, want := compareIDs(x, y), strings.Compare(x.id(), y.id()); got != want {
				t.Errorf("compareIDs(%q, %q) = %d, want %d", x.id(), y.id(), got, want)
			}
		}
	}
}

// TestCompareJoined compares two strings made of two parts each, split at
// every place, as the joined strings compare.
func TestCompareJoined(t *testing.T) {
	words := []string{"", "a", "ab", "abc", "b", "var.x", "var.xy", "variable", "local.", "module.a.b"}
	for _, x := range words {
		for _, y := range words {
			want := strings.Compare(x, y)
			for i := 0; i <= len(x); i++ {
				for j := 0; j <= len(y); j++ {
					if got := compareJoined(x[:i], x[i:], y[:j], y[j:]); got != want {
						t.Errorf("compareJoined(%q, %q, %q, %q) = %d, want %d", x[:i], x[i:], y[:j], y[j:], got, want)
					}
				}
			}
		}
	}
}
