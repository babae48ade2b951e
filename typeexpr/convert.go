package typeexpr

import (
	"fmt"
	"strings"

	hcltypeexpr "github.com/hashicorp/hcl/v2/ext/typeexpr"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
)

// Convert applies the optional-attribute defaults and then converts val to
// constraint. Defaults never replace a top-level null: a null value stays null
// (Terraform decides separately whether null is allowed). The error is
// go-cty's, usually a cty.PathError; FormatError renders it as Terraform does.
func Convert(val cty.Value, constraint cty.Type, defaults *hcltypeexpr.Defaults) (cty.Value, error) {
	if defaults != nil && !val.IsNull() {
		val = defaults.Apply(val)
	}
	return convert.Convert(val, constraint)
}

// FormatError renders a conversion error with its path in front, e.g.
// `.tags["a"]: a number is required`, the form Terraform uses in default-value
// and output-type diagnostics.
func FormatError(err error) string {
	perr, ok := err.(cty.PathError)
	if !ok || len(perr.Path) == 0 {
		return err.Error()
	}
	return fmt.Sprintf("%s: %s", FormatPath(perr.Path), perr.Error())
}

// FormatPath renders a cty.Path as attribute and index steps: .a["k"][0].
func FormatPath(path cty.Path) string {
	var b strings.Builder
	for _, step := range path {
		switch s := step.(type) {
		case cty.GetAttrStep:
			b.WriteString("." + s.Name)
		case cty.IndexStep:
			switch {
			case !s.Key.IsKnown():
				b.WriteString("[...]")
			case s.Key.Type() == cty.String:
				fmt.Fprintf(&b, "[%q]", s.Key.AsString())
			case s.Key.Type() == cty.Number:
				fmt.Fprintf(&b, "[%s]", s.Key.AsBigFloat().Text('f', -1))
			default:
				b.WriteString("[...]")
			}
		}
	}
	return b.String()
}
