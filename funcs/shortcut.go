package funcs

import (
	"math/big"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/ext/customdecode"
	"github.com/hashicorp/hcl/v2/ext/tryfunc"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
	"github.com/zclconf/go-cty/cty/function/stdlib"

	"github.com/tfeval/tfeval/internal/attrmap"
	"github.com/tfeval/tfeval/internal/elements"
	"github.com/tfeval/tfeval/marks"
)

// shortcut computes a function's result directly for known, non-null,
// unmarked arguments of the types the function expects, and reports false
// for everything else, which then takes the full cty call. cty's
// Function.Call walks every argument deeply for marks before anything else,
// even for parameters that accept marks, so without a shortcut keys() or
// length() of a resource's instances walks every instance's whole value.
type shortcut func(args []cty.Value) (cty.Value, bool)

// shortcutOf returns the shortcut for a built-in, nil for most of them.
// Shortcuts are keyed by the function itself, not its name, so a dialect
// that swaps the implementation loses the shortcut rather than getting the
// wrong one.
func shortcutOf(fn function.Function) shortcut {
	switch fn {
	case stdlib.KeysFunc:
		return keysShortcut
	case stdlib.MergeFunc:
		return mergeShortcut
	case lengthFunc:
		return lengthShortcut
	case jsonEncodeFunc:
		return jsonEncodeShortcut
	case stdlib.ElementFunc:
		return elementShortcut
	case stdlib.FlattenFunc:
		return flattenShortcut
	case stdlib.SortFunc:
		return sortShortcut
	case stdlib.FormatFunc:
		return formatShortcut
	case stdlib.RangeFunc:
		return rangeShortcut
	case stdlib.DistinctFunc:
		return distinctShortcut
	case tryfunc.TryFunc:
		return tryShortcut
	case tryfunc.CanFunc:
		return canShortcut
	case lookupFunc:
		return lookupShortcut
	case coalesceFunc:
		return coalesceShortcut
	case stdlib.CompactFunc:
		return compactShortcut
	case stdlib.ConcatFunc:
		return concatShortcut
	case stdlib.SliceFunc:
		return sliceShortcut
	case stdlib.MaxFunc:
		return maxShortcut
	case stdlib.MinFunc:
		return minShortcut
	case stdlib.FloorFunc:
		return floorShortcut
	case stdlib.LowerFunc:
		return lowerShortcut
	case stdlib.UpperFunc:
		return upperShortcut
	case stdlib.JoinFunc:
		return joinShortcut
	case stdlib.SubstrFunc:
		return substrShortcut
	}
	return nil
}

// shortcutOf is the package's shortcutOf with the shortcuts that use the
// table's state: regex() and regexall() with its compiled patterns.
func (e *env) shortcutOf(fn function.Function) shortcut {
	switch fn {
	case stdlib.RegexFunc:
		return e.regexShortcut
	case stdlib.RegexAllFunc:
		return e.regexAllShortcut
	case replaceFunc:
		return e.replaceShortcut
	}
	return shortcutOf(fn)
}

// lookupShortcut is lookup() of a map or object and a string key: the
// element, or the default when there is none and the default needs no
// conversion (of an object's missing attribute, the default's own type is
// the result's; of a map's, the default must already have its element
// type). A missing key without a default is the full call's error.
func lookupShortcut(args []cty.Value) (cty.Value, bool) {
	if len(args) < 2 || len(args) > 3 || !plain(args[0]) || !plain(args[1]) || args[1].Type() != cty.String {
		return cty.NilVal, false
	}
	coll, key := args[0], args[1].AsString()
	switch ty := coll.Type(); {
	case ty.IsObjectType():
		if ty.HasAttribute(key) {
			return coll.GetAttr(key), true
		}
		if len(args) == 3 {
			return args[2], true
		}
	case ty.IsMapType():
		if len(args) == 3 && !args[2].Type().Equals(ty.ElementType()) {
			return cty.NilVal, false
		}
		if k := cty.StringVal(key); coll.HasIndex(k) == cty.True {
			return coll.Index(k), true
		}
		if len(args) == 3 {
			return args[2], true
		}
	}
	return cty.NilVal, false
}

