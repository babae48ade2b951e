package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/tfeval/tfeval/internal/tablegen"
)

// from says where the schema document was had, for the header; name is
// the table constant's name, where a provider has tables of two versions.
var (
	from = flag.String("from", "", "where the schema document was published, for the header")
	name = flag.String("name", "", "the table constant's name (computed and the provider's type name if not given)")
)

func main() {
	tablegen.Main("computedgen", func(w io.Writer, src []byte, provider, version string) error {
		return generateFrom(w, src, provider, version, *from, *name)
	})
}

// schemas is the part of the schema document the table needs.
type schemas = tablegen.Schemas[struct {
	Block *block `json:"block"`
}]

type block struct {
	Attributes map[string]*attribute  `json:"attributes"`
	BlockTypes map[string]*nestedType `json:"block_types"`
}

type attribute struct {
	Type       json.RawMessage `json:"type"`
	NestedType *nestedAttrs    `json:"nested_type"`
	Computed   bool            `json:"computed"`
	Sensitive  bool            `json:"sensitive"`
	WriteOnly  bool            `json:"write_only"`
}

// nestedAttrs is a nested attribute type: attributes of their own, in a
// nesting mode.
type nestedAttrs struct {
	Attributes map[string]*attribute `json:"attributes"`
	Nesting    string                `json:"nesting_mode"`
}

// impliedType is the type of a nested attribute type, in the schema
// document's notation: an object of its attributes' types, alone or in a
// list, set or map. computed says whether any attribute in it, at any
// depth, is computed or sensitive (the table's flags cannot say which
// part of the implied type is).
func (n *nestedAttrs) impliedType() (ty any, computed bool, err error) {
	attrs := map[string]any{}
	for name, a := range n.Attributes {
		var at any
		if a.NestedType != nil {
			var c bool
			if at, c, err = a.NestedType.impliedType(); err != nil {
				return nil, false, fmt.Errorf("%s: %v", name, err)
			}
			computed = computed || c
		} else if err := json.Unmarshal(a.Type, &at); err != nil {
			return nil, false, fmt.Errorf("%s: %v", name, err)
		}
		computed = computed || a.Computed || a.Sensitive || a.WriteOnly
		attrs[name] = at
	}
	obj := []any{"object", attrs}
	switch n.Nesting {
	case "single":
		return obj, computed, nil
	case "list", "set", "map":
		return []any{n.Nesting, obj}, computed, nil
	}
	return nil, false, fmt.Errorf("nesting mode %q", n.Nesting)
}

// flattenNested writes the nested attribute types of blk (top, a type's
// own block) as the types they imply, which the table writes as any
// other. A nested attribute type in which anything is computed (or
// sensitive, which Terraform marks at that attribute's path) is left
// out of a type's own block: what Terraform's mocks make of such values
// has not been checked, so the table does not decide them, as it does not
// an attribute newer than its schema. In a nested block it stops the
// generator: the block's type would not be the schema's.
func flattenNested(blk *block, top bool) error {
	for name, a := range blk.Attributes {
		if a.NestedType == nil {
			continue
		}
		ty, computed, err := a.NestedType.impliedType()
		if err != nil {
			return fmt.Errorf("%s: %v", name, err)
		}
		if computed || a.Computed {
			if !top {
				return fmt.Errorf("%s: a nested attribute type with computed attributes in a nested block is not written by the table", name)
			}
			delete(blk.Attributes, name)
			continue
		}
		raw, err := json.Marshal(ty)
		if err != nil {
			return err
		}
		a.Type, a.NestedType = raw, nil
	}
	for name, nt := range blk.BlockTypes {
		if nt.Block == nil {
			continue
		}
		if err := flattenNested(nt.Block, false); err != nil {
			return fmt.Errorf("%s: %v", name, err)
		}
	}
	return nil
}

type nestedType struct {
	Nesting string `json:"nesting_mode"`
	Block   *block `json:"block"`
}

// digits is the alphabet of the table's indices (lang.computedDigits).
const digits = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_-"

// index writes dictionary index i in one to three digits: below 32 one
// digit; below two a digit 32..59 and one more; else a digit 60..63 and
// two more.
func index(i int) (string, error) {
	switch {
	case i < 32:
		return digits[i : i+1], nil
	case i < two:
		i -= 32
		return string([]byte{digits[32+i/64], digits[i%64]}), nil
	case i < two+4*64*64:
		i -= two
		return string([]byte{digits[60+i/4096], digits[i/64%64], digits[i%64]}), nil
	}
	return "", fmt.Errorf("dictionary index %d too large", i)
}

