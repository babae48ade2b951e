package config

import (
	"testing"

	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// validName must agree with hcl's lexer on every name, ASCII or not.
func TestValidNameMatchesHCL(t *testing.T) {
	names := []string{"", "a", "_", "-", "a-b_c9", "9a", "-a", "_9", "a.b", "a b", "a\x00", "true", "null", "for",
		"ünïcode", "日本", "a日", "\u200d", "a\u0301", "Z", "aZ-", "a\n", "a$", "${a}", "a~"}
	for c := 0; c < 128; c++ {
		names = append(names, string(rune(c)), "a"+string(rune(c)), string(rune(c))+"a")
	}
	for _, n := range names {
		if got, want := validName(n), hclsyntax.ValidIdentifier(n); got != want {
			t.Errorf("validName(%q) = %v, hcl says %v", n, got, want)
		}
	}
}
