package lang

import (
	"cmp"
	"slices"
	"sort"
	"strings"
	"sync/atomic"

	"github.com/zclconf/go-cty/cty"

	"github.com/tfeval/tfeval/config"
	"github.com/tfeval/tfeval/internal/address"
)

// nodeKind is the kind of configuration object a graph node evaluates.
type nodeKind int

const (
	nodeVar nodeKind = iota
	nodeLocal
	nodeCall
	nodeResource
	nodeOutput
	nodeCheck
	// nodeProvider is a provider block's configuration (provider.go).
	nodeProvider
)

// node is one configuration object (in every instance of its module).
type node struct {
	kind nodeKind
	cfg  *config.Config
	name string // variable, local, output, call or check name; resource address
	// deps are the objects this one depends on, by id, each once; nil
	// when none. A slice rather than a set: most objects depend on a few,
	// and a map was two allocations for each (placeDeps).
	deps []*node
	// pos is the node's place in graph.nodes.
	pos int

	// selfRef is set when the object refers to itself.
	selfRef bool
	// used says, of a provider configuration, that a resource uses it:
	// Terraform evaluates no other (buildGraph).
	used bool
	// failed is set once the object's evaluation reported an error, or
	// one it depends on failed (see evaluator.evalNode).
	failed atomic.Bool
}

// dependOn records, while the graph is built, that n depends on d;
// placeDeps then gives each node its dependencies.
func (g *graph) dependOn(n, d *node) {
	g.edges = append(g.edges, graphEdge{n.pos, d})
}

// graphEdge is a dependency of the node at position from on node to.
type graphEdge struct {
	from int
	to   *node
}

// placeDeps gives each node the dependencies recorded for it, by id (then
// position, for ids two objects might share) and each once, all of them
// in one allocation.
func (g *graph) placeDeps() {
	// Recorded node by node in position order but for imports', so the
	// stable sort has little to do.
	slices.SortStableFunc(g.edges, func(a, b graphEdge) int { return cmp.Compare(a.from, b.from) })
	deps := make([]*node, len(g.edges))
	for i, e := range g.edges {
		deps[i] = e.to
	}
	for i := 0; i < len(g.edges); {
		j := i + 1
		for j < len(g.edges) && g.edges[j].from == g.edges[i].from {
			j++
		}
		own := deps[i:j:j]
		slices.SortFunc(own, func(a, b *node) int {
			return cmp.Or(compareIDs(a, b), cmp.Compare(a.pos, b.pos))
		})
		g.nodes[g.edges[i].from].deps = slices.Compact(own)
		i = j
	}
	g.edges = nil
}

// upstreamFailed reports whether an object n depends on failed.
func (n *node) upstreamFailed() bool {
	for _, d := range n.deps {
		if d.failed.Load() {
			return true
		}
	}
	return false
}

// graph is the dependency graph of the whole configuration tree.
type graph struct {
	nodes []*node
	// modules are the objects of each module instance of the tree and
	// where its nodes start in nodes.
	modules map[*config.Config]graphModule
	// edges are the dependencies recorded while the graph is built.
	edges []graphEdge
}

// graphModule is one module instance's part of a graph.
type graphModule struct {
	objects *moduleObjects
	// first is the place of its first node in graph.nodes; the others
	// follow in the order of objects.
	first int
}

// id is the node's display name, e.g. "module.a.local.x". It is made when
// asked for (a cycle, a graph export): the graph orders dependencies by it
// without making it (compareIDs).
func (n *node) id() string {
	// Written into one buffer: the string is the only allocation.
	var buf [128]byte
	return string(n.appendID(buf[:0]))
}

// appendID appends the node's display name to b.
func (n *node) appendID(b []byte) []byte {
	return append(append(address.AppendModulePrefix(b, n.cfg.Path), kindPrefix(n.kind)...), n.name...)
}