// coalesceShortcut is coalesce() of arguments each null or known, with no
// mark anywhere in them: the function's own type and implementation
// without go-cty's call around them (two walks of every argument, and the
// refinement). Arguments of one type without dynamic parts (strings most
// often) need no unifying: the first neither null nor, for strings,
// empty. (The full call unmarks its arguments deeply and marks the result
// with what it found; errors are the full call's to report.)
func coalesceShortcut(args []cty.Value) (cty.Value, bool) {
	if len(args) == 0 {
		return cty.NilVal, false
	}
	ty, same := args[0].Type(), true
	for _, a := range args {
		if a.IsMarked() || !a.IsNull() && !a.IsKnown() || !a.Type().IsPrimitiveType() && marks.Any(a) {
			return cty.NilVal, false
		}
		same = same && a.Type().Equals(ty)
	}
	if same && (ty == cty.String || !ty.HasDynamicTypes() && !ty.IsCapsuleType()) {
		for _, a := range args {
			if !a.IsNull() && (ty != cty.String || a.AsString() != "") {
				return a, true
			}
		}
		return cty.NilVal, false
	}
	rt, err := coalesceType(args)
	if err != nil {
		return cty.NilVal, false
	}
	v, err := coalesceImpl(args, rt)
	if err != nil || !v.IsKnown() {
		return cty.NilVal, false
	}
	return v, true
}

// sliceShortcut is slice() of a known list or tuple between whole-number
// indexes within it: the elements between them, with the marks the list
// has at its top level (go-cty's slice keeps them itself).
func sliceShortcut(args []cty.Value) (cty.Value, bool) {
	if len(args) != 3 {
		return cty.NilVal, false
	}
	list, listMarks := args[0].Unmark()
	ty := list.Type()
	if !plain(list) || !ty.IsListType() && !ty.IsTupleType() {
		return cty.NilVal, false
	}
	n := list.LengthInt()
	start, ok := smallInt(args[1])
	end, ok2 := smallInt(args[2])
	if !ok || !ok2 || start < 0 || end > n || start > end {
		return cty.NilVal, false // go-cty's errors
	}
	var v cty.Value
	switch {
	case start == end && ty.IsTupleType():
		v = cty.EmptyTupleVal
	case start == end:
		v = cty.ListValEmpty(ty.ElementType())
	case ty.IsTupleType():
		v = cty.TupleVal(list.AsValueSlice()[start:end])
	default:
		v = cty.ListVal(list.AsValueSlice()[start:end])
	}
	return v.WithMarks(listMarks), true
}

// smallInt is the value of a known, unmarked whole number that an int
// holds, as go-cty reads an index or a length.
func smallInt(v cty.Value) (int, bool) {
	if !plain(v) || v.Type() != cty.Number {
		return 0, false
	}
	f := elements.BigFloat(v)
	if !f.IsInt() {
		return 0, false
	}
	i, acc := f.Int64()
	if acc != big.Exact || i < -1<<40 || i > 1<<40 {
		return 0, false
	}
	return int(i), true
}

// maxShortcut is max() of known, unmarked, finite numbers: the first of
// the greatest, the argument itself, as go-cty's answer is.
func maxShortcut(args []cty.Value) (cty.Value, bool) {
	return extremeShortcut(args, 1)
}

// minShortcut is min() as maxShortcut is max().
func minShortcut(args []cty.Value) (cty.Value, bool) {
	return extremeShortcut(args, -1)
}

// extremeShortcut finds the first argument that compares sign with every
// other one (1 for the greatest, -1 for the least).
func extremeShortcut(args []cty.Value, sign int) (cty.Value, bool) {
	if len(args) == 0 {
		return cty.NilVal, false
	}
	best, bestF := cty.NilVal, (*big.Float)(nil)
	for _, a := range args {
		if !plain(a) || a.Type() != cty.Number {
			return cty.NilVal, false
		}
		f := elements.BigFloat(a)
		if f.IsInf() {
			return cty.NilVal, false
		}
		if bestF == nil || f.Cmp(bestF) == sign {
			best, bestF = a, f
		}
	}
	return best, true
}

// floorShortcut is floor() of a known, unmarked, finite number, made as
// go-cty makes it.
func floorShortcut(args []cty.Value) (cty.Value, bool) {
	if len(args) != 1 || !plain(args[0]) || args[0].Type() != cty.Number {
		return cty.NilVal, false
	}
	f := args[0].AsBigFloat()
	if f.IsInf() {
		return cty.NilVal, false
	}
	i, acc := f.Int(nil)
	if acc == big.Above {
		i.Sub(i, big.NewInt(1))
	}
	return cty.NumberVal(f.SetInt(i)), true
}

