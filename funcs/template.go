package funcs

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/ext/customdecode"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
	"github.com/zclconf/go-cty/cty/function"

	"github.com/tfeval/tfeval/internal/limit"
)

// templateFileSteps is what a templatefile call costs of the step budget
// besides its text: reading, checking and parsing even a small file takes
// as long as a few hundred steps.
const templateFileSteps = 512

// templateStringSteps is templateFileSteps for templatestring, which reads
// no file.
const templateStringSteps = 256

// defaultTemplateDepth is OpenTofu's default limit on nested templatefile calls.
const defaultTemplateDepth = 1024

// templateDepthLimit is OpenTofu's nesting limit, TF_TEMPLATE_RECURSION_DEPTH
// when that is set to a number.
func templateDepthLimit() int {
	if n, err := strconv.Atoi(os.Getenv("TF_TEMPLATE_RECURSION_DEPTH")); err == nil && n >= 0 {
		return n
	}
	return defaultTemplateDepth
}

// templateFuncs is the function table templates rendered at the given depth
// see. Terraform forbids template functions inside templates (and, for
// templatestring, every filesystem function); OpenTofu allows nesting up to
// a depth limit.
func (e *env) templateFuncs(depth int, caller string) map[string]function.Function {
	key := fmt.Sprintf("%s/%d", caller, depth)
	e.mu.Lock()
	defer e.mu.Unlock()
	if cached, ok := e.templateTables[key]; ok {
		return cached
	}
	table := e.table(depth)
	if !e.tofu() {
		for _, name := range []string{"templatefile", "templatestring"} {
			table[name] = failingFunc(table[name], fmt.Sprintf("cannot recursively call %s from inside another template function", name))
		}
		if caller == "templatestring" {
			for _, name := range filesystemFunctions {
				if name == "templatefile" {
					continue
				}
				table[name] = failingFunc(table[name], fmt.Sprintf("cannot use filesystem access functions like %s in templatestring templates; consider passing the function result as a template variable instead", name))
			}
		}
	}
	out := make(map[string]function.Function, 2*len(table))
	for name, fn := range table {
		out[name] = fn
		out[CoreNamespace+name] = fn
	}
	for local, fns := range e.opts.ProviderFunctions {
		for name, fn := range fns {
			out[ProviderNamespace+local+"::"+name] = fn
		}
	}
	e.templateTables[key] = out
	return out
}

// failingFunc keeps fn's signature but fails every call with msg.
func failingFunc(fn function.Function, msg string) function.Function {
	spec := &function.Spec{
		Description: fn.Description(),
		Params:      fn.Params(),
		VarParam:    fn.VarParam(),
		Type: func([]cty.Value) (cty.Type, error) {
			return cty.NilType, fmt.Errorf("%s", msg)
		},
		Impl: func([]cty.Value, cty.Type) (cty.Value, error) {
			return cty.NilVal, fmt.Errorf("%s", msg)
		},
	}
	return function.New(spec)
}

// renderTemplate evaluates a parsed template with vars (a map or object)
// as its only variables.
func (e *env) renderTemplate(expr hcl.Expression, vars cty.Value, funcs map[string]function.Function) (cty.Value, error) {
	vars, varsMarks := vars.Unmark()
	if ty := vars.Type(); !(ty.IsMapType() || ty.IsObjectType()) {
		return cty.DynamicVal, function.NewArgErrorf(1, "invalid vars value: must be a map")
	}
	ctx := &hcl.EvalContext{Variables: vars.AsValueMap(), Functions: funcs}
	if ctx.Variables == nil {
		ctx.Variables = map[string]cty.Value{}
	}
	for name := range ctx.Variables {
		if !e.validIdentifier(name) {
			return cty.DynamicVal, function.NewArgErrorf(1, "invalid template variable name %q: must start with a letter, followed by zero or more letters, digits, and underscores", name)
		}
	}
	// Checking references first gives a clearer message than HCL's unknown-variable error.
	for _, traversal := range expr.Variables() {
		root := traversal.RootName()
		if _, ok := ctx.Variables[root]; !ok {
			return cty.DynamicVal, function.NewArgErrorf(1, "vars map does not contain key %q, referenced at %s", root, traversal[0].SourceRange())
		}
	}
	val, diags := e.guard().Expr(expr).Value(ctx)
	if diags.HasErrors() {
		return cty.DynamicVal, diags
	}
	return val.WithMarks(varsMarks), nil
}

// validIdentifier reports whether name may be a template variable, as
// hclsyntax.ValidIdentifier does. That runs hcl's scanner; a module
// renders its templates with the same variables many times, so each name
// is checked once.
func (e *env) validIdentifier(name string) bool {
	valid, ok := e.identifiers.get(name)
	if !ok {
		valid = hclsyntax.ValidIdentifier(name)
		e.identifiers.put(name, valid, len(name))
	}
	return valid
}

