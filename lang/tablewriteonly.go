package lang

import (
	"sync"

	"github.com/zclconf/go-cty/cty"

	"github.com/tfeval/tfeval/config"
	"github.com/tfeval/tfeval/marks"
)

// This file nulls, in the objects of managed resources planned without
// their provider's schema, the arguments the table of the provider's
// schema (computed_*.go) says are write-only: Terraform hands such an
// argument to the provider and never plans or stores it, so the object
// has null there, as planObjectWith makes it with the schema.

// tableWriteOnly is the table schema of managed resource res of module c
// when its type has a write-only argument; nil otherwise.
func tableWriteOnly(c *config.Config, res *config.Resource, versions *sync.Map) *Block {
	if res.Mode != config.ManagedResourceMode {
		return nil
	}
	b := tableSchemaOf(c, res, versions)
	if b == nil || !b.hasWriteOnly() {
		return nil
	}
	return b
}

// hasWriteOnly reports whether the block has a write-only attribute.
func (b *Block) hasWriteOnly() bool {
	for _, a := range b.Attributes {
		if a.WriteOnly {
			return true
		}
	}
	return false
}

// NullWriteOnly is v, an object planned with or without block b's schema,
// with the attributes b declares write-only null (keeping their type and
// their sensitive mark).
// Anything else (unknown, null, not an object) is returned as it is.
func NullWriteOnly(b *Block, v cty.Value) cty.Value {
	uv, vm := v.Unmark()
	if b == nil || !uv.IsKnown() || uv.IsNull() || !uv.Type().IsObjectType() {
		return v
	}
	var attrs map[string]cty.Value
	for name, at := range uv.Type().AttributeTypes() {
		a := b.Attributes[name]
		if a == nil || !a.WriteOnly {
			continue
		}
		if av := uv.GetAttr(name); av.IsNull() && !av.IsMarked() {
			continue
		}
		if attrs == nil {
			attrs = uv.AsValueMap()
		}
		// Still as sensitive as the schema makes it (Terraform's
		// sensitive_values list it); no longer the ephemeral value given.
		_, ms := attrs[name].Unmark()
		delete(ms, marks.Ephemeral)
		attrs[name] = cty.NullVal(at).WithMarks(ms)
	}
	if attrs == nil {
		return v
	}
	return cty.ObjectVal(attrs).WithMarks(vm)
}
