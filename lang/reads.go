package lang

import (
	"encoding/binary"
	"slices"
	"strings"
	"sync/atomic"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"golang.org/x/text/unicode/norm"

	"github.com/tfeval/tfeval/config"
)

// This file works out, before evaluation, which attribute paths the
// configuration reads from the objects of each resource. Without a
// provider schema tfeval does not know which attributes a resource has
// beyond those its block sets, and hcl refuses to read an attribute an
// object lacks; every path read somewhere is therefore added to the
// planned objects, as unknown where the configuration does not set it (see
// readTree.fill). The analysis follows values through every named value
// they can flow through (locals, module outputs and variables, for_each's
// each.value, dynamic block iterators, for expressions and splats) and
// over-approximates where it cannot tell (function results, values built
// from several branches): reading a path that does not exist costs one
// unknown attribute, missing one a false error.

// readStep is one step of a path read from a value: an attribute name, or
// "" for an index or any element.
type readStep = string

// anyElement is the readStep of an index, a splat or a for expression's element.
const anyElement readStep = ""

// Bounds on the analysis, so that a hostile configuration cannot make it
// slow: paths longer than maxReadPath steps are cut (the prefix is still
// read), and one expression yields at most maxOrigins distinct origins (the
// reads of any beyond are missed, so the bound is well above what real
// configurations build: a list of every account of an organization).
const (
	maxReadPath = 12
	maxOrigins  = 256
)

// valueKind says what a valueKey names.
type valueKind uint8

const (
	vkResource valueKind = iota // a resource's whole value (all instances)
	vkLocal
	vkVar
	vkOutput
	vkCall    // a module call's whole value (all instances, their outputs)
	vkEach    // each.value in a resource or module block with for_each
	vkCallVar // a variable of the module a call calls, as the call sets it
	vkOutputs // the root module's outputs as one object (OutputReads.Ref)
)

// valueKey names a value the analysis follows: a resource, or a named
// value of a module, relative to the module whose expressions name it
// (which module instance of the tree that is, the resolution knows).
type valueKey struct {
	kind valueKind
	name string
	res  *config.Resource   // vkResource; vkEach of a resource
	call *config.ModuleCall // vkEach of a module call; vkCallVar
}

// frame is a container an origin was put in by the expression that built
// the value: an object constructor's attribute key, or any element of a
// tuple or for expression. A later step into the container takes it off.
type frame struct {
	key string // the attribute, when not any
	any bool
}

// origin is where (part of) a value comes from: the named value key, at
// path, inside frames containers.
type origin struct {
	key    valueKey
	path   []readStep
	frames []frame
}

// moduleReads is the walk of one module's expressions: what each of its
// named values is defined from, and what its expressions read, with keys
// relative to the module. It depends on the module alone, so it is made
// once per module (moduleShape) and shared by every evaluation of a tree
// holding it; readAnalysis follows its reads through the tree.
type moduleReads struct {
	// defs are the origins of each named value's expression.
	defs map[valueKey][]origin
	// events are, in walk order, the reads of the module's expressions,
	// the module calls whose modules are walked at that point, and the
	// templatefile calls whose templates are read there.
	events []readEvent
	// varTypes are the reads a conversion to each variable's type makes
	// (typeReads), for a calling module's walk to make where it sets it.
	varTypes map[string][][]readStep
	// providerCalls are the provider functions (provider::LOCAL::NAME)
	// the module calls.
	providerCalls map[string]bool
	// sinks are the operands whose whole value an operation observes
	// (see sinkUse), with the origins of their values.
	sinks []sinkUse
}

// sinkUse is an operand of an operation that observes the whole of its
// value, not only the parts it reads: an argument of keys, length or
// jsonencode, a for expression's collection, an operand of ==. With deep
// the operation observes every value nested in the operand (jsonencode,
// ==); without, only the operand's own attributes (keys, length, merge, a
// for expression).
type sinkUse struct {
	expr    hclsyntax.Expression
	op      hclsyntax.Expression // the operation
	origins []origin
	deep    bool
}

// sink records that the operation op observes the value of its operand expr.
func (w *readWalker) sink(op, expr hclsyntax.Expression, origins []origin, deep bool) {
	if len(origins) > 0 && expr != nil && !w.boundOnly {
		w.r.sinks = append(w.r.sinks, sinkUse{expr: expr, op: op, origins: origins, deep: deep})
	}
}

// resultOf records op as the operation of the sinks recorded since the
// first n, as well as their own.
func (w *readWalker) resultOf(op hclsyntax.Expression, n int) {
	for _, su := range w.r.sinks[n:len(w.r.sinks):len(w.r.sinks)] {
		su.op = op
		w.r.sinks = append(w.r.sinks, su)
	}
}

// readEventKind says what a readEvent is.
type readEventKind uint8

const (
	evRead     readEventKind = iota // read path from key
	evCall                          // walk the module call calls
	evCallVar                       // the reads converting the called module's variable name makes
	evTemplate                      // walk a template, vars bound
)

// readEvent is one step of a module's walk that the tree's walk follows:
// a read of path from key (evRead), the walk of the module key.call calls
// (evCall), the reads converting its variable key.name makes (evCallVar),
// or the reads of a template (evTemplate).
type readEvent struct {
	kind     readEventKind
	key      valueKey
	path     []readStep
	template *templateCall
}

// templateCall is a templatefile call: the expression of the template's
// path and the origins of the variables given it.
type templateCall struct {
	path hclsyntax.Expression
	vars []origin
	// call is the templatefile call, arg its vars argument.
	call, arg hclsyntax.Expression
}

