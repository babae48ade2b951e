package tfvars

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/gohcl"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/tfeval/tfeval/config"
	"github.com/tfeval/tfeval/typeexpr"
)

// declare builds a variable declaration by hand, the way the config loader
// would: typeSrc and defaultSrc are HCL expressions ("" when absent).
func declare(t *testing.T, name, typeSrc, defaultSrc string) *config.Variable {
	t.Helper()
	v := &config.Variable{
		Name:           name,
		Type:           cty.DynamicPseudoType,
		ConstraintType: cty.DynamicPseudoType,
		Nullable:       true,
		ParsingMode:    config.VariableParseLiteral,
		DeclRange: hcl.Range{Filename: "main.tf",
			Start: hcl.Pos{Line: 1, Column: 1, Byte: 0},
			End:   hcl.Pos{Line: 1, Column: 11 + len(name), Byte: 10 + len(name)}},
	}
	if typeSrc != "" {
		expr, diags := hclsyntax.ParseExpression([]byte(typeSrc), "type.tf", hcl.InitialPos)
		if diags.HasErrors() {
			t.Fatalf("type %q: %s", typeSrc, diags)
		}
		ty, defaults, parseHCL, diags := typeexpr.TypeConstraint(expr)
		if diags.HasErrors() {
			t.Fatalf("type %q: %s", typeSrc, diags)
		}
		v.ConstraintType, v.TypeDefaults, v.Type = ty, defaults, ty.WithoutOptionalAttributesDeep()
		v.TypeSet = true
		if parseHCL {
			v.ParsingMode = config.VariableParseHCL
		}
	}
	if defaultSrc != "" {
		expr, diags := hclsyntax.ParseExpression([]byte(defaultSrc), "default.tf", hcl.InitialPos)
		if diags.HasErrors() {
			t.Fatalf("default %q: %s", defaultSrc, diags)
		}
		val, diags := expr.Value(nil)
		if diags.HasErrors() {
			t.Fatalf("default %q: %s", defaultSrc, diags)
		}
		if !val.IsNull() {
			conv, err := typeexpr.Convert(val, v.ConstraintType, v.TypeDefaults)
			if err != nil {
				t.Fatalf("default %q: %s", defaultSrc, err)
			}
			val = conv
		}
		v.Default = val
	}
	return v
}

// loadVariables is a minimal stand-in for the config loader: it reads the
// variable blocks of every .tf file in dir.
func loadVariables(t *testing.T, dir string) map[string]*config.Variable {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(dir, "*.tf"))
	out := map[string]*config.Variable{}
	for _, path := range files {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		f, diags := hclsyntax.ParseConfig(src, filepath.Base(path), hcl.InitialPos)
		if diags.HasErrors() {
			t.Fatalf("%s: %s", path, diags)
		}
		content, _, _ := f.Body.PartialContent(&hcl.BodySchema{
			Blocks: []hcl.BlockHeaderSchema{{Type: "variable", LabelNames: []string{"name"}}},
		})
		for _, block := range content.Blocks {
			v := &config.Variable{
				Name:           block.Labels[0],
				Type:           cty.DynamicPseudoType,
				ConstraintType: cty.DynamicPseudoType,
				Nullable:       true,
				DeclRange:      block.DefRange,
			}
			attrs, diags := block.Body.JustAttributes()
			if diags.HasErrors() {
				t.Fatalf("%s: %s", path, diags)
			}
			if a, ok := attrs["type"]; ok {
				ty, defaults, parseHCL, diags := typeexpr.TypeConstraint(a.Expr)
				if diags.HasErrors() {
					t.Fatalf("%s: %s", path, diags)
				}
				v.ConstraintType, v.TypeDefaults, v.Type = ty, defaults, ty.WithoutOptionalAttributesDeep()
				if parseHCL {
					v.ParsingMode = config.VariableParseHCL
				}
			}
			for name, dst := range map[string]*bool{"nullable": &v.Nullable, "sensitive": &v.Sensitive, "ephemeral": &v.Ephemeral} {
				if a, ok := attrs[name]; ok {
					if diags := gohcl.DecodeExpression(a.Expr, nil, dst); diags.HasErrors() {
						t.Fatalf("%s: %s", path, diags)
					}
				}
			}
			if a, ok := attrs["default"]; ok {
				val, diags := a.Expr.Value(nil)
				if diags.HasErrors() {
					t.Fatalf("%s: %s", path, diags)
				}
				if !val.IsNull() {
					conv, err := typeexpr.Convert(val, v.ConstraintType, v.TypeDefaults)
					if err != nil {
						t.Fatalf("%s: default of %s: %s", path, v.Name, err)
					}
					val = conv
				}
				v.Default = val
			}
			out[v.Name] = v
		}
	}
	return out
}
