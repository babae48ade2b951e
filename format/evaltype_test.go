package format

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"
)

func TestAppendTypeJSON(t *testing.T) {
	obj := cty.ObjectWithOptionalAttrs(map[string]cty.Type{"b": cty.String, "a<&>": cty.List(cty.Number), "é": cty.DynamicPseudoType}, []string{"b", "é"})
	for _, ty := range []cty.Type{
		cty.String, cty.Number, cty.Bool, cty.DynamicPseudoType,
		cty.List(cty.String), cty.Map(cty.Set(cty.Bool)), cty.EmptyObject, cty.EmptyTuple,
		obj, cty.Tuple([]cty.Type{obj, cty.String, cty.List(obj)}),
		cty.Object(map[string]cty.Type{"x": cty.Tuple([]cty.Type{cty.Number}), "\n": cty.String}),
	} {
		want, err := ctyjson.MarshalType(ty)
		if err != nil {
			t.Fatal(err)
		}
		got, err := appendTypeJSON(nil, ty)
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s:\n got %s, %v\nwant %s", ty.GoString(), got, err, want)
		}
	}
	if _, err := appendTypeJSON(nil, cty.Capsule("c", nil)); err == nil {
		t.Error("a capsule type was written")
	}
}

// TestAppendTypeJSONShared: a type whose parts repeat one another is
// written in time and memory linear in its text.
func TestAppendTypeJSONShared(t *testing.T) {
	ty := cty.String
	for range 16 {
		ty = cty.Object(map[string]cty.Type{"a": ty, "b": ty})
	}
	allocs := testing.AllocsPerRun(1, func() { _, _ = appendTypeJSON(make([]byte, 0, 8<<20), ty) })
	// One slice of names per object type, of which there are 2^16-1.
	if allocs > 70_000 {
		t.Errorf("%v allocations", allocs)
	}
}

func TestOutputValueJSON(t *testing.T) {
	big, _ := cty.ParseNumberVal("123456789012345678901234567890.125")
	for _, v := range []cty.Value{
		cty.StringVal("<a & b>\n"), cty.NumberIntVal(42), big, cty.NumberFloatVal(-0.5), cty.True,
		cty.ListVal([]cty.Value{cty.StringVal("x")}), cty.SetVal([]cty.Value{cty.NumberIntVal(2), cty.NumberIntVal(1)}),
		cty.MapVal(map[string]cty.Value{"b": cty.NumberIntVal(1), "a": cty.NumberIntVal(2)}),
		cty.ObjectVal(map[string]cty.Value{"z": cty.NullVal(cty.String), "y": cty.EmptyTupleVal, "x": cty.EmptyObjectVal}),
		cty.ObjectVal(map[string]cty.Value{"d": cty.NullVal(cty.DynamicPseudoType)}),
		cty.TupleVal([]cty.Value{cty.StringVal("a"), cty.NumberIntVal(1), cty.ListValEmpty(cty.String)}),
	} {
		want, err := ctyjson.Marshal(v, v.Type())
		if err != nil {
			t.Fatal(err)
		}
		got, err := outputValueJSON(v, v.Type())
		if err != nil || compactJSON(t, got) != compactJSON(t, want) {
			t.Errorf("%#v:\n got %s, %v\nwant %s", v, got, err, want)
		}
	}
}

// compactJSON is b without insignificant whitespace, as encoding/json
// writes a RawMessage.
func compactJSON(t *testing.T, b []byte) string {
	t.Helper()
	var out bytes.Buffer
	if err := json.Compact(&out, b); err != nil {
		t.Fatalf("%s: %v", b, err)
	}
	return out.String()
}
