package format

import (
	"encoding/json"
	"regexp"
	"sort"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/tfeval/tfeval/config"
	"github.com/tfeval/tfeval/dialect"
	"github.com/tfeval/tfeval/lang"
)

// relevantAttributes lists the resource attributes that the configuration's
// values refer to (the arguments of resources and module calls, their
// count and for_each, local values and outputs; not conditions, which
// Terraform leaves out), each once, in order.
func relevantAttributes(res *lang.Result, schemas *lang.ProviderSchemas, d dialect.Dialect) []ResourceAttr {
	seen := map[string]bool{}
	values := make(map[string]cty.Value, len(res.Resources))
	for _, ri := range res.Resources {
		values[ri.Addr] = ri.Value
	}
	var out []ResourceAttr
	addAttr := func(ra ResourceAttr) {
		key, _ := json.Marshal(ra)
		if !seen[string(key)] {
			seen[string(key)] = true
			out = append(out, ra)
		}
	}
	add := func(mi *lang.ModuleInstance, prefix string, t hcl.Traversal) {
		ref, ok := parseReference(t)
		if !ok || ref.resource == "" {
			return
		}
		r := resourceByAddr(mi.Config.Module, ref.resource)
		if r == nil {
			return
		}
		ty := cty.NilType
		if s := schemas.ResourceSchema(mi.Config.Module, r); s != nil {
			ty = s.ImpliedType()
		}
		ra := ResourceAttr{Resource: prefix + ref.subject, Attribute: attributePath(ref.rest, ty, d)}
		if v, ok := values[ra.Resource]; ok && nullAt(v, ra.Attribute) {
			// An attribute that is null in the plan is no attribute the
			// configuration depends on.
			return
		}
		addAttr(ra)
	}
	for _, mi := range res.Modules {
		if mi.Placeholder {
			// Its instances are not planned (a deferred change stands for
			// them): nothing refers to their attributes yet.
			continue
		}
		m := mi.Config.Module
		prefix := ""
		if mi.Addr != "" {
			prefix = mi.Addr + "."
		}
		var exprs []hcl.Expression
		// An ephemeral resource's arguments are not planned values: what
		// they refer to is not listed (what refers to it is).
		for _, set := range []map[string]*config.Resource{m.ManagedResources, m.DataResources} {
			for _, key := range sortedKeys(set) {
				r := set[key]
				if r.Check != "" {
					continue
				}
				exprs = append(exprs, r.Count, r.ForEach)
				exprs = append(exprs, bodyExpressions(r.Config, resourceMeta)...)
				if d == dialect.Tofu {
					for _, ra := range singleDynamicIterators(r.Config, schemas.ResourceSchema(m, r)) {
						addAttr(ra)
					}
				}
			}
		}
		for _, name := range sortedKeys(m.Locals) {
			exprs = append(exprs, m.Locals[name].Expr)
		}
		for _, name := range sortedKeys(m.ModuleCalls) {
			call := m.ModuleCalls[name]
			exprs = append(exprs, call.Count, call.ForEach)
			exprs = append(exprs, bodyExpressions(call.Config, moduleMeta)...)
		}
		var outputs []hcl.Expression
		for _, name := range sortedKeys(m.Outputs) {
			outputs = append(outputs, m.Outputs[name].Expr)
		}
		for _, e := range append(exprs, outputs...) {
			if e == nil {
				continue
			}
			for _, t := range e.Variables() {
				add(mi, prefix, t)
			}
		}
		// Terraform also evaluates the outputs of a module called with
		// count or for_each once for the call as a whole, and reports what
		// they refer to under the unexpanded module's address.
		if whole := unkeyed(mi.Addr); whole != mi.Addr {
			for _, e := range outputs {
				if e == nil {
					continue
				}
				for _, t := range e.Variables() {
					add(mi, whole+".", t)
				}
			}
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Resource != out[j].Resource {
			return out[i].Resource < out[j].Resource
		}
		a, _ := json.Marshal(out[i].Attribute)
		b, _ := json.Marshal(out[j].Attribute)
		return string(a) < string(b)
	})
	return out
}

// instanceKeys matches the instance keys of a module instance address.
var instanceKeys = regexp.MustCompile(`\[("(\\.|[^"\\])*"|[^\]]*)\]`)

// unkeyed is a module instance address without its instance keys.
func unkeyed(addr string) string {
	return instanceKeys.ReplaceAllString(addr, "")
}

// resourceByAddr finds a resource block by its address in a module.
func resourceByAddr(m *config.Module, addr string) *config.Resource {
	if r := m.ManagedResources[addr]; r != nil {
		return r
	}
	if r := m.DataResources[addr]; r != nil {
		return r
	}
	return m.EphemeralResources[addr]
}

