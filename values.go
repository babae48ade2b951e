package tfeval

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/tfeval/tfeval/marks"
)

// Lookup returns the value at a path inside v, the path written as in the
// configuration after a reference's name: `tags.Name`, `[0].id`,
// `ingress[0].cidr_blocks`, `tags["kubernetes.io/role"]`; "" is v itself.
// Marks (sensitive) carry over to the result. Walking into an unknown
// value gives an unknown value; a missing attribute, key or index is an error.
//
// Evaluated values come in three states a tool must tell apart:
// v.IsKnown() is false for a value known only after apply (which is never
// null); v.IsNull() is true for an argument that is unset or explicitly
// null; otherwise the value is known and usable (after v.Unmark() when it
// is sensitive).
func Lookup(v cty.Value, path string) (cty.Value, error) {
	path = strings.TrimSpace(path)
	if path == "" {
		return v, nil
	}
	src := "_"
	if !strings.HasPrefix(path, "[") {
		src += "."
	}
	trav, diags := hclsyntax.ParseTraversalAbs([]byte(src+path), "<path>", hcl.InitialPos)
	if diags.HasErrors() {
		return cty.NilVal, fmt.Errorf("invalid path %q: %s", path, diags[0].Detail)
	}
	out, diags := hcl.Traversal(trav[1:]).TraverseRel(v)
	if diags.HasErrors() {
		return cty.NilVal, fmt.Errorf("%s: %s", path, diags[0].Detail)
	}
	return out, nil
}

// UnknownPaths lists where v is unknown, as paths for Lookup, sorted: ""
// when v itself is unknown, otherwise the outermost unknown attributes and
// elements (a set element is written by its position, `[2]`, because sets
// cannot be indexed). A wholly known value gives nil.
func UnknownPaths(v cty.Value) []string {
	var out []string
	var walk func(v cty.Value, path string)
	walk = func(v cty.Value, path string) {
		v, _ = v.Unmark()
		if !v.IsKnown() {
			out = append(out, path)
			return
		}
		if v.IsNull() || !v.CanIterateElements() {
			return
		}
		ty := v.Type()
		i := 0
		for it := v.ElementIterator(); it.Next(); i++ {
			k, e := it.Element()
			switch {
			case ty.IsObjectType():
				walk(e, joinAttr(path, k.AsString()))
			case ty.IsMapType():
				walk(e, path+"["+strconv.Quote(k.AsString())+"]")
			default:
				walk(e, path+"["+strconv.Itoa(i)+"]")
			}
		}
	}
	walk(v, "")
	sort.Strings(out)
	return out
}

// SensitivePaths lists where v is marked sensitive, as paths for Lookup,
// sorted; "" when v itself is sensitive. A value without sensitive parts
// gives nil.
func SensitivePaths(v cty.Value) []string {
	_, pvm := v.UnmarkDeepWithPaths()
	var out []string
	for _, p := range pvm {
		if _, ok := p.Marks[marks.Sensitive]; ok {
			out = append(out, FormatPath(p.Path))
		}
	}
	sort.Strings(out)
	return out
}

// FormatPath writes a cty.Path in the syntax Lookup takes: `a.b[0]["k"]`.
func FormatPath(p cty.Path) string {
	var b strings.Builder
	for _, step := range p {
		switch s := step.(type) {
		case cty.GetAttrStep:
			b.WriteString(joinAttr(b.String(), s.Name)[b.Len():])
		case cty.IndexStep:
			k, _ := s.Key.Unmark()
			switch {
			case k.Type() == cty.String && k.IsKnown() && !k.IsNull():
				b.WriteString("[" + strconv.Quote(k.AsString()) + "]")
			case k.Type() == cty.Number && k.IsKnown() && !k.IsNull():
				b.WriteString("[" + k.AsBigFloat().Text('f', -1) + "]")
			default:
				b.WriteString("[?]")
			}
		}
	}
	return b.String()
}

// joinAttr appends an attribute step, quoting names that are not identifiers.
func joinAttr(path, name string) string {
	if !hclsyntax.ValidIdentifier(name) {
		return path + "[" + strconv.Quote(name) + "]"
	}
	if path == "" {
		return name
	}
	return path + "." + name
}