// singleByteCharacters reports whether every byte of s is a character
// (grapheme cluster) of its own, as go-cty's length and substr count
// them: s is printable ASCII and tabs. (A carriage return and a line feed
// are one character, and a byte past ASCII may join the one before it.)
func singleByteCharacters(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; (c < ' ' || c > '~') && c != '\t' {
			return false
		}
	}
	return true
}

// lowerShortcut is lower() of a known, unmarked string.
func lowerShortcut(args []cty.Value) (cty.Value, bool) {
	if len(args) != 1 || !plain(args[0]) || args[0].Type() != cty.String {
		return cty.NilVal, false
	}
	return cty.StringVal(strings.ToLower(args[0].AsString())), true
}

// upperShortcut is upper() of a known, unmarked string.
func upperShortcut(args []cty.Value) (cty.Value, bool) {
	if len(args) != 1 || !plain(args[0]) || args[0].Type() != cty.String {
		return cty.NilVal, false
	}
	return cty.StringVal(strings.ToUpper(args[0].AsString())), true
}

// joinShortcut is join() of a known separator and lists of known,
// unmarked, non-null strings (a null element is go-cty's error).
func joinShortcut(args []cty.Value) (cty.Value, bool) {
	if len(args) < 2 || !plain(args[0]) || args[0].Type() != cty.String {
		return cty.NilVal, false
	}
	sep := args[0].AsString()
	var b strings.Builder
	first := true
	for _, list := range args[1:] {
		if !plain(list) || !list.Type().Equals(cty.List(cty.String)) {
			return cty.NilVal, false
		}
		for it := elements.Of(list); it.Next(); {
			_, e := it.Element()
			if !plain(e) {
				return cty.NilVal, false
			}
			if !first {
				b.WriteString(sep)
			}
			first = false
			b.WriteString(e.AsString())
		}
	}
	return cty.StringVal(b.String()), true
}

// substrShortcut is substr() of a known, unmarked string of printable
// ASCII and tabs, with known whole-number offset and length: in such a
// string every byte is one character (grapheme cluster), which go-cty
// counts with the segmenter. The arithmetic is go-cty's, quirks included:
// a negative offset counts from the end, and with it a length of 0 takes
// the rest of the string.
func substrShortcut(args []cty.Value) (cty.Value, bool) {
	if len(args) != 3 || !plain(args[0]) || args[0].Type() != cty.String {
		return cty.NilVal, false
	}
	s := args[0].AsString()
	if !singleByteCharacters(s) {
		return cty.NilVal, false
	}
	offset, ok := smallInt(args[1])
	length, ok2 := smallInt(args[2])
	if !ok || !ok2 {
		return cty.NilVal, false
	}
	switch {
	case offset < 0:
		offset += len(s)
	case length == 0:
		return cty.StringVal(""), true
	}
	sub := s
	if offset > 0 {
		if offset > len(s) {
			return cty.StringVal(""), true
		}
		sub = s[offset:]
	}
	if length > 0 && length < len(sub) {
		sub = sub[:length]
	}
	return cty.StringVal(sub), true
}

// compactShortcut is compact() of a list of strings, every one known and
// none marked, as the argument arrives converted to its parameter's type.
func compactShortcut(args []cty.Value) (cty.Value, bool) {
	if len(args) != 1 || !plain(args[0]) || !args[0].Type().Equals(cty.List(cty.String)) {
		return cty.NilVal, false
	}
	var out []cty.Value
	for it := elements.Of(args[0]); it.Next(); {
		_, e := it.Element()
		if e.IsMarked() || !e.IsKnown() {
			return cty.NilVal, false
		}
		if !e.IsNull() && e.AsString() != "" {
			out = append(out, e)
		}
	}
	if len(out) == 0 {
		return cty.ListValEmpty(cty.String), true
	}
	return cty.ListVal(out), true
}