// kindPrefix is what a node's display name has between its module's prefix
// and its name: nothing for a resource, whose name is its address.
func kindPrefix(kind nodeKind) string {
	switch kind {
	case nodeVar:
		return "var."
	case nodeLocal:
		return "local."
	case nodeCall:
		return "module."
	case nodeOutput:
		return "output."
	case nodeCheck:
		return "check."
	case nodeProvider:
		return "provider."
	}
	return ""
}

// compareIDs is strings.Compare(a.id(), b.id()) without making either:
// nodes of one module instance share the module's prefix, so the rest is
// compared in its two parts (of one kind, the names); otherwise the ids are compared part by part
// (idPart) from the first module call their paths do not share.
func compareIDs(a, b *node) int {
	if a.cfg == b.cfg {
		if a.kind == b.kind {
			return strings.Compare(a.name, b.name)
		}
		return compareJoined(kindPrefix(a.kind), a.name, kindPrefix(b.kind), b.name)
	}
	pa, pb := a.cfg.Path, b.cfg.Path
	k := 0
	for k < len(pa) && k < len(pb) && pa[k] == pb[k] {
		k++
	}
	ia, ib := 3*k, 3*k
	var sa, sb string
	for {
		for sa == "" && ia < idParts(a) {
			sa = idPart(a, ia)
			ia++
		}
		for sb == "" && ib < idParts(b) {
			sb = idPart(b, ib)
			ib++
		}
		if sa == "" || sb == "" {
			// One side has run out: the longer one is the greater.
			return cmp.Compare(len(sa), len(sb))
		}
		n := min(len(sa), len(sb))
		if c := strings.Compare(sa[:n], sb[:n]); c != 0 {
			return c
		}
		sa, sb = sa[n:], sb[n:]
	}
}

// idParts is the number of parts of n's id: "module.", the call's name and
// "." for each module call of its path, then its kind's prefix and name.
func idParts(n *node) int {
	return 3*len(n.cfg.Path) + 2
}

// idPart is part i of n's id (see idParts).
func idPart(n *node, i int) string {
	if k := 3 * len(n.cfg.Path); i >= k {
		if i == k {
			return kindPrefix(n.kind)
		}
		return n.name
	}
	switch i % 3 {
	case 0:
		return "module."
	case 1:
		return n.cfg.Path[i/3]
	}
	return "."
}

// compareJoined is strings.Compare(a1+a2, b1+b2) without joining them.
func compareJoined(a1, a2, b1, b2 string) int {
	for {
		if a1 == "" {
			a1, a2 = a2, ""
		}
		if b1 == "" {
			b1, b2 = b2, ""
		}
		if a1 == "" || b1 == "" {
			// One side has run out: the longer one is the greater.
			return cmp.Compare(len(a1)+len(a2), len(b1)+len(b2))
		}
		n := min(len(a1), len(b1))
		if c := strings.Compare(a1[:n], b1[:n]); c != 0 {
			return c
		}
		a1, b1 = a1[n:], b1[n:]
	}
}

func (g *graph) get(cfg *config.Config, kind nodeKind, name string) *node {
	gm, ok := g.modules[cfg]
	if !ok {
		return nil
	}
	i, ok := gm.objects.index[objectName{kind, name}]
	if !ok {
		return nil
	}
	return g.nodes[gm.first+i]
}

