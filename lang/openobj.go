package lang

import (
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/tfeval/tfeval/config"
	"github.com/tfeval/tfeval/marks"
)

// This file makes an output whose value holds a whole object of a managed
// resource without schema unknown there. Terraform's object has every
// attribute of the provider's schema; tfeval's has those the block sets and
// those the configuration reads (see noschema.go). Reading an attribute of
// it is honest, but the value of an output holding the object lists its
// attributes, which tfeval does not know all of: in the output's value, as
// reported, the object is unknown (marks.Unread, NoSchema). The value that
// the module's caller, and expressions evaluated later (a test run's
// assertions), read attributes from keeps the object (ModuleInstance's
// output, ReadOutputs).

// wholeRef is a resource of the tree whose whole instance objects a value
// may hold.
type wholeRef struct {
	cfg *config.Config
	res *config.Resource
}

// wholeWalk follows a value back through the named values it is defined
// from to the resources whose instance objects it may hold whole: an
// origin whose path ends at a resource (all its instances) or at one of its
// instances, without an attribute step.
type wholeWalk struct {
	a    *readAnalysis
	seen map[wholeSeen]struct{}
	out  []wholeRef
	// top keeps only the objects that are the value itself, not held
	// in a container of it (a tuple of a resource's instances, an
	// object constructor's attribute).
	top bool
}

// maxWholeSteps bounds the named values one output's walk visits.
const maxWholeSteps = 4096

// wholeObjects lists the resources whose whole instance objects the value
// of key (an output) in the module of c may hold, each once.
func (a *readAnalysis) wholeObjects(c *config.Config, key valueKey) []wholeRef {
	if a == nil || c == nil || c.Module == nil {
		return nil
	}
	w := &wholeWalk{a: a, seen: map[wholeSeen]struct{}{}}
	w.resolve(c, key, nil, 0)
	return w.out
}

// wholeFrom is wholeObjects of a value with the given origins in the
// module of c; with top, only of objects that may be the value itself.
func (a *readAnalysis) wholeFrom(c *config.Config, origins []origin, top bool) []wholeRef {
	var out []wholeRef
	for _, o := range origins {
		if top && len(o.frames) > 0 {
			continue
		}
		// Operands share their origins (a variable many for expressions
		// go over): each origin's walk is made once.
		id := wholeMemo{wholeSeen: wholeSeen{cfg: c, key: o.key}, top: top}
		if len(o.path) > 0 {
			id.path = strings.Join(o.path, "\x01")
		}
		refs, ok := a.wholeMemo[id]
		if !ok {
			w := &wholeWalk{a: a, seen: map[wholeSeen]struct{}{}, top: top}
			w.resolve(c, o.key, o.path, 0)
			refs = w.out
			if a.wholeMemo == nil {
				a.wholeMemo = map[wholeMemo][]wholeRef{}
			}
			a.wholeMemo[id] = refs
		}
		for _, r := range refs {
			if !slices.Contains(out, r) {
				out = append(out, r)
			}
		}
	}
	return out
}

// wholeMemo is an origin wholeFrom has walked from.
type wholeMemo struct {
	wholeSeen
	top bool
}

// isNullLiteral reports whether e is the literal null.
func isNullLiteral(e hclsyntax.Expression) bool {
	lit, ok := e.(*hclsyntax.LiteralValueExpr)
	return ok && lit.Val.IsNull()
}

func (w *wholeWalk) first(c *config.Config, key valueKey, path []readStep) bool {
	if len(w.seen) >= maxWholeSteps {
		return false
	}
	id := wholeSeen{cfg: c, key: key}
	if len(path) > 0 {
		id.path = strings.Join(path, "\x01")
	}
	if _, ok := w.seen[id]; ok {
		return false
	}
	w.seen[id] = struct{}{}
	return true
}

// wholeSeen is a value wholeWalk has followed: key at path in the module of cfg.
type wholeSeen struct {
	cfg  *config.Config
	key  valueKey
	path string // the steps, joined by \x01
}

