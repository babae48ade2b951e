package format

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"

	"github.com/tfeval/tfeval/internal/elements"
	"github.com/tfeval/tfeval/internal/numtext"
	"github.com/tfeval/tfeval/lang"
	"github.com/tfeval/tfeval/marks"
)

// WriteEval writes NewEvalDocument(r, diags) as its WriteIndented method
// would, byte for byte, without building the document: every resource
// instance is written straight from its value, on every CPU. For a large
// tree that is most of the work of `eval -json`, and the document's generic
// maps and slices would only be made to be written once. It writes at most
// the evaluation's Limits.MaxOutputSize bytes (lang.OutputTooLarge past
// them), and stops once the evaluation's context is done.
func WriteEval(w io.Writer, r *lang.Result, diags hcl.Diagnostics) error {
	return WriteEvalWith(w, r, diags, nil)
}

// WriteEvalWith is WriteEval with the snippet of each diagnostic read
// from src (none when src is nil), as terraform plan -json writes them.
func WriteEvalWith(w io.Writer, r *lang.Result, diags hcl.Diagnostics, src *Sources) error {
	if r == nil {
		doc := NewEvalDocument(r, diags)
		doc.Diagnostics = src.Diagnostics(diags)
		return doc.WriteIndented(w)
	}
	// Instances of one resource are written one after another and are
	// about the same size: each starts with room for the last one's.
	var last atomic.Int64
	last.Store(512)
	// The instances are written to memory before the document is
	// written out, so their total is bounded as they are made.
	opts := r.Options()
	max := opts.Limits.WithDefaults().MaxOutputSize
	var total atomic.Int64
	head := &EvalDocument{FormatVersion: EvalFormatVersion, Diagnostics: src.Diagnostics(diags)}
	var outputs map[string]cty.Value
	if root := r.Root(); root != nil {
		outputs = root.Outputs
	}
	names := sortedKeys(outputs)
	writeOutput := func(b []byte, i int) ([]byte, error) {
		return appendOutputIndented(b, r, names[i], outputs[names[i]])
	}
	return head.writeIndentedWith(&cappedWriter{w: w, max: max, left: max}, names, writeOutput, len(r.Resources), func(i int) ([]byte, error) {
		if total.Load() > max {
			return nil, &lang.OutputTooLarge{Max: max}
		}
		if ctx := opts.Context; ctx != nil && ctx.Err() != nil {
			return nil, errCancelled
		}
		b, err := resourceIndented(r.Resources[i], int(last.Load())+64)
		last.Store(int64(len(b)))
		total.Add(int64(len(b)))
		return b, err
	})
}

// errCancelled is the error of writing output once the evaluation's
// context is done.
var errCancelled = errors.New("cancelled: the evaluation's context is done")

// cappedWriter passes writes on until more than max bytes in all would
// have been written; from then on every write fails with OutputTooLarge.
type cappedWriter struct {
	w         io.Writer
	max, left int64
}

func (c *cappedWriter) Write(p []byte) (int, error) {
	if int64(len(p)) > c.left {
		c.left = -1
		return 0, &lang.OutputTooLarge{Max: c.max}
	}
	c.left -= int64(len(p))
	return c.w.Write(p)
}

// appendOutputIndented appends the EvalOutput of a root output as
// json.MarshalIndent writes it with outputIndent, written from its value.
func appendOutputIndented(b []byte, r *lang.Result, name string, v cty.Value) ([]byte, error) {
	oj, uv, ok := evalOutput(r, name, v)
	m, err := json.MarshalIndent(oj, outputIndent, "  ")
	if err != nil || !ok {
		return append(b, m...), err
	}
	// The type and value are written here rather than marshalled into
	// the OutputJSON, which MarshalIndent would copy twice more.
	ty := uv.Type()
	tj, err := appendTypeJSON(nil, ty)
	if err != nil {
		return append(b, m...), nil // as Document leaves them out
	}
	var vj []byte
	w := documentWriters.Get().(*documentWriter)
	defer documentWriters.Put(w)
	direct := false
	if !hasDynamic(ty) {
		vj, direct = w.known(nil, uv, 1)
	}
	if !direct {
		if vj, err = ctyjson.Marshal(uv, ty); err != nil {
			return append(b, m...), nil
		}
	}
	b = append(b, m[:len(m)-len("\n"+outputIndent+"}")]...)
	b = append(appendIndentLine(append(b, ','), outputIndent, 1), `"type": `...)
	var ind bytes.Buffer
	if err := json.Indent(&ind, tj, outputIndent+"  ", "  "); err != nil {
		return b, err
	}
	b = append(b, ind.Bytes()...)
	b = append(appendIndentLine(append(b, ','), outputIndent, 1), `"value": `...)
	if direct {
		b = append(b, vj...)
	} else {
		ind.Reset()
		if err := json.Indent(&ind, vj, outputIndent+"  ", "  "); err != nil {
			return b, err
		}
		b = append(b, ind.Bytes()...)
	}
	return append(appendIndentLine(b, outputIndent, 0), '}'), nil
}

