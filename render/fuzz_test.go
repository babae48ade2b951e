package render

import (
	"strings"
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/tfeval/tfeval/internal/limit"
	"github.com/tfeval/tfeval/marks"
)

// valueReader builds a cty value from fuzz bytes: each byte picks a kind,
// and the bytes after it give its contents.
type valueReader struct {
	data  []byte
	depth int
}

func (r *valueReader) byte() byte {
	if len(r.data) == 0 {
		return 0
	}
	b := r.data[0]
	r.data = r.data[1:]
	return b
}

func (r *valueReader) string() string {
	n := int(r.byte() % 16)
	if n > len(r.data) {
		n = len(r.data)
	}
	s := string(r.data[:n])
	r.data = r.data[n:]
	return s
}

// children reads up to n element values; sets and lists need one type, so
// the caller passes same=true to convert every element to the first's type.
func (r *valueReader) children(same bool) []cty.Value {
	n := int(r.byte() % 5)
	var out []cty.Value
	for i := 0; i < n; i++ {
		v := r.value()
		if same && len(out) > 0 && !v.Type().Equals(out[0].Type()) {
			v = cty.NullVal(out[0].Type())
		}
		out = append(out, v)
	}
	return out
}

func (r *valueReader) value() cty.Value {
	if r.depth > 6 {
		return cty.StringVal(r.string())
	}
	r.depth++
	defer func() { r.depth-- }()
	switch r.byte() % 16 {
	case 0:
		return cty.StringVal(r.string())
	case 1:
		return cty.NumberIntVal(int64(int8(r.byte())) * int64(r.byte()))
	case 2:
		// Numbers beyond limit.MaxNumberExponent take hours to write out;
		// sources, variables and conversions refuse them before they can
		// reach a renderer, so the reader does not make them either.
		if v, err := cty.ParseNumberVal(r.string()); err == nil && !hugeNumber(v) {
			return v
		}
		return cty.NumberFloatVal(0.5)
	case 3:
		return cty.BoolVal(r.byte()%2 == 0)
	case 4:
		return cty.NullVal(r.value().Type())
	case 5:
		return cty.UnknownVal(r.value().Type())
	case 6:
		return r.value().Mark(marks.Sensitive)
	case 7:
		return r.value().Mark(marks.Ephemeral)
	case 8:
		if els := r.children(true); len(els) > 0 {
			return cty.ListVal(els)
		}
		return cty.ListValEmpty(cty.String)
	case 9:
		if els := r.children(true); len(els) > 0 {
			return cty.SetVal(els)
		}
		return cty.SetValEmpty(cty.Number)
	case 10:
		return cty.TupleVal(r.children(false))
	case 11:
		m := map[string]cty.Value{}
		var ty cty.Type
		for _, v := range r.children(true) {
			if ty == cty.NilType {
				ty = v.Type()
			}
			m[r.string()] = v
		}
		if len(m) == 0 {
			return cty.MapValEmpty(cty.Bool)
		}
		return cty.MapVal(m)
	case 12:
		m := map[string]cty.Value{}
		for _, v := range r.children(false) {
			m[r.string()] = v
		}
		return cty.ObjectVal(m)
	case 13:
		return TypeValue(r.value().Type())
	case 14:
		return cty.DynamicVal
	default:
		return cty.StringVal(strings.Repeat(r.string(), int(r.byte()%8)))
	}
}

// hugeNumber reports whether a finite number is beyond the exponent
// evaluation allows (a string such as "1p99999999" parses to one).
func hugeNumber(v cty.Value) bool {
	f := v.AsBigFloat()
	if f.IsInf() || f.Sign() == 0 {
		return false
	}
	exp := f.MantExp(nil)
	return exp > limit.MaxNumberExponent || exp < -limit.MaxNumberExponent
}

// FuzzValue renders arbitrary values, types included, as terraform console does.
func FuzzValue(f *testing.F) {
	f.Add([]byte{12, 3, 0, 3, 'a', 'b', '\n', 1, 'k', 8, 2, 0, 2, 'x', 'y', 1, 2, 3})
	f.Add([]byte{11, 2, 6, 0, 1, 'a', 'z', 5, 9, 1, 'q'})
	f.Add([]byte{9, 3, 2, 3, '1', '.', '5', 2, 1, '7', 4, 1, 3, 4})
	f.Add([]byte{13, 12, 2, 10, 0, 1, 'a', 15, 3, 'a', '$', '{', 4})
	f.Add([]byte{0, 8, 'l', '1', '\n', 'l', '2', '\n', '%', '{'})
	f.Fuzz(func(t *testing.T, data []byte) {
		r := &valueReader{data: data}
		v := r.value()
		out := Value(v)
		if out == "" && !(v.Type() == cty.String && v.IsKnown() && !v.IsMarked() && !v.IsNull()) {
			t.Fatalf("empty rendering of %#v", v)
		}
		_ = Type(v.Type())
		checkObjectPath(t, v)
	})
}

// checkObjectPath compares, for every known, unmarked object inside v, the
// rendering by its attribute names with the one by cty's element iterator
// that maps use.
func checkObjectPath(t *testing.T, v cty.Value) {
	t.Helper()
	_ = cty.Walk(v, func(_ cty.Path, v cty.Value) (bool, error) {
		if !v.IsKnown() || v.IsMarked() || v.IsNull() || !v.Type().IsObjectType() {
			return true, nil
		}
		var byName, byIterator output
		writeObject(&byName, v, 2)
		writeMapping(&byIterator, v, 2)
		if byName.String() != byIterator.String() {
			t.Fatalf("object %#v:\nby name\n%s\nby iterator\n%s", v, byName.String(), byIterator.String())
		}
		return true, nil
	})
}
