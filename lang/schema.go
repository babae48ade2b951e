package lang

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"
	"golang.org/x/text/unicode/norm"

	"github.com/tfeval/tfeval/config"
)

// ProviderSchemas is the parsed document `terraform providers schema -json`
// writes, indexed by provider source address without the registry host.
type ProviderSchemas struct {
	Providers map[string]*ProviderSchema
}

// ProviderSchema holds the schemas of one provider.
type ProviderSchema struct {
	Provider           *Block
	Resources          map[string]*Block
	DataSources        map[string]*Block
	EphemeralResources map[string]*Block
	Functions          map[string]*FunctionSignature
	// Partial marks a schema that may lack types its provider has (one
	// written from documentation rather than printed by the provider): a
	// type it does not list is then not reported as unsupported.
	Partial bool

	// fingerprintOnce computes fingerprint, schemaFingerprint of
	// Resources, which tells whether a table of defaults was made with
	// these schemas (see sdkDefaultsOf).
	fingerprintOnce sync.Once
	fingerprint     uint64
}

// FunctionSignature describes a provider function's parameters and result.
type FunctionSignature struct {
	Params     []FunctionParam
	VarParam   *FunctionParam
	ReturnType cty.Type
}

// FunctionParam is one parameter of a provider function.
type FunctionParam struct {
	Name         string
	Type         cty.Type
	AllowNull    bool
	AllowUnknown bool
}

// Block is a schema block: attributes and nested block types.
type Block struct {
	Attributes map[string]*Attribute
	BlockTypes map[string]*NestedBlock
	// Version is the schema version of a resource type, data source or
	// provider, which terraform show -json reports; 0 for nested blocks.
	Version int64
	// LegacySDK is set on a managed resource type's block, and the blocks
	// nested in it, when the provider implements the type with the older
	// plugin SDK (v2), which plans some configured values otherwise than
	// as written (see legacyPlanned). The schema document does not say
	// which SDK a type uses; that SDK gives every resource type an "id"
	// attribute that is optional and computed, which the plugin framework
	// does not (its "id", when there is one, is declared computed only).
	LegacySDK bool
	// origin is where the block sits in an aws resource type of the
	// older SDK, for its table of defaults (sdkDefaultsOf); nil
	// elsewhere.
	origin *sdkOrigin
}

// Attribute is one attribute of a schema block.
type Attribute struct {
	// Type is the type of the attribute's value; for a nested attribute
	// type it is derived from NestedType.
	Type                         cty.Type
	Required, Optional, Computed bool
	Sensitive, WriteOnly         bool
	// NestedType describes an attribute whose value is an object, or a
	// collection of objects, with attributes of their own (the plugin
	// framework's nested attributes); nil for a plain attribute.
	NestedType *NestedAttributes
}

// NestedAttributes is the object type of a nested attribute and how its
// objects are collected (single, list, set or map).
type NestedAttributes struct {
	Nesting    NestingMode
	Attributes map[string]*Attribute
}

// configType is the type an attribute's configuration value converts to:
// inside nested objects, attributes that are not required may be omitted.
func (a *Attribute) configType() cty.Type {
	n := a.NestedType
	if n == nil {
		return a.Type
	}
	attrs := map[string]cty.Type{}
	var optional []string
	for name, na := range n.Attributes {
		attrs[name] = na.configType()
		if !na.Required {
			optional = append(optional, name)
		}
	}
	sort.Strings(optional)
	obj := cty.ObjectWithOptionalAttrs(attrs, optional)
	switch n.Nesting {
	case NestingList:
		return cty.List(obj)
	case NestingSet:
		return cty.Set(obj)
	case NestingMap:
		return cty.Map(obj)
	}
	return obj
}

// NestingMode says how a nested block type turns into a value.
type NestingMode string

// The nesting modes of the schema document.
const (
	NestingSingle NestingMode = "single"
	NestingGroup  NestingMode = "group"
	NestingList   NestingMode = "list"
	NestingSet    NestingMode = "set"
	NestingMap    NestingMode = "map"
)

// NestedBlock is a block type nested in a Block.
type NestedBlock struct {
	Nesting  NestingMode
	Block    *Block
	MinItems int
	MaxItems int
}

type jsonSchemaDoc struct {
	ProviderSchemas map[string]struct {
		Provider          *jsonSchema            `json:"provider"`
		ResourceSchemas   map[string]*jsonSchema `json:"resource_schemas"`
		DataSourceSchemas map[string]*jsonSchema `json:"data_source_schemas"`
		EphemeralSchemas  map[string]*jsonSchema `json:"ephemeral_resource_schemas"`
		Functions         map[string]struct {
			ReturnType        json.RawMessage `json:"return_type"`
			Parameters        []jsonParam     `json:"parameters"`
			VariadicParameter *jsonParam      `json:"variadic_parameter"`
		} `json:"functions"`
	} `json:"provider_schemas"`
}