// concatShortcut is concat() of known, unmarked lists of one type (a list
// of that type) or of lists and tuples (a tuple); lists of different types
// are unified by the full call.
func concatShortcut(args []cty.Value) (cty.Value, bool) {
	if len(args) == 0 {
		return cty.NilVal, false
	}
	allLists, sameLists, n := true, true, 0
	for _, a := range args {
		ty := a.Type()
		if !plain(a) || !ty.IsListType() && !ty.IsTupleType() {
			return cty.NilVal, false
		}
		allLists = allLists && ty.IsListType()
		sameLists = sameLists && ty.Equals(args[0].Type())
		n += a.LengthInt()
	}
	if allLists && !sameLists {
		return cty.NilVal, false
	}
	vals := make([]cty.Value, 0, n)
	for _, a := range args {
		for it := elements.Of(a); it.Next(); {
			_, e := it.Element()
			vals = append(vals, e)
		}
	}
	switch {
	case !allLists:
		return cty.TupleVal(vals), true
	case len(vals) == 0:
		return cty.ListValEmpty(args[0].Type().ElementType()), true
	}
	return cty.ListVal(vals), true
}

// plain reports whether v is known, non-null and not marked at its top
// level; marks and unknowns nested inside it are the caller's concern.
func plain(v cty.Value) bool {
	return !v.IsMarked() && v.IsKnown() && !v.IsNull()
}

// keysShortcut is keys() of a map or object.
func keysShortcut(args []cty.Value) (cty.Value, bool) {
	if len(args) != 1 || !plain(args[0]) {
		return cty.NilVal, false
	}
	v, ty := args[0], args[0].Type()
	switch {
	case ty.IsObjectType():
		atys := ty.AttributeTypes()
		if len(atys) == 0 {
			return cty.EmptyTupleVal, true
		}
		names := make([]string, 0, len(atys))
		for name := range atys {
			names = append(names, name)
		}
		sort.Strings(names)
		keys := make([]cty.Value, len(names))
		for i, name := range names {
			keys[i] = cty.StringVal(name)
		}
		return cty.TupleVal(keys), true
	case ty.IsMapType():
		if v.LengthInt() == 0 {
			return cty.ListValEmpty(cty.String), true
		}
		keys := make([]cty.Value, 0, v.LengthInt())
		for it := elements.Of(v); it.Next(); {
			k, _ := it.Element()
			keys = append(keys, k)
		}
		return cty.ListVal(keys), true
	}
	return cty.NilVal, false
}

// lengthShortcut is length() of a string, list, map, tuple or object,
// with the marks of the value's top level, as length() itself gives them.
// Sets are left to the full call: one holding unknowns has no known length.
func lengthShortcut(args []cty.Value) (cty.Value, bool) {
	if len(args) != 1 {
		return cty.NilVal, false
	}
	v, vMarks := args[0].Unmark()
	if !plain(v) {
		return cty.NilVal, false
	}
	var n cty.Value
	switch ty := v.Type(); {
	case ty == cty.String:
		if s := v.AsString(); singleByteCharacters(s) {
			n = elements.Index(len(s))
			break
		}
		var err error
		if n, err = stdlib.Strlen(v); err != nil {
			return cty.NilVal, false
		}
	case ty.IsTupleType():
		n = elements.Index(len(ty.TupleElementTypes()))
	case ty.IsObjectType():
		n = elements.Index(len(ty.AttributeTypes()))
	case ty.IsListType() || ty.IsMapType():
		n = elements.Index(v.LengthInt())
	default:
		return cty.NilVal, false
	}
	return n.WithMarks(vMarks), true
}

// flattenShortcut is flatten() of a list or tuple whose nested lists and
// tuples are all known and unmarked; cty walks every element's whole value
// twice (for marks, then for unknowns) before flattening, even though
// neither matters below the nested sequences. Sets, whose length is
// unknown while they hold unknowns, take the full call.
func flattenShortcut(args []cty.Value) (cty.Value, bool) {
	if len(args) != 1 || !plain(args[0]) || !sequence(args[0].Type()) {
		return cty.NilVal, false
	}
	if args[0].LengthInt() == 0 {
		return cty.EmptyTupleVal, true
	}
	out, ok := flattenInto(make([]cty.Value, 0), args[0])
	if !ok {
		return cty.NilVal, false
	}
	return cty.TupleVal(out), true
}

