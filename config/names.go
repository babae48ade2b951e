package config

import (
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/tfeval/tfeval/dialect"
)

// badIdentifierDetail is the detail Terraform gives for every invalid block name.
const badIdentifierDetail = "A name must start with a letter or underscore and may contain only letters, digits, underscores, and dashes."

// validName reports whether s can be used as a block name.
func validName(s string) bool { return hclsyntax.ValidIdentifier(s) }

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