type jsonParam struct {
	Name               string          `json:"name"`
	Type               json.RawMessage `json:"type"`
	IsNullable         bool            `json:"is_nullable"`
	AllowNullValue     bool            `json:"allow_null_value"`
	AllowUnknownValues bool            `json:"allow_unknown_values"`
}

type jsonSchema struct {
	Version int64      `json:"version"`
	Block   *jsonBlock `json:"block"`
}

type jsonAttribute struct {
	Type       json.RawMessage `json:"type"`
	Required   bool            `json:"required"`
	Optional   bool            `json:"optional"`
	Computed   bool            `json:"computed"`
	Sensitive  bool            `json:"sensitive"`
	WriteOnly  bool            `json:"write_only"`
	NestedType *struct {
		Attributes  map[string]*jsonAttribute `json:"attributes"`
		NestingMode string                    `json:"nesting_mode"`
	} `json:"nested_type"`
}

type jsonBlock struct {
	Attributes map[string]*jsonAttribute `json:"attributes"`
	BlockTypes map[string]struct {
		NestingMode string     `json:"nesting_mode"`
		Block       *jsonBlock `json:"block"`
		MinItems    int        `json:"min_items"`
		MaxItems    int        `json:"max_items"`
	} `json:"block_types"`
}

// ParseProviderSchemas reads the JSON document `terraform providers schema
// -json` writes.
func ParseProviderSchemas(src []byte) (*ProviderSchemas, error) {
	var doc jsonSchemaDoc
	if err := json.Unmarshal(src, &doc); err != nil {
		return nil, fmt.Errorf("invalid provider schemas document: %w", err)
	}
	out := &ProviderSchemas{Providers: map[string]*ProviderSchema{}}
	d := &schemaDecoder{types: map[string]cty.Type{}}
	for addr, p := range doc.ProviderSchemas {
		ps := &ProviderSchema{
			Resources:          map[string]*Block{},
			DataSources:        map[string]*Block{},
			EphemeralResources: map[string]*Block{},
			Functions:          map[string]*FunctionSignature{},
		}
		var err error
		if p.Provider != nil {
			if ps.Provider, err = d.block(p.Provider.Block); err != nil {
				return nil, fmt.Errorf("provider %s: %w", addr, err)
			}
			ps.Provider.Version = p.Provider.Version
		}
		for _, set := range []struct {
			from    map[string]*jsonSchema
			to      map[string]*Block
			managed bool
		}{{p.ResourceSchemas, ps.Resources, true}, {p.DataSourceSchemas, ps.DataSources, false}, {p.EphemeralSchemas, ps.EphemeralResources, false}} {
			for name, s := range set.from {
				if s == nil {
					continue
				}
				b, err := d.block(s.Block)
				if err != nil {
					return nil, fmt.Errorf("provider %s, %s: %w", addr, name, err)
				}
				b.Version = s.Version
				if set.managed && legacySDKSignature(b) {
					markLegacySDK(b)
					if providerKey(addr) == "hashicorp/aws" {
						markSDKOrigin(b, &sdkOrigin{provider: ps, name: name})
					}
				}
				set.to[name] = b
			}
		}
		for name, f := range p.Functions {
			sig := &FunctionSignature{ReturnType: cty.DynamicPseudoType}
			if len(f.ReturnType) > 0 {
				if sig.ReturnType, err = d.typeOf(f.ReturnType); err != nil {
					return nil, fmt.Errorf("provider %s, function %s: %w", addr, name, err)
				}
			}
			conv := func(jp jsonParam) (FunctionParam, error) {
				fp := FunctionParam{Name: jp.Name, Type: cty.DynamicPseudoType, AllowNull: jp.IsNullable || jp.AllowNullValue, AllowUnknown: jp.AllowUnknownValues}
				if len(jp.Type) > 0 {
					t, err := d.typeOf(jp.Type)
					if err != nil {
						return fp, err
					}
					fp.Type = t
				}
				return fp, nil
			}
			for _, jp := range f.Parameters {
				fp, err := conv(jp)
				if err != nil {
					return nil, fmt.Errorf("provider %s, function %s: %w", addr, name, err)
				}
				sig.Params = append(sig.Params, fp)
			}
			if f.VariadicParameter != nil {
				fp, err := conv(*f.VariadicParameter)
				if err != nil {
					return nil, fmt.Errorf("provider %s, function %s: %w", addr, name, err)
				}
				sig.VarParam = &fp
			}
			ps.Functions[name] = sig
		}
		out.Providers[providerKey(addr)] = ps
	}
	return out, nil
}