// resourceIndented is evalResource(ri).marshalIndent(resourceIndent),
// written from the instance's value; anything the direct writers do not
// cover goes through the document's own path.
func resourceIndented(ri *lang.ResourceInstance, hint int) ([]byte, error) {
	w := documentWriters.Get().(*documentWriter)
	defer documentWriters.Put(w)
	fields := [...]string{"address", "mode", "type", "name", "after", "after_unknown", "after_sensitive", "placeholder"}
	names := [...]string{ri.Addr, modeName(ri.Mode), ri.Type, ri.Name}
	writers := [...]elementWriter{(*documentWriter).known, (*documentWriter).unknown, (*documentWriter).sensitive}
	n := len(fields)
	if !ri.Placeholder {
		n--
	}
	b, ok := appendIndentedObject(make([]byte, 0, hint), resourceIndent, 0, n,
		func(i int) string { return fields[i] },
		func(b []byte, i int) ([]byte, bool) {
			switch {
			case i < len(names):
				return appendJSONString(b, names[i]), true
			case i < len(names)+len(writers):
				return writers[i-len(names)](w, b, ri.Value, 1)
			}
			return append(b, "true"...), true
		})
	if !ok {
		return evalResource(ri).marshalIndent(resourceIndent)
	}
	return b, nil
}

// documentWriter holds what writing one resource instance reuses: a slice
// of named elements for every depth of the value, sorted in turn.
type documentWriter struct {
	elems [][]namedValue
}

var documentWriters = sync.Pool{New: func() any { return new(documentWriter) }}

// namedValue is one element of a map or object, by name.
type namedValue struct {
	name string
	v    cty.Value
}

// elementWriter appends one value at depth; false when it cannot, and the
// document's own path must write the resource instance.
type elementWriter func(w *documentWriter, b []byte, v cty.Value, depth int) ([]byte, bool)

// elementFilter says which elements of a map or object a writer writes.
type elementFilter int

const (
	knownElements elementFilter = iota
	unknownElements
	sensitiveElements
)

// keeps reports whether the writer of f writes element e of a map or
// object: the three document functions leave out of objects what they
// describe as unknown (knownJSON) or as false (the other two).
func (f elementFilter) keeps(e cty.Value) bool {
	if f == sensitiveElements && e.HasMark(marks.Sensitive) {
		return true
	}
	eu, _ := e.Unmark()
	switch f {
	case knownElements:
		return eu.IsKnown()
	case unknownElements:
		return !eu.IsKnown() || !eu.IsNull() && isCollection(eu.Type())
	}
	return !eu.IsNull() && isCollection(eu.Type())
}

// sorted returns the elements of a known, non-null map or object that f
// keeps, in the order encoding/json writes map keys, in w's slice for
// depth (valid until the next call for the same depth).
func (w *documentWriter) sorted(v cty.Value, depth int, f elementFilter) []namedValue {
	for len(w.elems) <= depth {
		w.elems = append(w.elems, nil)
	}
	out := w.elems[depth][:0]
	eachElement(v, func(name string, e cty.Value) {
		if f.keeps(e) {
			out = append(out, namedValue{name, e})
		}
	})
	slices.SortFunc(out, func(a, b namedValue) int { return strings.Compare(a.name, b.name) })
	w.elems[depth] = out
	return out
}