// sequence reports whether flatten descends into values of type ty.
func sequence(ty cty.Type) bool {
	return ty.IsListType() || ty.IsTupleType() || ty.IsSetType()
}

// flattenInto appends the flattened elements of the list or tuple v to out,
// or reports false for a nested value the full call must see: a set, a
// marked or unknown sequence, or a value of no known type.
func flattenInto(out []cty.Value, v cty.Value) ([]cty.Value, bool) {
	if v.Type().IsSetType() {
		return out, false
	}
	for it := elements.Of(v); it.Next(); {
		_, e := it.Element()
		ty := e.Type()
		switch {
		case ty == cty.DynamicPseudoType:
			return out, false
		case e.IsNull() || !sequence(ty):
			out = append(out, e)
		case !plain(e):
			return out, false
		default:
			var ok bool
			if out, ok = flattenInto(out, e); !ok {
				return out, false
			}
		}
	}
	return out, true
}

// mergeShortcut is merge() of maps and objects. Arguments of one type give
// that type (a map stays a map); mixed ones give an object.
func mergeShortcut(args []cty.Value) (cty.Value, bool) {
	if len(args) == 0 {
		return cty.NilVal, false
	}
	first := args[0].Type()
	// Only maps of one type make a map; comparing object types is work.
	sameMaps, size := first.IsMapType(), 0
	for _, a := range args {
		ty := a.Type()
		if !plain(a) || !(ty.IsMapType() || ty.IsObjectType()) {
			return cty.NilVal, false
		}
		sameMaps = sameMaps && ty.Equals(first)
		size += a.LengthInt()
	}
	// cty.ObjectVal and cty.MapVal copy the elements: the map they are
	// gathered in is lent, and given back once the value is made.
	out := attrmap.New(size)
	defer attrmap.Release(out, size)
	for _, a := range args {
		if ty := a.Type(); ty.IsObjectType() {
			for name := range ty.AttributeTypes() {
				out[name] = a.GetAttr(name)
			}
			continue
		}
		for it := elements.Of(a); it.Next(); {
			k, e := it.Element()
			out[k.AsString()] = e
		}
	}
	if sameMaps {
		if len(out) == 0 {
			return cty.MapValEmpty(first.ElementType()), true
		}
		return cty.MapVal(out), true
	}
	return cty.ObjectVal(out), true
}

// jsonEncodeShortcut is jsonencode() of a value with nothing marked or
// unknown anywhere inside it, found while encoding rather than by a walk
// beforehand.
func jsonEncodeShortcut(args []cty.Value) (cty.Value, bool) {
	if len(args) != 1 || !plain(args[0]) || args[0].Type().HasDynamicTypes() {
		return cty.NilVal, false
	}
	// Most documents fit the first buffer; appending from nil would grow it
	// five or six times on the way.
	buf, ok := appendJSON(make([]byte, 0, 256), args[0])
	if !ok {
		return cty.NilVal, false
	}
	return cty.StringVal(string(buf)), true
}

// elementShortcut is element() of a list or tuple at a whole-number index,
// which wraps around the length either way.
func elementShortcut(args []cty.Value) (cty.Value, bool) {
	if len(args) != 2 || !plain(args[0]) || !plain(args[1]) || args[1].Type() != cty.Number {
		return cty.NilVal, false
	}
	list, ty := args[0], args[0].Type()
	if !ty.IsListType() && !ty.IsTupleType() {
		return cty.NilVal, false
	}
	f := elements.BigFloat(args[1])
	if !f.IsInt() {
		return cty.NilVal, false
	}
	i, acc := f.Int64()
	n := int64(list.LengthInt())
	if acc != big.Exact || n == 0 {
		return cty.NilVal, false
	}
	i %= n
	if i < 0 {
		i += n
	}
	return list.Index(cty.NumberIntVal(i)), true
}