// readAnalysis holds what the walk over the configuration tree found.
type readAnalysis struct {
	// modules returns the walk of a module.
	modules func(*config.Module) *moduleReads
	// resolved marks the (module instance, key, path) triples already
	// resolved, each written as the number reads gives the pair in four
	// bytes, then the path's steps, each ended by \x01 (firstResolve).
	resolved map[string]struct{}
	reads    map[resolvedRead]uint32
	// id is firstResolve's buffer.
	id []byte
	// steps holds the paths resolveDefs steps into, a level of the
	// resolution's depth in each maxReadPath entries.
	steps []readStep
	// trees are the paths read from each resource's instances.
	trees map[*config.Resource]*readTree
	// providerCalls are the provider functions (provider::LOCAL::NAME)
	// each module calls, found on the way.
	providerCalls map[*config.Module]map[string]bool
	// template, when not nil, reads and parses a template file, for what
	// templatefile's templates read of the values given them.
	template func(path string) hclsyntax.Expression
	// templates caches template, by path.
	templates map[string]hclsyntax.Expression
	// vars, when not nil, gets the paths read from each variable of the
	// root module (VariableReads).
	vars map[string]*readTree
	// sinks are the operands whose whole value an operation observes
	// that may hold whole instance objects of resources, with those
	// resources (in any module instance holding the operand).
	sinks map[hclsyntax.Expression]*sinkInfo
	// results are the observing operations whose operands are in sinks.
	results map[hclsyntax.Expression]*sinkInfo
	// wholeMemo keeps what wholeFrom found from each origin.
	wholeMemo map[wholeMemo][]wholeRef
}

// sinkInfo is what an observing operation's operand (or, in results,
// what the operands of an observing operation) may hold whole.
type sinkInfo struct {
	refs []wholeRef
	deep bool
	// names is namesIn's answer once it no longer changes.
	names atomic.Pointer[map[string]string]
}

// addSink records in sinks that expr may hold the objects of refs whole.
func addSink(sinks map[hclsyntax.Expression]*sinkInfo, expr hclsyntax.Expression, refs []wholeRef, deep bool) map[hclsyntax.Expression]*sinkInfo {
	if sinks == nil {
		sinks = map[hclsyntax.Expression]*sinkInfo{}
	}
	si := sinks[expr]
	if si == nil {
		si = &sinkInfo{}
		sinks[expr] = si
	}
	si.deep = si.deep || deep
	for _, r := range refs {
		if !slices.Contains(si.refs, r) {
			si.refs = append(si.refs, r)
		}
	}
	return sinks
}

// analyzeReads walks the whole configuration tree, each module's walk
// given by modules (walkModule's, made once per module); template, when
// not nil, reads the template files templatefile calls name. extra and
// later are Options.Reads and Options.OutputReads.
func analyzeReads(root *config.Config, modules func(*config.Module) *moduleReads, template func(path string) hclsyntax.Expression, extra []hcl.Expression, later *OutputReads) *readAnalysis {
	a := newReadAnalysis(modules, template)
	a.analyze(root, extra, later)
	return a
}

func newReadAnalysis(modules func(*config.Module) *moduleReads, template func(path string) hclsyntax.Expression) *readAnalysis {
	return &readAnalysis{modules: modules, resolved: map[string]struct{}{}, reads: map[resolvedRead]uint32{}, trees: map[*config.Resource]*readTree{}, providerCalls: map[*config.Module]map[string]bool{}, template: template, templates: map[string]hclsyntax.Expression{}}
}

// analyze is analyzeReads with a made.
func (a *readAnalysis) analyze(root *config.Config, extra []hcl.Expression, later *OutputReads) {
	if root == nil || root.Module == nil {
		return
	}
	a.walk(root)
	if len(extra) > 0 {
		mr := &moduleReads{}
		w := &readWalker{r: mr, m: root.Module}
		for _, e := range extra {
			w.walk(e)
		}
		a.follow(root, mr.events)
	}
	if later != nil && len(later.Ref) > 0 && len(later.Exprs) > 0 {
		// Only the outputs are the configuration's in these expressions:
		// every other name they use is unbound.
		outputs := origin{key: valueKey{kind: vkOutputs}}
		for i := len(later.Ref) - 1; i > 0; i-- {
			outputs.frames = append(outputs.frames, frame{key: traversalName(later.Ref[i]), any: traversalName(later.Ref[i]) == ""})
		}
		mr := &moduleReads{}
		w := &readWalker{r: mr, m: root.Module, boundOnly: true}
		w.bind(binding{name: later.Ref.RootName(), origins: []origin{outputs}})
		for _, e := range later.Exprs {
			w.walk(e)
		}
		a.follow(root, mr.events)
	}
	a.resolved, a.reads, a.id, a.steps = nil, nil, nil, nil
}

// adHoc works out what an expression evaluated after the configuration
// (console input, Result.EvalExpr) reads from resources, following the
// configuration's named values; a is not changed.
func (a *readAnalysis) adHoc(c *config.Config, e hcl.Expression) map[*config.Resource]*readTree {
	b := &readAnalysis{modules: a.modules, resolved: map[string]struct{}{}, reads: map[resolvedRead]uint32{}, trees: map[*config.Resource]*readTree{}}
	mr := &moduleReads{}
	(&readWalker{r: mr, m: c.Module}).val(e)
	b.follow(c, mr.events)
	return b.trees
}

// tree returns the paths read from the instances of res, nil when none are.
func (a *readAnalysis) tree(res *config.Resource) *readTree {
	if a == nil {
		return nil
	}
	return a.trees[res]
}

// walk follows the walk of the module of c and, through its calls, of the
// modules below it, resolving each read where the module's walk made it.
func (a *readAnalysis) walk(c *config.Config) {
	mr := a.modules(c.Module)
	for name := range mr.providerCalls {
		a.providerCall(c.Module, name)
	}
	a.follow(c, mr.events)
	for _, su := range mr.sinks {
		refs := a.wholeFrom(c, su.origins, !su.deep)
		if len(refs) == 0 {
			continue
		}
		a.sinks = addSink(a.sinks, su.expr, refs, su.deep)
		a.results = addSink(a.results, su.op, refs, false)
	}
}

// follow resolves the reads of events, made by a walk of the module of c.
func (a *readAnalysis) follow(c *config.Config, events []readEvent) {
	for _, e := range events {
		switch e.kind {
		case evRead:
			a.resolve(c, e.key, e.path, 0)
		case evCall:
			if child := c.Children[e.key.call.Name]; child != nil && child.Module != nil {
				a.walk(child)
			}
		case evCallVar:
			child := c.Children[e.key.call.Name]
			if child == nil || child.Module == nil {
				continue
			}
			for _, path := range a.modules(child.Module).varTypes[e.key.name] {
				a.resolve(child, valueKey{kind: vkVar, name: e.key.name}, path, 0)
			}
		case evTemplate:
			a.templateReads(c, e.template)
		}
	}
}

