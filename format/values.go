package format

import (
	"encoding/json"
	"sort"

	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"

	"github.com/tfeval/tfeval/internal/shape"
)

// The three parts of a planned value in show -json's terms.
var (
	knownJSON       = shape.Known
	unknownAsBool   = shape.Unknown
	sensitiveAsBool = shape.Sensitive
	eachElement     = shape.EachElement
)

// typedJSON is a wholly known value with its type as cty's JSON encoding
// writes them (terraform output -json's "type" and "value"): null is of
// type "dynamic". ok is false for a value that is not wholly known or
// cannot be encoded.
func typedJSON(v cty.Value) (typ, val json.RawMessage, ok bool) {
	if !v.IsWhollyKnown() {
		return nil, nil, false
	}
	uv, _ := v.UnmarkDeep()
	ty := uv.Type()
	if uv.IsNull() {
		ty = cty.DynamicPseudoType
		uv = cty.NullVal(ty)
	}
	tj, err := ctyjson.MarshalType(ty)
	if err != nil {
		return nil, nil, false
	}
	vj, err := ctyjson.Marshal(uv, ty)
	if err != nil {
		return nil, nil, false
	}
	return tj, vj, true
}

// plainJSON is a wholly known value in JSON without its type (a variable's
// value or default); ok is false when it is not wholly known.
func plainJSON(v cty.Value) (json.RawMessage, bool) {
	_, vj, ok := typedJSON(v)
	return vj, ok
}

// sortedKeys returns a map's keys in order.
func sortedKeys[T any](m map[string]T) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