// two is the first index written in three digits.
const two = 32 + 28*64

// table is the table being written: the dictionary of names and the
// nested blocks, each distinct one once.
type table struct {
	at     map[string]int
	blocks map[string]int
	order  []string
}

// typ writes a type of the schema document (ty) in the table's notation
// (see doc.go).
func (t *table) typ(b *strings.Builder, ty any) error {
	switch ty := ty.(type) {
	case string:
		switch ty {
		case "string", "number", "bool", "dynamic":
			b.WriteByte(ty[0])
			return nil
		}
	case []any:
		if len(ty) == 2 {
			kind, _ := ty[0].(string)
			switch kind {
			case "list", "set", "map":
				b.WriteByte(map[string]byte{"list": 'l', "set": 'e', "map": 'm'}[kind])
				return t.typ(b, ty[1])
			case "object":
				attrs, ok := ty[1].(map[string]any)
				if !ok {
					break
				}
				b.WriteByte('(')
				for _, name := range slices.Sorted(maps.Keys(attrs)) {
					if err := t.name(b, name); err != nil {
						return err
					}
					if err := t.typ(b, attrs[name]); err != nil {
						return err
					}
				}
				b.WriteByte(')')
				return nil
			case "tuple":
				elems, ok := ty[1].([]any)
				if !ok {
					break
				}
				b.WriteByte('[')
				for _, e := range elems {
					if err := t.typ(b, e); err != nil {
						return err
					}
				}
				b.WriteByte(']')
				return nil
			}
		}
	}
	return fmt.Errorf("type %v not written by the table", ty)
}

func (t *table) name(b *strings.Builder, name string) error {
	d, err := index(t.at[name])
	if err != nil {
		return err
	}
	b.WriteString(d)
	return nil
}

// refs writes a block's attributes and nested block types, in name order:
// each a name's index and its mark (see doc.go).
func (t *table) refs(blk *block) (string, error) {
	var b strings.Builder
	names := make([]string, 0, len(blk.Attributes)+len(blk.BlockTypes))
	for name := range blk.Attributes {
		names = append(names, name)
	}
	for name := range blk.BlockTypes {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		if err := t.name(&b, name); err != nil {
			return "", err
		}
		if a, ok := blk.Attributes[name]; ok {
			if a.NestedType != nil {
				return "", fmt.Errorf("%s: nested attribute types are not written by the table", name)
			}
			var ty any
			if err := json.Unmarshal(a.Type, &ty); err != nil {
				return "", fmt.Errorf("%s: %v", name, err)
			}
			var tb strings.Builder
			if err := t.typ(&tb, ty); err != nil {
				return "", fmt.Errorf("%s: %v", name, err)
			}
			ts := tb.String()
			if len(ts) > 1 {
				ts = "t" + ts
			}
			if !a.Computed {
				ts = strings.ToUpper(ts[:1]) + ts[1:]
			}
			if a.Sensitive {
				b.WriteByte('!')
			}
			if a.WriteOnly {
				b.WriteByte('~')
			}
			b.WriteString(ts)
			continue
		}
		nt := blk.BlockTypes[name]
		mode, ok := map[string]byte{"list": 'L', "set": 'E', "single": 'O', "group": 'G', "map": 'M'}[nt.Nesting]
		if !ok || nt.Block == nil {
			return "", fmt.Errorf("%s: nesting mode %q", name, nt.Nesting)
		}
		nested, err := t.refs(nt.Block)
		if err != nil {
			return "", err
		}
		i, ok := t.blocks[nested]
		if !ok {
			i = len(t.order)
			t.blocks[nested] = i
			t.order = append(t.order, nested)
		}
		d, err := index(i)
		if err != nil {
			return "", err
		}
		b.WriteByte(mode)
		b.WriteString(d)
	}
	return b.String(), nil
}

type entry struct {
	mode, typ string
	block     *block
}

// count adds the names of blk, its nested blocks and its attributes'
// object types to uses.
func count(uses map[string]int, blk *block) {
	for name, a := range blk.Attributes {
		uses[name]++
		var ty any
		if json.Unmarshal(a.Type, &ty) == nil {
			countType(uses, ty)
		}
	}
	for name, nt := range blk.BlockTypes {
		uses[name]++
		if nt.Block != nil {
			count(uses, nt.Block)
		}
	}
}

