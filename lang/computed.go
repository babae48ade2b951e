package lang

import (
	"strings"
	"sync"

	"github.com/zclconf/go-cty/cty"
)

// Computed says what a provider's schema makes of an attribute of a
// resource type or data source, for the providers a table of
// internal/computedgen knows without their schema being given.
type Computed uint8

const (
	// ComputedUnknown: tfeval has no table of the type (another
	// provider, or a type newer than the table's provider version).
	ComputedUnknown Computed = iota
	// NotAnAttribute: the type's schema has no such top-level attribute.
	NotAnAttribute
	// NotComputed: an argument the provider does not compute.
	NotComputed
	// ComputedString, ComputedNumber, ComputedBool and ComputedOther: an
	// attribute the provider computes (perhaps also an argument), of that
	// type.
	ComputedString
	ComputedNumber
	ComputedBool
	ComputedOther
)

// IsComputed reports whether c is one of the computed kinds.
func (c Computed) IsComputed() bool { return c >= ComputedString }

// computedTable is the generated table of provider source's schema at
// version (lang/computed_*.go), "" if there is none. A switch, not a
// map, so that the tables cost nothing until one is read.
func computedTable(source, version string) string {
	switch source + " " + version {
	case "hashicorp/aws 5.100.0":
		return computedAws
	case "hashicorp/aws 6.47.0":
		return computedAws6
	case "hashicorp/azurerm 4.79.0":
		return computedAzurerm
	case "hashicorp/azurerm 3.116.0":
		return computedAzurerm3
	case "azure/azapi 2.5.0":
		return computedAzapi
	case "hashicorp/google 7.9.0":
		return computedGoogle
	case "hashicorp/kubernetes 2.38.0":
		return computedKubernetes
	case "hashicorp/azuread 3.7.0":
		return computedAzuread
	case "integrations/github 6.13.0":
		return computedGithub
	case "hashicorp/helm 3.2.0":
		return computedHelm
	case "hashicorp/vault 4.4.0":
		return computedVault
	case "cyrilgdn/postgresql 1.22.0":
		return computedPostgresql
	case "datadog/datadog 3.37.0":
		return computedDatadog
	case "cloudflare/cloudflare 5.22.0":
		return computedCloudflare
	}
	return ""
}

// TableVersions are the versions of provider source (as "hashicorp/aws")
// of whose schema tfeval holds a table, newest first; none if it holds
// no table of the provider. A table is exact for its version; which one
// a configuration can use is its caller's to say (by the configuration's
// version constraints).
func TableVersions(source string) []string {
	switch source {
	case "hashicorp/aws":
		return []string{"6.47.0", "5.100.0"}
	case "hashicorp/azurerm":
		return []string{"4.79.0", "3.116.0"}
	case "azure/azapi":
		return []string{"2.5.0"}
	case "hashicorp/google":
		return []string{"7.9.0"}
	case "hashicorp/kubernetes":
		return []string{"2.38.0"}
	case "hashicorp/azuread":
		return []string{"3.7.0"}
	case "integrations/github":
		return []string{"6.13.0"}
	case "hashicorp/helm":
		return []string{"3.2.0"}
	case "hashicorp/vault":
		return []string{"4.4.0"}
	case "cyrilgdn/postgresql":
		return []string{"1.22.0"}
	case "datadog/datadog":
		return []string{"3.37.0"}
	case "cloudflare/cloudflare":
		return []string{"5.22.0"}
	}
	return nil
}

// computedIndex is a table read: its dictionary of names, its nested
// blocks' lines and each type's line, by "r TYPE" or "d TYPE". Slices of
// the table's constant; a type's schema is made from them when first
// asked for, and kept.
type computedIndex struct {
	names  []string
	blocks []string
	types  map[string]string

	mu      sync.Mutex
	schemas map[string]*Block
	nested  map[int]*Block
}

// computedIndexes are the tables read, by source and version: each read
// when first asked for.
var computedIndexes sync.Map

// computedDigits is the alphabet of the tables' indices.
const computedDigits = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_-"