// literalTemplate is the parse of a template without interpolations or
// directives: its text, as the string it renders to. Libraries of JSON
// documents read with templatefile are mostly such files, and hcl's
// template scanner costs far more than reading the text (it measures every
// grapheme cluster for source columns). Without "${" and "%{" the source
// has no template sequence, escapes included ("$${" and "%%{" contain
// them), so the text is the whole result, normalized to NFC as every
// string is. (Text that is not UTF-8 is left to hcl's error.)
func literalTemplate(src, path string) (hclsyntax.Expression, bool) {
	if strings.Contains(src, "${") || strings.Contains(src, "%{") || !utf8.ValidString(src) {
		return nil, false
	}
	return &hclsyntax.LiteralValueExpr{
		Val:      cty.StringVal(src),
		SrcRange: hcl.Range{Filename: path, Start: hcl.InitialPos, End: hcl.InitialPos},
	}, true
}

// parseTemplateFile parses the source of the template file at path, or
// returns the parse kept from an earlier call that read the same source.
// Parse errors are not kept: they stop the evaluation anyway.
func (e *env) parseTemplateFile(path, src string) (hclsyntax.Expression, hcl.Diagnostics) {
	if t, ok := e.templates.get(path); ok && t.src == src {
		return t.expr, nil
	}
	if diags := e.checkTemplateSource([]byte(src), path); diags.HasErrors() {
		return nil, diags
	}
	var expr hclsyntax.Expression
	if literal, ok := literalTemplate(src, path); ok {
		expr = literal
	} else {
		var diags hcl.Diagnostics
		expr, diags = limit.ParseTemplate([]byte(src), path)
		if diags.HasErrors() {
			return nil, diags
		}
	}
	e.templates.put(path, parsedTemplate{src: src, expr: expr}, len(src))
	return expr, nil
}

// TemplateSource reads a template file as templatefile would read it: path
// resolved against opts.BaseDir, refused outside opts.Sandbox, and bounded
// by opts.Limits.
func TemplateSource(opts Options, path string) (string, error) {
	return newEnv(opts).readUTF8File(path, nil)
}

// templateFileFunc renders a template file with the given variables.
func (e *env) templateFileFunc(depth int) function.Function {
	return function.New(&function.Spec{
		Params: []function.Parameter{
			{Name: "path", Type: cty.String, AllowMarked: true},
			{Name: "vars", Type: cty.DynamicPseudoType},
		},
		// The result type is only known after rendering; rendering once, in
		// Impl, keeps nested templatefile calls linear rather than exponential.
		Type: function.StaticReturnType(cty.DynamicPseudoType),
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			p, m := args[0].Unmark()
			path := p.AsString()
			src, err := e.readUTF8File(path, m)
			if err != nil {
				return cty.DynamicVal, err
			}
			// Reading, checking and parsing a file costs far more than a
			// step; OpenTofu's templates may call templatefile again, up
			// to 1,024 deep, so a template calling itself twice would
			// otherwise be 2^1024 cheap calls.
			if err := e.charge(templateFileSteps + int64(len(src))/bytesPerStep); err != nil {
				return cty.DynamicVal, err
			}
			if e.tofu() {
				if limit := templateDepthLimit(); depth >= limit {
					return cty.DynamicVal, fmt.Errorf("maximum recursion depth %d reached in %s", limit, path)
				}
			}
			expr, diags := e.parseTemplateFile(path, src)
			if diags.HasErrors() {
				return cty.DynamicVal, diags
			}
			val, err := e.renderTemplate(expr, args[1], e.templateFuncs(depth+1, "templatefile"))
			if err != nil {
				return cty.DynamicVal, err
			}
			return val.WithMarks(m), nil
		},
	})
}

