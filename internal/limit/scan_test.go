package limit

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/hashicorp/hcl/v2"
)

// lexedTokens is how many tokens hcl's lexer makes of src, without the
// end-of-file token.
func lexedTokens(src []byte, syntax Syntax) int {
	return len(lex(src, "x.tf", hcl.InitialPos, syntax)) - 1
}

func TestScanCountsTokens(t *testing.T) {
	for _, src := range []string{
		"a = 1\n",
		"# comment\n// comment\n/* block */ a = b.c[0] == \"x${y}z\"\n",
		"a = <<EOT\nline ${b}\n$x and %y\nEOT\nb = <<-EOT\n  indented\n  EOT\n",
		"a = \"$${x} %%{y} \\\" \\n\"\n",
		"a = [for k, v in var.m : k => v if v != null]\n",
		"a = \"${ {x = \"}\"} }\"\n",
		"a = café + \"é\" ✓✓✓\n",
		"a = \"unterminated\nb = 1\n",
		"a = <<EOT\nnever closed\n",
	} {
		s := scanSource([]byte(src), Config)
		if want := lexedTokens([]byte(src), Config); s.tokens < want {
			t.Errorf("%q: scanned %d tokens, fewer than hcl's %d", src, s.tokens, want)
		}
		if len(src) > 0 && s.tokens > 4*len(src) {
			t.Errorf("%q: scanned %d tokens from %d bytes", src, s.tokens, len(src))
		}
	}
}

func TestCheckCosts(t *testing.T) {
	big := func(n int, line string) string { return strings.Repeat(line, n) }
	tests := []struct {
		name, src string
		syntax    Syntax
		want      string // summary, "" for none
	}{
		{"ordinary file", big(2000, "a = \"x\"\n"), Config, ""},
		{"a few thousand heredoc lines", "a = <<EOT\n" + big(3000, "line of text, not short at all\n") + "EOT\n", Config, ""},
		{"40,000 heredoc lines", "a = <<EOT\n" + big(40000, "line\n") + "EOT\n", Config, ""},
		{"40,000 flush heredoc lines", "a = <<-EOT\n" + big(40000, "  line ${x}\n") + "  EOT\n", Config, ""},
		{"40,000 heredoc lines inside one directive", "a = <<EOT\n%{ if x }\n" + big(40000, "line\n") + "%{ endif }\nEOT\n", Config, "Template too large"},
		{"40,000 flush heredoc lines with a directive", "a = <<-EOT\n" + big(40000, "line\n") + "%{ if x }y%{ endif }\nEOT\n", Config, "Template too large"},
		{"40,000 heredoc lines in an interpolation", "a = \"${<<EOT\n" + big(40000, "line\n") + "EOT\n}\"\n", Config, "Template too large"},
		{"many escapes", "a = \"" + big(40000, "$${x}") + "\"\n", Config, "Template too large"},
		{"many dollars in a template file", big(20000, "$x $y\n"), Template, "Template too large"},
		{"a template file of 40,000 lines", big(40000, "kind: ${x} # 100%\n"), Template, ""},
		{"40,000 lines inside one directive", "%{ if x }\n" + big(40000, "line\n") + "%{ endif }\n", Template, "Template too large"},
		{"a million comment lines", big(600_000, "#\n"), Config, "Source too large"},
		{"a million newlines", big(600_000, "\n"), Config, "Source too large"},
		{"a long list", "a = [" + big(300_000, "1,") + "]\n", Config, "Source too large"},
		{"one long string", "a = \"" + big(10<<20, "a") + "\"\n", Config, ""},
	}
	for _, tt := range tests {
		diags := checkCosts([]byte(tt.src), "x.tf", hcl.InitialPos, tt.syntax)
		switch {
		case tt.want == "" && diags.HasErrors():
			t.Errorf("%s: %v", tt.name, diags)
		case tt.want != "" && (!diags.HasErrors() || diags[0].Summary != tt.want):
			t.Errorf("%s: got %v, want %q", tt.name, diags, tt.want)
		case tt.want != "" && diags[0].Subject == nil:
			t.Errorf("%s: no range", tt.name)
		}
	}
}

func TestJSONTokens(t *testing.T) {
	for _, src := range []string{`{"a": [1, 2.5, true, null, "x\"y"]}`, `[[[]]]`, `{"a":{"b":"${c}"}}`} {
		if n := jsonTokens([]byte(src)); n < strings.Count(src, ",")+strings.Count(src, ":") {
			t.Errorf("%s: %d tokens", src, n)
		}
	}
	if d := CheckJSONSource([]byte("["+strings.Repeat("1,", 300_000)+"1]"), "x.tf.json", 0); !d.HasErrors() || d[0].Summary != "Source too large" {
		t.Errorf("a long JSON array: %v", d)
	}
}

