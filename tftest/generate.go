package tftest

import (
	"fmt"
	"hash/fnv"

	"github.com/zclconf/go-cty/cty"
)

// Mocked providers and overrides generate values for the computed
// attributes nothing gives a value for, by the rules Terraform's mocks
// follow: a number is 0, a bool false, a collection empty, an object has
// each of its attributes generated, and a string is 8 lower-case letters
// and digits (OpenTofu's are 4 to 16 letters of either case and digits;
// tfeval gives 8 of those in that dialect). Both draw those strings at
// random; tfeval derives them from the seed, the instance's address and
// the attribute's path (an FNV-1a hash driving a 64-bit xorshift
// generator), so that the same test gives the same values on every run
// and every machine, and two attributes or instances do not share one by
// chance. Only a test that expects a particular generated string could
// tell the difference, and such a test would fail under Terraform too.

// The characters of a generated string. Terraform's mocks draw only
// lower-case letters and digits, so a module's validation of a name made
// from a mocked value (a bucket name, a DNS label) passes under Terraform;
// OpenTofu's draw letters of either case.
const (
	lowerAlphanumeric = "abcdefghijklmnopqrstuvwxyz0123456789"
	alphanumeric      = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
)

// generator makes the values of one instance.
type generator struct {
	seed uint64
	addr string
	tofu bool // OpenTofu's characters rather than Terraform's
}

// str is the generated string of the attribute at path.
func (g generator) str(path string) cty.Value {
	h := fnv.New64a()
	fmt.Fprintf(h, "%d|%s|%s", g.seed, g.addr, path)
	x := h.Sum64() | 1
	chars := lowerAlphanumeric
	if g.tofu {
		chars = alphanumeric
	}
	b := make([]byte, 8)
	for i := range b {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
		b[i] = chars[x%uint64(len(chars))]
	}
	return cty.StringVal(string(b))
}

// uuid is a generated identifier in the form of a UUID, as
// terraform_data's id is.
func (g generator) uuid(path string) cty.Value {
	h := fnv.New128a()
	fmt.Fprintf(h, "%d|%s|%s", g.seed, g.addr, path)
	b := h.Sum(nil)
	return cty.StringVal(fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16]))
}

// value generates a value of type ty for the attribute at path.
func (g generator) value(ty cty.Type, path string) cty.Value {
	switch {
	case ty == cty.String:
		return g.str(path)
	case ty == cty.Number:
		return cty.Zero
	case ty == cty.Bool:
		return cty.False
	case ty.IsListType():
		return cty.ListValEmpty(ty.ElementType())
	case ty.IsSetType():
		return cty.SetValEmpty(ty.ElementType())
	case ty.IsMapType():
		return cty.MapValEmpty(ty.ElementType())
	case ty.IsTupleType():
		if len(ty.TupleElementTypes()) == 0 {
			return cty.EmptyTupleVal
		}
		elems := make([]cty.Value, len(ty.TupleElementTypes()))
		for i, et := range ty.TupleElementTypes() {
			elems[i] = g.value(et, fmt.Sprintf("%s[%d]", path, i))
		}
		return cty.TupleVal(elems)
	case ty.IsObjectType():
		attrs := map[string]cty.Value{}
		for name, at := range ty.AttributeTypes() {
			attrs[name] = g.value(at, path+"."+name)
		}
		return cty.ObjectVal(attrs)
	}
	// A value of any type: Terraform's mocks leave it null.
	return cty.NullVal(ty)
}
