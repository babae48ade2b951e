package tfvars

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/gocty"

	"github.com/tfeval/tfeval/internal/limit"
)

// Value is a raw value for one variable before final preparation.
type Value struct {
	// Value is the parsed value; cty.NilVal while Unparsed is true.
	Value  cty.Value
	Source Source
	// Raw is the text given on the command line or in the environment (or
	// to FromString), kept so listings can show what the user typed.
	Raw string
	// Unparsed is true when Raw has not been parsed yet because the
	// declaration's parsing mode was unknown; Prepare parses it.
	Unparsed bool
	// Expr is the expression a file or module argument gave, when there is one.
	Expr hcl.Expression
	// NoEphemeral is set by an evaluator that knows Value holds no
	// ephemeral value anywhere (none has been made yet): Prepare then
	// need not search it for one.
	NoEphemeral bool
}

// FromCty wraps a cty value given through the Go API.
func FromCty(v cty.Value) *Value {
	return &Value{Value: v, Source: Source{Kind: SourceGo}}
}

// FromGo converts a Go value (string, number, bool, slice, map, struct with
// cty tags, ...) with gocty's implied type and wraps it as a Go API value.
func FromGo(v any) (*Value, error) {
	ty, err := gocty.ImpliedType(v)
	if err != nil {
		return nil, fmt.Errorf("cannot infer a type for %T: %w", v, err)
	}
	cv, err := gocty.ToCtyValue(v, ty)
	if err != nil {
		return nil, fmt.Errorf("cannot convert %T: %w", v, err)
	}
	return FromCty(cv), nil
}

// FromHCL parses src as a constant HCL expression (no variables, no function
// calls), as a module author would write an argument, and wraps the result.
// name only labels diagnostics: "<value for var.NAME>".
func FromHCL(name, src string) (*Value, hcl.Diagnostics) {
	if diags := limit.CheckSource([]byte(src), valueFilename(name), hcl.InitialPos, limit.Expression, 0); diags.HasErrors() {
		return nil, diags
	}
	expr, diags := hclsyntax.ParseExpression([]byte(src), valueFilename(name), hcl.InitialPos)
	if diags.HasErrors() {
		return nil, diags
	}
	v, valDiags := expr.Value(nil)
	diags = append(diags, valDiags...)
	if valDiags.HasErrors() {
		return nil, diags
	}
	return &Value{Value: v, Source: Source{Kind: SourceGo, Name: name}, Raw: src, Expr: expr}, diags
}

// FromString wraps a string exactly as -var would give it: Prepare parses it
// according to the declaration (literally for primitive and untyped
// variables, as HCL for complex types and any).
func FromString(s string) *Value {
	return &Value{Source: Source{Kind: SourceGo}, Raw: s, Unparsed: true}
}

// FromModuleArg wraps the evaluated value of a module block argument; rng is
// the argument expression's range, used in error messages like a file value's.
func FromModuleArg(v cty.Value, rng hcl.Range) *Value {
	return &Value{Value: v, Source: Source{Kind: SourceModuleArg, Range: rng}}
}

func valueFilename(name string) string {
	return fmt.Sprintf("<value for var.%s>", name)
}