// providerCall records that module m calls the provider function name.
func (a *readAnalysis) providerCall(m *config.Module, name string) {
	if a.providerCalls == nil {
		return
	}
	if a.providerCalls[m] == nil {
		a.providerCalls[m] = map[string]bool{}
	}
	a.providerCalls[m][name] = true
}

// walkModule records the definitions and reads of one module (variables,
// locals, outputs, resources, checks, then calls, each kind in name
// order); the modules its calls call are walked where an evCall event says.
// callArgs gives a call's arguments (nil: callAttributes reads them).
func walkModule(m *config.Module, callArgs func(*config.ModuleCall) hcl.Attributes) *moduleReads {
	if callArgs == nil {
		callArgs = callAttributes
	}
	r := &moduleReads{defs: map[valueKey][]origin{}}
	w := &readWalker{r: r, m: m}
	for _, name := range sortedKeys(m.Variables) {
		v := m.Variables[name]
		w.rules(v.Validations)
		if v.ConstraintType != cty.NilType {
			if paths := typeReads(v.ConstraintType); len(paths) > 0 {
				if r.varTypes == nil {
					r.varTypes = map[string][][]readStep{}
				}
				r.varTypes[name] = paths
			}
		}
	}
	for _, name := range sortedKeys(m.Locals) {
		r.define(valueKey{kind: vkLocal, name: name}, w.val(m.Locals[name].Expr))
	}
	for _, name := range sortedKeys(m.Outputs) {
		o := m.Outputs[name]
		key := valueKey{kind: vkOutput, name: name}
		r.define(key, w.val(o.Expr))
		w.rules(o.Preconditions)
		if o.ConstraintType != cty.NilType {
			for _, path := range typeReads(o.ConstraintType) {
				r.read(key, path)
			}
		}
	}
	for _, res := range moduleResourcesAll(m) {
		r.walkResource(m, res)
	}
	for _, name := range sortedKeys(m.Checks) {
		w.rules(m.Checks[name].Asserts)
	}
	for _, key := range sortedKeys(m.ProviderConfigs) {
		// What a provider block reads is evaluated too (provider.go).
		if p := m.ProviderConfigs[key]; evaluatedProvider(p) {
			w.body(p.Config)
		}
	}
	for _, name := range sortedKeys(m.ModuleCalls) {
		call := m.ModuleCalls[name]
		r.walkCall(m, call, callArgs(call))
	}
	return r
}

// moduleResourcesAll lists a module's resources, check blocks' data
// resources included, in address order.
func moduleResourcesAll(m *config.Module) []*config.Resource {
	var out []*config.Resource
	for _, set := range []map[string]*config.Resource{m.ManagedResources, m.DataResources, m.EphemeralResources} {
		for _, k := range sortedKeys(set) {
			out = append(out, set[k])
		}
	}
	return out
}

func (r *moduleReads) walkCall(m *config.Module, call *config.ModuleCall, attrs hcl.Attributes) {
	w := &readWalker{r: r, m: m}
	w.walk(call.Count)
	w.walk(call.Enabled)
	if call.ForEach != nil {
		each := valueKey{kind: vkEach, call: call}
		r.define(each, applySteps(w.forEach(call.ForEach), []readStep{anyElement}, nil))
		w.each = &each
	}
	for _, name := range sortedKeys(attrs) {
		key := valueKey{kind: vkCallVar, call: call, name: name}
		r.define(key, w.val(attrs[name].Expr))
		r.events = append(r.events, readEvent{kind: evCallVar, key: key})
	}
	r.events = append(r.events, readEvent{kind: evCall, key: valueKey{call: call}})
}

// forEach is the origins of a resource's or module call's for_each
// expression: its keys are the instances' keys, so an object's attribute
// names when it is one.
func (w *readWalker) forEach(x hcl.Expression) []origin {
	origins := w.val(x)
	if sx, ok := x.(hclsyntax.Expression); ok {
		w.sink(sx, sx, origins, false)
	}
	return origins
}

func (r *moduleReads) walkResource(m *config.Module, res *config.Resource) {
	w := &readWalker{r: r, m: m}
	w.walk(res.Count)
	w.walk(res.Enabled)
	if res.ForEach != nil {
		each := valueKey{kind: vkEach, res: res}
		r.define(each, applySteps(w.forEach(res.ForEach), []readStep{anyElement}, nil))
		w.each = &each
	}
	if res.Config != nil {
		w.body(res.Config)
	}
	w.rules(res.Preconditions)
	// self is the resource's own instance in postconditions, connection
	// and provisioner blocks.
	w.self = res
	w.rules(res.Postconditions)
	for _, body := range provisionerBodies(res) {
		w.body(body)
	}
	if res.Managed != nil {
		for _, e := range res.Managed.ReplaceTriggeredBy {
			w.walk(e)
		}
	}
}

// define adds origins to the definition of a named value. Origin lists
// are not changed once made, so a first list is kept as it is, clipped so
// that adding to the definition copies it.
func (r *moduleReads) define(key valueKey, origins []origin) {
	if len(origins) == 0 {
		return
	}
	if defs := r.defs[key]; len(defs) > 0 {
		r.defs[key] = append(defs, origins...)
	} else {
		r.defs[key] = slices.Clip(origins)
	}
}

// read records that path is read from the value key names.
func (r *moduleReads) read(key valueKey, path []readStep) {
	if len(path) > 0 {
		r.events = append(r.events, readEvent{kind: evRead, key: key, path: path})
	}
}

// typeReads lists the reads a conversion to ty makes of a value: every
// attribute an object type requires, at every depth.
func typeReads(ty cty.Type) [][]readStep {
	var out [][]readStep
	var walk func(ty cty.Type, path []readStep)
	walk = func(ty cty.Type, path []readStep) {
		if len(path) >= maxReadPath {
			return
		}
		switch {
		case ty.IsObjectType():
			for _, name := range sortedKeys(ty.AttributeTypes()) {
				if ty.AttributeOptional(name) {
					continue
				}
				p := append(slices.Clip(path), name)
				out = append(out, p)
				walk(ty.AttributeType(name), p)
			}
		case ty.IsCollectionType():
			walk(ty.ElementType(), append(slices.Clip(path), anyElement))
		}
	}
	walk(ty, nil)
	return out
}