// attributePath is the path into a resource's object that a traversal
// follows: attribute names, and the keys of lists and maps. Terraform stops
// at an attribute of dynamic type (whose content the schema does not
// describe); OpenTofu follows the whole traversal, and so does tfeval
// without the resource's schema (ty is cty.NilType).
func attributePath(rest hcl.Traversal, ty cty.Type, d dialect.Dialect) []any {
	out := []any{}
	for _, step := range rest {
		if d != dialect.Tofu && ty == cty.DynamicPseudoType {
			break
		}
		switch s := step.(type) {
		case hcl.TraverseAttr:
			out = append(out, s.Name)
			switch {
			case ty == cty.NilType:
			case ty.IsObjectType() && ty.HasAttribute(s.Name):
				ty = ty.AttributeType(s.Name)
			case ty.IsMapType():
				ty = ty.ElementType()
			default:
				ty = cty.DynamicPseudoType
			}
		case hcl.TraverseIndex:
			k, _ := s.Key.Unmark()
			if !k.IsKnown() || k.IsNull() {
				return out
			}
			if k.Type() == cty.Number {
				out = append(out, instanceKey(k))
			} else {
				out = append(out, knownJSON(k))
			}
			switch {
			case ty == cty.NilType:
			case ty.IsListType() || ty.IsMapType() || ty.IsSetType():
				ty = ty.ElementType()
			case ty.IsObjectType() && k.Type() == cty.String && ty.HasAttribute(k.AsString()):
				ty = ty.AttributeType(k.AsString())
			default:
				ty = cty.DynamicPseudoType
			}
		default:
			return out
		}
	}
	return out
}

// nullAt reports whether a value has a known null at a path.
func nullAt(v cty.Value, path []any) bool {
	for _, step := range path {
		v, _ = v.Unmark()
		if !v.IsKnown() || v.IsNull() {
			return false
		}
		ty := v.Type()
		switch k := step.(type) {
		case string:
			switch {
			case ty.IsObjectType() && ty.HasAttribute(k):
				v = v.GetAttr(k)
			case ty.IsMapType() && v.HasIndex(cty.StringVal(k)).True():
				v = v.Index(cty.StringVal(k))
			default:
				return false
			}
		case int64:
			idx := cty.NumberIntVal(k)
			if !(ty.IsListType() || ty.IsTupleType()) || !v.HasIndex(idx).True() {
				return false
			}
			v = v.Index(idx)
		default:
			return false
		}
	}
	v, _ = v.Unmark()
	return v.IsKnown() && v.IsNull()
}

// The meta-arguments of resource and module blocks. A body the loader
// has taken them out of still holds them when it is walked as syntax.
var (
	resourceMeta = map[string]bool{"count": true, "for_each": true, "provider": true, "depends_on": true, "lifecycle": true, "connection": true, "provisioner": true}
	moduleMeta   = map[string]bool{"source": true, "version": true, "count": true, "for_each": true, "providers": true, "depends_on": true}
)

// bodyExpressions lists every expression of a body: its arguments and those
// of its nested blocks, dynamic ones included, but not the meta-arguments
// and meta-blocks named in skip.
func bodyExpressions(body hcl.Body, skip map[string]bool) []hcl.Expression {
	if body == nil {
		return nil
	}
	if sb, ok := body.(*hclsyntax.Body); ok {
		var out []hcl.Expression
		for _, name := range sortedKeys(sb.Attributes) {
			if !skip[name] {
				out = append(out, sb.Attributes[name].Expr)
			}
		}
		for _, b := range sb.Blocks {
			if !skip[b.Type] {
				out = append(out, bodyExpressions(b.Body, nil)...)
			}
		}
		return out
	}
	attrs, _ := body.JustAttributes()
	var out []hcl.Expression
	for _, name := range sortedKeys(attrs) {
		if !skip[name] {
			out = append(out, attrs[name].Expr)
		}
	}
	return out
}

// singleDynamicIterators is what OpenTofu lists for the dynamic blocks of a
// block type that nests a single block: it takes the iterator's references
// in their content (`config.value`) for references to a resource of that
// name, with the rest of the traversal as the attribute.
func singleDynamicIterators(body hcl.Body, schema *lang.Block) []ResourceAttr {
	sb, ok := body.(*hclsyntax.Body)
	if !ok || schema == nil {
		return nil
	}
	var out []ResourceAttr
	for _, b := range sb.Blocks {
		if b.Type != "dynamic" || len(b.Labels) != 1 {
			continue
		}
		nb := schema.BlockTypes[b.Labels[0]]
		if nb == nil {
			continue
		}
		if nb.Nesting != lang.NestingSingle && nb.Nesting != lang.NestingGroup {
			for _, c := range b.Body.Blocks {
				if c.Type == "content" {
					out = append(out, singleDynamicIterators(c.Body, nb.Block)...)
				}
			}
			continue
		}
		iterator := b.Labels[0]
		if a, ok := b.Body.Attributes["iterator"]; ok {
			if t, diags := hcl.AbsTraversalForExpr(a.Expr); !diags.HasErrors() {
				iterator = t.RootName()
			}
		}
		for _, c := range b.Body.Blocks {
			if c.Type != "content" {
				continue
			}
			for _, e := range bodyExpressions(c.Body, nil) {
				for _, t := range e.Variables() {
					if t.RootName() != iterator || len(t) < 2 {
						continue
					}
					a, ok := t[1].(hcl.TraverseAttr)
					if !ok {
						continue
					}
					out = append(out, ResourceAttr{Resource: iterator + "." + a.Name, Attribute: attributePath(t[2:], cty.NilType, dialect.Tofu)})
				}
			}
		}
	}
	return out
}
