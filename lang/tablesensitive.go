package lang

import (
	"strings"
	"sync"

	"github.com/zclconf/go-cty/cty"

	"github.com/tfeval/tfeval/config"
	"github.com/tfeval/tfeval/marks"
)

// This file marks sensitive, in the objects of resources and data sources
// planned without their provider's schema, the attributes that the table
// of the provider's schema (computed_*.go) says are sensitive. Terraform
// marks them from the schema wherever the object is read: a root module
// output holding one without sensitive = true is an error, and plan
// documents and the console hide them. The attributes are marked whether
// the configuration sets them, a mock fills them or the provider is to
// compute them.

// SensitiveTableSchema is TableSchema(source, version, mode, typ) when it
// has a sensitive attribute, at the top level or in a nested block; nil
// otherwise, and for a mode other than "resource" and "data" (the tables
// have no ephemeral resources).
func SensitiveTableSchema(source, version, mode, typ string) *Block {
	if mode != "resource" && mode != "data" {
		return nil
	}
	b := TableSchema(source, version, mode, typ)
	if b == nil || !b.hasSensitive() {
		return nil
	}
	return b
}

// hasSensitive reports whether the block or one nested in it has a
// sensitive attribute.
func (b *Block) hasSensitive() bool {
	if b.hasSensitiveAttribute() {
		return true
	}
	for _, nb := range b.BlockTypes {
		if nb.Block != nil && nb.Block.hasSensitive() {
			return true
		}
	}
	return false
}

// TableSensitiveOf is the sensitive table schema (SensitiveTableSchema) of
// resource res of module c, of the version the configuration admits
// (TableVersion), for when its provider's schema is not given: what
// marked its object's attributes sensitive.
func TableSensitiveOf(c *config.Config, res *config.Resource) *Block {
	return tableSensitive(c, res, nil)
}

// tableSensitive is the sensitive table schema (SensitiveTableSchema) of
// resource res of module c, planned without a schema; versions, when not
// nil, keeps the version chosen for each source.
func tableSensitive(c *config.Config, res *config.Resource, versions *sync.Map) *Block {
	b := tableSchemaOf(c, res, versions)
	if b == nil || !b.hasSensitive() {
		return nil
	}
	return b
}

// tableSchemaOf is the table schema of resource res (a managed resource
// or data source) of module c, of the version the configuration admits,
// for planning it without its provider's schema; nil when there is none.
// versions, when not nil, keeps the version chosen for each source.
func tableSchemaOf(c *config.Config, res *config.Resource, versions *sync.Map) *Block {
	var mode string
	switch res.Mode {
	case config.ManagedResourceMode:
		if isBuiltinType(res.Type) {
			return nil
		}
		mode = "resource"
	case config.DataResourceMode:
		mode = "data"
	default:
		return nil
	}
	if c == nil || c.Module == nil {
		return nil
	}
	source := providerKey(providerSource(c.Module, resourceProviderName(res)))
	if len(TableVersions(source)) == 0 {
		return nil
	}
	var version string
	if v, ok := versionsLoad(versions, source); ok {
		version = v
	} else {
		version = TableVersion(c, source)
		if versions != nil {
			versions.Store(source, version)
		}
	}
	return TableSchema(source, version, mode, res.Type)
}

// versionsLoad is the version kept in versions for source, if any.
func versionsLoad(versions *sync.Map, source string) (string, bool) {
	if versions == nil {
		return "", false
	}
	v, ok := versions.Load(source)
	if !ok {
		return "", false
	}
	return v.(string), true
}

// MarkSensitive is v, an object of block b's schema or one planned without
// it (which has only some of its attributes, and its nested blocks as
// tuples or objects), with the attributes b declares sensitive marked so,
// in nested blocks too. Anything else (unknown, null, not an object) is
// returned as it is.
func MarkSensitive(b *Block, v cty.Value) cty.Value {
	uv, vm := v.Unmark()
	if b == nil || !uv.IsKnown() || uv.IsNull() || !uv.Type().IsObjectType() {
		return v
	}
	var attrs map[string]cty.Value
	set := func(name string, av cty.Value) {
		if attrs == nil {
			attrs = uv.AsValueMap()
		}
		attrs[name] = av
	}
	for name := range uv.Type().AttributeTypes() {
		if a := b.Attributes[name]; a != nil {
			if a.Sensitive {
				av := uv.GetAttr(name)
				if !av.HasMark(marks.Sensitive) {
					set(name, av.Mark(marks.Sensitive))
				}
			}
			continue
		}
		if nb := b.BlockTypes[name]; nb != nil && nb.Block != nil && nb.Block.hasSensitive() {
			bv := uv.GetAttr(name)
			if nv := markSensitiveBlocks(nb, bv); !nv.RawEquals(bv) {
				set(name, nv)
			}
		}
	}
	if attrs == nil {
		return v
	}
	return cty.ObjectVal(attrs).WithMarks(vm)
}

// markWholeSensitive is MarkSensitive of a resource's whole value: its
// instance object, or with several instances (multi) each of them.
func markWholeSensitive(b *Block, v cty.Value, multi bool) cty.Value {
	if !multi {
		return MarkSensitive(b, v)
	}
	return mapElements(v, func(e cty.Value) cty.Value { return MarkSensitive(b, e) })
}