// isCollection reports whether values of ty are written as JSON arrays or
// objects by the three writers below.
func isCollection(ty cty.Type) bool {
	return ty.IsListType() || ty.IsTupleType() || ty.IsSetType() || ty.IsMapType() || ty.IsObjectType()
}

// known appends knownJSON(v) as appendJSONIndented writes it at depth;
// false for a number it does not write as encoding/json would (encoding/json
// checks those).
func (w *documentWriter) known(b []byte, v cty.Value, depth int) ([]byte, bool) {
	v, _ = v.Unmark()
	if !v.IsKnown() || v.IsNull() {
		return append(b, "null"...), true
	}
	ty := v.Type()
	switch {
	case ty == cty.String:
		return appendJSONString(b, v.AsString()), true
	case ty == cty.Bool:
		return strconv.AppendBool(b, v.True()), true
	case ty == cty.Number:
		s := numtext.String(v)
		if !simpleNumber(s) {
			return b, false
		}
		return append(b, s...), true
	case ty.IsListType() || ty.IsTupleType() || ty.IsSetType():
		return w.sequence(b, v, depth, (*documentWriter).known)
	case ty.IsMapType() || ty.IsObjectType():
		return w.object(b, w.sorted(v, depth, knownElements), depth, (*documentWriter).known)
	}
	return append(b, "null"...), true
}

// unknown appends unknownAsBool(v) as appendJSONIndented writes it at
// depth.
func (w *documentWriter) unknown(b []byte, v cty.Value, depth int) ([]byte, bool) {
	v, _ = v.Unmark()
	switch {
	case !v.IsKnown():
		return append(b, "true"...), true
	case v.IsNull():
		return append(b, "false"...), true
	}
	ty := v.Type()
	switch {
	case ty.IsListType() || ty.IsTupleType() || ty.IsSetType():
		return w.sequence(b, v, depth, (*documentWriter).unknown)
	case ty.IsMapType() || ty.IsObjectType():
		return w.object(b, w.sorted(v, depth, unknownElements), depth, (*documentWriter).unknown)
	}
	return append(b, "false"...), true
}

// sensitive appends sensitiveAsBool(v) as appendJSONIndented writes it at
// depth.
func (w *documentWriter) sensitive(b []byte, v cty.Value, depth int) ([]byte, bool) {
	if v.HasMark(marks.Sensitive) {
		return append(b, "true"...), true
	}
	v, _ = v.Unmark()
	ty := v.Type()
	if v.IsNull() || ty.IsPrimitiveType() || ty == cty.DynamicPseudoType {
		return append(b, "false"...), true
	}
	switch {
	case ty.IsListType() || ty.IsTupleType() || ty.IsSetType():
		if !v.IsKnown() {
			return append(b, "[]"...), true
		}
		return w.sequence(b, v, depth, (*documentWriter).sensitive)
	case ty.IsMapType() || ty.IsObjectType():
		if !v.IsKnown() {
			return append(b, "{}"...), true
		}
		return w.object(b, w.sorted(v, depth, sensitiveElements), depth, (*documentWriter).sensitive)
	}
	return append(b, "false"...), true
}

// sequence appends the elements of a known, non-null list, tuple or set
// as a JSON array at depth, each written by elem.
func (w *documentWriter) sequence(b []byte, v cty.Value, depth int, elem elementWriter) ([]byte, bool) {
	it := elements.Of(v)
	// appendIndentedArray asks for the elements in order.
	return appendIndentedArray(b, resourceIndent, depth, v.LengthInt(), func(b []byte, _ int) ([]byte, bool) {
		it.Next()
		_, e := it.Element()
		return elem(w, b, e, depth+1)
	})
}

// object appends named elements as a JSON object at depth, each written
// by elem.
func (w *documentWriter) object(b []byte, elems []namedValue, depth int, elem elementWriter) ([]byte, bool) {
	return appendIndentedObject(b, resourceIndent, depth, len(elems),
		func(i int) string { return elems[i].name },
		func(b []byte, i int) ([]byte, bool) { return elem(w, b, elems[i].v, depth+1) })
}
