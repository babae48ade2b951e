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

// reservedVariableName reports whether a variable cannot have name because
// a module block would read it as its own argument or nested block.
func reservedVariableName(d dialect.Dialect, name string) bool {
	switch name {
	case "source", "version", "count", "for_each", "depends_on", "providers",
		"_", "lifecycle", "locals", "provider":
		return true
	case "ignore_nested_deprecations":
		return d == dialect.Terraform
	}
	return false
}