// legacySDKSignature reports whether a managed resource type's block has
// the "id" attribute the older plugin SDK adds to every resource type: a
// string, optional and computed.
func legacySDKSignature(b *Block) bool {
	a := b.Attributes["id"]
	return a != nil && a.Optional && a.Computed && a.Type == cty.String
}

// markLegacySDK sets LegacySDK on b and every block nested in it.
func markLegacySDK(b *Block) {
	b.LegacySDK = true
	for _, nb := range b.BlockTypes {
		markLegacySDK(nb.Block)
	}
}

// schemaDecoder converts the blocks of one schema document. Attribute
// types repeat throughout a provider's schemas (most are a string, a
// number, a list or map of strings), so each distinct type text is decoded
// once: go-cty's decoder makes a JSON decoder for every call.
type schemaDecoder struct {
	types map[string]cty.Type
}

// typeOf decodes a type as the document writes it.
func (d *schemaDecoder) typeOf(raw json.RawMessage) (cty.Type, error) {
	if t, ok := d.types[string(raw)]; ok {
		return t, nil
	}
	t, err := unmarshalType(raw)
	if err != nil {
		return cty.NilType, err
	}
	d.types[string(raw)] = t
	return t, nil
}

// unmarshalType is go-cty's, with its panic on an object type whose
// attribute names are the same in Unicode normal form C as an error.
func unmarshalType(raw json.RawMessage) (t cty.Type, err error) {
	defer func() {
		if r := recover(); r != nil {
			t, err = cty.NilType, fmt.Errorf("%v", r)
		}
	}()
	return ctyjson.UnmarshalType(raw)
}

// block converts a block of the document.
func (d *schemaDecoder) block(jb *jsonBlock) (*Block, error) {
	b := &Block{Attributes: map[string]*Attribute{}, BlockTypes: map[string]*NestedBlock{}}
	if jb == nil {
		return b, nil
	}
	for name, ja := range jb.Attributes {
		a, err := d.attribute(ja)
		if err != nil {
			return nil, fmt.Errorf("attribute %s: %w", name, err)
		}
		b.Attributes[name] = a
	}
	for name, jt := range jb.BlockTypes {
		nb, err := d.block(jt.Block)
		if err != nil {
			return nil, fmt.Errorf("block %s: %w", name, err)
		}
		b.BlockTypes[name] = &NestedBlock{Nesting: NestingMode(jt.NestingMode), Block: nb, MinItems: jt.MinItems, MaxItems: jt.MaxItems}
	}
	// The block's object type must be buildable: no two of its names the
	// same in Unicode normal form C.
	seen := make(map[string]bool, len(b.Attributes)+len(b.BlockTypes))
	for _, names := range [][]string{sortedKeys(b.Attributes), sortedKeys(b.BlockTypes)} {
		for _, name := range names {
			n := norm.NFC.String(name)
			if seen[n] {
				return nil, fmt.Errorf("two attributes or block types are named %q", n)
			}
			seen[n] = true
		}
	}
	return b, nil
}

// attribute converts an attribute of the document.
func (d *schemaDecoder) attribute(ja *jsonAttribute) (*Attribute, error) {
	if ja == nil {
		return &Attribute{Type: cty.DynamicPseudoType, Optional: true}, nil
	}
	a := &Attribute{Required: ja.Required, Optional: ja.Optional, Computed: ja.Computed, Sensitive: ja.Sensitive, WriteOnly: ja.WriteOnly}
	switch {
	case len(ja.Type) > 0:
		t, err := d.typeOf(ja.Type)
		if err != nil {
			return nil, err
		}
		a.Type = t
	case ja.NestedType != nil:
		n := &NestedAttributes{Nesting: NestingMode(ja.NestedType.NestingMode), Attributes: map[string]*Attribute{}}
		switch n.Nesting {
		case NestingSingle, NestingList, NestingSet, NestingMap:
		default:
			return nil, fmt.Errorf("unsupported nesting mode %q", n.Nesting)
		}
		for name, nja := range ja.NestedType.Attributes {
			na, err := d.attribute(nja)
			if err != nil {
				return nil, fmt.Errorf("attribute %s: %w", name, err)
			}
			n.Attributes[name] = na
		}
		a.NestedType = n
		a.Type = a.configType().WithoutOptionalAttributesDeep()
	default:
		a.Type = cty.DynamicPseudoType
	}
	return a, nil
}