func (w *wholeWalk) resolve(c *config.Config, key valueKey, path []readStep, depth int) {
	if depth > 64 || c == nil || c.Module == nil || !w.first(c, key, path) {
		return
	}
	switch key.kind {
	case vkResource:
		res := key.res
		multi := res.Count != nil || res.ForEach != nil
		if multi && len(path) == 0 && w.top {
			// The instances are held in the value, not the value.
			return
		}
		if len(path) == 0 || (len(path) == 1 && (multi || path[0] == anyElement)) {
			ref := wholeRef{cfg: c, res: res}
			if !slices.Contains(w.out, ref) {
				w.out = append(w.out, ref)
			}
		}
	case vkCall:
		call := c.Module.ModuleCalls[key.name]
		child := c.Children[key.name]
		if call == nil || child == nil || child.Module == nil {
			return
		}
		output := path
		if (call.Count != nil || call.ForEach != nil) && len(output) > 0 {
			// The first step selects an instance.
			output = output[1:]
		}
		if len(output) == 0 || output[0] == anyElement {
			if w.top {
				// Outputs are held in the module object.
				return
			}
			// The whole module object, or any of its outputs.
			rest := output
			if len(rest) > 0 {
				rest = rest[1:]
			}
			for _, name := range sortedKeys(child.Module.Outputs) {
				w.resolve(child, valueKey{kind: vkOutput, name: name}, rest, depth+1)
			}
			return
		}
		w.resolve(child, valueKey{kind: vkOutput, name: output[0]}, output[1:], depth+1)
	case vkOutputs:
	case vkVar:
		parent := c.Parent
		if parent == nil || parent.Module == nil {
			return
		}
		call := parent.Module.ModuleCalls[c.Path[len(c.Path)-1]]
		if call == nil {
			return
		}
		w.defs(parent, w.a.modules(parent.Module).defs[valueKey{kind: vkCallVar, call: call, name: key.name}], path, depth)
	default:
		w.defs(c, w.a.modules(c.Module).defs[key], path, depth)
	}
}

// defs follows path into the origins defs of a definition in the module of in.
func (w *wholeWalk) defs(in *config.Config, defs []origin, path []readStep, depth int) {
	for _, o := range defs {
		if r, _, ok := stepped(o, path, nil); ok && (!w.top || len(r.frames) == 0) {
			w.resolve(in, r.key, r.path, depth+1)
		}
	}
}

// mayHoldObject reports whether a value of type ty may hold an object.
func mayHoldObject(ty cty.Type) bool {
	switch {
	case ty == cty.DynamicPseudoType, ty.IsObjectType():
		return true
	case ty.IsTupleType():
		return slices.ContainsFunc(ty.TupleElementTypes(), mayHoldObject)
	case ty.IsCollectionType():
		return mayHoldObject(ty.ElementType())
	}
	return false
}

// observedOutput is the value of output name of mi as it is reported: v
// with every whole object of a managed resource without schema in it
// unknown, marked Unread (NoSchema) with the resource's address. It is v
// itself, and false, when v holds none.
func (ev *evaluator) observedOutput(mi *ModuleInstance, name string, v cty.Value) (cty.Value, bool) {
	if !mayHoldObject(v.Type()) || !ev.anyOpen() {
		return v, false
	}
	refs := ev.reads().wholeObjects(mi.Config, valueKey{kind: vkOutput, name: name})
	if len(refs) == 0 {
		return v, false
	}
	root := mi
	for root.parent != nil {
		root = root.parent
	}
	objects := openNames(root, refs)
	if len(objects) == 0 {
		return v, false
	}
	return openWhole(v, objects)
}

// openNames identifies the instance objects of the managed resources
// without schema among refs, in the tree below root: by their attribute
// names (attributeNames), each to the resource's address, or to the
// addresses of all the resources of that shape (joinAddrs).
func openNames(root *ModuleInstance, refs []wholeRef) map[string]string {
	objects, _ := openNamesDone(root, refs)
	return objects
}

// openNamesDone is openNames, and whether every module instance and
// resource it looked for was there: its answer no longer changes.
func openNamesDone(root *ModuleInstance, refs []wholeRef) (map[string]string, bool) {
	return objectNames(root, refs, false)
}