// resolve follows a read of path from key, in the module of c, to the
// resources it reads. A read that can lead nowhere (a variable of the root
// module, a value defined without origins) is not marked resolved: a mark
// would only save doing nothing again, and would cost a string.
func (a *readAnalysis) resolve(c *config.Config, key valueKey, path []readStep, depth int) {
	if len(path) == 0 || depth > 64 {
		return
	}
	if len(path) > maxReadPath {
		path = path[:maxReadPath]
	}
	switch key.kind {
	case vkResource:
		if !a.firstResolve(c, key, path) {
			return
		}
		t := a.trees[key.res]
		if t == nil {
			t = &readTree{}
			a.trees[key.res] = t
		}
		t.addResourcePath(key.res, path)
	case vkCall:
		call := c.Module.ModuleCalls[key.name]
		child := c.Children[key.name]
		if call == nil || child == nil || child.Module == nil {
			return
		}
		output := path
		if call.Count != nil || call.ForEach != nil {
			// The first step selects an instance, by any key.
			output = output[1:]
		}
		if len(output) == 0 || output[0] == anyElement || !a.firstResolve(c, key, path) {
			return
		}
		a.resolve(child, valueKey{kind: vkOutput, name: output[0]}, output[1:], depth+1)
	case vkOutputs:
		// The first step names the output.
		if path[0] == anyElement {
			return
		}
		a.resolve(c, valueKey{kind: vkOutput, name: path[0]}, path[1:], depth+1)
	case vkVar:
		// A variable is what the calling module block sets it to.
		parent := c.Parent
		if parent == nil {
			if a.vars != nil {
				// The root module's: what is read of it is asked for.
				t := a.vars[key.name]
				if t == nil {
					t = &readTree{}
					a.vars[key.name] = t
				}
				t.add(path)
			}
			return
		}
		if parent.Module == nil {
			return
		}
		call := parent.Module.ModuleCalls[c.Path[len(c.Path)-1]]
		if call == nil {
			return
		}
		a.resolveDefs(c, key, path, parent, a.modules(parent.Module).defs[valueKey{kind: vkCallVar, call: call, name: key.name}], depth)
	default:
		a.resolveDefs(c, key, path, c, a.modules(c.Module).defs[key], depth)
	}
}

// resolveDefs follows a read of path from key, in the module of c, into
// the origins defs of its definition, which are in the module of in.
func (a *readAnalysis) resolveDefs(c *config.Config, key valueKey, path []readStep, in *config.Config, defs []origin, depth int) {
	if len(defs) == 0 || !a.firstResolve(c, key, path) {
		return
	}
	// A stepped path is read, not kept, by the resolution below it, so it
	// is built in this level's room at the top of a.steps rather than in a
	// slice of its own; the levels below take the room above it.
	mark := len(a.steps)
	if cap(a.steps) < mark+maxReadPath {
		a.steps = slices.Grow(a.steps, maxReadPath)
	}
	for _, o := range defs {
		if r, _, ok := stepped(o, path, a.steps[mark:mark:mark+maxReadPath]); ok {
			a.steps = a.steps[:mark+maxReadPath]
			a.resolve(in, r.key, r.path, depth+1)
			a.steps = a.steps[:mark]
		}
	}
}

// resolvedRead is a key in a module instance of the tree (nil for a
// resource: its reads are the same from every instance of its module).
type resolvedRead struct {
	cfg *config.Config
	key valueKey
}

// firstResolve reports whether path is read from key in c for the first
// time, and marks it read. Only a first read makes a string.
func (a *readAnalysis) firstResolve(c *config.Config, key valueKey, path []readStep) bool {
	rr := resolvedRead{key: key}
	if key.kind != vkResource {
		rr.cfg = c
	}
	n, ok := a.reads[rr]
	if !ok {
		n = uint32(len(a.reads))
		a.reads[rr] = n
	}
	id := binary.LittleEndian.AppendUint32(a.id[:0], n)
	for _, s := range path {
		id = append(append(id, s...), 1)
	}
	a.id = id
	if _, seen := a.resolved[string(id)]; seen {
		return false
	}
	a.resolved[string(id)] = struct{}{}
	return true
}

// applySteps applies steps to each origin: a step into a container an
// origin was put in takes the container off, any other step is added to
// the origin's path. Each origin whose path grew is read at its new path
// when r is not nil. An attribute step into an object constructor's other
// attribute does not reach the origin, which is dropped.
func applySteps(origins []origin, steps []readStep, r *moduleReads) []origin {
	if len(steps) == 0 || len(origins) == 0 {
		return origins
	}
	out := make([]origin, 0, len(origins))
	for _, o := range origins {
		s, grew, ok := stepped(o, steps, nil)
		if !ok {
			continue
		}
		if grew && r != nil {
			r.read(s.key, s.path)
		}
		out = append(out, s)
		if len(out) >= maxOrigins {
			break
		}
	}
	return out
}

// stepped is applySteps for one origin: false when a step does not reach
// it, grew when its path was added to. A grown path is built in buf when
// it is not nil (the caller then owns it), else in a slice of its own.
func stepped(o origin, steps []readStep, buf []readStep) (r origin, grew, ok bool) {
	path, frames := o.path, o.frames
	for _, s := range steps {
		if n := len(frames); n > 0 {
			f := frames[n-1]
			if s != anyElement && !f.any && f.key != s {
				return origin{}, false, false
			}
			frames = frames[:n-1]
			continue
		}
		if len(path) < maxReadPath {
			if !grew {
				// Paths are shared between origins: the first step added
				// copies this one's, with room for the rest.
				if buf == nil {
					buf = make([]readStep, 0, min(len(path)+len(steps), maxReadPath))
				}
				path = append(buf, path...)
				grew = true
			}
			path = append(path, s)
		}
	}
	return origin{key: o.key, path: path, frames: frames}, grew, true
}

