package lang

import (
	"sync"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/tfeval/tfeval/config"
)

// This file checks, for resources and data sources evaluated without their
// provider's schema, the references that index a nested block the table of
// the provider's schema (computed_*.go) nests as a set. Terraform checks
// every reference against the schema before evaluating anything and refuses
// a number or key index into a set of blocks ("Cannot index a set value"),
// where tfeval, building blocks as lists without the schema, would read an
// element the provider's answer does not have.

// tableSetBlocks is the table schema of resource res of module c, of the
// version the configuration admits, when a nested block of it (at any depth)
// is a set; nil otherwise. versions, when not nil, keeps the version chosen
// for each source.
func tableSetBlocks(c *config.Config, res *config.Resource, versions *sync.Map) *Block {
	b := tableSchemaOf(c, res, versions)
	if b == nil || !b.hasSetBlock() {
		return nil
	}
	return b
}

// hasSetBlock reports whether the block nests a block type as a set, at
// any depth.
func (b *Block) hasSetBlock() bool {
	for _, nb := range b.BlockTypes {
		if nb.Nesting == NestingSet {
			return true
		}
		if nb.Block != nil && nb.Block.hasSetBlock() {
			return true
		}
	}
	return false
}

// tableSetIndex is validateResourceAttr's check of set indexes for a
// resource evaluated without its provider's schema, made with the table's
// nesting modes; nil when the reference indexes no set of blocks the table
// knows of.
func (s *scope) tableSetIndex(rs *resourceState, ref *reference) hcl.Diagnostics {
	rest, ok := attributeSteps(rs, ref)
	if !ok || !hasIndexStep(rest) || s.mod == nil || s.mod.Config == nil {
		return nil
	}
	b := s.ev.resourceInfo(s.mod.Config, rs.cfg).setBlocks
	if b == nil {
		return nil
	}
	attr := rest[0].(hcl.TraverseAttr)
	nb, ok := b.BlockTypes[attr.Name]
	if !ok {
		return nil
	}
	if d := setBlockIndex(attr.Name, nb, rest[1:]); d != nil {
		return hcl.Diagnostics{d}
	}
	return nil
}

// attributeSteps are the steps of a resource reference from the attribute
// it reads on: after the instance key, or from the start for a resource of
// a single instance. ok is false when the reference reads no attribute of
// an instance (the whole resource, or a resource with count or for_each
// referred to without a key).
func attributeSteps(rs *resourceState, ref *reference) (hcl.Traversal, bool) {
	if len(ref.remaining) == 0 {
		return nil, false
	}
	if ref.key == cty.NilVal && (rs.cfg.Count != nil || rs.cfg.ForEach != nil) {
		return nil, false
	}
	if _, ok := ref.remaining[0].(hcl.TraverseAttr); !ok {
		return nil, false
	}
	return ref.remaining, true
}

// hasIndexStep reports whether steps index something (a set can only be
// refused on an index).
func hasIndexStep(steps hcl.Traversal) bool {
	for _, st := range steps {
		if _, ok := st.(hcl.TraverseIndex); ok {
			return true
		}
	}
	return false
}
