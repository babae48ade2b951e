package lang

import (
	"sync"

	"github.com/hashicorp/hcl/v2"

	"github.com/tfeval/tfeval/config"
	"github.com/tfeval/tfeval/dialect"
	"github.com/tfeval/tfeval/internal/parallel"
)

// moduleObjects is what the dependency graph takes of one module: its
// objects in graph order and what each refers to, with the references of
// every expression they were gathered from. It depends on the module
// alone (with the dialect and schemas), so it is made once per module
// (moduleShape) and shared by every evaluation of a tree holding the
// module, which makes only its own nodes and edges: the references are
// parsed once per module, not once per evaluation. Everything in it is
// read only once made.
type moduleObjects struct {
	// objects are the module's variables, locals, module calls,
	// resources, outputs and checks, each kind in name (address) order.
	objects []moduleObject
	// index is the place of each object in objects.
	index map[objectName]int
	// argRefs are the references of the expressions of the calls'
	// arguments made so far (an hcl.Expression to []parsedRef map), for
	// their evaluation.
	argRefs sync.Map
	// module and dialect are what the calls' arguments are made from.
	module  *config.Module
	dialect dialect.Dialect
	// exprRefs are the references of each expression of the objects, for
	// their evaluation (evaluator.exprRefs).
	exprRefs map[hcl.Expression][]parsedRef
}

// callArgs are the arguments of a module call (callAttributes) and the
// references of each: what a variable of the called module refers to in
// the calling one.
type callArgs struct {
	once  sync.Once
	attrs hcl.Attributes
	// diags are what reading the arguments reported (a block among
	// them), shared: copied before they are added to an evaluation's.
	diags hcl.Diagnostics
	refs  map[string][]parsedRef
}

// callArgs returns the arguments of the module call name, nil when the
// module has no such call. They are made when first asked for: a call
// whose module is not loaded has no variables to give them to.
func (mo *moduleObjects) callArgs(name string) *callArgs {
	i, ok := mo.index[objectName{nodeCall, name}]
	if !ok {
		return nil
	}
	ca := &mo.objects[i].args
	ca.once.Do(func() {
		ca.attrs, ca.diags = readCallAttributes(mo.module.ModuleCalls[name])
		ca.refs = make(map[string][]parsedRef, len(ca.attrs))
		var travs []hcl.Traversal // reused: parseRefs copies what it keeps
		for arg, a := range ca.attrs {
			travs = appendVariables(travs[:0], a.Expr)
			refs := parseRefs(travs, mo.dialect)
			ca.refs[arg] = refs
			mo.argRefs.Store(a.Expr, refs)
		}
	})
	return ca
}

// objectName names an object of a module.
type objectName struct {
	kind nodeKind
	name string // variable, local, output, call or check name; resource address
}

// moduleObject is one object of a module and what it refers to in it.
type moduleObject struct {
	objectName
	refs []parsedRef
	// args are a module call's arguments (callArgs).
	args callArgs
}

// moduleObjects returns the objects of m, made the first time any
// evaluation sharing m asks.
func (ev *evaluator) moduleObjects(m *config.Module) *moduleObjects {
	sh := ev.moduleShape(m)
	sh.objectsOnce.Do(func() { sh.objects = newModuleObjects(m, ev.opts.Schemas, ev.opts.Dialect) })
	return sh.objects
}

// newModuleObjects lists the objects of m and parses what each refers to.
func newModuleObjects(m *config.Module, schemas *ProviderSchemas, d dialect.Dialect) *moduleObjects {
	mo := &moduleObjects{module: m, dialect: d, objects: make([]moduleObject, 0, len(m.Variables)+len(m.Locals)+len(m.ModuleCalls)+
		len(m.ManagedResources)+len(m.DataResources)+len(m.EphemeralResources)+len(m.Outputs)+len(m.Checks)+len(m.ProviderConfigs))}
	add := func(kind nodeKind, name string) {
		mo.objects = append(mo.objects, moduleObject{objectName: objectName{kind, name}})
	}
	for _, n := range sortedKeys(m.Variables) {
		add(nodeVar, n)
	}
	for _, n := range sortedKeys(m.Locals) {
		add(nodeLocal, n)
	}
	for _, n := range sortedKeys(m.ModuleCalls) {
		add(nodeCall, n)
	}
	for _, res := range moduleResources(m) {
		add(nodeResource, res.Addr())
	}
	for _, n := range sortedKeys(m.Outputs) {
		add(nodeOutput, n)
	}
	for _, n := range sortedKeys(m.Checks) {
		add(nodeCheck, n)
	}
	for _, key := range sortedKeys(m.ProviderConfigs) {
		if evaluatedProvider(m.ProviderConfigs[key]) {
			add(nodeProvider, key)
		}
	}
	mo.index = make(map[objectName]int, len(mo.objects))
	for i := range mo.objects {
		mo.index[mo.objects[i].objectName] = i
	}

	// Parsing what each object refers to (and walking resource bodies) is
	// independent per object and runs in parallel; each keeps the
	// expressions it parsed, gathered in object order after.
	builders := make([]refsBuilder, len(mo.objects))
	parallel.For(len(mo.objects), func(i int) {
		b := &builders[i]
		b.dialect, b.schemas, b.exprs = d, schemas, b.buf[:0]
		mo.objects[i].refs = b.objectRefs(m, mo.objects[i].objectName)
	})
	n := 0
	for i := range builders {
		n += len(builders[i].exprs)
	}
	mo.exprRefs = make(map[hcl.Expression][]parsedRef, n)
	for i := range builders {
		for _, e := range builders[i].exprs {
			mo.exprRefs[e.expr] = e.refs
		}
	}
	return mo
}