// distinctShortcut is distinct() of a list of known, unmarked, non-null
// strings, or of bools (arguments arrive converted to the parameter's
// type, so distinct(flatten(...)) comes as a list): go-cty compares every element with every
// one it keeps, so distinct(flatten(...)) of 20,000 strings took two
// minutes; a set of the elements seen makes it linear. Strings are in
// normal form NFC, so equal strings are equal bytes.
func distinctShortcut(args []cty.Value) (cty.Value, bool) {
	if len(args) != 1 || !plain(args[0]) {
		return cty.NilVal, false
	}
	list := args[0]
	if !list.Type().IsListType() || list.LengthInt() == 0 {
		return cty.NilVal, false
	}
	elemTy := cty.NilType
	seen := make(map[string]bool, list.LengthInt())
	var out []cty.Value
	for it := elements.Of(list); it.Next(); {
		_, v := it.Element()
		if !plain(v) || v.Type() != cty.String && v.Type() != cty.Bool || elemTy != cty.NilType && v.Type() != elemTy {
			return cty.NilVal, false
		}
		elemTy = v.Type()
		key := ""
		if v.Type() == cty.String {
			key = v.AsString()
		} else {
			key = strconv.FormatBool(v.True())
		}
		if !seen[key] {
			seen[key] = true
			out = append(out, v)
		}
	}
	return cty.ListVal(out), true
}

// sortShortcut is sort() of a list of known, unmarked, non-null strings
// (arguments arrive converted to the parameter's type): the elements
// themselves in order, where cty first walks the list for unknowns and
// marks and then makes every string again.
func sortShortcut(args []cty.Value) (cty.Value, bool) {
	if len(args) != 1 || !plain(args[0]) || !args[0].Type().Equals(cty.List(cty.String)) {
		return cty.NilVal, false
	}
	vals := make([]cty.Value, 0, args[0].LengthInt())
	for it := elements.Of(args[0]); it.Next(); {
		_, v := it.Element()
		if !plain(v) || v.Type() != cty.String {
			return cty.NilVal, false
		}
		vals = append(vals, v)
	}
	if len(vals) == 0 {
		return cty.ListValEmpty(cty.String), true
	}
	slices.SortFunc(vals, func(a, b cty.Value) int { return strings.Compare(a.AsString(), b.AsString()) })
	return cty.ListVal(vals), true
}

// formatShortcut is format() when the specification has only %s of
// strings, %d of integers (with at most a zero flag and a width) and %%,
// and uses every argument: what the common calls are. Anything else,
// errors included, is go-cty's, whose verbs are a larger language.
func formatShortcut(args []cty.Value) (cty.Value, bool) {
	if len(args) == 0 || !plain(args[0]) || args[0].Type() != cty.String {
		return cty.NilVal, false
	}
	spec := args[0].AsString()
	var stack [128]byte
	buf := stack[:0]
	next := 1
	for i := 0; i < len(spec); i++ {
		if spec[i] != '%' {
			buf = append(buf, spec[i])
			continue
		}
		i++
		if i < len(spec) && spec[i] == '%' {
			buf = append(buf, '%')
			continue
		}
		zero, width := false, 0
		if i < len(spec) && spec[i] == '0' {
			zero = true
			i++
			if i < len(spec) && spec[i] == '0' {
				return cty.NilVal, false // repeated flags: go-cty's to read
			}
		}
		for ; i < len(spec) && spec[i] >= '0' && spec[i] <= '9'; i++ {
			width = width*10 + int(spec[i]-'0')
			if width > 64 {
				return cty.NilVal, false
			}
		}
		if i >= len(spec) || next >= len(args) || !plain(args[next]) {
			return cty.NilVal, false
		}
		arg := args[next]
		next++
		switch {
		case spec[i] == 's' && !zero && width == 0 && arg.Type() == cty.String:
			buf = append(buf, arg.AsString()...)
		case spec[i] == 'd' && arg.Type() == cty.Number:
			n, acc := elements.BigFloat(arg).Int64()
			if acc != big.Exact {
				return cty.NilVal, false
			}
			buf = appendPadded(buf, n, zero, width)
		default:
			return cty.NilVal, false
		}
	}
	if next != len(args) {
		return cty.NilVal, false
	}
	return cty.StringVal(string(buf)), true
}

// appendPadded appends n in decimal as fmt's %d, %Nd or %0Nd writes it:
// padded on the left to width with spaces, or with zeros after the sign.
func appendPadded(buf []byte, n int64, zero bool, width int) []byte {
	var digits [24]byte
	d := strconv.AppendInt(digits[:0], n, 10)
	pad := width - len(d)
	if pad <= 0 {
		return append(buf, d...)
	}
	fill := byte(' ')
	if zero {
		fill = '0'
		if d[0] == '-' {
			buf = append(buf, '-')
			d = d[1:]
		}
	}
	for range pad {
		buf = append(buf, fill)
	}
	return append(buf, d...)
}