// inFrame puts every origin into one more container.
func inFrame(origins []origin, f frame) []origin {
	out := make([]origin, len(origins))
	for i, o := range origins {
		out[i] = origin{key: o.key, path: o.path, frames: append(slices.Clip(o.frames), f)}
	}
	return out
}

// union joins origin lists, each origin once, keeping at most maxOrigins.
// Origin lists are not changed once made, so one list alone is returned as
// it is. Duplicates are common (every element of a list of objects that all
// hold the same resource gives that resource in the same containers) and
// would otherwise use up the bound, dropping the origins that differ.
func union(lists ...[]origin) []origin {
	var out []origin
	nonEmpty, total := 0, 0
	for _, l := range lists {
		if len(l) > 0 {
			out = l
			nonEmpty++
			total += len(l)
		}
	}
	if nonEmpty <= 1 && len(out) <= maxOrigins {
		return out
	}
	out = make([]origin, 0, min(total, maxOrigins))
	// Few origins are compared with each other; many are found in a set,
	// so that joining is linear in the origins given.
	var seen map[originID]struct{}
	if total > 16 {
		seen = make(map[originID]struct{}, min(total, maxOrigins))
	}
	var buf []byte
	for _, l := range lists {
		for _, o := range l {
			if len(out) == maxOrigins {
				return out
			}
			if seen != nil {
				var id originID
				id, buf = o.id(buf)
				if _, dup := seen[id]; dup {
					continue
				}
				seen[id] = struct{}{}
			} else if slices.ContainsFunc(out, o.equal) {
				continue
			}
			out = append(out, o)
		}
	}
	return out
}

// equal reports whether two origins are the same value at the same path in
// the same containers.
func (o origin) equal(p origin) bool {
	return o.key == p.key && slices.Equal(o.path, p.path) && slices.Equal(o.frames, p.frames)
}

// originID identifies an origin as a map key: equal origins have equal IDs.
type originID struct {
	key   valueKey
	steps string // the path's length and steps, then the frames (see id)
}

// id is o's originID, written with buf's room (returned for reuse): the
// number of steps, each step's length and bytes, then each frame as 0 (any
// element) or 1 and its key's length and bytes, which no two different
// paths and frames write alike.
func (o origin) id(buf []byte) (originID, []byte) {
	buf = binary.AppendUvarint(buf[:0], uint64(len(o.path)))
	for _, s := range o.path {
		buf = binary.AppendUvarint(buf, uint64(len(s)))
		buf = append(buf, s...)
	}
	for _, f := range o.frames {
		if f.any {
			buf = append(buf, 0)
			continue
		}
		buf = append(buf, 1)
		buf = binary.AppendUvarint(buf, uint64(len(f.key)))
		buf = append(buf, f.key...)
	}
	return originID{key: o.key, steps: string(buf)}, buf
}

// readWalker walks the expressions of one block of one module.
type readWalker struct {
	// r records what the walk finds.
	r *moduleReads
	m *config.Module
	// each is what each.value names here, nil outside a for_each block.
	each *valueKey
	// self is the resource self names here, nil where it is not available.
	self *config.Resource
	// binds are the names for expressions, splats and dynamic blocks bind,
	// innermost last.
	binds []binding
	// steps holds the read steps of the traversal being followed.
	steps []readStep
	// boundOnly is set for expressions outside the configuration that
	// refer to nothing of it but the names bound for them.
	boundOnly bool
}

// binding is a name bound inside an expression or a dynamic block: a for
// expression's value variable, a splat's element (anon set), or a dynamic
// block's iterator (iterator set: the element is its "value" attribute).
type binding struct {
	name     string
	anon     *hclsyntax.AnonSymbolExpr
	iterator bool
	origins  []origin
}

func (w *readWalker) bind(b binding) { w.binds = append(w.binds, b) }
func (w *readWalker) unbind()        { w.binds = w.binds[:len(w.binds)-1] }

func (w *readWalker) rules(rules []*config.CheckRule) {
	for _, r := range rules {
		if r != nil {
			w.walk(r.Condition)
			w.walk(r.ErrorMessage)
		}
	}
}

// body walks a block body: its attributes and nested blocks, dynamic
// blocks with their iterators bound.
func (w *readWalker) body(body hcl.Body) {
	sb, ok := body.(*hclsyntax.Body)
	if !ok {
		// Other syntaxes have no structure to follow without a schema:
		// each attribute is walked as an expression.
		attrs, _ := body.JustAttributes()
		for _, name := range sortedKeys(attrs) {
			w.walk(attrs[name].Expr)
		}
		return
	}
	for _, name := range sortedKeys(sb.Attributes) {
		w.walk(sb.Attributes[name].Expr)
	}
	for _, blk := range sb.Blocks {
		if blk.Type != "dynamic" || len(blk.Labels) == 0 {
			w.body(blk.Body)
			continue
		}
		var elems []origin
		name := blk.Labels[0]
		if a, ok := blk.Body.Attributes["for_each"]; ok {
			elems = applySteps(w.val(a.Expr), []readStep{anyElement}, nil)
		}
		if a, ok := blk.Body.Attributes["iterator"]; ok {
			if trav, diags := hcl.AbsTraversalForExpr(a.Expr); !diags.HasErrors() && len(trav) == 1 {
				name = trav.RootName()
			}
		}
		w.bind(binding{name: name, iterator: true, origins: elems})
		if a, ok := blk.Body.Attributes["labels"]; ok {
			w.walk(a.Expr)
		}
		for _, inner := range blk.Body.Blocks {
			if inner.Type == "content" {
				w.body(inner.Body)
			}
		}
		w.unbind()
	}
}

// walk walks an expression whose value goes nowhere the analysis follows
// (a count, a condition, an operand, an argument of a resource), recording
// what it reads; a reference in it makes no list of origins.
func (w *readWalker) walk(e hcl.Expression) {
	if x, ok := e.(*hclsyntax.ScopeTraversalExpr); ok {
		w.reference(x.Traversal)
		return
	}
	w.val(e)
}