// refsBuilder gathers what an object refers to, keeping each expression's
// references.
type refsBuilder struct {
	dialect dialect.Dialect
	schemas *ProviderSchemas
	exprs   []exprRefs
	// buf holds exprs for an object of up to four expressions (most).
	buf [4]exprRefs
	// travs is the list the traversals of each expression are gathered
	// in, reused: parseRefs copies what it keeps of them.
	travs []hcl.Traversal
}

// exprRefs are the references of one expression.
type exprRefs struct {
	expr hcl.Expression
	refs []parsedRef
}

// objectRefs lists what the object key of m refers to in m.
func (b *refsBuilder) objectRefs(m *config.Module, key objectName) []parsedRef {
	var refs []parsedRef
	switch key.kind {
	case nodeVar:
		refs = b.rules(refs, m.Variables[key.name].Validations)
	case nodeLocal:
		refs = b.expr(refs, m.Locals[key.name].Expr)
	case nodeCall:
		call := m.ModuleCalls[key.name]
		refs = b.expr(refs, call.Count)
		refs = b.expr(refs, call.ForEach)
		refs = b.expr(refs, call.Enabled)
		refs = append(refs, parseRefs(call.DependsOn, b.dialect)...)
	case nodeResource:
		refs = b.resource(refs, m, findResource(m, key.name))
	case nodeOutput:
		o := m.Outputs[key.name]
		refs = b.expr(refs, o.Expr)
		refs = append(refs, parseRefs(o.DependsOn, b.dialect)...)
		refs = b.rules(refs, o.Preconditions)
	case nodeCheck:
		ch := m.Checks[key.name]
		if ch.DataResource != nil {
			refs = b.resource(refs, m, ch.DataResource)
		}
		refs = b.rules(refs, ch.Asserts)
	case nodeProvider:
		p := m.ProviderConfigs[key.name]
		refs = parseRefs(providerBodyVariables(p, providerSpec(b.schemas, m, p)), b.dialect)
	}
	return refs
}

// expr appends the references of e, which may be nil, to refs.
func (b *refsBuilder) expr(refs []parsedRef, e hcl.Expression) []parsedRef {
	if e == nil {
		return refs
	}
	b.travs = appendVariables(b.travs[:0], e)
	parsed := parseRefs(b.travs, b.dialect)
	b.exprs = append(b.exprs, exprRefs{e, parsed})
	return appendRefs(refs, parsed)
}

// appendRefs appends more to refs; refs empty, it is more itself, which
// nothing changes in place (parsed lists are as long as their capacity).
func appendRefs(refs, more []parsedRef) []parsedRef {
	if len(refs) == 0 {
		return more
	}
	return append(refs, more...)
}

// rules appends the references of condition rules to refs.
func (b *refsBuilder) rules(refs []parsedRef, rules []*config.CheckRule) []parsedRef {
	for _, r := range rules {
		if r == nil {
			continue
		}
		refs = b.expr(refs, r.Condition)
		refs = b.expr(refs, r.ErrorMessage)
	}
	return refs
}

// resource appends everything a resource block of m refers to.
func (b *refsBuilder) resource(refs []parsedRef, m *config.Module, res *config.Resource) []parsedRef {
	refs = b.expr(refs, res.Count)
	refs = b.expr(refs, res.ForEach)
	refs = b.expr(refs, res.Enabled)
	for _, r := range parseRefs(res.DependsOn, b.dialect) {
		// Terraform accepts a depends_on that names its own resource.
		if !namesResource(r, res) {
			refs = append(refs, r)
		}
	}
	if res.Config != nil {
		// Parsed once per block, with the rest evaluation needs of it.
		refs = appendRefs(refs, resourceShapeOf(res, b.schemas.resourceSchema(m, res), b.dialect).bodyRefs)
	}
	refs = b.rules(refs, res.Preconditions)
	refs = b.rules(refs, res.Postconditions)
	for _, body := range provisionerBodies(res) {
		for _, r := range parseRefs(config.BodyTraversals(body), b.dialect) {
			// Terraform checks only the resource's own arguments for
			// references to itself: a provisioner that names its
			// resource (rather than self) is no cycle.
			if !namesResource(r, res) {
				refs = append(refs, r)
			}
		}
	}
	return refs
}

// namesResource reports whether r refers to the resource res.
func namesResource(r parsedRef, res *config.Resource) bool {
	return r.ref != nil && r.ref.kind == refResource && r.ref.addr() == res.Addr()
}
