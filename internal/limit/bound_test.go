package limit

import (
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
)

// exactDepth is the deepest nesting the lexer-based check finds in src:
// the smallest limit it accepts. A limit of 0 means the default, so a
// source with no nesting at all gives 1; compare with max(bound, 1).
func exactDepth(src []byte, syntax Syntax) int {
	lo, hi := 1, len(src)+1
	for lo < hi {
		m := (lo + hi) / 2
		if lexedNesting(src, "x.tf", hcl.InitialPos, syntax, m, 0).HasErrors() {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

func TestDepthBound(t *testing.T) {
	for _, tc := range []struct {
		src string
		ok  bool
	}{
		{`a = 1`, true},
		{`a = [1, [2, [3]]]`, true},
		{`a = {b = {c = "${d[0] + 1}"}}`, true},
		{"a = x + y\nb = z - w\n", true},
		{"locals {\n  a = x * y\n  b = x / y\n  c = !x || y && z\n}\n", true},
		{`a = "}}}}" # "{{{{`, true},
		{"a = 1 // [[[[\nb = 2 /* ((((\n)) */", true},
		{`a = "x${ {b = "${c}"}.b }y"`, true},
		{`a = "%{ if x }y%{ else }z%{ endif }"`, true},
		{`a = "\"${x}\\"`, true},
		{`a = x[*].y["k"][0]`, true},
		{`a = [for k, v in m : k => v if v != null]`, true},
		{`a = -1e-5 >= 2 ? 3 : 4 % 5`, true},
		{"a = <<EOT\n${x}\nEOT\n", true},
		{"a = <<-EOT\n  [[[ ${ [[x]] } %{ if [y] }((z))%{ endif }\n  EOT\nb = [[1]]\n", true},
		{"a = <<EOT\r\n${x}\r\nEOT\r\n", true},
		{"a = <<EOT\n${x}EOT\nEOT\n", true},
		{"a = <<EOT\n${ <<EOT\n[[[${y}\nEOT\n }\nEOT\n", true},
		{"a = <<EOT\n$${ [[[ %%{ (((\nEOT\n", true},
		{"a = <<EOT\n\u00a0EOT\u00a0\n", true},
		{"a = [<<EOT\n}\nEOT\n, <<B_2-x\n]\nB_2-x\n]", true},
		{"a = x <<EOT\nb = 1\n", false},
		{"a = x << y", true},
		{"a = 1\n<<<EOT\nEOT\n", true},
		{"a = <<EOT\nx\nEOT", false},
		{"a = <<EOT\nx\rEOT\nEOT\n", false},
		{"a = <<EOT\nx\nEOT\r \n", false},
		{"a = <<EOTé\nx\nEOTé\n", false},
		{"a = <<é\nx\né\n", false},
		{`a = "$${x}"`, true},
		{`a = "%%{x}"`, true},
		{`a = "$$${ [[[1]]] }"`, true},
		{`a = "$$$${ [[[1]]] }"`, true},
		{`a = "$$ ${ [[[1]]] } %% %{ if [[[x]]] }y%{ endif }"`, true},
		{`a = "$${ [[[1]]] }${ [[[[2]]]] }%%{ (((3))) }"`, true},
		{`a = "$$"`, true},
		{`a = "x$$"`, true},
		{`a = "%%{"`, true},
		{`a = "$${"`, true},
		{`a = "$$$"`, true},
		{"a = \"x\nb = 1", false},
		{`a = "x`, false},
		{"a = 1 /* open", false},
		{`a = [1, 2`, false},
		{`a = 1]`, false},
		{`a = (1]`, false},
		{`a = "${)}"`, false},
		{"a = \"${\xca}0\"", false},
	} {
		bound, ok := depthBound([]byte(tc.src), math.MaxInt)
		if ok != tc.ok {
			t.Errorf("%q: ok = %v, want %v", tc.src, ok, tc.ok)
			continue
		}
		if exact := exactDepth([]byte(tc.src), Config); ok && max(bound, 1) < exact {
			t.Errorf("%q: bound %d below the lexer's depth %d", tc.src, bound, exact)
		}
	}
}

// TestDepthBoundOnFixtures holds the bound to the lexer on every native
// syntax file in the repository's fixtures, and checks that ordinary
// files are decided without lexing.
func TestDepthBoundOnFixtures(t *testing.T) {
	files, decided := 0, 0
	err := filepath.WalkDir("../../testdata", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !(strings.HasSuffix(path, ".tf") || strings.HasSuffix(path, ".tfvars")) {
			return err
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		files++
		bound, ok := depthBound(src, math.MaxInt)
		if !ok {
			return nil
		}
		decided++
		if exact := exactDepth(src, Config); max(bound, 1) < exact {
			t.Errorf("%s: bound %d below the lexer's depth %d", path, bound, exact)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 100 || decided*10 < files*9 {
		t.Errorf("the bound decided %d of %d fixture files; want at least 90%%", decided, files)
	}
}

func TestCheckNestingSkipsLexing(t *testing.T) {
	var b strings.Builder
	for i := range 300 {
		b.WriteString("a")
		b.WriteString(strings.Repeat("x", i%7))
		b.WriteString(` = "${var.p}-${var.q}" == "x-y" ? [1, 2] : [3]` + "\n")
	}
	src := []byte(b.String())
	if fewOpeners(src, DefaultMaxNesting) {
		t.Fatalf("the source has at most %d openers; the test needs more", DefaultMaxNesting)
	}
	if bound, ok := depthBound(src, DefaultMaxNesting); !ok || bound > 10 {
		t.Fatalf("depthBound = %d, %v; want a small bound", bound, ok)
	}
	if n := testing.AllocsPerRun(10, func() {
		CheckNesting(src, "x.tf", hcl.InitialPos, Config, 0)
	}); n > 2 {
		t.Errorf("CheckNesting made %v allocations; a source the bound decides needs no lexing", n)
	}
	deep := []byte("a = " + strings.Repeat("[", 600) + strings.Repeat("]", 600))
	if !CheckNesting(deep, "x.tf", hcl.InitialPos, Config, 0).HasErrors() {
		t.Error("600 nested brackets passed the check")
	}
}

// TestDepthBoundStops checks that an absurdly deep source is given up on
// at the limit, not scanned with a frame per byte.
func TestDepthBoundStops(t *testing.T) {
	src := []byte("a = " + strings.Repeat("[", 1<<20))
	var bound int
	var ok bool
	if a := testing.AllocsPerRun(3, func() { bound, ok = depthBound(src, 500) }); a > 10 {
		t.Errorf("depthBound made %v allocations on a megabyte of brackets", a)
	}
	if !ok || bound <= 500 || bound > 502 {
		t.Errorf("depthBound = %d, %v; want just past the limit of 500", bound, ok)
	}
}

func FuzzDepthBound(f *testing.F) {
	for _, s := range []string{
		`a = {b = {c = "${d[0] + 1}"}}`,
		"a = 1 // [[[[\nb = 2 /* ((((\n)) */",
		`a = "x${ {b = "${c}"}.b }y"`,
		`a = "%{ if x }y%{ else }z%{ endif }"`,
		"locals {\n  a = x * y\n  b = [\n 1 +\n 2,\n 3]\n}\n",
		`a = "\"${x}\\"`,
		"# c\na = x[*].y[\"k\"][0] # d\n",
		`a = "$$${ [[[1]]] }%%%{ if [x] }y%{ endif }$${z}"`,
		"a = <<-EOT\n  [[[ ${ [[x]] } %{ if [y] }((z))%{ endif }\n  EOT\nb = [[1]]\n",
		"a = <<EOT\n${ <<EOT\n[[[${y}\nEOT\n }EOT\nEOT\n",
		"a = [<<EOT\r\n}\r\nEOT\r\n, <<B_2-x\n]\nB_2-x\n]",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		if len(src) > 4096 {
			return
		}
		bound, ok := depthBound(src, math.MaxInt)
		if !ok {
			return
		}
		for _, syntax := range []Syntax{Config, Expression} {
			if exact := exactDepth(src, syntax); max(bound, 1) < exact {
				t.Fatalf("%q: bound %d below the lexer's depth %d", src, bound, exact)
			}
		}
	})
}