// buildGraph creates a node for every object of every module and connects
// each to the objects its expressions refer to. What the objects of a
// module are and refer to is worked out once per module (moduleObjects);
// each evaluation makes the nodes and edges of its tree.
func (ev *evaluator) buildGraph() *graph {
	// The module instances in node order: a module's objects, then each
	// of its children's, by call name.
	var cfgs []*config.Config
	var walk func(c *config.Config)
	walk = func(c *config.Config) {
		cfgs = append(cfgs, c)
		for _, n := range sortedKeys(c.Children) {
			walk(c.Children[n])
		}
	}
	walk(ev.cfg)
	g := &graph{modules: make(map[*config.Config]graphModule, len(cfgs))}
	count := 0
	for _, c := range cfgs {
		mo := ev.moduleObjects(c.Module)
		g.modules[c] = graphModule{objects: mo, first: count}
		count += len(mo.objects)
	}
	// The nodes are made in one allocation.
	g.nodes = make([]*node, count)
	slab := make([]node, count)
	for _, c := range cfgs {
		gm := g.modules[c]
		for i := range gm.objects.objects {
			o, pos := &gm.objects.objects[i], gm.first+i
			slab[pos] = node{kind: o.kind, cfg: c, name: o.name, pos: pos}
			g.nodes[pos] = &slab[pos]
		}
	}
	// About one edge for each reference and each module's call: counted
	// first, so that the edges are not copied as they grow.
	edges := 0
	for _, n := range g.nodes {
		refs, callRefs := g.refs(n)
		edges += len(refs) + len(callRefs) + 1
	}
	g.edges = make([]graphEdge, 0, edges)
	for _, n := range g.nodes {
		refs, callRefs := g.refs(n)
		ev.connect(g, n, n.cfg.Parent, callRefs) // empty but for variables of called modules
		ev.connect(g, n, n.cfg, refs)
		if n.cfg.Parent != nil {
			if call := g.get(n.cfg.Parent, nodeCall, n.cfg.Path[len(n.cfg.Path)-1]); call != nil {
				g.dependOn(n, call)
			}
		}
	}
	ev.connectImports(g)
	g.connectProviders()
	g.placeDeps()
	return g
}

// connectImports makes each terraform_data resource that a root import
// block imports into depend on what the block refers to, in the root
// module: planning an instance needs the import's id.
func (ev *evaluator) connectImports(g *graph) {
	var buf []*node
	for _, im := range ev.cfg.Module.Import {
		if im.Target == nil || !isBuiltinType(strings.SplitN(im.Target.Addr, ".", 2)[0]) {
			continue
		}
		c := ev.cfg
		for _, name := range im.Target.Module {
			if c = c.Children[name]; c == nil {
				break
			}
		}
		if c == nil {
			continue
		}
		n := g.get(c, nodeResource, im.Target.Addr)
		if n == nil {
			continue
		}
		for _, r := range ev.importRefs(im) {
			if r.ref == nil {
				continue
			}
			buf = g.targets(buf[:0], ev.cfg, r.ref)
			for _, t := range buf {
				// An import cannot take its id from its own target;
				// checkImports reports what that id is.
				if t != nil && t != n {
					g.dependOn(n, t)
				}
			}
		}
	}
}

// refs returns what the object of n refers to in its own module and, for
// a variable of a called module, in the calling module block. They are
// shared by every evaluation holding the module: read only.
func (g *graph) refs(n *node) (refs, callRefs []parsedRef) {
	gm := g.modules[n.cfg]
	refs = gm.objects.objects[n.pos-gm.first].refs
	if n.kind == nodeVar && n.cfg.Parent != nil {
		// The value comes from the calling module block.
		if ca := g.modules[n.cfg.Parent].objects.callArgs(n.cfg.Path[len(n.cfg.Path)-1]); ca != nil {
			callRefs = ca.refs[n.name]
		}
	}
	return refs, callRefs
}

// targets appends to targets the nodes a reference in module c names
// (some may be nil); connect reuses one slice for all its references.
func (g *graph) targets(targets []*node, c *config.Config, ref *reference) []*node {
	switch ref.kind {
	case refVar:
		targets = append(targets, g.get(c, nodeVar, ref.name))
	case refLocal:
		targets = append(targets, g.get(c, nodeLocal, ref.name))
	case refModule:
		targets = append(targets, g.get(c, nodeCall, ref.name))
		if child := c.Children[ref.name]; child != nil {
			switch {
			case ref.output != "" && child.Module.Outputs[ref.output] != nil:
				targets = append(targets, g.get(child, nodeOutput, ref.output))
			case ref.output != "" && outputNamed(c.Module.ModuleCalls[ref.name], ref):
				// An output the module does not declare: evaluating the
				// reference reports it, and it depends on no output.
			default:
				for _, o := range sortedKeys(child.Module.Outputs) {
					targets = append(targets, g.get(child, nodeOutput, o))
				}
			}
		}
	case refResource:
		targets = append(targets, g.get(c, nodeResource, ref.addr()))
	}
	return targets
}