// objectNames is openNamesDone, with data the data sources without
// schema among refs too.
func objectNames(root *ModuleInstance, refs []wholeRef, data bool) (map[string]string, bool) {
	objects := map[string]string{}
	done := true
	for _, ref := range refs {
		if ref.res.Mode != config.ManagedResourceMode && (!data || ref.res.Mode != config.DataResourceMode) {
			continue
		}
		addr := configAddr(ref.cfg, ref.res.Addr())
		insts, all := instancesAt(root, ref.cfg.Path)
		done = done && all
		for _, inst := range insts {
			rs := inst.resource(ref.res.Addr())
			if rs == nil {
				done = false
				continue
			}
			if rs.schema != nil {
				continue
			}
			for _, obj := range instanceObjects(rs) {
				names := attributeNames(obj)
				objects[names] = joinAddrs(objects[names], addr)
			}
		}
	}
	return objects, done
}

// WholeObjectWithoutSchema names the managed resource without schema of
// which v is a whole instance object, as tfeval holds it (the attributes
// the block sets and those the configuration reads), or with deep of which
// v holds one at any depth. An expression evaluated after the
// configuration, such as a test file's assertion, that observes the set
// of such an object's attributes (keys of it, an equality with it)
// depends on attributes tfeval does not know.
func (r *Result) WholeObjectWithoutSchema(v cty.Value, deep bool) (string, bool) {
	addrs, ok := r.wholeObjectAddrs(v, deep)
	return strings.Split(addrs, "\x00")[0], ok
}

// wholeObjectAddrs is WholeObjectWithoutSchema with every resource whose
// objects have the shape found, joined as openNames joins them.
func (r *Result) wholeObjectAddrs(v cty.Value, deep bool) (string, bool) {
	if r == nil || r.ev == nil || r.ev.cfg == nil || !mayHoldObject(v.Type()) || !r.ev.anyOpen() {
		return "", false
	}
	var objects map[string]string
	if m := r.wholeNames.Load(); m != nil {
		objects = *m
	} else {
		var done bool
		objects, done = openNamesDone(r.Root(), managedRefs(r.ev.cfg, nil))
		if done {
			r.wholeNames.Store(&objects)
		}
	}
	if len(objects) == 0 {
		return "", false
	}
	if !deep {
		inner, _ := v.Unmark()
		if !inner.IsKnown() || inner.IsNull() || !inner.Type().IsObjectType() {
			return "", false
		}
		addrs, ok := objects[attributeNames(inner)]
		return addrs, ok
	}
	us := map[string]bool{}
	openAddrs(v, objects, us)
	if len(us) == 0 {
		return "", false
	}
	return sortedKeys(us)[0], true
}

// ObservedOperands are the operands of n whose whole value n observes,
// not only parts it reads, with deep when it observes every value nested
// in them: the arguments of keys, length, jsonencode and the other
// functions of ObservesWhole, the object of a lookup or index by a key
// the expression computes, a for expression's collection, the sides of
// an equality other than with null. None for other nodes.
func ObservedOperands(n hclsyntax.Node) (operands []hclsyntax.Expression, deep bool) {
	switch n := n.(type) {
	case *hclsyntax.FunctionCallExpr:
		if observes, d := ObservesWhole(n.Name); observes {
			return n.Args, d
		}
		if n.Name == "lookup" && len(n.Args) >= 2 && !isLiteralKey(n.Args[1]) {
			return n.Args[:1], false
		}
	case *hclsyntax.IndexExpr:
		if !isLiteralKey(n.Key) {
			return []hclsyntax.Expression{n.Collection}, false
		}
	case *hclsyntax.ForExpr:
		return []hclsyntax.Expression{n.CollExpr}, false
	case *hclsyntax.BinaryOpExpr:
		// A comparison with null sees only whether the object is there.
		if (n.Op == hclsyntax.OpEqual || n.Op == hclsyntax.OpNotEqual) && !isNullLiteral(unparen(n.LHS)) && !isNullLiteral(unparen(n.RHS)) {
			return []hclsyntax.Expression{n.LHS, n.RHS}, true
		}
	}
	return nil, false
}

// isLiteralKey reports whether x is a key written as a literal.
func isLiteralKey(x hclsyntax.Expression) bool {
	_, ok := literalString(unparen(x))
	if !ok {
		_, ok = unparen(x).(*hclsyntax.LiteralValueExpr)
	}
	return ok
}