// indexOf is the table of source at version read, nil if there is none.
func indexOf(source, version string) *computedIndex {
	key := source + " " + version
	if ix, ok := computedIndexes.Load(key); ok {
		return ix.(*computedIndex)
	}
	text := computedTable(source, version)
	if text == "" {
		return nil
	}
	ix, _ := computedIndexes.LoadOrStore(key, readComputedTable(text))
	return ix.(*computedIndex)
}

// readComputedTable reads a table's dictionary and lines. The dictionary
// is its names joined by single spaces (internal/computedgen), so it is cut
// at each space: strings.Fields, which also looks for every other kind of
// space, took half of the read, paid once a process for each table used
// (TestComputedDictionaries holds every table to that form).
func readComputedTable(text string) *computedIndex {
	dict, rest, _ := strings.Cut(text, "\n")
	ix := &computedIndex{
		names:   strings.Split(dict, " "),
		types:   make(map[string]string, strings.Count(rest, "\n")),
		schemas: map[string]*Block{},
		nested:  map[int]*Block{},
	}
	for line := range strings.Lines(rest) {
		line = strings.TrimSuffix(line, "\n")
		mode, after, _ := strings.Cut(line, " ")
		if mode == "b" {
			ix.blocks = append(ix.blocks, after)
			continue
		}
		typ, refs, _ := strings.Cut(after, " ")
		ix.types[line[:len(mode)+1+len(typ)]] = refs
	}
	return ix
}

// TableSchema is what the table of provider source (as "hashicorp/aws")
// at version (one of TableVersions) knows of the schema of resource type
// typ (mode "resource" or "data"): every attribute with its type,
// whether the provider computes it and whether it is sensitive (not
// whether it is required or optional), and every nested block type with
// its nesting mode; nil
// if tfeval holds no table of the type at that version. The result is
// shared: not to be changed.
func TableSchema(source, version, mode, typ string) *Block {
	ix := indexOf(source, version)
	if ix == nil {
		return nil
	}
	key := "r " + typ
	if mode == "data" {
		key = "d " + typ
	}
	ix.mu.Lock()
	defer ix.mu.Unlock()
	if b, ok := ix.schemas[key]; ok {
		return b
	}
	refs, ok := ix.types[key]
	if !ok {
		return nil
	}
	r := &tableReader{ix: ix, s: refs}
	b := r.block()
	if r.bad {
		b = nil
	}
	ix.schemas[key] = b
	return b
}

// ComputedAttribute says what the schema of provider source (as
// "hashicorp/aws") at version makes of top-level attribute name of
// resource type typ (mode "resource" or "data"), for the providers and
// versions tfeval holds a table of (TableVersions).
func ComputedAttribute(source, version, mode, typ, name string) Computed {
	b := TableSchema(source, version, mode, typ)
	if b == nil {
		return ComputedUnknown
	}
	a, ok := b.Attributes[name]
	switch {
	case !ok:
		return NotAnAttribute
	case !a.Computed:
		return NotComputed
	case a.Type == cty.String:
		return ComputedString
	case a.Type == cty.Number:
		return ComputedNumber
	case a.Type == cty.Bool:
		return ComputedBool
	}
	return ComputedOther
}

// tableReader reads a line of a table (see internal/computedgen).
type tableReader struct {
	ix  *computedIndex
	s   string
	i   int
	bad bool
}

func (r *tableReader) digit() int {
	if r.i >= len(r.s) {
		r.bad = true
		return 0
	}
	d := strings.IndexByte(computedDigits, r.s[r.i])
	r.i++
	if d < 0 {
		r.bad = true
		return 0
	}
	return d
}

// index reads a dictionary index: one to three digits.
func (r *tableReader) index() int {
	d := r.digit()
	switch {
	case d < 32:
		return d
	case d < 60:
		return 32 + (d-32)*64 + r.digit()
	}
	hi, mid := d-60, r.digit()
	return 32 + 28*64 + hi*4096 + mid*64 + r.digit()
}

