package lang

import (
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hcldec"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/tfeval/tfeval/config"
	"github.com/tfeval/tfeval/funcs"
	"github.com/tfeval/tfeval/internal/limit"
	"github.com/tfeval/tfeval/marks"
)

// This file plans the objects of resources whose provider schema tfeval
// was not given. Terraform would know every attribute such a resource has;
// tfeval knows only what the block sets. So an object is planned as what
// the configuration sets, where an argument set to null and every
// attribute the configuration reads but does not set are unknown (the
// provider may compute them), marked as Unread so that what they decide is
// not reported as an error Terraform would not report.

// unreadMarks is the mark set of the unknowns of a resource without
// schema, or of a data source tfeval does not read, in module c.
func (ev *evaluator) unreadMarks(c *config.Config, res *config.Resource, cause marks.Cause) cty.ValueMarks {
	ev.madeUnread()
	return marks.UnreadSet([]marks.Unread{{Cause: cause, Addr: configAddr(c, res.Addr())}})
}

// configAddr is addr inside module c, with the module path and no instance keys.
func configAddr(c *config.Config, addr string) string {
	if c == nil || len(c.Path) == 0 {
		return addr
	}
	return "module." + strings.Join(c.Path, ".module.") + "." + addr
}

// unreadCause is why the unknowns of a resource without schema are unknown.
func unreadCause(res *config.Resource) marks.Cause {
	if res.Mode == config.ManagedResourceMode {
		return marks.NoSchema
	}
	return marks.DataNotRead
}

// plannedUnknowns makes the unknowns planning resource res of module c
// (whose resourceInfo is info) without schema adds.
func (ev *evaluator) plannedUnknowns(c *config.Config, res *config.Resource, info *resourceInfo, writeOnly bool) *unknownMarked {
	return &unknownMarked{
		ms:        ev.unreadMarks(c, res, unreadCause(res)),
		writeOnly: writeOnly,
		dynamic:   info.dynamicArgs,
	}
}

// fillWhole is a resource's whole value with the paths t reads filled in
// every instance; spec is the implied spec its instances were decoded with.
func fillWhole(rs *resourceState, t *readTree, spec hcldec.Spec, u *unknownMarked) cty.Value {
	if !rs.expansion.multi() {
		v, _ := t.fill(rs.whole, spec, u)
		return v
	}
	whole, vm := rs.whole.Unmark()
	if !whole.IsKnown() || whole.IsNull() {
		return rs.whole
	}
	switch ty := whole.Type(); {
	case ty.IsTupleType():
		vals := whole.AsValueSlice()
		for i, v := range vals {
			vals[i], _ = t.fill(v, spec, u)
		}
		if len(vals) == 0 {
			return rs.whole
		}
		return cty.TupleVal(vals).WithMarks(vm)
	case ty.IsObjectType():
		vals := whole.AsValueMap()
		for k, v := range vals {
			vals[k], _ = t.fill(v, spec, u)
		}
		if len(vals) == 0 {
			return rs.whole
		}
		return cty.ObjectVal(vals).WithMarks(vm)
	}
	return rs.whole
}

// reads returns the read analysis of the configuration, made on first use.
func (ev *evaluator) reads() *readAnalysis {
	sh := ev.share()
	sh.readsOnce.Do(func() {
		sh.readPaths = analyzeReads(ev.cfg, ev.moduleReads, ev.templateExpr, ev.opts.Reads, ev.opts.OutputReads)
	})
	return sh.readPaths
}

// templateExpr is the template the file at path holds, nil when it cannot
// be read or parsed: for the read analysis.
func (ev *evaluator) templateExpr(path string) hclsyntax.Expression {
	fopts := ev.opts.Functions
	fopts.Dialect = ev.opts.Dialect
	src, err := funcs.TemplateSource(fopts, path)
	if err != nil {
		return nil
	}
	expr, diags := limit.ParseTemplate([]byte(src), path)
	if diags.HasErrors() {
		return nil
	}
	return expr
}