// templateStringFunc renders a template held in a string. Terraform takes
// the argument as an expression that must be a plain reference; OpenTofu
// takes any string.
func (e *env) templateStringFunc(depth int) function.Function {
	vars := function.Parameter{Name: "vars", Type: cty.DynamicPseudoType}
	if e.tofu() {
		return function.New(&function.Spec{
			Params: []function.Parameter{{Name: "template", Type: cty.String, AllowMarked: true}, vars},
			Type:   function.StaticReturnType(cty.DynamicPseudoType),
			Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
				t, m := args[0].Unmark()
				if limit := templateDepthLimit(); depth >= limit {
					return cty.DynamicVal, fmt.Errorf("maximum recursion depth %d reached in templatestring", limit)
				}
				// Parsing costs far more than a step, and templates may call
				// templatestring again (see templateFileSteps).
				if err := e.charge(templateStringSteps + int64(len(t.AsString()))/bytesPerStep); err != nil {
					return cty.DynamicVal, err
				}
				if diags := e.checkTemplateSource([]byte(t.AsString()), "NoFileNeeded"); diags.HasErrors() {
					return cty.DynamicVal, diags
				}
				expr, diags := limit.ParseTemplate([]byte(t.AsString()), "NoFileNeeded")
				if diags.HasErrors() {
					return cty.DynamicVal, diags
				}
				val, err := e.renderTemplate(expr, args[1], e.templateFuncs(depth+1, "templatestring"))
				if err != nil {
					return cty.DynamicVal, err
				}
				return val.WithMarks(m), nil
			},
		})
	}
	return function.New(&function.Spec{
		Params: []function.Parameter{{Name: "template", Type: customdecode.ExpressionClosureType}, vars},
		Type: func(args []cty.Value) (cty.Type, error) {
			closure := customdecode.ExpressionClosureFromVal(args[0])
			if err := checkTemplateStringExpr(closure.Expression); err != nil {
				return cty.NilType, function.NewArgError(0, err)
			}
			return cty.String, nil
		},
		RefineResult: refineNotNull,
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			closure := customdecode.ExpressionClosureFromVal(args[0])
			tmpl, diags := closure.Value()
			if diags.HasErrors() {
				return cty.UnknownVal(cty.String), diags
			}
			tmpl, m := tmpl.Unmark()
			if !tmpl.IsKnown() {
				return cty.UnknownVal(cty.String).WithMarks(m), nil
			}
			if !tmpl.Type().Equals(cty.String) || tmpl.IsNull() {
				return cty.UnknownVal(cty.String), function.NewArgErrorf(0, "invalid template value: a string is required")
			}
			if diags := e.checkTemplateSource([]byte(tmpl.AsString()), "<templatestring argument>"); diags.HasErrors() {
				return cty.UnknownVal(cty.String), diags
			}
			expr, diags := limit.ParseTemplate([]byte(tmpl.AsString()), "<templatestring argument>")
			if diags.HasErrors() {
				return cty.UnknownVal(cty.String), diags
			}
			val, err := e.renderTemplate(expr, args[1], e.templateFuncs(depth+1, "templatestring"))
			if err != nil {
				return cty.UnknownVal(cty.String), err
			}
			if !val.IsKnown() {
				return cty.UnknownVal(cty.String).WithMarks(m), nil
			}
			if val.IsNull() {
				return cty.UnknownVal(cty.String), hcl.Diagnostics{{
					Severity: hcl.DiagError,
					Summary:  "Template result is null",
					Detail:   "The result of the template is null, which is not valid for a templatestring call.",
				}}
			}
			str, err := convert.Convert(val, cty.String)
			if err != nil {
				return cty.UnknownVal(cty.String), fmt.Errorf("invalid template result: %s", err)
			}
			return str.WithMarks(m), nil
		},
	})
}

// checkTemplateStringExpr enforces Terraform's rule that templatestring's
// template is a reference to a string defined elsewhere.
func checkTemplateStringExpr(expr hcl.Expression) error {
	switch x := expr.(type) {
	case *hclsyntax.TemplateExpr:
		if len(x.Parts) == 1 {
			if _, ok := x.Parts[0].(*hclsyntax.LiteralValueExpr); ok {
				return fmt.Errorf("invalid template expression: templatestring is only for rendering templates retrieved dynamically from elsewhere, and so does not support providing a literal template; consider using a template string expression instead")
			}
		}
		return fmt.Errorf("invalid template expression: templatestring is only for rendering templates retrieved dynamically from elsewhere; to render an inline template, consider using a plain template string expression")
	case *hclsyntax.TemplateWrapExpr:
		return fmt.Errorf("invalid template expression: templatestring is only for rendering templates retrieved dynamically from elsewhere; to render an inline template, consider using a plain template string expression")
	case *hclsyntax.LiteralValueExpr:
		return fmt.Errorf("invalid template expression: templatestring is only for rendering templates retrieved dynamically from elsewhere, and so does not support providing a literal template; consider using a template string expression instead")
	}
	if !isReferenceExpr(expr) {
		return fmt.Errorf("invalid template expression: must be a direct reference to a single string from elsewhere, containing valid Terraform template syntax")
	}
	return nil
}

// isReferenceExpr accepts a traversal, possibly indexed or splatted.
func isReferenceExpr(expr hcl.Expression) bool {
	switch x := expr.(type) {
	case *hclsyntax.ScopeTraversalExpr:
		return true
	case *hclsyntax.RelativeTraversalExpr:
		return isReferenceExpr(x.Source)
	case *hclsyntax.IndexExpr:
		return isReferenceExpr(x.Collection)
	case *hclsyntax.SplatExpr:
		return isReferenceExpr(x.Source)
	}
	return false
}