// unparen is x without the parentheses around it.
func unparen(x hclsyntax.Expression) hclsyntax.Expression {
	for {
		p, ok := x.(*hclsyntax.ParenthesesExpr)
		if !ok {
			return x
		}
		x = p.Expression
	}
}

// observedWhole is the address of a resource without schema whose whole
// object an operation of expr, evaluated in mi, observes: an expression
// from outside the configuration (console input), which the read
// analysis did not see. Operations inside a for expression's body, whose
// operands need its variables, are not looked at.
func (r *Result) observedWhole(mi *ModuleInstance, expr hcl.Expression) (string, bool) {
	se, ok := expr.(hclsyntax.Expression)
	if !ok || !r.ev.anyOpen() {
		return "", false
	}
	w := &observedWalk{r: r, mi: mi}
	hclsyntax.Walk(se, w)
	return w.found, w.found != ""
}

// observedWalk is observedWhole's walk.
type observedWalk struct {
	r     *Result
	mi    *ModuleInstance
	fors  int
	found string
}

func (w *observedWalk) Enter(n hclsyntax.Node) hcl.Diagnostics {
	if w.found == "" && w.fors == 0 {
		operands, deep := ObservedOperands(n)
		for _, x := range operands {
			v, diags := w.r.ev.scope(w.mi).evalExpr(x, cty.DynamicPseudoType)
			if diags.HasErrors() {
				continue
			}
			if addr, ok := w.r.wholeObjectAddrs(v, deep); ok {
				w.found = addr
				break
			}
		}
	}
	if _, ok := n.(*hclsyntax.ForExpr); ok {
		w.fors++
	}
	return nil
}

func (w *observedWalk) Exit(n hclsyntax.Node) hcl.Diagnostics {
	if _, ok := n.(*hclsyntax.ForExpr); ok {
		w.fors--
	}
	return nil
}

// managedRefs adds to refs the managed resources of c and of the modules
// below it.
func managedRefs(c *config.Config, refs []wholeRef) []wholeRef {
	if c == nil || c.Module == nil {
		return refs
	}
	for _, name := range sortedKeys(c.Module.ManagedResources) {
		refs = append(refs, wholeRef{cfg: c, res: c.Module.ManagedResources[name]})
	}
	for _, name := range sortedKeys(c.Children) {
		refs = managedRefs(c.Children[name], refs)
	}
	return refs
}

// namesIn is openNames of the sink's resources, kept once it no longer
// changes: an operand in a for expression's body is evaluated for every
// element.
func (si *sinkInfo) namesIn(root *ModuleInstance) map[string]string {
	if m := si.names.Load(); m != nil {
		return *m
	}
	objects, done := openNamesDone(root, si.refs)
	if done {
		si.names.Store(&objects)
	}
	return objects
}

// observe is the evaluation's Guard.Observe: an operand of an operation
// that observes its whole value (keys, length, jsonencode, a for
// expression's collection, ==) that holds a whole object of a managed
// resource without schema has that object unknown (see openStandIn), so
// that what the operation makes of the object's attributes is unknown too:
// tfeval does not know all of them.
func (ev *evaluator) observe(x hclsyntax.Expression) func(cty.Value) cty.Value {
	a := ev.openReads()
	if a == nil {
		return nil
	}
	result, operand := a.results[x], a.sinks[x]
	if result == nil && operand == nil {
		return nil
	}
	return func(v cty.Value) cty.Value {
		if ev.root == nil {
			return v
		}
		if result != nil {
			v = result.markResult(ev.root, v)
		}
		if operand != nil {
			v = operand.open(ev.root, v)
		}
		return v
	}
}

// markResult is the result v of an operation whose operands may have had
// objects made unknown (observe): go-cty and hcl drop the marks of an
// unknown operand from some results (keys, merge, a for expression), so an
// unknown in v not marked otherwise is one an operand made unknown here.
func (si *sinkInfo) markResult(root *ModuleInstance, v cty.Value) cty.Value {
	if !marks.HasUnmarkedUnknown(v) {
		return v
	}
	objects := si.namesIn(root)
	var us []marks.Unread
	for _, addr := range objects {
		for _, addr := range strings.Split(addr, "\x00") {
			u := marks.Unread{Cause: marks.NoSchema, Addr: addr}
			if !slices.Contains(us, u) {
				us = append(us, u)
			}
		}
	}
	return marks.MarkUnknowns(v, marks.UnreadSet(us))
}

