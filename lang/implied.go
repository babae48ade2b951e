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
		if _, ok := s.(*hcldec.AttrSpec); ok {
			nattrs++
			continue
		}
		_, nested, ok := blockSpecHeader(s)
		if !ok || !labelFree(nested) {
			return hcldec.ImpliedSchema(spec)
		}
		nblocks++
	}
	schema := &hcl.BodySchema{}
	if nattrs > 0 {
		schema.Attributes = make([]hcl.AttributeSchema, 0, nattrs)
	}
	if nblocks > 0 {
		schema.Blocks = make([]hcl.BlockHeaderSchema, 0, nblocks)
	}
	for _, s := range obj {
		if a, ok := s.(*hcldec.AttrSpec); ok {
			schema.Attributes = append(schema.Attributes, hcl.AttributeSchema{Name: a.Name, Required: a.Required})
			continue
		}
		header, _, _ := blockSpecHeader(s)
		schema.Blocks = append(schema.Blocks, header)
	}
	return schema
}

// blockSpecHeader is the block header a block spec of the kinds
// impliedSchema takes implies, and the spec of its blocks' bodies; ok is
// false for any other spec. A BlockObjectSpec's header has its own label
// names: hcldec adds those of the nested spec, none where it is
// labelFree.
func blockSpecHeader(s hcldec.Spec) (header hcl.BlockHeaderSchema, nested hcldec.Spec, ok bool) {
	switch s := s.(type) {
	case *hcldec.BlockTupleSpec:
		return hcl.BlockHeaderSchema{Type: s.TypeName}, s.Nested, true
	case *hcldec.BlockListSpec:
		return hcl.BlockHeaderSchema{Type: s.TypeName}, s.Nested, true
	case *hcldec.BlockSetSpec:
		return hcl.BlockHeaderSchema{Type: s.TypeName}, s.Nested, true
	case *hcldec.BlockSpec:
		return hcl.BlockHeaderSchema{Type: s.TypeName}, s.Nested, true
	case *hcldec.BlockObjectSpec:
		return hcl.BlockHeaderSchema{Type: s.TypeName, LabelNames: s.LabelNames}, s.Nested, true
	}
	return hcl.BlockHeaderSchema{}, nil, false
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