// VariableReads returns what the configuration reads of the value of each
// variable of its root module, directly and through every value it flows
// into (as the planning of resources without schema works it out), with
// the attributes a conversion to the variable's type requires: each path
// read is a relative traversal, an index of any element written [0]. A
// caller that gives a variable an object it knows only in part (a test
// run's value from an earlier run's resource without schema) can plan
// those paths there. opts is what the configuration will be evaluated
// with (Functions, Dialect and Schemas matter); what opts.Reads and
// opts.OutputReads read of the variables is included.
func VariableReads(cfg *config.Config, opts Options) map[string][]hcl.Traversal {
	if cfg == nil || cfg.Module == nil {
		return nil
	}
	ev := &evaluator{evaluation: &evaluation{opts: opts, cfg: cfg}}
	a := newReadAnalysis(ev.moduleReads, ev.templateExpr)
	a.vars = map[string]*readTree{}
	a.analyze(cfg, opts.Reads, opts.OutputReads)
	for name, v := range cfg.Module.Variables {
		for _, path := range typeReads(v.ConstraintType) {
			if a.vars[name] == nil {
				a.vars[name] = &readTree{}
			}
			a.vars[name].add(path)
		}
	}
	out := make(map[string][]hcl.Traversal, len(a.vars))
	for name, t := range a.vars {
		out[name] = t.traversals(nil, nil)
	}
	return out
}

// traversals appends to out a relative traversal for every path of t
// that ends there (a leaf), each after prefix.
func (t *readTree) traversals(prefix hcl.Traversal, out []hcl.Traversal) []hcl.Traversal {
	if t.elems == nil && len(t.attrs) == 0 {
		if len(prefix) > 0 {
			out = append(out, slices.Clone(prefix))
		}
		return out
	}
	for _, name := range sortedKeys(t.attrs) {
		out = t.attrs[name].traversals(append(prefix, hcl.TraverseAttr{Name: name}), out)
	}
	if t.elems != nil {
		out = t.elems.traversals(append(prefix, hcl.TraverseIndex{Key: cty.Zero}), out)
	}
	return out
}

// openObject turns a decoded object of a body without schema into a
// planned one: arguments set to null or "" become unknown, block types that only
// dynamic blocks without elements produced are left out (as though absent),
// and every path t reads is added, unknown where the body does not set it.
// The unknowns are u's. With u.writeOnly (a managed resource's body), an
// argument holding an ephemeral value is unknown too: see openArgumentsIn.
func openObject(v cty.Value, spec hcldec.Spec, t *readTree, u *unknownMarked) cty.Value {
	v = openArguments(v, spec, t, u)
	if t != nil {
		v, _ = t.fill(v, spec, u)
	}
	return v
}

// openAttributes is openObject of the object that the decoded attributes
// attrs make, without making that object first only to read its
// attributes back: they are opened and filled in attrs itself, which then
// becomes the planned object. attrs is not to be read afterwards.
func openAttributes(attrs map[string]cty.Value, spec hcldec.Spec, t *readTree, u *unknownMarked) cty.Value {
	obj, ok := spec.(hcldec.ObjectSpec)
	if !ok || !asciiNames(attrs) {
		// cty normalizes the names of an object's attributes, which the
		// object's own value would look up by.
		return openObject(cty.ObjectVal(attrs), spec, t, u)
	}
	openArgumentsIn(attrs, obj, t, u)
	if t != nil {
		t.fillAttributes(attrs, obj, u)
	}
	return cty.ObjectVal(attrs)
}

// asciiNames reports whether every name in attrs is ASCII, which NFC
// normalization leaves as it is.
func asciiNames(attrs map[string]cty.Value) bool {
	for name := range attrs {
		if !asciiName(name) {
			return false
		}
	}
	return true
}