// providerKey strips the default registry host, so that Terraform's and
// OpenTofu's names for the same provider find the same schema.
func providerKey(addr string) string {
	addr = strings.ToLower(addr)
	if !strings.Contains(addr, "/") {
		// A type alone is in the default namespace.
		return "hashicorp/" + addr
	}
	for _, host := range []string{"registry.terraform.io/", "registry.opentofu.org/"} {
		if strings.HasPrefix(addr, host) {
			return strings.TrimPrefix(addr, host)
		}
	}
	return addr
}

// ImpliedType is the object type of values conforming to the block.
func (b *Block) ImpliedType() cty.Type {
	attrs := map[string]cty.Type{}
	for name, a := range b.Attributes {
		attrs[name] = a.Type
	}
	for name, nb := range b.BlockTypes {
		attrs[name] = nb.impliedType()
	}
	return cty.Object(attrs)
}

// impliedType is the type of the value of a nested block type in its
// parent's object.
func (nb *NestedBlock) impliedType() cty.Type {
	et := nb.Block.ImpliedType()
	switch nb.Nesting {
	case NestingSingle, NestingGroup:
		return et
	case NestingList:
		if et.HasDynamicTypes() {
			return cty.DynamicPseudoType
		}
		return cty.List(et)
	case NestingSet:
		return cty.Set(et)
	case NestingMap:
		if et.HasDynamicTypes() {
			return cty.DynamicPseudoType
		}
		return cty.Map(et)
	}
	return cty.DynamicPseudoType
}

func (b *Block) attributeNames() []string {
	var names []string
	for n := range b.Attributes {
		names = append(names, n)
	}
	for n := range b.BlockTypes {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// terraformDataSchema is the built-in terraform_data resource type.
var terraformDataSchema = &Block{
	Attributes: map[string]*Attribute{
		"input":            {Type: cty.DynamicPseudoType, Optional: true},
		"triggers_replace": {Type: cty.DynamicPseudoType, Optional: true},
		"output":           {Type: cty.DynamicPseudoType, Computed: true},
		"id":               {Type: cty.String, Computed: true},
	},
	BlockTypes: map[string]*NestedBlock{},
}

// isBuiltinProvider reports whether a resource type belongs to the built-in
// "terraform" provider.
func isBuiltinType(typ string) bool { return typ == "terraform_data" }

// ResourceSchema finds the schema of a resource, data or ephemeral block
// of module m: the built-in terraform_data's, or its provider's from the
// document; nil when the document has none.
func (s *ProviderSchemas) ResourceSchema(m *config.Module, r *config.Resource) *Block {
	if r == nil {
		return nil
	}
	return s.resourceSchema(m, r)
}

// ProviderSchema finds the schema of the provider module m calls by a
// local name (as in its required_providers, or a resource type's prefix);
// nil when the document has none.
func (s *ProviderSchemas) ProviderSchema(m *config.Module, local string) *ProviderSchema {
	return s.provider(m, local)
}

// ResourceProviderName is the local name of the provider of a resource:
// its provider argument's name, else its type's prefix before the first
// underscore.
func ResourceProviderName(r *config.Resource) string {
	return resourceProviderName(r)
}

// resourceSchema finds the schema of a resource in module m, or nil.
func (s *ProviderSchemas) resourceSchema(m *config.Module, r *config.Resource) *Block {
	if r.Mode == config.ManagedResourceMode && isBuiltinType(r.Type) {
		return terraformDataSchema
	}
	ps := s.provider(m, resourceProviderName(r))
	if ps == nil {
		return nil
	}
	switch r.Mode {
	case config.DataResourceMode:
		return ps.DataSources[r.Type]
	case config.EphemeralResourceMode:
		return ps.EphemeralResources[r.Type]
	}
	return ps.Resources[r.Type]
}

// provider finds the schema of the provider a module calls by local name.
func (s *ProviderSchemas) provider(m *config.Module, local string) *ProviderSchema {
	if s == nil {
		return nil
	}
	source := "hashicorp/" + local
	if m != nil {
		source = providerSource(m, local)
	}
	return s.Providers[providerKey(source)]
}

// resourceProviderName is the local name of the provider of a resource: the
// provider argument's name, or the type's prefix before the first underscore.
func resourceProviderName(r *config.Resource) string {
	if r.ProviderRef != nil && r.ProviderRef.Name != "" {
		return r.ProviderRef.Name
	}
	if i := strings.IndexByte(r.Type, '_'); i > 0 {
		return r.Type[:i]
	}
	return r.Type
}
