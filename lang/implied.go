package lang

import (
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hcldec"
)

// impliedSchema is hcldec.ImpliedSchema of spec. For the object specs
// tfeval builds (attributes, and the block specs a body's syntax implies
// or a provider's schema gives) it makes the attribute and block lists at
// their final size, where hcldec appends a one-element list for each
// attribute and block type and grows its lists from nil: about 4k
// allocations an evaluation of terraform-aws-eks, whose resources have no
// schema here. The lists hold what hcldec's hold, in the order it gives
// them, which is its map iteration's (TestImpliedSchemaAgreesWithHCL);
// anything else is hcldec's.
func impliedSchema(spec hcldec.Spec) *hcl.BodySchema {
	obj, ok := spec.(hcldec.ObjectSpec)
	if !ok {
		return hcldec.ImpliedSchema(spec)
	}
	nattrs, nblocks := 0, 0
	for _, s := range obj {
		switch s := s.(type) {
		case *hcldec.AttrSpec:
			nattrs++
		case *hcldec.BlockTupleSpec:
			if !labelFree(s.Nested) {
				return hcldec.ImpliedSchema(spec)
			}
			nblocks++
		case *hcldec.BlockListSpec:
			if !labelFree(s.Nested) {
				return hcldec.ImpliedSchema(spec)
			}
			nblocks++
		case *hcldec.BlockSetSpec:
			if !labelFree(s.Nested) {
				return hcldec.ImpliedSchema(spec)
			}
			nblocks++
		case *hcldec.BlockSpec:
			if !labelFree(s.Nested) {
				return hcldec.ImpliedSchema(spec)
			}
			nblocks++
		case *hcldec.BlockObjectSpec:
			if !labelFree(s.Nested) {
				return hcldec.ImpliedSchema(spec)
			}
			nblocks++
		default:
			return hcldec.ImpliedSchema(spec)
		}
	}
	schema := &hcl.BodySchema{}
	if nattrs > 0 {
		schema.Attributes = make([]hcl.AttributeSchema, 0, nattrs)
	}
	if nblocks > 0 {
		schema.Blocks = make([]hcl.BlockHeaderSchema, 0, nblocks)
	}
	for _, s := range obj {
		switch s := s.(type) {
		case *hcldec.AttrSpec:
			schema.Attributes = append(schema.Attributes, hcl.AttributeSchema{Name: s.Name, Required: s.Required})
		case *hcldec.BlockTupleSpec:
			schema.Blocks = append(schema.Blocks, hcl.BlockHeaderSchema{Type: s.TypeName})
		case *hcldec.BlockListSpec:
			schema.Blocks = append(schema.Blocks, hcl.BlockHeaderSchema{Type: s.TypeName})
		case *hcldec.BlockSetSpec:
			schema.Blocks = append(schema.Blocks, hcl.BlockHeaderSchema{Type: s.TypeName})
		case *hcldec.BlockSpec:
			schema.Blocks = append(schema.Blocks, hcl.BlockHeaderSchema{Type: s.TypeName})
		case *hcldec.BlockObjectSpec:
			// hcldec appends the nested spec's label names, none here, to
			// the spec's own: the list is the spec's.
			schema.Blocks = append(schema.Blocks, hcl.BlockHeaderSchema{Type: s.TypeName, LabelNames: s.LabelNames})
		}
	}
	return schema
}

// labelFree reports whether a block's nested spec gives its blocks no
// labels: an object spec with no label spec directly in it (hcldec looks
// for them in the specs of the same body only, and block specs start
// another).
func labelFree(nested hcldec.Spec) bool {
	obj, ok := nested.(hcldec.ObjectSpec)
	if !ok {
		return false
	}
	for _, s := range obj {
		switch s.(type) {
		case *hcldec.AttrSpec, *hcldec.BlockTupleSpec, *hcldec.BlockListSpec, *hcldec.BlockSetSpec, *hcldec.BlockSpec,
			*hcldec.BlockObjectSpec, *hcldec.BlockMapSpec, *hcldec.BlockAttrsSpec:
		default:
			return false
		}
	}
	return true
}