// asciiName reports whether name is ASCII, which NFC normalization leaves
// as it is.
func asciiName(name string) bool {
	for i := range len(name) {
		if name[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// openArguments is the first part of openObject, for a block and,
// recursively, the blocks nested in it. A block type written once whose
// attributes the configuration reads directly (x.block.attr), and never by
// index, is a single block: its value is the block's object, not a list of
// one, as the provider's schema must say for that configuration to work.
func openArguments(v cty.Value, spec hcldec.Spec, t *readTree, u *unknownMarked) cty.Value {
	obj, ok := spec.(hcldec.ObjectSpec)
	if !ok || !v.IsKnown() || v.IsNull() || !v.Type().IsObjectType() {
		return v
	}
	v, vm := v.Unmark()
	attrs := v.AsValueMap()
	if !openArgumentsIn(attrs, obj, t, u) {
		return v.WithMarks(vm)
	}
	return cty.ObjectVal(attrs).WithMarks(vm)
}

// openArgumentsIn is openArguments of an object's attributes, in place;
// it reports whether it changed any.
func openArgumentsIn(attrs map[string]cty.Value, obj hcldec.ObjectSpec, t *readTree, u *unknownMarked) bool {
	changed := false
	for name, s := range obj {
		av, ok := attrs[name]
		if !ok {
			continue
		}
		switch s := s.(type) {
		case *hcldec.AttrSpec:
			if av.IsNull() {
				// The type of a null says nothing of the attribute's:
				// a null string (an unset optional(string)) may be
				// given for a number the provider defaults, which an
				// unknown string would never equal.
				attrs[name] = u.of(cty.DynamicPseudoType)
				changed = true
			} else if u.writeOnly && marks.Contains(av, marks.Ephemeral) {
				// Only a write-only argument takes an ephemeral value,
				// and Terraform plans a write-only argument as null;
				// whether that is this argument or an attribute nested
				// in it, only the schema would say.
				attrs[name] = u.of(av.Type())
				changed = true
			} else if isEmptyString(av) {
				// Providers on the legacy SDK cannot tell "" from
				// null: they plan an attribute the provider may
				// compute that is set to "" as unknown.
				attrs[name] = u.of(cty.String).WithSameMarks(av)
				changed = true
			}
		case *hcldec.BlockTupleSpec:
			if !av.IsKnown() || av.IsNull() {
				continue
			}
			if av.LengthInt() == 0 {
				delete(attrs, name)
				changed = true
				continue
			}
			elems, em := av.Unmark()
			vals := elems.AsValueSlice()
			var sub *readTree
			if t != nil {
				sub = t.attrs[name]
			}
			if len(vals) == 1 && sub != nil && sub.elems == nil && len(sub.attrs) > 0 {
				attrs[name] = openArguments(vals[0], s.Nested, sub, u).WithMarks(em)
				changed = true
				continue
			}
			if sub != nil {
				sub = sub.elems
			}
			for i, e := range vals {
				vals[i] = openArguments(e, s.Nested, sub, u)
			}
			attrs[name] = cty.TupleVal(vals).WithMarks(em)
			changed = true
		case *hcldec.BlockObjectSpec:
			if !av.IsKnown() || av.IsNull() {
				continue
			}
			blocks, em := av.Unmark()
			vals := blocks.AsValueMap()
			if len(vals) == 0 {
				continue
			}
			var sub *readTree
			if t != nil {
				sub = t.attrs[name]
			}
			for k, e := range vals {
				vals[k] = openArguments(e, s.Nested, sub.byKey(k), u)
			}
			attrs[name] = cty.ObjectVal(vals).WithMarks(em)
			changed = true
		}
	}
	return changed
}

// byKey is the part of t (nil for none) read from the element of key k:
// what is read by that key, or else by any key.
func (t *readTree) byKey(k string) *readTree {
	if t == nil {
		return nil
	}
	if sub := t.attrs[k]; sub != nil {
		return sub
	}
	return t.elems
}

// fill returns v with every path t reads present: an attribute v lacks is
// added as unknown with marks ms; what is read inside an attribute or an
// element that v has is filled in the same way. It also reports whether v
// changed. Unknown and null values, and sets, are returned as they are.
//
// spec, when not nil, is the implied spec v was decoded with (an object's,
// or a block type's). A path read inside an argument the configuration
// sets that its value lacks is filled too: the schema may give the
// argument an object type whose other attributes the provider computes
// (Terraform plans them unknown), or a map or dynamic type, where the path
// does not exist; without the schema that is not known, so the read is
// unknown rather than an error. Only an argument tfeval knows to be of
// dynamic type (u.dynamic) is left as it is written: a path its value
// lacks does not exist, reading it is an error Terraform reports too, and
// try or can find it missing.
func (t *readTree) fill(v cty.Value, spec hcldec.Spec, u *unknownMarked) (cty.Value, bool) {
	if t == nil || !v.IsKnown() || v.IsNull() {
		return v, false
	}
	var obj hcldec.ObjectSpec
	var elemSpec, keyedSpec hcldec.Spec
	switch s := spec.(type) {
	case hcldec.ObjectSpec:
		obj = s
	case *hcldec.BlockTupleSpec:
		elemSpec = s.Nested
	case *hcldec.BlockObjectSpec:
		keyedSpec = s.Nested
	}
	inner, vm := v.Unmark()
	ty := inner.Type()
	changed := false
	switch {
	case ty.IsObjectType() && keyedSpec != nil:
		// Blocks by their labels: each is filled as what is read by its
		// key or by any key.
		vals := inner.AsValueMap()
		for k, e := range vals {
			for _, sub := range [2]*readTree{t.attrs[k], t.elems} {
				if nv, ok := sub.fill(e, keyedSpec, u); ok {
					vals[k], e = nv, nv
					changed = true
				}
			}
		}
		if !changed {
			return v, false
		}
		return cty.ObjectVal(vals).WithMarks(vm), true
	case ty.IsObjectType() && elemSpec != nil:
		// A single block read directly (see openArguments).
		return t.fill(v, elemSpec, u)
	case ty.IsObjectType():
		attrs := inner.AsValueMap()
		if attrs == nil {
			attrs = map[string]cty.Value{}
		}
		if !t.fillAttributes(attrs, obj, u) {
			return v, false
		}
		return cty.ObjectVal(attrs).WithMarks(vm), true
	case ty.IsTupleType() && elemSpec != nil && inner.LengthInt() == 1 && t.elems == nil && len(t.attrs) > 0:
		// A block type written once whose attributes are read directly
		// is a single block, as openArguments decides for what the
		// configuration reads.
		nv, _ := t.fill(inner.Index(cty.Zero), elemSpec, u)
		return nv.WithMarks(vm), true
	case ty.IsTupleType() || ty.IsListType():
		if t.elems == nil || inner.LengthInt() == 0 {
			return v, false
		}
		vals := inner.AsValueSlice()
		for i, e := range vals {
			if nv, ok := t.elems.fill(e, elemSpec, u); ok {
				vals[i] = nv
				changed = true
			}
		}
		if !changed {
			return v, false
		}
		if ty.IsListType() && sameTypes(vals) {
			return cty.ListVal(vals).WithMarks(vm), true
		}
		return cty.TupleVal(vals).WithMarks(vm), true
	case ty.IsMapType():
		if t.elems == nil || inner.LengthInt() == 0 {
			return v, false
		}
		vals := inner.AsValueMap()
		for k, e := range vals {
			if nv, ok := t.elems.fill(e, nil, u); ok {
				vals[k] = nv
				changed = true
			}
		}
		if !changed {
			return v, false
		}
		if sameTypesMap(vals) {
			return cty.MapVal(vals).WithMarks(vm), true
		}
		return cty.ObjectVal(vals).WithMarks(vm), true
	}
	return v, false
}

// fillAttributes is fill of an object's attributes, in place, with obj
// the object's spec (nil for none); it reports whether it changed any.
func (t *readTree) fillAttributes(attrs map[string]cty.Value, obj hcldec.ObjectSpec, u *unknownMarked) bool {
	changed := false
	for name, sub := range t.attrs {
		av, ok := attrs[name]
		if !ok {
			attrs[name] = u.of(cty.DynamicPseudoType)
			changed = true
			continue
		}
		var subSpec hcldec.Spec
		if obj != nil {
			subSpec = obj[name]
			if as, arg := subSpec.(*hcldec.AttrSpec); arg {
				if slices.Contains(u.dynamic, as) {
					continue
				}
				// What the argument's value lacks may be an attribute
				// of the provider's schema (an object attribute's
				// computed member) or nothing at all (a map's key, a
				// dynamic value's attribute): only the schema would say.
				subSpec = nil
			}
		}
		if nv, ok := sub.fill(av, subSpec, u); ok {
			attrs[name] = nv
			changed = true
		}
	}
	if t.elems != nil {
		// An object read with an index is read as a map.
		for name, av := range attrs {
			if nv, ok := t.elems.fill(av, nil, u); ok {
				attrs[name] = nv
				changed = true
			}
		}
	}
	return changed
}

// unknownMarked makes the unknowns that planning a body without schema
// adds, each marked with ms. Most are of no type: that one is made once
// and shared, rather than marked anew for every attribute. writeOnly says
// that the body is a managed resource's, whose arguments may be write-only.
type unknownMarked struct {
	ms        cty.ValueMarks
	unknown   cty.Value
	writeOnly bool
	// dynamic are the body's arguments its provider declares of dynamic
	// type (see dynamicSpecs): a provider plans such an argument exactly
	// as written, so a path read inside it that its value lacks does not
	// exist, as with Terraform.
	dynamic []*hcldec.AttrSpec
}

func (u *unknownMarked) of(ty cty.Type) cty.Value {
	if ty != cty.DynamicPseudoType {
		return cty.UnknownVal(ty).WithMarks(u.ms)
	}
	if u.unknown == cty.NilVal {
		u.unknown = cty.DynamicVal.WithMarks(u.ms)
	}
	return u.unknown
}

// sameTypes reports whether every value has the first one's type.
func sameTypes(vals []cty.Value) bool {
	for _, v := range vals[1:] {
		if !v.Type().Equals(vals[0].Type()) {
			return false
		}
	}
	return true
}

func sameTypesMap(vals map[string]cty.Value) bool {
	var first cty.Type
	for _, v := range vals {
		if first == cty.NilType {
			first = v.Type()
		} else if !v.Type().Equals(first) {
			return false
		}
	}
	return true
}

// alignInstances gives the instance objects of a resource without schema
// one set of attributes. Terraform's instances of a resource are all of
// the schema's type, while tfeval knows of each only what its block sets,
// so a value built from several (a conditional, a list of them) could
// fail to unify where Terraform's does not. An attribute an instance does
// not set is unknown there, of unknown type, with the marks unread gives.
func alignInstances(vals []cty.Value, unread func() cty.ValueMarks) {
	if len(vals) < 2 {
		return
	}
	all := map[string]struct{}{}
	for _, v := range vals {
		if v.IsMarked() || !v.Type().IsObjectType() || !v.IsKnown() || v.IsNull() {
			return
		}
		for name := range v.Type().AttributeTypes() {
			all[name] = struct{}{}
		}
	}
	var ms cty.ValueMarks
	for i, v := range vals {
		if len(v.Type().AttributeTypes()) == len(all) {
			continue
		}
		if ms == nil {
			ms = unread()
		}
		attrs := v.AsValueMap()
		if attrs == nil {
			attrs = make(map[string]cty.Value, len(all))
		}
		for name := range all {
			if _, ok := attrs[name]; !ok {
				attrs[name] = cty.DynamicVal.WithMarks(ms)
			}
		}
		vals[i] = cty.ObjectVal(attrs)
	}
}

// isEmptyString reports whether v is a known "" (marks aside). It asks
// the type and the string, where RawEquals with cty.StringVal("") would
// normalize "" and compare marks on every call: once for each argument of
// every resource planned without a schema.
func isEmptyString(v cty.Value) bool {
	v, _ = v.Unmark()
	return v.Type() == cty.String && v.IsKnown() && !v.IsNull() && v.AsString() == ""
}
