package lang

import (
	"hash/fnv"
	"maps"
	"slices"
	"strings"
	"sync"

	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"
)

// The older plugin SDK plans a default for an optional attribute the
// configuration leaves unset (Default in the provider's schema, a zero
// value in a set of blocks), and an empty list for a nested block type the
// provider does not compute; the schema document carries neither. For
// hashicorp/aws v5.100.0, lang/defaults_aws.go holds what the provider
// planned for each of them, observed by planning it (see
// internal/defaultsgen): tfeval plans that value where the table has one,
// and leaves the rest unknown.
//
// The table is used only with that version's schema, told by a
// fingerprint of its resource types (names, attributes with their flags,
// nested blocks with their nesting): another version may change a default
// without changing its schema, or without any sign the schema document
// carries, so with any other aws schema the unset attributes stay unknown.

// sdkDefaults is one block of a resource type in the table: the planned
// value (JSON; "" for null) of each unset attribute, and of each nested
// block type not written ("[]": no blocks), and the table of each nested
// block type's block.
type sdkDefaults struct {
	values map[string]string
	blocks map[string]*sdkDefaults
}

// defaultsTable is a provider's table of defaults: its text (lines "=TYPE"
// start a resource type, the lines after it are "PATH" (planned null) or
// "PATH JSON", PATH an attribute's or a nested block type's name after the
// names of the blocks it is in, joined by dots), decoded on first use, and
// the fingerprint of the schemas it was made with.
type defaultsTable struct {
	fingerprint uint64
	text        string
	once        sync.Once
	types       map[string]*sdkDefaults
}

// awsDefaultsTable is hashicorp/aws's (lang/defaults_aws.go).
var awsDefaultsTable = &defaultsTable{fingerprint: defaultsAwsFingerprint, text: defaultsAws}

// resource is the table of resource type name, or nil.
func (t *defaultsTable) resource(name string) *sdkDefaults {
	t.once.Do(t.decode)
	return t.types[name]
}

func (t *defaultsTable) decode() {
	t.types = map[string]*sdkDefaults{}
	var cur *sdkDefaults
	for line := range strings.SplitSeq(t.text, "\n") {
		if line == "" {
			continue
		}
		if line[0] == '=' {
			cur = &sdkDefaults{}
			t.types[line[1:]] = cur
			continue
		}
		if cur == nil {
			continue
		}
		path, val, _ := strings.Cut(line, " ")
		n := cur
		for {
			head, rest, nested := strings.Cut(path, ".")
			if !nested {
				break
			}
			if n.blocks == nil {
				n.blocks = map[string]*sdkDefaults{}
			}
			c := n.blocks[head]
			if c == nil {
				c = &sdkDefaults{}
				n.blocks[head] = c
			}
			n, path = c, rest
		}
		if n.values == nil {
			n.values = map[string]string{}
		}
		n.values[path] = val
	}
}

// sdkOrigin says where a block of a legacy SDK resource type sits in its
// provider's schema, for the table of defaults: the resource type's block
// has the provider and the type's name, a nested block its parent and its
// block type's name.
type sdkOrigin struct {
	provider *ProviderSchema
	parent   *Block
	name     string
}

// sdkDefaultsOf is the table of b, or nil: b is not a block of an aws
// resource type the table has, or the schema is not the table's version.
func sdkDefaultsOf(b *Block) *sdkDefaults {
	o := b.origin
	if o == nil {
		return nil
	}
	if o.parent != nil {
		p := sdkDefaultsOf(o.parent)
		if p == nil {
			return nil
		}
		return p.blocks[o.name]
	}
	t := awsDefaultsTable
	if o.provider.resourcesFingerprint() != t.fingerprint {
		return nil
	}
	return t.resource(o.name)
}

// sdkDefault is the value the table gives an unset attribute (or nested
// block type) name of b, converted to ty; false when it has none.
func sdkDefault(b *Block, name string, ty cty.Type) (cty.Value, bool) {
	d := sdkDefaultsOf(b)
	if d == nil {
		return cty.NilVal, false
	}
	text, ok := d.values[name]
	switch {
	case !ok:
		return cty.NilVal, false
	case text == "":
		return cty.NullVal(ty), true
	}
	v, err := ctyjson.Unmarshal([]byte(text), ty)
	if err != nil {
		return cty.NilVal, false
	}
	return v, true
}

// ResourcesFingerprint is the fingerprint of the provider's resource
// types that a table of its defaults is made for (internal/defaultsgen
// writes it beside the table): a hash of their names, attributes with
// their required, optional and computed flags, and nested block types.
func (p *ProviderSchema) ResourcesFingerprint() uint64 { return p.resourcesFingerprint() }

// resourcesFingerprint is schemaFingerprint of p's resource types,
// computed once.
func (p *ProviderSchema) resourcesFingerprint() uint64 {
	p.fingerprintOnce.Do(func() {
		p.fingerprint = schemaFingerprint(p.Resources)
	})
	return p.fingerprint
}

// schemaFingerprint is the FNV-1a hash of a text that lists the resource
// types in name order, each with its attributes ("a NAME FLAGS", FLAGS the
// letters r, o, c of required, optional, computed) and nested block types
// ("b NAME NESTING", then the block, then "e") in name order.
func schemaFingerprint(resources map[string]*Block) uint64 {
	h := fnv.New64a()
	for _, name := range slices.Sorted(maps.Keys(resources)) {
		h.Write([]byte("r " + name + "\n"))
		fingerprintBlock(h, resources[name])
	}
	return h.Sum64()
}

type byteWriter interface{ Write([]byte) (int, error) }

func fingerprintBlock(h byteWriter, b *Block) {
	for _, name := range slices.Sorted(maps.Keys(b.Attributes)) {
		a := b.Attributes[name]
		flags := ""
		if a.Required {
			flags += "r"
		}
		if a.Optional {
			flags += "o"
		}
		if a.Computed {
			flags += "c"
		}
		h.Write([]byte("a " + name + " " + flags + "\n"))
	}
	for _, name := range slices.Sorted(maps.Keys(b.BlockTypes)) {
		nb := b.BlockTypes[name]
		h.Write([]byte("b " + name + " " + string(nb.Nesting) + "\n"))
		fingerprintBlock(h, nb.Block)
		h.Write([]byte("e\n"))
	}
}

// markSDKOrigin records, for the table of defaults, where each block of
// an aws resource type of the older SDK sits.
func markSDKOrigin(b *Block, o *sdkOrigin) {
	b.origin = o
	for name, nb := range b.BlockTypes {
		markSDKOrigin(nb.Block, &sdkOrigin{parent: b, name: name})
	}
}
