// Package tfeval loads and evaluates Terraform and OpenTofu configurations
// exactly as those tools would during plan or in the console, without running
// them and without providers.
//
// Most users need only Evaluate: give it a module directory and the variable
// sources a command line would take, and walk the result's outputs, resource
// instances and diagnostics. The packages underneath (config, tfvars, funcs,
// lang, render) are usable on their own for finer control.
package tfeval

// Blank imports keep the pinned dependencies in go.mod while the packages
// that use them are being written; remove once each has a real importer.
import (
	_ "github.com/agext/levenshtein"
	_ "github.com/apparentlymart/go-cidr/cidr"
	_ "github.com/bmatcuk/doublestar"
	_ "github.com/google/uuid"
	_ "github.com/hashicorp/go-uuid"
	_ "github.com/hashicorp/hcl/v2/ext/customdecode"
	_ "github.com/hashicorp/hcl/v2/ext/dynblock"
	_ "github.com/hashicorp/hcl/v2/ext/tryfunc"
	_ "github.com/hashicorp/hcl/v2/gohcl"
	_ "github.com/hashicorp/hcl/v2/hcldec"
	_ "github.com/hashicorp/hcl/v2/json"
	_ "github.com/mitchellh/go-homedir"
	_ "github.com/mitchellh/go-wordwrap"
	_ "github.com/zclconf/go-cty-yaml"
	_ "github.com/zclconf/go-cty/cty/function/stdlib"
	_ "golang.org/x/crypto/bcrypt"
	_ "golang.org/x/crypto/ssh"
	_ "golang.org/x/text/encoding/ianaindex"
)