// rangeShortcut is range() of small whole numbers that go-cty would accept:
// the numbers, shared where they are small, where go-cty compares and
// adds big floats for each element. Anything else, errors included, is
// go-cty's.
func rangeShortcut(args []cty.Value) (cty.Value, bool) {
	if len(args) == 0 || len(args) > 3 {
		return cty.NilVal, false
	}
	var n [3]int64
	for i, a := range args {
		if !plain(a) || a.Type() != cty.Number {
			return cty.NilVal, false
		}
		v, acc := elements.BigFloat(a).Int64()
		if acc != big.Exact || v < -1<<40 || v > 1<<40 {
			return cty.NilVal, false
		}
		n[i] = v
	}
	start, end, step := int64(0), n[0], int64(1)
	switch len(args) {
	case 2:
		start, end = n[0], n[1]
	case 3:
		start, end, step = n[0], n[1], n[2]
	}
	if len(args) < 3 && end < start {
		step = -1
	}
	if step == 0 || step < 0 && end > start || step > 0 && end < start {
		return cty.NilVal, false // go-cty's errors
	}
	var vals []cty.Value
	for v := start; step > 0 && v < end || step < 0 && v > end; v += step {
		if len(vals) == 1024 {
			return cty.NilVal, false // past go-cty's limit: its error
		}
		vals = append(vals, elements.Number(v))
	}
	if len(vals) == 0 {
		return cty.ListValEmpty(cty.Number), true
	}
	return cty.ListVal(vals), true
}

// closureArg returns the expression closure an argument of try() or can()
// carries, or false when it is anything else.
func closureArg(v cty.Value) (*customdecode.ExpressionClosure, bool) {
	if !plain(v) || v.Type() != customdecode.ExpressionClosureType {
		return nil, false
	}
	return customdecode.ExpressionClosureFromVal(v), true
}

// tryShortcut is try() when one of its expressions succeeds. hcl's try
// evaluates the expressions once to find the result type and again for
// the result; this evaluates them once, as hcl's does each time: the
// first without errors gives its value, unknown (of no type) when not
// wholly known to Terraform (knownToTerraform). When none succeeds the
// full call reports why.
func tryShortcut(args []cty.Value) (cty.Value, bool) {
	for _, arg := range args {
		closure, ok := closureArg(arg)
		if !ok {
			return cty.NilVal, false
		}
		v, diags := closure.Value()
		if diags.HasErrors() {
			continue
		}
		if !knownToTerraform(closure, v) {
			return cty.DynamicVal, true
		}
		return v, true
	}
	return cty.NilVal, false
}

// canShortcut is can(), evaluating its expression once as hcl's does:
// false with errors, unknown when the value is not wholly known to
// Terraform (knownToTerraform).
func canShortcut(args []cty.Value) (cty.Value, bool) {
	if len(args) != 1 {
		return cty.NilVal, false
	}
	closure, ok := closureArg(args[0])
	if !ok {
		return cty.NilVal, false
	}
	v, diags := closure.Value()
	switch {
	case diags.HasErrors():
		return cty.False, true
	case !knownToTerraform(closure, v):
		return cty.UnknownVal(cty.Bool), true
	}
	return cty.True, true
}

// knownToTerraform reports whether Terraform would find v, the value of
// closure's expression without errors, wholly known, as try() and can()
// require before they decide: it is, or its unknowns are only what a
// mocked provider has applied and tfeval lacks the schema to tell
// (marks.Settled), and the expression is a bare reference. A reference's
// steps were taken on known values, as Terraform takes them; an
// expression that operates on such an unknown (an index into it, a
// function of it) might fail where Terraform knows the value, so it
// stays undecided.
func knownToTerraform(closure *customdecode.ExpressionClosure, v cty.Value) bool {
	if v.IsWhollyKnown() {
		return true
	}
	expr := closure.Expression
	for {
		p, ok := expr.(*hclsyntax.ParenthesesExpr)
		if !ok {
			break
		}
		expr = p.Expression
	}
	if _, diags := hcl.AbsTraversalForExpr(expr); diags.HasErrors() {
		return false
	}
	return marks.Settled(v)
}
