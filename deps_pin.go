package tfeval

// Blank imports keep the pinned dependencies in go.mod while the packages
// that use them are being written; remove once each has a real importer.
import (
	_ "github.com/agext/levenshtein"
	_ "github.com/apparentlymart/go-cidr/cidr"
	_ "github.com/bmatcuk/doublestar"
	_ "github.com/google/uuid"
	_ "github.com/hashicorp/go-uuid"
	_ "github.com/hashicorp/hcl/v2"
	_ "github.com/hashicorp/hcl/v2/ext/customdecode"
	_ "github.com/hashicorp/hcl/v2/ext/dynblock"
	_ "github.com/hashicorp/hcl/v2/ext/tryfunc"
	_ "github.com/hashicorp/hcl/v2/ext/typeexpr"
	_ "github.com/hashicorp/hcl/v2/gohcl"
	_ "github.com/hashicorp/hcl/v2/hcldec"
	_ "github.com/hashicorp/hcl/v2/hclsyntax"
	_ "github.com/hashicorp/hcl/v2/json"
	_ "github.com/mitchellh/go-homedir"
	_ "github.com/zclconf/go-cty-yaml"
	_ "github.com/zclconf/go-cty/cty/function/stdlib"
	_ "golang.org/x/crypto/bcrypt"
	_ "golang.org/x/crypto/ssh"
	_ "golang.org/x/text/encoding/ianaindex"
)
