package tfeval

import (
	"sort"
	"strconv"

	"github.com/zclconf/go-cty/cty"

	"github.com/tfeval/tfeval/internal/elements"
	"github.com/tfeval/tfeval/marks"
)

// UnknownPaths lists where v is unknown, as paths for Lookup, sorted: ""
// when v itself is unknown, otherwise the outermost unknown attributes and
// elements (a set element by its position, `[2]`). A wholly known value
// gives nil.
func UnknownPaths(v cty.Value) []string {
	var out []string
	walkPaths(v, "", func(v cty.Value, path string) bool {
		if !v.IsKnown() {
			out = append(out, path)
			return false
		}
		return true
	})
	sort.Strings(out)
	return out
}

// SensitivePaths lists where v is marked sensitive, as paths for Lookup,
// sorted; "" when v itself is sensitive, otherwise the outermost sensitive
// attributes and elements (a set element by its position). A value without
// sensitive parts gives nil.
func SensitivePaths(v cty.Value) []string {
	var out []string
	walkPaths(v, "", func(v cty.Value, path string) bool {
		if v.HasMark(marks.Sensitive) {
			out = append(out, path)
			return false
		}
		return true
	})
	sort.Strings(out)
	return out
}

// Walk calls visit for v and for every attribute and element inside it,
// outermost first, each with its path in the path syntax (see ParsePath;
// a set's element by its position, so that Lookup and Resource.AttrRange
// take the path back). visit gets the values as they are, marks
// included; returning false skips what is inside that value. Unknown and
// null values have nothing inside.
//
// It is cty.Walk for tools that report paths: cty names a set's element
// by the element itself, which no path syntax can write.
func Walk(v cty.Value, visit func(path string, v cty.Value) bool) {
	walkPaths(v, "", func(v cty.Value, path string) bool { return visit(path, v) })
}

// walkPaths is Walk with the path first built from path.
func walkPaths(v cty.Value, path string, visit func(v cty.Value, path string) bool) {
	if v.Type() == cty.NilType || !visit(v, path) {
		return
	}
	v, _ = v.Unmark()
	if !v.IsKnown() || v.IsNull() || !v.CanIterateElements() {
		return
	}
	ty := v.Type()
	i := 0
	for it := elements.Of(v); it.Next(); i++ {
		k, e := it.Element()
		switch {
		case ty.IsObjectType():
			walkPaths(e, joinAttr(path, k.AsString()), visit)
		case ty.IsMapType():
			walkPaths(e, path+"["+strconv.Quote(k.AsString())+"]", visit)
		default:
			walkPaths(e, path+"["+strconv.Itoa(i)+"]", visit)
		}
	}
}