// markSensitiveBlocks is MarkSensitive of each object of a nested block
// type's value: the object itself for a single or group block, else each
// element of the collection (a list, set, tuple, map or object of them).
func markSensitiveBlocks(nb *NestedBlock, v cty.Value) cty.Value {
	if nb.Nesting == NestingSingle || nb.Nesting == NestingGroup {
		return MarkSensitive(nb.Block, v)
	}
	return mapElements(v, func(e cty.Value) cty.Value { return MarkSensitive(nb.Block, e) })
}

// mapElements is collection v with f applied to each element, of the
// same kind; v as it is when unknown, null or not a collection.
func mapElements(v cty.Value, f func(cty.Value) cty.Value) cty.Value {
	uv, vm := v.Unmark()
	if !uv.IsKnown() || uv.IsNull() {
		return v
	}
	ty := uv.Type()
	switch {
	case ty.IsListType(), ty.IsSetType(), ty.IsTupleType():
		if uv.LengthInt() == 0 {
			return v
		}
		vals := make([]cty.Value, 0, uv.LengthInt())
		for it := uv.ElementIterator(); it.Next(); {
			_, e := it.Element()
			vals = append(vals, f(e))
		}
		switch {
		case ty.IsListType():
			return cty.ListVal(vals).WithMarks(vm)
		case ty.IsSetType():
			// A set's elements carry no marks of their own: theirs
			// become the set's, as when a schema plans it.
			return cty.SetVal(vals).WithMarks(vm)
		}
		return cty.TupleVal(vals).WithMarks(vm)
	case ty.IsMapType(), ty.IsObjectType():
		if uv.LengthInt() == 0 {
			return v
		}
		vals := make(map[string]cty.Value, uv.LengthInt())
		for it := uv.ElementIterator(); it.Next(); {
			k, e := it.Element()
			vals[k.AsString()] = f(e)
		}
		if ty.IsMapType() {
			return cty.MapVal(vals).WithMarks(vm)
		}
		return cty.ObjectVal(vals).WithMarks(vm)
	}
	return v
}

// holdsSensitiveObject reports whether v, the value of output name of mi,
// holds a whole instance object of a managed resource or data source
// without schema whose type has a top-level sensitive attribute (as the
// provider's table has it). tfeval's object has only the attributes the configuration sets
// or reads; Terraform's has every attribute of the schema, set or null,
// the sensitive ones marked: such an output holds a sensitive value. An
// object that could be another resource's of the same shape, without
// one, is not counted.
func (ev *evaluator) holdsSensitiveObject(mi *ModuleInstance, name string, v cty.Value) bool {
	if !mayHoldObject(v.Type()) || !ev.anySensitiveTable() {
		return false
	}
	refs := ev.reads().wholeObjects(mi.Config, valueKey{kind: vkOutput, name: name})
	var sensitive map[string]bool
	for _, ref := range refs {
		if ref.res.Mode != config.ManagedResourceMode && ref.res.Mode != config.DataResourceMode {
			continue
		}
		if b := ev.resourceInfo(ref.cfg, ref.res).sensitive; b != nil && b.hasSensitiveAttribute() {
			if sensitive == nil {
				sensitive = map[string]bool{}
			}
			sensitive[configAddr(ref.cfg, ref.res.Addr())] = true
		}
	}
	if sensitive == nil {
		return false
	}
	root := mi
	for root.parent != nil {
		root = root.parent
	}
	objects, _ := objectNames(root, refs, true)
	us := map[string]bool{}
	openAddrs(v, objects, us)
	for addrs := range us {
		all := true
		for _, addr := range strings.Split(addrs, "\x00") {
			all = all && sensitive[addr]
		}
		if all {
			return true
		}
	}
	return false
}

// hasSensitiveAttribute reports whether the block has a sensitive
// attribute of its own (not in a nested block).
func (b *Block) hasSensitiveAttribute() bool {
	for _, a := range b.Attributes {
		if a.Sensitive {
			return true
		}
	}
	return false
}

// anySensitiveTable reports whether a managed resource or data source of
// the configuration without schema is of a type whose table has
// sensitive attributes at the top level, found once.
func (ev *evaluator) anySensitiveTable() bool {
	sh := ev.share()
	sh.sensitiveOnce.Do(func() {
		sh.sensitiveTables = ev.cfg != nil && ev.sensitiveTableIn(ev.cfg)
	})
	return sh.sensitiveTables
}

func (ev *evaluator) sensitiveTableIn(c *config.Config) bool {
	if c == nil || c.Module == nil {
		return false
	}
	for _, resources := range []map[string]*config.Resource{c.Module.ManagedResources, c.Module.DataResources} {
		for _, res := range resources {
			if ev.opts.Schemas.resourceSchema(c.Module, res) != nil {
				continue
			}
			if b := tableSensitive(c, res, &ev.share().tableVersions); b != nil && b.hasSensitiveAttribute() {
				return true
			}
		}
	}
	for _, child := range c.Children {
		if ev.sensitiveTableIn(child) {
			return true
		}
	}
	return false
}
