package config

import (
	"unicode/utf8"

	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/tfeval/tfeval/dialect"
)

// badIdentifierDetail is the detail Terraform gives for every invalid block name.
const badIdentifierDetail = "A name must start with a letter or underscore and may contain only letters, digits, underscores, and dashes."

// validName reports whether s can be used as a block name. hcl decides by
// lexing s; ASCII names, nearly all of them, are answered by their bytes.
func validName(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= utf8.RuneSelf:
			return hclsyntax.ValidIdentifier(s)
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c == '_':
		case (c >= '0' && c <= '9') || c == '-':
			if i == 0 {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// reservedVariableNames are the names a variable cannot have because a module
// block would read them as its own arguments or nested blocks.
func reservedVariableNames(d dialect.Dialect) map[string]bool {
	names := map[string]bool{
		"source": true, "version": true, "count": true, "for_each": true,
		"depends_on": true, "providers": true,
		"_": true, "lifecycle": true, "locals": true, "provider": true,
	}
	if d == dialect.Terraform {
		names["ignore_nested_deprecations"] = true
	}
	return names
}