func (r *tableReader) name() string {
	i := r.index()
	if i >= len(r.ix.names) {
		r.bad = true
		return ""
	}
	return r.ix.names[i]
}

func (r *tableReader) peek() byte {
	if r.i >= len(r.s) {
		r.bad = true
		return 0
	}
	return r.s[r.i]
}

// typ reads a type: s, n, b, d, l/e/m and an element type, or an object
// "(" of names and types ")" or a tuple "[" of types "]".
func (r *tableReader) typ() cty.Type {
	c := r.peek()
	r.i++
	switch c {
	case 's':
		return cty.String
	case 'n':
		return cty.Number
	case 'b':
		return cty.Bool
	case 'd':
		return cty.DynamicPseudoType
	case 'l':
		return cty.List(r.typ())
	case 'e':
		return cty.Set(r.typ())
	case 'm':
		return cty.Map(r.typ())
	case '(':
		attrs := map[string]cty.Type{}
		for !r.bad && r.peek() != ')' {
			name := r.name()
			attrs[name] = r.typ()
		}
		r.i++
		return cty.Object(attrs)
	case '[':
		var elems []cty.Type
		for !r.bad && r.peek() != ']' {
			elems = append(elems, r.typ())
		}
		r.i++
		return cty.Tuple(elems)
	}
	r.bad = true
	return cty.DynamicPseudoType
}

// block reads the rest of the line as a block's attributes and nested
// block types.
func (r *tableReader) block() *Block {
	b := &Block{Attributes: map[string]*Attribute{}, BlockTypes: map[string]*NestedBlock{}}
	for r.i < len(r.s) && !r.bad {
		name := r.name()
		mark := r.peek()
		r.i++
		sensitive := mark == '!'
		if sensitive {
			mark = r.peek()
			r.i++
		}
		writeOnly := mark == '~'
		if writeOnly {
			mark = r.peek()
			r.i++
		}
		switch mark {
		case 's', 'n', 'b', 'd':
			r.i--
			b.Attributes[name] = &Attribute{Type: r.typ(), Computed: true, Sensitive: sensitive, WriteOnly: writeOnly}
		case 'S', 'N', 'B', 'D':
			b.Attributes[name] = &Attribute{Type: map[byte]cty.Type{'S': cty.String, 'N': cty.Number, 'B': cty.Bool, 'D': cty.DynamicPseudoType}[mark], Sensitive: sensitive, WriteOnly: writeOnly}
		case 't', 'T':
			b.Attributes[name] = &Attribute{Type: r.typ(), Computed: mark == 't', Sensitive: sensitive, WriteOnly: writeOnly}
		case 'L', 'E', 'O', 'G', 'M':
			if sensitive || writeOnly {
				// A nested block type is never marked sensitive.
				r.bad = true
				break
			}
			mode := map[byte]NestingMode{'L': NestingList, 'E': NestingSet, 'O': NestingSingle, 'G': NestingGroup, 'M': NestingMap}[mark]
			b.BlockTypes[name] = &NestedBlock{Nesting: mode, Block: r.nestedBlock(r.index())}
		default:
			r.bad = true
		}
	}
	return b
}

// nestedBlock is the table's nested block i, read once.
func (r *tableReader) nestedBlock(i int) *Block {
	if b, ok := r.ix.nested[i]; ok {
		return b
	}
	if i >= len(r.ix.blocks) {
		r.bad = true
		return &Block{}
	}
	nr := &tableReader{ix: r.ix, s: r.ix.blocks[i]}
	b := nr.block()
	if nr.bad {
		r.bad = true
	}
	r.ix.nested[i] = b
	return b
}

// Unknown is what Terraform plans for an attribute of kind c the provider
// computes and the configuration does not set: unknown, of its type where
// the table says it.
func (c Computed) Unknown() cty.Value {
	switch c {
	case ComputedString:
		return cty.UnknownVal(cty.String)
	case ComputedNumber:
		return cty.UnknownVal(cty.Number)
	case ComputedBool:
		return cty.UnknownVal(cty.Bool)
	}
	return cty.DynamicVal
}