// val walks an expression, recording what it reads, and returns the
// origins of its value.
func (w *readWalker) val(e hcl.Expression) []origin {
	if e == nil {
		return nil
	}
	x, ok := e.(hclsyntax.Expression)
	if !ok {
		var out []origin
		for _, t := range e.Variables() {
			out = union(out, w.traversal(t))
		}
		return out
	}
	switch x := x.(type) {
	case *hclsyntax.LiteralValueExpr:
		return nil
	case *hclsyntax.ScopeTraversalExpr:
		return w.traversal(x.Traversal)
	case *hclsyntax.RelativeTraversalExpr:
		src := w.val(x.Source)
		w.steps = appendTraversalSteps(w.steps[:0], x.Traversal)
		return applySteps(src, w.steps, w.r)
	case *hclsyntax.IndexExpr:
		w.walk(x.Key)
		src := w.val(x.Collection)
		step := anyElement
		if key, ok := literalString(x.Key); ok {
			// An object indexed by a string reads that attribute.
			step = key
		} else {
			// A key known only when evaluated may name any attribute
			// of an object, also one tfeval's object of a resource
			// without schema does not have.
			w.sink(x, x.Collection, src, false)
		}
		return applySteps(src, []readStep{step}, w.r)
	case *hclsyntax.SplatExpr:
		src := w.val(x.Source)
		// A splat of a single object treats it as a list of one.
		elems := union(applySteps(src, []readStep{anyElement}, nil), src)
		w.bind(binding{anon: x.Item, origins: elems})
		each := w.val(x.Each)
		w.unbind()
		return inFrame(each, frame{any: true})
	case *hclsyntax.AnonSymbolExpr:
		for i := len(w.binds) - 1; i >= 0; i-- {
			if w.binds[i].anon == x {
				return w.binds[i].origins
			}
		}
		return nil
	case *hclsyntax.ForExpr:
		coll := w.val(x.CollExpr)
		if !copiesElements(x) || x.CondExpr != nil {
			// A for expression that copies an object's attributes
			// makes the object again (see below), as open as it was;
			// one that leaves some out by a condition makes another.
			w.sink(x, x.CollExpr, coll, false)
		}
		elems := applySteps(coll, []readStep{anyElement}, nil)
		if x.KeyVar != "" {
			w.bind(binding{name: x.KeyVar})
		}
		w.bind(binding{name: x.ValVar, origins: elems})
		w.walk(x.KeyExpr)
		w.walk(x.CondExpr)
		v := w.val(x.ValExpr)
		w.unbind()
		if x.KeyVar != "" {
			w.unbind()
		}
		if copiesElements(x) {
			// {for k, v in X : k => v} is X itself (or a part of it):
			// what is read from it by key is read from X by that key.
			// For one resource instance the key is an attribute's name,
			// which the element origins above do not keep.
			return union(inFrame(v, frame{any: true}), coll)
		}
		return inFrame(v, frame{any: true})
	case *hclsyntax.FunctionCallExpr:
		return w.call(x)
	case *hclsyntax.ConditionalExpr:
		w.walk(x.Condition)
		return union(w.val(x.TrueResult), w.val(x.FalseResult))
	case *hclsyntax.TupleConsExpr:
		items := make([][]origin, 0, len(x.Exprs))
		for _, item := range x.Exprs {
			items = append(items, inFrame(w.val(item), frame{any: true}))
		}
		return union(items...)
	case *hclsyntax.ObjectConsExpr:
		items := make([][]origin, 0, len(x.Items))
		for _, item := range x.Items {
			f := frame{any: true}
			if key, ok := objectKey(item.KeyExpr); ok {
				f = frame{key: key}
			} else {
				w.walk(item.KeyExpr)
			}
			items = append(items, inFrame(w.val(item.ValueExpr), f))
		}
		return union(items...)
	case *hclsyntax.TemplateWrapExpr:
		return w.val(x.Wrapped)
	case *hclsyntax.ParenthesesExpr:
		return w.val(x.Expression)
	case *hclsyntax.ObjectConsKeyExpr:
		if hcl.ExprAsKeyword(x.Wrapped) != "" {
			return nil
		}
		return w.val(x.Wrapped)
	case *hclsyntax.BinaryOpExpr:
		if (x.Op == hclsyntax.OpEqual || x.Op == hclsyntax.OpNotEqual) && !isNullLiteral(x.LHS) && !isNullLiteral(x.RHS) {
			// Whether two objects are equal depends on every attribute
			// of both; whether one is null does not.
			w.sink(x, x.LHS, w.val(x.LHS), true)
			w.sink(x, x.RHS, w.val(x.RHS), true)
			return nil
		}
	}
	// Everything else (operators, templates) builds a new primitive value
	// from its operands, which are still walked for what they read.
	known := exprChildren(x, func(c hclsyntax.Expression, _ *hclsyntax.ForExpr) { w.walk(c) })
	if !known {
		for _, t := range hclsyntax.Variables(x) {
			w.reference(t)
		}
	}
	return nil
}

// copiesElements reports whether an object for expression puts each
// element of its collection under the element's own key.
func copiesElements(x *hclsyntax.ForExpr) bool {
	if x.KeyVar == "" || x.KeyExpr == nil || x.Group {
		return false
	}
	isVar := func(e hclsyntax.Expression, name string) bool {
		t, ok := e.(*hclsyntax.ScopeTraversalExpr)
		return ok && len(t.Traversal) == 1 && t.Traversal.RootName() == name
	}
	return isVar(x.KeyExpr, x.KeyVar) && isVar(x.ValExpr, x.ValVar)
}

// objectKey is the static key of an object constructor item.
func objectKey(e hclsyntax.Expression) (string, bool) {
	if k, ok := e.(*hclsyntax.ObjectConsKeyExpr); ok {
		if kw := hcl.ExprAsKeyword(k.Wrapped); kw != "" {
			return norm.NFC.String(kw), true
		}
		e = k.Wrapped
	}
	if s, ok := literalString(e); ok {
		return s, true
	}
	return "", false
}

// literalString is the value of a string literal, also written as a
// template of one literal part.
func literalString(e hclsyntax.Expression) (string, bool) {
	switch e := e.(type) {
	case *hclsyntax.LiteralValueExpr:
		if e.Val.Type() == cty.String && e.Val.IsKnown() && !e.Val.IsNull() {
			// In normal form C, as go-cty keeps attribute names.
			return norm.NFC.String(e.Val.AsString()), true
		}
	case *hclsyntax.TemplateExpr:
		if len(e.Parts) == 1 {
			return literalString(e.Parts[0])
		}
	}
	return "", false
}

