package config

import (
	"fmt"
	"strings"

	"github.com/hashicorp/go-version"
	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"

	"github.com/tfeval/tfeval/dialect"
)

// OpenTofu 1.12 reads a top-level "language" block: the module's language
// edition (only tofu2024 exists), language experiments (none exist) and,
// in a compatible_with block, the OpenTofu versions the module works with.
// Terraform has no such block. OpenTofu keeps nothing of it once checked,
// and neither does tfeval; which OpenTofu version will run the module is
// not known here, so a compatible_with constraint is checked for its form,
// not against a version (as required_version is not).

// tofuEdition is the one language edition OpenTofu knows.
const tofuEdition = "tofu2024"

var languageBlockSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{{Name: "edition"}, {Name: "experiments"}},
	Blocks:     []hcl.BlockHeaderSchema{{Type: "compatible_with"}},
}

// compatibleWithSchema is what OpenTofu reads of a compatible_with block;
// anything else in it is left to other software.
var compatibleWithSchema = &hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: "opentofu"}}}

// languageBlock checks a top-level language block as OpenTofu does when it
// loads a file: first the compatible_with constraints' form (as OpenTofu
// reads them before anything else), then the block itself.
func (d *decoder) languageBlock(block *hcl.Block) hcl.Diagnostics {
	diags := languageConstraintForms(block)
	if d.override {
		return append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Language selections in override file",
			Detail:   "Language-related settings in \"language\" blocks are not allowed in override files. Place these settings in a normal configuration file.",
			Subject:  block.DefRange.Ptr(),
		})
	}
	content, cDiags := block.Body.Content(languageBlockSchema)
	diags = append(diags, cDiags...)
	if attr, ok := content.Attributes["edition"]; ok {
		if dg := tofuLanguageEdition(attr, d.dialect); dg != nil {
			diags = append(diags, dg)
		}
	}
	if attr, ok := content.Attributes["experiments"]; ok {
		diags = append(diags, languageExperiments(attr)...)
	}
	var declared *hcl.Range
	for _, nested := range content.Blocks {
		if declared != nil {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Duplicate compatible_with block",
				Detail:   fmt.Sprintf("Each language block may have at most one compatible_with block referring to OpenTofu. The OpenTofu version constraint was already declared at %s.", *declared),
				Subject:  block.DefRange.Ptr(),
			})
			continue
		}
		rng, constraints, vDiags := compatibleWithOpenTofu(nested)
		diags = append(diags, vDiags...)
		if constraints != nil && constraints.Check(version.Must(version.NewVersion("1.11.0"))) {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagWarning,
				Summary:  "Ineffective version constraint",
				Detail:   "The compatible_with block was added in OpenTofu v1.12.0, so any constraint specified this way should exclude earlier versions of OpenTofu, such as by including \">= 0.12.0\".\n\nIf your module must be compatible with earlier versions of OpenTofu, use the required_version argument in a \"terraform\" block in a file named with the .tofu suffix, which is an older way to specify OpenTofu version constraints.",
				Subject:  rng.Ptr(),
			})
		}
		declared = rng
	}
	return diags
}

// languageConstraintForms is what OpenTofu reports of the compatible_with
// constraints of a language block before it decodes the file: their
// decoding, and constraints that name a prerelease.
func languageConstraintForms(block *hcl.Block) hcl.Diagnostics {
	content, _, diags := block.Body.PartialContent(&hcl.BodySchema{Blocks: []hcl.BlockHeaderSchema{{Type: "compatible_with"}}})
	for _, nested := range content.Blocks {
		rng, constraints, vDiags := compatibleWithOpenTofu(nested)
		diags = append(diags, vDiags...)
		for _, c := range constraints {
			if v := c.Prerelease(); v {
				diags = append(diags, &hcl.Diagnostic{
					Severity: hcl.DiagError,
					Summary:  "Invalid required_version constraint",
					Detail:   fmt.Sprintf("Prerelease version constraints are not supported: %s. Remove the prerelease information from the constraint. Prerelease versions of OpenTofu will match constraints using their version core only.", c),
					Subject:  rng.Ptr(),
				})
			}
		}
	}
	return diags
}

// compatibleWithOpenTofu reads the opentofu argument of a compatible_with
// block: its range and constraints, nil where it has none or they do not
// decode.
func compatibleWithOpenTofu(block *hcl.Block) (*hcl.Range, version.Constraints, hcl.Diagnostics) {
	content, _, diags := block.Body.PartialContent(compatibleWithSchema)
	attr, ok := content.Attributes["opentofu"]
	if !ok {
		return nil, nil, diags
	}
	v, vDiags := attr.Expr.Value(nil)
	diags = append(diags, vDiags...)
	if vDiags.HasErrors() {
		return nil, nil, diags
	}
	invalid := func(detail string) hcl.Diagnostics {
		return append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid version constraint", Detail: detail, Subject: attr.Expr.Range().Ptr()})
	}
	s, err := convert.Convert(v, cty.String)
	switch {
	case err != nil:
		return nil, nil, invalid("A string value is required for opentofu.")
	case s.IsNull() || !s.IsWhollyKnown():
		return &attr.Range, nil, diags
	}
	constraints, err := version.NewConstraint(s.AsString())
	if err != nil {
		return nil, nil, invalid("This string does not use correct version constraint syntax.")
	}
	return &attr.Range, constraints, diags
}

// tofuLanguageEdition is OpenTofu's error of an edition other than
// tofu2024, nil for that one.
func tofuLanguageEdition(attr *hcl.Attribute, d dialect.Dialect) *hcl.Diagnostic {
	kw := hcl.ExprAsKeyword(attr.Expr)
	detail := ""
	switch {
	case kw == tofuEdition:
		return nil
	case kw == "":
		return &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Invalid language edition",
			Detail:   fmt.Sprintf("The \"edition\" argument expects a bare language edition keyword. OpenTofu %s supports only language edition %s, which is the default.", d.Version(), tofuEdition),
			Subject:  attr.Expr.Range().Ptr(),
		}
	case strings.HasPrefix(kw, "TF"):
		// OpenTofu names its own edition here, not the one written.
		detail = fmt.Sprintf("OpenTofu v%s does not support language edition %q. This module may be intended for use with other software.", d.Version(), tofuEdition)
	default:
		newer := "different"
		if kw > tofuEdition {
			newer = "newer"
		}
		detail = fmt.Sprintf("OpenTofu v%s only supports language edition %s. This module requires a %s version of OpenTofu CLI.", d.Version(), tofuEdition, newer)
	}
	return &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Unsupported language edition", Detail: detail, Subject: attr.Expr.Range().Ptr()}
}

// languageExperiments is OpenTofu's error of each language experiment a
// language block names: it has none.
func languageExperiments(attr *hcl.Attribute) hcl.Diagnostics {
	exprs, diags := hcl.ExprList(attr.Expr)
	if diags.HasErrors() {
		return diags
	}
	for _, e := range exprs {
		kw := hcl.ExprAsKeyword(e)
		if kw == "" {
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid experiment keyword", Detail: "Elements of \"experiments\" must all be keywords representing active experiments.", Subject: e.Range().Ptr()})
			continue
		}
		diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Unknown experiment keyword", Detail: fmt.Sprintf("There is no current experiment with the keyword %q.", kw), Subject: e.Range().Ptr()})
	}
	return diags
}