// open is the operand v of an observing operation with the whole objects
// of the sink's resources in it unknown: only v itself when the
// operation observes the operand's own attributes (not a resource's
// instances it holds, whose keys and number are known), every one with
// deep.
func (si *sinkInfo) open(root *ModuleInstance, v cty.Value) cty.Value {
	if !mayHoldObject(v.Type()) {
		return v
	}
	objects := si.namesIn(root)
	if len(objects) == 0 {
		return v
	}
	if si.deep {
		nv, _ := openWhole(v, objects)
		return nv
	}
	inner, _ := v.Unmark()
	if inner.IsKnown() && !inner.IsNull() && inner.Type().IsObjectType() {
		if addr, ok := objects[attributeNames(inner)]; ok {
			return openStandIn(addr, deepMarks(v, nil))
		}
	}
	return v
}

// openReads is the read analysis, with the operands of the configuration
// that may hold whole objects of resources (readAnalysis.sinks), nil when
// every managed resource of the configuration has a schema: nothing is
// then made unknown, and the read analysis is not made for it.
func (ev *evaluator) openReads() *readAnalysis {
	if !ev.anyOpen() {
		return nil
	}
	return ev.reads()
}

// anyOpen reports whether a managed resource of the configuration has no
// schema, found once.
func (ev *evaluator) anyOpen() bool {
	sh := ev.share()
	sh.openOnce.Do(func() {
		sh.open = ev.cfg != nil && ev.anyWithoutSchema(ev.cfg)
	})
	return sh.open
}

// anyWithoutSchema reports whether a managed resource of c or of a module
// below it has no schema.
func (ev *evaluator) anyWithoutSchema(c *config.Config) bool {
	if c == nil || c.Module == nil {
		return false
	}
	for _, res := range c.Module.ManagedResources {
		if ev.opts.Schemas.resourceSchema(c.Module, res) == nil {
			return true
		}
	}
	for _, child := range c.Children {
		if ev.anyWithoutSchema(child) {
			return true
		}
	}
	return false
}

// instancesAt lists the module instances below root at the configuration
// path, and whether every call on the way was expanded already.
func instancesAt(root *ModuleInstance, path []string) ([]*ModuleInstance, bool) {
	insts := []*ModuleInstance{root}
	all := true
	for _, name := range path {
		var next []*ModuleInstance
		for _, mi := range insts {
			if cs := mi.call(name); cs != nil {
				next = append(next, cs.children...)
			} else {
				all = false
			}
		}
		insts = next
	}
	return insts, all
}

// instanceObjects are the known instance objects of a resource.
func instanceObjects(rs *resourceState) []cty.Value {
	whole, _ := rs.whole.Unmark()
	if !whole.IsKnown() || whole.IsNull() {
		return nil
	}
	if !rs.expansion.multi() {
		if whole.Type().IsObjectType() {
			return []cty.Value{whole}
		}
		return nil
	}
	if !whole.Type().IsObjectType() && !whole.Type().IsTupleType() {
		return nil
	}
	var out []cty.Value
	for it := whole.ElementIterator(); it.Next(); {
		_, e := it.Element()
		e, _ = e.Unmark()
		if e.IsKnown() && !e.IsNull() && e.Type().IsObjectType() {
			out = append(out, e)
		}
	}
	return out
}

// attributeNames identifies an object by the names of its attributes: an
// instance object of a resource without schema has the attributes its
// block sets and those the configuration reads, which a value made by the
// configuration has only when it is (a conversion of) that object.
func attributeNames(obj cty.Value) string {
	names := make([]string, 0, len(obj.Type().AttributeTypes()))
	for name := range obj.Type().AttributeTypes() {
		names = append(names, name)
	}
	slices.Sort(names)
	return strings.Join(names, "\x00")
}