// call walks a function call. Functions that return one of their
// arguments' elements step into it; those that build a primitive value
// pass nothing on; all others may return their arguments' values.
func (w *readWalker) call(x *hclsyntax.FunctionCallExpr) []origin {
	name := x.Name
	if i := strings.LastIndex(name, "::"); i >= 0 && strings.HasPrefix(name, "core::") {
		name = name[i+2:]
	}
	if strings.HasPrefix(name, "provider::") {
		if w.r.providerCalls == nil {
			w.r.providerCalls = map[string]bool{}
		}
		w.r.providerCalls[name] = true
	}
	if name == "try" || name == "can" {
		// hcl's try and can make an unknown afresh from an argument's
		// unknown, without its marks: their results are marked again
		// (markResult) where an argument holds an observed operand.
		defer w.resultOf(x, len(w.r.sinks))
	}
	observes, deep := ObservesWhole(name)
	if buildsPrimitive(name) {
		for _, arg := range x.Args {
			if observes {
				w.sink(x, arg, w.val(arg), deep)
			} else {
				w.walk(arg)
			}
		}
		return nil
	}
	args := make([][]origin, len(x.Args))
	for i, arg := range x.Args {
		args[i] = w.val(arg)
		if observes {
			w.sink(x, arg, args[i], deep)
		}
	}
	switch name {
	case "lookup":
		if len(args) < 2 {
			return nil
		}
		step := anyElement
		if key, ok := literalString(x.Args[1]); ok {
			step = key
		} else {
			// As an index by a key known only when evaluated.
			w.sink(x, x.Args[0], args[0], false)
		}
		out := applySteps(args[0], []readStep{step}, w.r)
		if len(args) > 2 {
			out = union(out, args[2])
		}
		return out
	case "templatefile":
		if len(args) == 2 && len(args[1]) > 0 {
			// The template is read where the tree's walk gets here: its
			// path may name the root module's directory.
			w.r.events = append(w.r.events, readEvent{kind: evTemplate, template: &templateCall{path: x.Args[0], vars: args[1], call: x, arg: x.Args[1]}})
		}
		return nil
	case "element", "one":
		if len(args) == 0 {
			return nil
		}
		return applySteps(args[0], []readStep{anyElement}, w.r)
	case "values":
		// The elements of the argument, in a list.
		if len(args) == 0 {
			return nil
		}
		return inFrame(applySteps(args[0], []readStep{anyElement}, nil), frame{any: true})
	}
	return union(args...)
}

// ObservesWhole reports whether the function name observes the whole of
// its arguments, not only parts it reads of them: their attributes (keys,
// length, values, merge, tomap, coalesce) or, deep, every value nested in
// them (jsonencode, an equality inside contains).
func ObservesWhole(name string) (observes, deep bool) {
	switch name {
	case "keys", "length", "values", "merge", "tomap", "coalesce":
		return true, false
	case "jsonencode", "yamlencode", "tostring", "format", "formatlist", "contains", "index", "distinct":
		return true, true
	}
	return false, false
}

// buildsPrimitive reports whether the function name builds its result
// from its arguments without passing on any of their values: what the
// result is read for is not read from them.
func buildsPrimitive(name string) bool {
	switch name {
	case "can", "length", "keys", "jsonencode", "yamlencode", "tostring", "tonumber", "tobool",
		"format", "formatlist", "join", "contains", "alltrue", "anytrue", "sum", "max", "min",
		"base64encode", "md5", "sha1", "sha256", "sha512", "upper", "lower", "title", "trimspace",
		"replace", "substr", "split", "regex", "regexall", "startswith", "endswith", "strcontains",
		"type", "issensitive":
		return true
	}
	return false
}

// templateReads walks the template a templatefile call names, when its
// path is known without evaluation, with each of its variables bound to
// what the call gives it: a template reads attributes of the values it is
// given as an expression does. The call is in the module of c.
func (a *readAnalysis) templateReads(c *config.Config, call *templateCall) {
	if a.template == nil {
		return
	}
	vars := call.vars
	path, ok := staticPath(c, call.path)
	if !ok {
		return
	}
	tmpl, seen := a.templates[path]
	if !seen {
		tmpl = a.template(path)
		a.templates[path] = tmpl
	}
	if tmpl == nil {
		return
	}
	r := &moduleReads{}
	tw := &readWalker{r: r, m: c.Module}
	for _, t := range hclsyntax.Variables(tmpl) {
		name := t.RootName()
		if !slices.ContainsFunc(tw.binds, func(b binding) bool { return b.name == name }) {
			tw.bind(binding{name: name, origins: applySteps(vars, []readStep{name}, nil)})
		}
	}
	// Only the template's own variables are in scope in it.
	tw.walk(tmpl)
	for name := range r.providerCalls {
		a.providerCall(c.Module, name)
	}
	// A template cannot call templatefile (Terraform refuses to), so the
	// templates it names are not read: one naming itself would never end.
	r.events = slices.DeleteFunc(r.events, func(e readEvent) bool { return e.kind == evTemplate })
	a.follow(c, r.events)
	// The template is evaluated by the function, where the evaluation
	// cannot open what its operations observe: a whole object one of them
	// observes is opened in the call's vars, making the result unknown.
	for _, su := range r.sinks {
		if refs := a.wholeFrom(c, su.origins, !su.deep); len(refs) > 0 {
			a.sinks = addSink(a.sinks, call.arg, refs, true)
			a.results = addSink(a.results, call.call, refs, false)
		}
	}
}