func TestLongNumberLiterals(t *testing.T) {
	for name, src := range map[string]string{
		"integer without exponent": "a = " + strings.Repeat("9", 10000) + "\n",
		"padded with zeros":        "a = " + strings.Repeat("0", 30000) + "1\n",
		"a million digits":         "a = " + strings.Repeat("1", 1_000_000) + "\n",
		"in a template":            "a = \"${" + strings.Repeat("9", 10000) + "}\"\n",
	} {
		if d := CheckSource([]byte(src), "x.tf", hcl.InitialPos, Config, 0); !d.HasErrors() || d[0].Summary != "Number too large" {
			t.Errorf("%s: %v", name, d)
		}
	}
	if d := CheckSource([]byte("a = "+strings.Repeat("9", 5000)+"\n"), "x.tf", hcl.InitialPos, Config, 0); d.HasErrors() {
		t.Errorf("a 5,000-digit integer: %v", d)
	}
}

// FuzzSourceScan checks that the scan never counts far fewer tokens than
// hcl's lexer makes, which would let a source past MaxSourceTokens.
func FuzzSourceScan(f *testing.F) {
	for _, s := range []string{"a = 1\n", "a = \"${b}\"\n", "a = <<EOT\n$x\nEOT\n", "# c\n/* d */", "✓ é \"x", "%{ if a }b%{ endif }"} {
		f.Add(s, false)
		f.Add(s, true)
	}
	f.Fuzz(func(t *testing.T, src string, template bool) {
		syntax := Config
		if template {
			syntax = Template
		}
		if !utf8.ValidString(src) {
			return // checkCosts counts every byte as a token
		}
		s := scanSource([]byte(src), syntax)
		if want := lexedTokens([]byte(src), syntax); s.tokens < want/2 {
			t.Errorf("%q: scanned %d tokens, hcl makes %d", src, s.tokens, want)
		}
	})
}

// scanWithinBound checks what withinCosts relies on, for src in every
// grammar: the scan counts at most three tokens a byte, and no template it
// (or the scan of a heredoc's pieces) records costs more than the bound
// the counts of newlines, "$" and "%" give.
func scanWithinBound(t *testing.T, src []byte) {
	t.Helper()
	parts := int64(1 + strings.Count(string(src), "\n") + 2*(strings.Count(string(src), "$")+strings.Count(string(src), "%")))
	bound := parts*parts*8 + parts*int64(len(src)/2)
	for _, syntax := range []Syntax{Config, Expression, Template} {
		s := scanSource(src, syntax)
		if s.tokens > 3*len(src) {
			t.Errorf("%.40q (syntax %d): %d tokens from %d bytes", src, syntax, s.tokens, len(src))
		}
		if int64(s.worst) > bound {
			t.Errorf("%.40q (syntax %d): cost %d over the bound %d", src, syntax, s.worst, bound)
		}
		for _, h := range s.heredocs {
			if w := scanSource(src[h.body:h.closer], Template).worst; int64(w) > bound {
				t.Errorf("%.40q (syntax %d): heredoc cost %d over the bound %d", src, syntax, w, bound)
			}
		}
	}
}

func TestWithinCostsBoundsTheScan(t *testing.T) {
	big := func(n int, line string) string { return strings.Repeat(line, n) }
	for _, src := range []string{
		"",
		"\"\"\"\"\"",
		"$$$$%%%%${${${",
		"a = \"$\"\"%\"\"${x}\"\n",
		"a = <<EOT\n$x\n%y\r\nEOT\n",
		big(2000, "a = \"x\"\n"),
		"a = <<EOT\n" + big(3000, "line ${x} 100%\n") + "EOT\n",
		"a = <<-EOT\n" + big(3000, "  line ${x}\n") + "  EOT\n",
		big(3000, "kind: ${x} # 100%\n"),
		"%{ if x }\n" + big(3000, "line\n") + "%{ endif }\n",
		"a = \"" + big(3000, "$${x}") + "\"\n",
		big(5000, "\"\r"),
	} {
		scanWithinBound(t, []byte(src))
	}
	// The bound lets ordinary files through and sends costly ones to the scan.
	if !withinCosts([]byte(big(2000, "a = \"${x}\"\n"))) {
		t.Error("an ordinary file of 2,000 lines is scanned")
	}
	for _, src := range []string{big(20000, "$x $y\n"), big(200_000, "\n")} {
		if withinCosts([]byte(src)) {
			t.Errorf("%.20q... is not scanned", src)
		}
	}
}

// FuzzWithinCosts holds the bound withinCosts takes over the scan.
func FuzzWithinCosts(f *testing.F) {
	for _, s := range []string{"a = 1\n", "a = \"${b}\"\n", "a = <<EOT\n$x\nEOT\n", "\"\"\"", "$$%%", "%{ if a }b%{ endif }", "a = <<-EOT\n  x\r\n  EOT\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		scanWithinBound(t, []byte(src))
	})
}