// outputNamed reports whether the attribute after module.NAME in ref can
// only be an output's name: the call has one instance, or ref names one by
// key. Of a call with count or for_each, module.NAME.x may be instance x.
func outputNamed(call *config.ModuleCall, ref *reference) bool {
	return ref.key != cty.NilVal || call != nil && call.Count == nil && call.ForEach == nil
}

// connect adds an edge from n to every node the references (in module c) name.
func (ev *evaluator) connect(g *graph, n *node, c *config.Config, refs []parsedRef) {
	var buf []*node
	for _, r := range refs {
		ref := r.ref
		if ref == nil {
			continue
		}
		buf = g.targets(buf[:0], c, ref)
		for _, t := range buf {
			if t == nil {
				continue
			}
			if t == n {
				n.selfRef = true
				continue
			}
			g.dependOn(n, t)
		}
	}
}

// order returns the nodes in an evaluation order (dependencies first,
// otherwise declaration order) and the cycles found, each in the order the
// search took its objects off its stack.
func (g *graph) order() ([]*node, [][]*node) {
	// Tarjan's algorithm yields strongly connected components in reverse
	// topological order of the condensation, i.e. dependencies first. Its
	// marks are kept by node position; index 0 is "not seen yet".
	index := make([]int, len(g.nodes))
	low := make([]int, len(g.nodes))
	onStack := make([]bool, len(g.nodes))
	var stack []*node
	out := make([]*node, 0, len(g.nodes))
	var cycles [][]*node
	next := 1
	var strong func(v *node)
	strong = func(v *node) {
		index[v.pos] = next
		low[v.pos] = next
		next++
		stack = append(stack, v)
		onStack[v.pos] = true
		for _, w := range v.deps {
			if index[w.pos] == 0 {
				strong(w)
				low[v.pos] = min(low[v.pos], low[w.pos])
			} else if onStack[w.pos] && index[w.pos] < low[v.pos] {
				low[v.pos] = index[w.pos]
			}
		}
		if low[v.pos] == index[v.pos] {
			// The component is the stack down to v, taken off it in
			// turn; most are v alone, and need no slice of their own.
			k := len(stack) - 1
			for stack[k] != v {
				k--
			}
			comp := stack[k:]
			slices.Reverse(comp)
			for _, w := range comp {
				onStack[w.pos] = false
			}
			if len(comp) > 1 {
				// In the order the search left them, as Terraform names
				// a cycle's objects.
				cycles = append(cycles, slices.Clone(comp))
			}
			out = append(out, comp...)
			stack = stack[:k]
		}
	}
	for _, n := range g.nodes {
		if index[n.pos] == 0 {
			strong(n)
		}
	}
	return out, cycles
}

// moduleResources lists the module's managed, data and ephemeral resources in address order.
func moduleResources(m *config.Module) []*config.Resource {
	var out []*config.Resource
	for _, set := range []map[string]*config.Resource{m.ManagedResources, m.DataResources, m.EphemeralResources} {
		for _, k := range sortedKeys(set) {
			if set[k].Check != "" {
				continue // a check block's data resource belongs to the check
			}
			out = append(out, set[k])
		}
	}
	return out
}

func findResource(m *config.Module, addr string) *config.Resource {
	// A managed resource whose type is "data" or "ephemeral" has a
	// two-part address such as data.a; no data or ephemeral resource's
	// (three parts) is ever the same.
	if r := m.ManagedResources[addr]; r != nil {
		return r
	}
	switch {
	case strings.HasPrefix(addr, "data."):
		return m.DataResources[addr]
	case strings.HasPrefix(addr, "ephemeral."):
		return m.EphemeralResources[addr]
	}
	return m.ManagedResources[addr]
}

func sortedKeys[T any](m map[string]T) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