// openWhole replaces in v each object whose attribute names are a key of
// objects by an unknown marked Unread (NoSchema) with the address the key
// gives, and with every mark the object held; a list, set or map holding
// one becomes unknown whole (its element type is the object's). It reports
// whether it replaced any.
func openWhole(v cty.Value, objects map[string]string) (cty.Value, bool) {
	if !v.IsKnown() || v.IsNull() {
		return v, false
	}
	inner, vm := v.Unmark()
	ty := inner.Type()
	switch {
	case ty.IsObjectType():
		if addr, ok := objects[attributeNames(inner)]; ok {
			return openStandIn(addr, deepMarks(v, nil)), true
		}
		attrs := inner.AsValueMap()
		changed := false
		for name, a := range attrs {
			if na, ok := openWhole(a, objects); ok {
				attrs[name] = na
				changed = true
			}
		}
		if !changed {
			return v, false
		}
		return cty.ObjectVal(attrs).WithMarks(vm), true
	case ty.IsTupleType():
		vals := inner.AsValueSlice()
		changed := false
		for i, e := range vals {
			if ne, ok := openWhole(e, objects); ok {
				vals[i] = ne
				changed = true
			}
		}
		if !changed {
			return v, false
		}
		return cty.TupleVal(vals).WithMarks(vm), true
	case ty.IsCollectionType():
		for it := inner.ElementIterator(); it.Next(); {
			_, e := it.Element()
			if _, ok := openWhole(e, objects); ok {
				us := map[string]bool{}
				openAddrs(inner, objects, us)
				ms := deepMarks(v, nil)
				for _, addr := range sortedKeys(us) {
					ms = unionMarks(ms, openStandIn(addr, nil).Marks())
				}
				return cty.DynamicVal.WithMarks(ms), true
			}
		}
	}
	return v, false
}

// openAddrs adds to us the addresses of the objects openWhole replaces in v.
func openAddrs(v cty.Value, objects map[string]string, us map[string]bool) {
	v, _ = v.UnmarkDeep()
	if !v.IsKnown() || v.IsNull() {
		return
	}
	ty := v.Type()
	if ty.IsObjectType() {
		if addr, ok := objects[attributeNames(v)]; ok {
			us[addr] = true
			return
		}
	}
	if ty.IsObjectType() || ty.IsTupleType() || ty.IsCollectionType() {
		for it := v.ElementIterator(); it.Next(); {
			_, e := it.Element()
			openAddrs(e, objects, us)
		}
	}
}

// openStandIn is the stand-in of a whole object of resource addr
// without schema: unknown, of unknown type (its attributes are what is
// not known), marked Unread and with ms.
func openStandIn(addr string, ms cty.ValueMarks) cty.Value {
	var us []marks.Unread
	for _, addr := range strings.Split(addr, "\x00") {
		us = append(us, marks.Unread{Cause: marks.NoSchema, Addr: addr})
	}
	return cty.DynamicVal.WithMarks(unionMarks(marks.UnreadSet(us), ms))
}

// joinAddrs adds addr to the addresses of the resources whose objects have
// one set of attribute names: their objects cannot be told apart by it, so
// an object of that shape is marked with each (openStandIn). The
// addresses are kept sorted and joined by NUL, which no address holds.
func joinAddrs(addrs, addr string) string {
	if addrs == "" {
		return addr
	}
	list := strings.Split(addrs, "\x00")
	if slices.Contains(list, addr) {
		return addrs
	}
	list = append(list, addr)
	slices.Sort(list)
	return strings.Join(list, "\x00")
}

// deepMarks adds to ms every mark in v, as v.UnmarkDeep reports them,
// without building the unmarked copy of v UnmarkDeep returns.
func deepMarks(v cty.Value, ms cty.ValueMarks) cty.ValueMarks {
	inner, vm := v.Unmark()
	for m := range vm {
		if ms == nil {
			ms = cty.ValueMarks{}
		}
		ms[m] = struct{}{}
	}
	if !inner.IsKnown() || inner.IsNull() {
		return ms
	}
	ty := inner.Type()
	if ty.IsObjectType() || ty.IsTupleType() || ty.IsCollectionType() {
		for it := inner.ElementIterator(); it.Next(); {
			_, e := it.Element()
			ms = deepMarks(e, ms)
		}
	}
	return ms
}

func unionMarks(a, b cty.ValueMarks) cty.ValueMarks {
	out := make(cty.ValueMarks, len(a)+len(b))
	for m := range a {
		out[m] = struct{}{}
	}
	for m := range b {
		out[m] = struct{}{}
	}
	return out
}
