package fastexpr

import (
	"reflect"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
)

// rootsKey names the variable of a context holding its Roots; no
// identifier can contain a NUL byte.
const rootsKey = "\x00tfeval root attributes"

var rootsType = cty.Capsule("roots", reflect.TypeOf(Roots{}))

// Roots records the attributes that the objects of a context's root names
// (var, local, each, count, ...) were made of, so that a reference's fast
// path reads local.x from the record rather than with GetAttr, which
// normalizes the name three times and looks it up four: the references of
// a resource body are read again for every instance.
//
// A root whose names are all ASCII is recorded as it is: its object has
// each attribute under the same name, with the same value. A root with
// another name is not used at all, since two names may normalize to one
// attribute of the object.
type Roots struct {
	attrs []rootAttr
	// index finds an attribute in attrs by root and name once there are
	// more than linearRoots of them: an expression naming thousands of
	// variables (a generated module's table of every quota of a cloud)
	// would take time quadratic in their number to record and read.
	index map[rootName]int
}

// linearRoots is how many attributes Roots searches one by one: a
// reference names a handful, and a map is dearer than a scan of a few.
const linearRoots = 16

// rootName is an attribute's key in Roots.index; a name of "" stands for
// the mark of a root not to use.
type rootName struct{ root, name string }

// rootAttr is one attribute of a root's object; a name of "" marks a
// root not to use.
type rootAttr struct {
	root, name string
	v          cty.Value
}

// rootsOf2, rootsOf4 and rootsOf8 are Roots with room for their
// attributes in the same allocation.
type (
	rootsOf2 struct {
		Roots
		room [2]rootAttr
	}
	rootsOf4 struct {
		Roots
		room [4]rootAttr
	}
	rootsOf8 struct {
		Roots
		room [8]rootAttr
	}
)

// NewRoots returns an empty record with room for n attributes, in one
// allocation when n is at most 8.
func NewRoots(n int) *Roots {
	switch {
	case n <= 2:
		r := &rootsOf2{}
		r.attrs = r.room[:0]
		return &r.Roots
	case n <= 4:
		r := &rootsOf4{}
		r.attrs = r.room[:0]
		return &r.Roots
	case n <= 8:
		r := &rootsOf8{}
		r.attrs = r.room[:0]
		return &r.Roots
	}
	return &Roots{attrs: make([]rootAttr, 0, n)}
}

// Put records that root's object has attribute name with value v. As in
// the map the object is made from, a later Put of the same name wins.
func (r *Roots) Put(root, name string, v cty.Value) {
	if !ascii(name) {
		name = ""
	}
	if r.index != nil {
		if i, ok := r.index[rootName{root, name}]; ok {
			r.attrs[i].v = v
			return
		}
		r.index[rootName{root, name}] = len(r.attrs)
		r.attrs = append(r.attrs, rootAttr{root, name, v})
		return
	}
	for i := range r.attrs {
		if a := &r.attrs[i]; a.root == root && a.name == name {
			a.v = v
			return
		}
	}
	r.attrs = append(r.attrs, rootAttr{root, name, v})
	if len(r.attrs) > linearRoots {
		r.index = make(map[rootName]int, 2*len(r.attrs))
		for i, a := range r.attrs {
			r.index[rootName{a.root, a.name}] = i
		}
	}
}

// Define stores r in vars, the variables of the context whose root
// objects were made from what r records. Neither may change afterwards.
func (r *Roots) Define(vars map[string]cty.Value) {
	vars[rootsKey] = cty.CapsuleVal(rootsType, r)
}

// get is the value of root.name as recorded, false when it is not.
func (r *Roots) get(root, name string) (cty.Value, bool) {
	if r.index != nil {
		if _, unusable := r.index[rootName{root, ""}]; unusable {
			return cty.NilVal, false
		}
		if i, ok := r.index[rootName{root, name}]; ok {
			return r.attrs[i].v, true
		}
		return cty.NilVal, false
	}
	v, found := cty.NilVal, false
	for i := range r.attrs {
		if a := &r.attrs[i]; a.root == root {
			switch a.name {
			case "":
				return cty.NilVal, false
			case name:
				v, found = a.v, true
			}
		}
	}
	return v, found
}

// IsRootsVariable reports whether name is the context variable Define
// sets: a copy of a context with other values (every value unknown, say)
// must leave it out, or the fast path reads the values it records.
func IsRootsVariable(name string) bool { return name == rootsKey }

// rootAttrIn is root.name recorded in ctx's own Roots, false when ctx
// has none or they do not record it.
func rootAttrIn(ctx *hcl.EvalContext, root, name string) (cty.Value, bool) {
	rv, ok := ctx.Variables[rootsKey]
	if !ok {
		return cty.NilVal, false
	}
	return rv.EncapsulatedValue().(*Roots).get(root, name)
}

// ascii reports whether s is ASCII, which normalization leaves as it is.
func ascii(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}