// staticPath is the value of a template path written with literals and
// path.module, path.root and path.cwd only, in the module of c.
func staticPath(c *config.Config, e hclsyntax.Expression) (string, bool) {
	switch e := e.(type) {
	case *hclsyntax.LiteralValueExpr:
		return literalString(e)
	case *hclsyntax.TemplateWrapExpr:
		return staticPath(c, e.Wrapped)
	case *hclsyntax.TemplateExpr:
		var b strings.Builder
		for _, p := range e.Parts {
			s, ok := staticPath(c, p)
			if !ok {
				return "", false
			}
			b.WriteString(s)
		}
		return b.String(), true
	case *hclsyntax.ScopeTraversalExpr:
		if len(e.Traversal) == 2 && e.Traversal.RootName() == "path" {
			switch traversalName(e.Traversal[1]) {
			case "module":
				return sourceDir(c), true
			case "root":
				return sourceDir(c.Root), true
			}
		}
	}
	return "", false
}

// traversal resolves a reference and records what it reads.
func (w *readWalker) traversal(t hcl.Traversal) []origin {
	bound, named, ok := w.reference(t)
	if ok {
		return []origin{named}
	}
	return bound
}

// reference is traversal without a list for an origin the reference names:
// a name an expression or block binds gives its origins (bound), another
// reference its one origin (named, ok set).
func (w *readWalker) reference(t hcl.Traversal) (bound []origin, named origin, ok bool) {
	if len(t) == 0 {
		return nil, origin{}, false
	}
	root := t.RootName()
	for i := len(w.binds) - 1; i >= 0; i-- {
		b := w.binds[i]
		if b.anon != nil || b.name != root {
			continue
		}
		w.steps = appendTraversalSteps(w.steps[:0], t[1:])
		steps := w.steps
		if b.iterator {
			if len(steps) == 0 || steps[0] != "value" {
				return nil, origin{}, false
			}
			steps = steps[1:]
		}
		return applySteps(b.origins, steps, w.r), origin{}, false
	}
	if w.boundOnly {
		return nil, origin{}, false
	}
	m := w.m
	// base is the value the reference names, when found.
	var base origin
	found := false
	var rest hcl.Traversal
	namedValue := func(kind valueKind) {
		if len(t) < 2 {
			return
		}
		if a, ok := t[1].(hcl.TraverseAttr); ok {
			base, found = origin{key: valueKey{kind: kind, name: a.Name}}, true
			rest = t[2:]
		}
	}
	resource := func(mode config.ResourceMode, typeAt int) {
		if len(t) < typeAt+2 {
			return
		}
		typ, name := traversalName(t[typeAt]), traversalName(t[typeAt+1])
		if typ == "" || name == "" {
			return
		}
		addr := typ + "." + name
		switch mode {
		case config.DataResourceMode:
			addr = "data." + addr
		case config.EphemeralResourceMode:
			addr = "ephemeral." + addr
		}
		if res := findResource(m, addr); res != nil {
			base, found = origin{key: valueKey{kind: vkResource, res: res}}, true
			rest = t[typeAt+2:]
		}
	}
	switch root {
	case "var":
		namedValue(vkVar)
	case "local":
		namedValue(vkLocal)
	case "module":
		namedValue(vkCall)
	case "output":
		// Only an expression from outside the configuration (a test
		// file's assertion) reads the module's own outputs.
		namedValue(vkOutput)
	case "each":
		if w.each != nil && len(t) >= 2 && traversalName(t[1]) == "value" {
			base, found = origin{key: *w.each}, true
			rest = t[2:]
		}
	case "self":
		if w.self != nil {
			base, found = origin{key: valueKey{kind: vkResource, res: w.self}}, true
			if w.self.Count != nil || w.self.ForEach != nil {
				base.path = []readStep{anyElement}
			}
			rest = t[1:]
		}
	case "count", "path", "terraform", "tofu":
	case "data":
		resource(config.DataResourceMode, 1)
	case "ephemeral":
		resource(config.EphemeralResourceMode, 1)
	case "resource":
		resource(config.ManagedResourceMode, 1)
	default:
		resource(config.ManagedResourceMode, 0)
	}
	if !found {
		return nil, origin{}, false
	}
	// applySteps for the one origin, without a slice to hold it.
	w.steps = appendTraversalSteps(w.steps[:0], rest)
	r, grew, ok := stepped(base, w.steps, nil)
	if !ok {
		return nil, origin{}, false
	}
	if grew {
		w.r.read(r.key, r.path)
	}
	return nil, r, true
}

// traversalName is the name a root or attribute step gives, "" for others.
func traversalName(s hcl.Traverser) string {
	switch s := s.(type) {
	case hcl.TraverseRoot:
		return s.Name
	case hcl.TraverseAttr:
		return s.Name
	}
	return ""
}

// appendTraversalSteps appends traversal steps, as read steps, to steps.
// The walk reuses one slice for them: paths copy the steps they take.
func appendTraversalSteps(steps []readStep, t hcl.Traversal) []readStep {
	for _, s := range t {
		switch s := s.(type) {
		case hcl.TraverseAttr:
			steps = append(steps, norm.NFC.String(s.Name))
		case hcl.TraverseIndex:
			if s.Key.Type() == cty.String && s.Key.IsKnown() && !s.Key.IsNull() {
				steps = append(steps, norm.NFC.String(s.Key.AsString()))
			} else {
				steps = append(steps, anyElement)
			}
		default:
			steps = append(steps, anyElement)
		}
	}
	return steps
}

// readTree is the set of paths read from a resource's instances: the
// attributes read, each with what is read inside it, and what is read
// from any element.
type readTree struct {
	attrs map[string]*readTree
	elems *readTree
}

// addResourcePath adds a path read from a resource's whole value: for a
// resource with count or for_each, its first step selects an instance (an
// attribute read from all of them is an error of its own); a resource
// without either is also read as a list of its one instance by a splat.
func (t *readTree) addResourcePath(res *config.Resource, path []readStep) {
	if res.Count != nil || res.ForEach != nil || path[0] == anyElement {
		// The first step selects an instance (by any key).
		path = path[1:]
	}
	t.add(path)
}

func (t *readTree) add(path []readStep) {
	for _, s := range path {
		if s == anyElement {
			if t.elems == nil {
				t.elems = &readTree{}
			}
			t = t.elems
			continue
		}
		if t.attrs == nil {
			t.attrs = map[string]*readTree{}
		}
		next := t.attrs[s]
		if next == nil {
			next = &readTree{}
			t.attrs[s] = next
		}
		t = next
	}
}
