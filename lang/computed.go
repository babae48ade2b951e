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

// computedTable is the generated table of provider source
// (lang/computed_*.go), "" if there is none. A switch, not a map, so that
// the tables cost nothing until one is read.
func computedTable(source string) string {
	switch source {
	case "hashicorp/aws":
		return computedAws
	}
	return ""
}

// computedSources are the sources computedTable has a table of.
var computedSources = [...]string{"hashicorp/aws"}

// computedIndex is a table read: its dictionary of names and each type's
// line, by "r TYPE" or "d TYPE". Slices of the table's constant, so
// reading one costs two small allocations, once.
type computedIndex struct {
	names []string
	types map[string]string
}

var (
	computedOnce    sync.Once
	computedIndexes map[string]*computedIndex
)

// computedDigits is the alphabet of the tables' indices.
const computedDigits = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_-"

func readComputedTables() {
	computedIndexes = make(map[string]*computedIndex, len(computedSources))
	for _, source := range computedSources {
		text := computedTable(source)
		dict, rest, _ := strings.Cut(text, "\n")
		ix := &computedIndex{names: strings.Fields(dict), types: make(map[string]string, strings.Count(rest, "\n"))}
		for line := range strings.Lines(rest) {
			line = strings.TrimSuffix(line, "\n")
			mode, after, _ := strings.Cut(line, " ")
			typ, refs, _ := strings.Cut(after, " ")
			ix.types[line[:len(mode)+1+len(typ)]] = refs
		}
		computedIndexes[source] = ix
	}
}

// ComputedAttribute says what the schema of provider source (as
// "hashicorp/aws") makes of top-level attribute name of resource
// type typ (mode "resource" or "data"), for the providers tfeval holds a
// table of (the aws provider's, v5.100.0).
func ComputedAttribute(source, mode, typ, name string) Computed {
	if computedTable(source) == "" {
		return ComputedUnknown
	}
	computedOnce.Do(readComputedTables)
	ix := computedIndexes[source]
	m := "r "
	if mode == "data" {
		m = "d "
	}
	refs, ok := ix.types[m+typ]
	if !ok {
		return ComputedUnknown
	}
	for i := 0; i < len(refs); {
		d := strings.IndexByte(computedDigits, refs[i])
		n := 1
		switch {
		case d < 32:
		case d < 62:
			d = 32 + (d-32)*64 + strings.IndexByte(computedDigits, refs[i+1])
			n = 2
		default:
			d = 32 + 30*64 + (d-62)*4096 + strings.IndexByte(computedDigits, refs[i+1])*64 + strings.IndexByte(computedDigits, refs[i+2])
			n = 3
		}
		mark := refs[i+n]
		i += n + 1
		if d >= len(ix.names) || ix.names[d] != name {
			continue
		}
		switch mark {
		case 's':
			return ComputedString
		case 'n':
			return ComputedNumber
		case 'b':
			return ComputedBool
		case 'o':
			return ComputedOther
		}
		return NotComputed
	}
	return NotAnAttribute
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
