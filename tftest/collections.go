package tftest

import (
	"sync"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/tfeval/tfeval/config"
)

// Without a schema, what a mocked provider generates for an attribute the
// configuration does not set depends on the attribute's type, which tfeval
// does not know. One kind of use tells it enough: a collection (list, set
// or map) is generated empty whatever its element type, and an attribute
// the module itself reads directly as one (iterates with for, splats,
// indexes, or gives to a function that takes only collections) is one.
// Only direct reads count, and those through try (for x in try(R.attr,
// []) iterates R.attr wherever it evaluates): a value that reaches the use
// through a local or a module may have been any other.

// collectionAttrs are the attributes of a module's resources that the
// module reads directly as collections, by "ADDR.ATTR" (ADDR the
// resource's address in the module, "data.TYPE.NAME" for a data source).
func collectionAttrs(m *config.Module) map[string]bool {
	out := map[string]bool{}
	var mark func(e hclsyntax.Expression)
	mark = func(e hclsyntax.Expression) {
		switch x := e.(type) {
		case *hclsyntax.ParenthesesExpr:
			mark(x.Expression)
			return
		case *hclsyntax.FunctionCallExpr:
			// try(R.attr, []) is R.attr where it evaluates: each
			// argument may be what the use reads.
			if x.Name == "try" {
				for _, a := range x.Args {
					mark(a)
				}
			}
			return
		}
		if addr, attr, ok := resourceAttr(e); ok {
			out[addr+"."+attr] = true
		}
	}
	visit := func(n hclsyntax.Node) hcl.Diagnostics {
		switch x := n.(type) {
		case *hclsyntax.ForExpr:
			mark(x.CollExpr)
		case *hclsyntax.SplatExpr:
			mark(x.Source)
		case *hclsyntax.IndexExpr:
			mark(x.Collection)
		case *hclsyntax.ScopeTraversalExpr:
			// R.attr[0] and R.attr[*] in one traversal.
			if addr, attr, rest, ok := splitResourceTraversal(x.Traversal); ok && len(rest) > 0 {
				if _, idx := rest[0].(hcl.TraverseIndex); idx {
					out[addr+"."+attr] = true
				}
			}
		case *hclsyntax.FunctionCallExpr:
			for _, i := range collectionArgs(x.Name, len(x.Args)) {
				mark(x.Args[i])
			}
		}
		return nil
	}
	walk := func(e hcl.Expression) {
		if se, ok := e.(hclsyntax.Expression); ok {
			hclsyntax.VisitAll(se, visit)
		}
	}
	walkBody := func(b hcl.Body) {
		if sb, ok := b.(*hclsyntax.Body); ok {
			hclsyntax.VisitAll(sb, visit)
		}
	}
	rules := func(rs []*config.CheckRule) {
		for _, r := range rs {
			walk(r.Condition)
			walk(r.ErrorMessage)
		}
	}
	for _, set := range []map[string]*config.Resource{m.ManagedResources, m.DataResources} {
		for _, r := range set {
			walkBody(r.Config)
			walk(r.Count)
			walk(r.ForEach)
			rules(r.Preconditions)
			rules(r.Postconditions)
		}
	}
	for _, l := range m.Locals {
		walk(l.Expr)
	}
	for _, o := range m.Outputs {
		walk(o.Expr)
		rules(o.Preconditions)
	}
	for _, c := range m.ModuleCalls {
		walkBody(c.Config)
		walk(c.Count)
		walk(c.ForEach)
	}
	for _, c := range m.Checks {
		rules(c.Asserts)
		if c.DataResource != nil {
			walkBody(c.DataResource.Config)
		}
	}
	return out
}

// resourceAttr reads TYPE.NAME.ATTR (with an instance key, or data.
// before it) from an expression that is that traversal and no more.
func resourceAttr(e hclsyntax.Expression) (addr, attr string, ok bool) {
	x, isTrav := e.(*hclsyntax.ScopeTraversalExpr)
	if !isTrav {
		return "", "", false
	}
	addr, attr, rest, ok := splitResourceTraversal(x.Traversal)
	return addr, attr, ok && len(rest) == 0
}

// splitResourceTraversal splits [data.]TYPE.NAME[KEY].ATTR... into the
// resource's address, the attribute and what follows it.
func splitResourceTraversal(t hcl.Traversal) (addr, attr string, rest hcl.Traversal, ok bool) {
	root := t.RootName()
	switch root {
	case "var", "local", "module", "each", "count", "path", "terraform", "self", "tofu", "ephemeral":
		return "", "", nil, false
	}
	i := 1
	addr = root
	if root == "data" || root == "resource" {
		if len(t) < 3 {
			return "", "", nil, false
		}
		a, ok := t[1].(hcl.TraverseAttr)
		if !ok {
			return "", "", nil, false
		}
		if root == "data" {
			addr = "data." + a.Name
		} else {
			addr = a.Name
		}
		i = 2
	}
	if len(t) <= i {
		return "", "", nil, false
	}
	name, ok := t[i].(hcl.TraverseAttr)
	if !ok {
		return "", "", nil, false
	}
	addr += "." + name.Name
	i++
	if i < len(t) {
		if _, key := t[i].(hcl.TraverseIndex); key {
			i++
		}
	}
	if i >= len(t) {
		return "", "", nil, false
	}
	a, ok := t[i].(hcl.TraverseAttr)
	if !ok {
		return "", "", nil, false
	}
	return addr, a.Name, t[i+1:], true
}

// collectionArgs are the positions of the arguments of a call of the named
// function (with n arguments) that must be collections. A function that
// also takes strings (length) or objects (keys, values) is not one.
func collectionArgs(name string, n int) []int {
	switch name {
	case "concat", "coalescelist", "setunion", "setintersection", "setsubtract", "setproduct":
		out := make([]int, n)
		for i := range out {
			out[i] = i
		}
		return out
	case "contains", "flatten", "distinct", "sort", "compact", "toset", "tolist", "reverse",
		"alltrue", "anytrue", "sum", "slice", "chunklist", "index":
		if n > 0 {
			return []int{0}
		}
	case "join":
		if n == 2 {
			return []int{1}
		}
	}
	return nil
}

// collectionCache keeps collectionAttrs of each module, worked out once
// for all the runs of a command (instances of a module are planned on
// several goroutines).
type collectionCache struct {
	mu   sync.Mutex
	mods map[*config.Module]map[string]bool
}

func (c *collectionCache) of(m *config.Module) map[string]bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.mods == nil {
		c.mods = map[*config.Module]map[string]bool{}
	}
	out, ok := c.mods[m]
	if !ok {
		out = collectionAttrs(m)
		c.mods[m] = out
	}
	return out
}