func countType(uses map[string]int, ty any) {
	l, ok := ty.([]any)
	if !ok || len(l) != 2 {
		return
	}
	switch e := l[1].(type) {
	case map[string]any:
		for name, at := range e {
			uses[name]++
			countType(uses, at)
		}
	case []any:
		if l[0] == "tuple" {
			for _, et := range e {
				countType(uses, et)
			}
			return
		}
		countType(uses, e)
	default:
		countType(uses, e)
	}
}

// generate writes the Go file of provider's computed attributes, from the
// schema document src of the provider's version, to w.
func generate(w io.Writer, src []byte, provider, version string) error {
	return generateFrom(w, src, provider, version, "", "")
}

// generateFrom is generate with where the document was had (from) named
// in the header, if given, and the constant named constName, if given.
func generateFrom(w io.Writer, src []byte, provider, version, from, constName string) error {
	var doc schemas
	if err := json.Unmarshal(src, &doc); err != nil {
		return err
	}
	var entries []entry
	for p, ps := range doc.ProviderSchemas {
		if !strings.HasSuffix(p, "/"+provider) && p != provider {
			continue
		}
		for typ, s := range ps.ResourceSchemas {
			if s.Block != nil {
				entries = append(entries, entry{"r", typ, s.Block})
			}
		}
		for typ, s := range ps.DataSourceSchemas {
			if s.Block != nil {
				entries = append(entries, entry{"d", typ, s.Block})
			}
		}
	}
	if len(entries) == 0 {
		return fmt.Errorf("the document has no schema of %s", provider)
	}
	for _, e := range entries {
		if err := flattenNested(e.block, true); err != nil {
			return fmt.Errorf("%s: %v", e.typ, err)
		}
	}
	sort.Slice(entries, func(i, j int) bool {
		if entries[i].mode != entries[j].mode {
			return entries[i].mode < entries[j].mode
		}
		return entries[i].typ < entries[j].typ
	})
	uses := map[string]int{}
	for _, e := range entries {
		count(uses, e.block)
	}
	names := make([]string, 0, len(uses))
	for name := range uses {
		names = append(names, name)
	}
	slices.SortFunc(names, func(a, b string) int {
		if uses[a] != uses[b] {
			return uses[b] - uses[a]
		}
		return strings.Compare(a, b)
	})
	t := &table{at: make(map[string]int, len(names)), blocks: map[string]int{}}
	for i, name := range names {
		t.at[name] = i
	}
	var lines strings.Builder
	for _, e := range entries {
		refs, err := t.refs(e.block)
		if err != nil {
			return fmt.Errorf("%s: %v", e.typ, err)
		}
		fmt.Fprintf(&lines, "%s %s %s\n", e.mode, e.typ, refs)
	}
	var text strings.Builder
	text.WriteString(strings.Join(names, " "))
	text.WriteByte('\n')
	for _, refs := range t.order {
		text.WriteString("b ")
		text.WriteString(refs)
		text.WriteByte('\n')
	}
	text.WriteString(lines.String())
	of := provider + " provider"
	if version != "" {
		of += " v" + version
	}
	fmt.Fprintf(w, "// Code generated by internal/computedgen from the %s schema\n", of)
	fmt.Fprintf(w, "// (terraform providers schema -json); names, types, computed, sensitive and write-only flags only. DO NOT EDIT.\n")
	if from != "" {
		fmt.Fprintf(w, "// The document: %s.\n", from)
	}
	fmt.Fprintf(w, "\npackage lang\n\n")
	if constName == "" {
		constName = "computed" + goName(provider)
	}
	fmt.Fprintf(w, "// %s is the %s table of attributes and nested blocks\n// (internal/computedgen describes its format).\n", constName, of)
	fmt.Fprintf(w, "const %s = ", constName)
	// One line of the table a line of source.
	first := true
	for _, part := range strings.SplitAfter(text.String(), "\n") {
		if part == "" {
			continue
		}
		if !first {
			w.Write([]byte(" +\n\t"))
		}
		first = false
		fmt.Fprintf(w, "%q", part)
	}
	_, err := w.Write([]byte("\n"))
	return err
}

// goName is provider's type name as part of a Go identifier: "Aws" for
// hashicorp/aws.
func goName(provider string) string {
	name := provider[strings.LastIndex(provider, "/")+1:]
	var b strings.Builder
	up := true
	for _, r := range name {
		if r == '-' || r == '_' {
			up = true
			continue
		}
		if up {
			b.WriteString(strings.ToUpper(string(r)))
			up = false
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}
