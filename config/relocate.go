package config

import (
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// A module directory reached by two paths (a root's "../../modules/vpc"
// and another root's "../modules/vpc", or "." when a scan looks for calls)
// is the same files whose source ranges name them by different paths, as
// Terraform prints them. Parsing is most of loading a module, so a file
// parsed for one path is copied for the other with its ranges renamed
// (relocator), which takes a fraction of the parse.

// relocator copies native-syntax bodies, every range in them naming the
// file to instead of from.
type relocator struct {
	from, to string
	// anons maps the splat symbols copied so far to their copies: a
	// splat's Each refers to its Item.
	anons map[*hclsyntax.AnonSymbolExpr]*hclsyntax.AnonSymbolExpr
	// unknown is set when an expression of a type the copy does not know
	// was met: the copy is then not used (the file is parsed again).
	unknown bool
}

func (r *relocator) rng(rg hcl.Range) hcl.Range {
	if rg.Filename == r.from {
		rg.Filename = r.to
	}
	return rg
}

// text is a diagnostic's text with the ranges written in it ("The
// argument "x" was already set at main.tf:7,3-6") naming the file to.
func (r *relocator) text(s string) string {
	mark := r.from + ":"
	var b strings.Builder
	for {
		i := strings.Index(s, mark)
		if i < 0 {
			break
		}
		end := i + len(mark)
		// A range of the file: its name not part of a longer one, a line
		// number after it.
		isRange := (i == 0 || !isPathByte(s[i-1])) && end < len(s) && s[end] >= '0' && s[end] <= '9'
		b.WriteString(s[:i])
		if isRange {
			b.WriteString(r.to + ":")
		} else {
			b.WriteString(mark)
		}
		s = s[end:]
	}
	if b.Len() == 0 {
		return s
	}
	b.WriteString(s)
	return b.String()
}

// isPathByte reports whether c may be part of a file path.
func isPathByte(c byte) bool {
	return c == '/' || c == '\\' || c == '.' || c == '-' || c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

func (r *relocator) body(b *hclsyntax.Body) *hclsyntax.Body {
	if b == nil {
		return nil
	}
	out := &hclsyntax.Body{SrcRange: r.rng(b.SrcRange), EndRange: r.rng(b.EndRange)}
	if b.Attributes != nil {
		out.Attributes = make(hclsyntax.Attributes, len(b.Attributes))
		for name, a := range b.Attributes {
			out.Attributes[name] = &hclsyntax.Attribute{
				Name: a.Name, Expr: r.expr(a.Expr),
				SrcRange: r.rng(a.SrcRange), NameRange: r.rng(a.NameRange), EqualsRange: r.rng(a.EqualsRange),
			}
		}
	}
	if b.Blocks != nil {
		out.Blocks = make(hclsyntax.Blocks, len(b.Blocks))
		for i, blk := range b.Blocks {
			c := *blk
			c.Body = r.body(blk.Body)
			c.TypeRange, c.OpenBraceRange, c.CloseBraceRange = r.rng(blk.TypeRange), r.rng(blk.OpenBraceRange), r.rng(blk.CloseBraceRange)
			if blk.LabelRanges != nil {
				c.LabelRanges = make([]hcl.Range, len(blk.LabelRanges))
				for j, lr := range blk.LabelRanges {
					c.LabelRanges[j] = r.rng(lr)
				}
			}
			out.Blocks[i] = &c
		}
	}
	return out
}

func (r *relocator) exprs(in []hclsyntax.Expression) []hclsyntax.Expression {
	if in == nil {
		return nil
	}
	out := make([]hclsyntax.Expression, len(in))
	for i, e := range in {
		out[i] = r.expr(e)
	}
	return out
}

func (r *relocator) traversal(t hcl.Traversal) hcl.Traversal {
	if t == nil {
		return nil
	}
	out := make(hcl.Traversal, len(t))
	for i, s := range t {
		switch s := s.(type) {
		case hcl.TraverseRoot:
			s.SrcRange = r.rng(s.SrcRange)
			out[i] = s
		case hcl.TraverseAttr:
			s.SrcRange = r.rng(s.SrcRange)
			out[i] = s
		case hcl.TraverseIndex:
			s.SrcRange = r.rng(s.SrcRange)
			out[i] = s
		case hcl.TraverseSplat:
			s.SrcRange = r.rng(s.SrcRange)
			s.Each = r.traversal(s.Each)
			out[i] = s
		default:
			r.unknown = true
			out[i] = s
		}
	}
	return out
}

func (r *relocator) diags(ds hcl.Diagnostics) hcl.Diagnostics {
	if ds == nil {
		return nil
	}
	out := make(hcl.Diagnostics, len(ds))
	for i, d := range ds {
		c := *d
		c.Detail = r.text(d.Detail)
		if d.Subject != nil {
			s := r.rng(*d.Subject)
			c.Subject = &s
		}
		if d.Context != nil {
			s := r.rng(*d.Context)
			c.Context = &s
		}
		out[i] = &c
	}
	return out
}

func (r *relocator) expr(e hclsyntax.Expression) hclsyntax.Expression {
	switch x := e.(type) {
	case nil:
		return nil
	case *hclsyntax.LiteralValueExpr:
		return &hclsyntax.LiteralValueExpr{Val: x.Val, SrcRange: r.rng(x.SrcRange)}
	case *hclsyntax.ScopeTraversalExpr:
		return &hclsyntax.ScopeTraversalExpr{Traversal: r.traversal(x.Traversal), SrcRange: r.rng(x.SrcRange)}
	case *hclsyntax.RelativeTraversalExpr:
		return &hclsyntax.RelativeTraversalExpr{Source: r.expr(x.Source), Traversal: r.traversal(x.Traversal), SrcRange: r.rng(x.SrcRange)}
	case *hclsyntax.FunctionCallExpr:
		return &hclsyntax.FunctionCallExpr{Name: x.Name, Args: r.exprs(x.Args), ExpandFinal: x.ExpandFinal,
			NameRange: r.rng(x.NameRange), OpenParenRange: r.rng(x.OpenParenRange), CloseParenRange: r.rng(x.CloseParenRange)}
	case *hclsyntax.ConditionalExpr:
		return &hclsyntax.ConditionalExpr{Condition: r.expr(x.Condition), TrueResult: r.expr(x.TrueResult), FalseResult: r.expr(x.FalseResult), SrcRange: r.rng(x.SrcRange)}
	case *hclsyntax.IndexExpr:
		return &hclsyntax.IndexExpr{Collection: r.expr(x.Collection), Key: r.expr(x.Key),
			SrcRange: r.rng(x.SrcRange), OpenRange: r.rng(x.OpenRange), BracketRange: r.rng(x.BracketRange)}
	case *hclsyntax.TupleConsExpr:
		return &hclsyntax.TupleConsExpr{Exprs: r.exprs(x.Exprs), SrcRange: r.rng(x.SrcRange), OpenRange: r.rng(x.OpenRange)}
	case *hclsyntax.ObjectConsExpr:
		out := &hclsyntax.ObjectConsExpr{SrcRange: r.rng(x.SrcRange), OpenRange: r.rng(x.OpenRange)}
		if x.Items != nil {
			out.Items = make([]hclsyntax.ObjectConsItem, len(x.Items))
			for i, it := range x.Items {
				out.Items[i] = hclsyntax.ObjectConsItem{KeyExpr: r.expr(it.KeyExpr), ValueExpr: r.expr(it.ValueExpr)}
			}
		}
		return out
	case *hclsyntax.ObjectConsKeyExpr:
		return &hclsyntax.ObjectConsKeyExpr{Wrapped: r.expr(x.Wrapped), ForceNonLiteral: x.ForceNonLiteral}
	case *hclsyntax.ForExpr:
		return &hclsyntax.ForExpr{KeyVar: x.KeyVar, ValVar: x.ValVar,
			CollExpr: r.expr(x.CollExpr), KeyExpr: r.expr(x.KeyExpr), ValExpr: r.expr(x.ValExpr), CondExpr: r.expr(x.CondExpr),
			Group: x.Group, SrcRange: r.rng(x.SrcRange), OpenRange: r.rng(x.OpenRange), CloseRange: r.rng(x.CloseRange)}
	case *hclsyntax.SplatExpr:
		// The symbol first, so that Each refers to the copy.
		var item *hclsyntax.AnonSymbolExpr
		if x.Item != nil {
			item, _ = r.expr(x.Item).(*hclsyntax.AnonSymbolExpr)
		}
		return &hclsyntax.SplatExpr{Source: r.expr(x.Source), Each: r.expr(x.Each), Item: item,
			SrcRange: r.rng(x.SrcRange), MarkerRange: r.rng(x.MarkerRange)}
	case *hclsyntax.AnonSymbolExpr:
		if c, ok := r.anons[x]; ok {
			return c
		}
		c := &hclsyntax.AnonSymbolExpr{SrcRange: r.rng(x.SrcRange)}
		if r.anons == nil {
			r.anons = map[*hclsyntax.AnonSymbolExpr]*hclsyntax.AnonSymbolExpr{}
		}
		r.anons[x] = c
		return c
	case *hclsyntax.BinaryOpExpr:
		return &hclsyntax.BinaryOpExpr{LHS: r.expr(x.LHS), Op: x.Op, RHS: r.expr(x.RHS), SrcRange: r.rng(x.SrcRange)}
	case *hclsyntax.UnaryOpExpr:
		return &hclsyntax.UnaryOpExpr{Op: x.Op, Val: r.expr(x.Val), SrcRange: r.rng(x.SrcRange), SymbolRange: r.rng(x.SymbolRange)}
	case *hclsyntax.TemplateExpr:
		return &hclsyntax.TemplateExpr{Parts: r.exprs(x.Parts), SrcRange: r.rng(x.SrcRange)}
	case *hclsyntax.TemplateJoinExpr:
		return &hclsyntax.TemplateJoinExpr{Tuple: r.expr(x.Tuple)}
	case *hclsyntax.TemplateWrapExpr:
		return &hclsyntax.TemplateWrapExpr{Wrapped: r.expr(x.Wrapped), SrcRange: r.rng(x.SrcRange)}
	case *hclsyntax.ParenthesesExpr:
		return &hclsyntax.ParenthesesExpr{Expression: r.expr(x.Expression), SrcRange: r.rng(x.SrcRange)}
	case *hclsyntax.ExprSyntaxError:
		return &hclsyntax.ExprSyntaxError{Placeholder: x.Placeholder, ParseDiags: r.diags(x.ParseDiags), SrcRange: r.rng(x.SrcRange)}
	}
	r.unknown = true
	return e
}
