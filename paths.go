package tfeval

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/tfeval/tfeval/internal/elements"
)

// A path names a place inside a value, written as in the configuration
// after a reference's name: `tags.Name`, `ingress[0].cidr_blocks`,
// `tags["kubernetes.io/role"]`, `[0].id`; "" is the value itself. It is
// the one syntax of every path tfeval reads or writes: Lookup,
// Resource.Attr and Resource.AttrRange read it, UnknownPaths,
// SensitivePaths and FormatPath write it, and ParsePath turns it into a
// cty.Path.
//
// An element of a set is written by its position in the set's order (the
// order render.Value prints), `[2]`: sets have no keys of their own.

// ParsePath reads a path (see above) into a cty.Path: an attribute name
// becomes a cty.GetAttrStep, a bracketed string or number a cty.IndexStep.
// It is the inverse of FormatPath: ParsePath(FormatPath(p)) is p for every
// path whose index keys are known strings and numbers, except that an
// attribute whose name is not an identifier (written `["b c"]`) comes back
// as an index step, which Lookup treats the same.
func ParsePath(path string) (cty.Path, error) {
	path = strings.TrimSpace(path)
	if path == "" {
		return cty.Path{}, nil
	}
	// The path is read as the traversal that follows a root name: a
	// placeholder root makes it one hcl can parse.
	src := "_"
	if !strings.HasPrefix(path, "[") {
		src += "."
	}
	trav, diags := hclsyntax.ParseTraversalAbs([]byte(src+path), "<path>", hcl.InitialPos)
	if diags.HasErrors() {
		return nil, fmt.Errorf("invalid path %q: %s", path, diags[0].Detail)
	}
	out := make(cty.Path, 0, len(trav)-1)
	for _, step := range trav[1:] {
		switch s := step.(type) {
		case hcl.TraverseAttr:
			out = append(out, cty.GetAttrStep{Name: s.Name})
		case hcl.TraverseIndex:
			out = append(out, cty.IndexStep{Key: s.Key})
		default:
			return nil, fmt.Errorf("invalid path %q: only attribute names and [index] steps are allowed", path)
		}
	}
	return out, nil
}

// FormatPath writes a cty.Path in the path syntax (see ParsePath):
// `a.b[0]["k"]`. An attribute whose name is not an identifier is written
// as a quoted index, `["b c"]`; an index whose key is unknown, or is
// neither a string nor a number (cty's step into a set), is written `[?]`,
// which ParsePath refuses.
func FormatPath(p cty.Path) string {
	var b strings.Builder
	for _, step := range p {
		switch s := step.(type) {
		case cty.GetAttrStep:
			writeAttrStep(&b, s.Name)
		case cty.IndexStep:
			b.WriteString(indexText(s.Key))
		}
	}
	return b.String()
}

// writeAttrStep appends an attribute step, quoting names that are not identifiers.
func writeAttrStep(b *strings.Builder, name string) {
	switch {
	case !hclsyntax.ValidIdentifier(name):
		b.WriteString("[" + strconv.Quote(name) + "]")
	case b.Len() == 0:
		b.WriteString(name)
	default:
		b.WriteString("." + name)
	}
}

// joinAttr is path followed by an attribute step.
func joinAttr(path, name string) string {
	var b strings.Builder
	b.WriteString(path)
	writeAttrStep(&b, name)
	return b.String()
}

// indexText is an index step: `["k"]`, `[0]`, or `[?]` for any other key.
func indexText(key cty.Value) string {
	if key.Type() == cty.NilType {
		return "[?]"
	}
	k, _ := key.Unmark()
	switch {
	case !k.IsKnown() || k.IsNull():
		return "[?]"
	case k.Type() == cty.String:
		return "[" + strconv.Quote(k.AsString()) + "]"
	case k.Type() == cty.Number:
		return "[" + k.AsBigFloat().Text('f', -1) + "]"
	}
	return "[?]"
}

// Lookup returns the value at a path inside v (see ParsePath for the
// syntax); "" is v itself. Marks (sensitive) carry over to the result.
// Walking into an unknown value gives an unknown value; a missing
// attribute, key or index, or a path that does not parse, is an error (and
// the value cty.NilVal, which render.Value prints as "(no value)").
//
// Evaluated values come in three states a tool must tell apart:
// v.IsKnown() is false for a value known only after apply (which is never
// null); v.IsNull() is true for an argument that is unset or explicitly
// null; otherwise the value is known and usable (after v.Unmark() when it
// is sensitive).
func Lookup(v cty.Value, path string) (cty.Value, error) {
	p, err := ParsePath(path)
	if err != nil {
		return cty.NilVal, err
	}
	return lookupPath(v, p, path)
}

// lookupPath walks p from v; text is the path as given, for errors.
func lookupPath(v cty.Value, p cty.Path, text string) (cty.Value, error) {
	for i, step := range p {
		if v.Type() == cty.NilType {
			return cty.NilVal, fmt.Errorf("%s: there is no value", text)
		}
		next, err := stepInto(v, step)
		if err != nil {
			if at := FormatPath(p[:i]); at != "" {
				return cty.NilVal, fmt.Errorf("%s: at %s: %s", text, at, err)
			}
			return cty.NilVal, fmt.Errorf("%s: %s", text, err)
		}
		v = next
	}
	return v, nil
}

// stepInto takes one step into v, as an expression's traversal would,
// except that a number steps to that position of a set.
func stepInto(v cty.Value, step cty.PathStep) (cty.Value, error) {
	var out cty.Value
	var diags hcl.Diagnostics
	switch s := step.(type) {
	case cty.GetAttrStep:
		out, diags = hcl.GetAttr(v, s.Name, nil)
	case cty.IndexStep:
		if v.Type().IsSetType() {
			return setElement(v, s.Key)
		}
		out, diags = hcl.Index(v, s.Key, nil)
	default:
		return cty.NilVal, fmt.Errorf("unsupported path step %T", step)
	}
	if diags.HasErrors() {
		return cty.NilVal, fmt.Errorf("%s", diags[0].Detail)
	}
	return out, nil
}

// setElement is the element at a position of a set, in the set's order,
// with the set's marks.
func setElement(set cty.Value, key cty.Value) (cty.Value, error) {
	set, ms := set.Unmark()
	key, _ = key.Unmark()
	if key.Type() != cty.Number || !key.IsKnown() || key.IsNull() {
		return cty.NilVal, fmt.Errorf("an element of a set is named by its position, a number")
	}
	if !set.IsKnown() {
		return cty.UnknownVal(set.Type().ElementType()).WithMarks(ms), nil
	}
	if set.IsNull() {
		return cty.NilVal, fmt.Errorf("cannot index a null set")
	}
	pos, acc := key.AsBigFloat().Int64()
	if acc != 0 || pos < 0 || pos >= int64(set.LengthInt()) {
		return cty.NilVal, fmt.Errorf("the set has %d elements; there is no position %s", set.LengthInt(), key.AsBigFloat().Text('f', -1))
	}
	i := int64(0)
	for it := elements.Of(set); it.Next(); i++ {
		if i == pos {
			_, e := it.Element()
			return e.WithMarks(ms), nil
		}
	}
	return cty.NilVal, fmt.Errorf("no position %d in the set", pos)
}
