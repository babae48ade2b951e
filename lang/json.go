package lang

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/tfeval/tfeval/config"
	"github.com/tfeval/tfeval/internal/elements"
	"github.com/tfeval/tfeval/internal/numtext"
	"github.com/tfeval/tfeval/internal/parallel"
	"github.com/tfeval/tfeval/marks"
)

// PlanDocument is the `eval -json` document: what terraform plan -json and
// show -json report about outputs and resources, plus diagnostics.
type PlanDocument struct {
	Diagnostics []DiagnosticJSON      `json:"diagnostics"`
	Outputs     map[string]OutputJSON `json:"outputs"`
	Resources   []ResourceJSON        `json:"resources"`
}

// OutputJSON is one root module output.
type OutputJSON struct {
	Sensitive bool `json:"sensitive"`
	// Unknown is false, true, or booleans shaped like the value marking its unknown parts.
	Unknown any `json:"unknown"`
	// Type and Value are present only when the value is wholly known.
	Type  json.RawMessage  `json:"type,omitempty"`
	Value *json.RawMessage `json:"value,omitempty"`
}

// ResourceJSON is one planned resource instance as show -json writes it.
type ResourceJSON struct {
	Address        string `json:"address"`
	Mode           string `json:"mode"`
	Type           string `json:"type"`
	Name           string `json:"name"`
	After          any    `json:"after"`
	AfterUnknown   any    `json:"after_unknown"`
	AfterSensitive any    `json:"after_sensitive"`
	// Placeholder is set on an instance that stands for instances tfeval
	// cannot count (ResourceInstance.Placeholder).
	Placeholder bool `json:"placeholder,omitempty"`
}

// DiagnosticJSON is a diagnostic as terraform validate -json writes it.
type DiagnosticJSON struct {
	Severity string     `json:"severity"`
	Summary  string     `json:"summary"`
	Detail   string     `json:"detail"`
	Range    *RangeJSON `json:"range,omitempty"`
}

// RangeJSON is a source range.
type RangeJSON struct {
	Filename string  `json:"filename"`
	Start    PosJSON `json:"start"`
	End      PosJSON `json:"end"`
}

// PosJSON is a source position.
type PosJSON struct {
	Line   int `json:"line"`
	Column int `json:"column"`
	Byte   int `json:"byte"`
}

// RangeOf converts a source range for the JSON documents.
func RangeOf(r hcl.Range) *RangeJSON {
	return &RangeJSON{
		Filename: r.Filename,
		Start:    PosJSON{r.Start.Line, r.Start.Column, r.Start.Byte},
		End:      PosJSON{r.End.Line, r.End.Column, r.End.Byte},
	}
}

// DiagnosticsJSON converts diagnostics for the JSON documents.
func DiagnosticsJSON(diags hcl.Diagnostics) []DiagnosticJSON {
	out := make([]DiagnosticJSON, 0, len(diags))
	for _, d := range diags {
		dj := DiagnosticJSON{Severity: "error", Summary: d.Summary, Detail: d.Detail}
		if d.Severity == hcl.DiagWarning {
			dj.Severity = "warning"
		}
		if d.Subject != nil {
			dj.Range = RangeOf(*d.Subject)
		}
		out = append(out, dj)
	}
	return out
}

// Document builds the `eval -json` document with the given diagnostics
// (those of loading and of evaluation).
func (r *Result) Document(diags hcl.Diagnostics) *PlanDocument {
	doc := r.documentHead(diags)
	if r == nil {
		return doc
	}
	doc.Resources = make([]ResourceJSON, len(r.Resources))
	parallel.For(len(r.Resources), func(i int) {
		doc.Resources[i] = resourceJSON(r.Resources[i])
	})
	return doc
}

// documentHead is Document without the resource instances.
func (r *Result) documentHead(diags hcl.Diagnostics) *PlanDocument {
	doc := &PlanDocument{Diagnostics: DiagnosticsJSON(diags), Outputs: map[string]OutputJSON{}, Resources: []ResourceJSON{}}
	if r == nil {
		return doc
	}
	if root := r.Root(); root != nil {
		for _, name := range sortedKeys(root.Outputs) {
			oj, uv, ok := r.outputJSON(name, root.Outputs[name])
			if ok {
				tj, _ := appendTypeJSON(nil, uv.Type())
				if vj, err := outputValueJSON(uv, uv.Type()); err == nil {
					raw := json.RawMessage(vj)
					oj.Type = tj
					oj.Value = &raw
				}
			}
			doc.Outputs[name] = oj
		}
	}
	return doc
}

// outputJSON is the OutputJSON of a root output without its type and
// value, and, when it has them (ok), the unmarked value to write them
// from (a null of the dynamic type for null).
func (r *Result) outputJSON(name string, v cty.Value) (oj OutputJSON, uv cty.Value, ok bool) {
	decl := r.Root().Config.Module.Outputs[name]
	oj = OutputJSON{Sensitive: decl != nil && decl.Sensitive, Unknown: false}
	if !v.IsWhollyKnown() {
		oj.Unknown = unknownAsBool(v)
		return oj, cty.NilVal, false
	}
	uv, _ = v.UnmarkDeep()
	if uv.IsNull() {
		uv = cty.NullVal(cty.DynamicPseudoType)
	}
	return oj, uv, true
}

// resourceJSON is one resource instance of the document.
func resourceJSON(ri *ResourceInstance) ResourceJSON {
	return ResourceJSON{
		Address:        ri.Addr,
		Mode:           resourceModeJSON(ri.Mode),
		Type:           ri.Type,
		Name:           ri.Name,
		After:          knownJSON(ri.Value),
		AfterUnknown:   unknownAsBool(ri.Value),
		AfterSensitive: sensitiveAsBool(ri.Value),
		Placeholder:    ri.Placeholder,
	}
}

// resourceModeJSON is how show -json names a resource mode.
func resourceModeJSON(m config.ResourceMode) string {
	if m == config.DataResourceMode {
		return "data"
	}
	return "managed"
}

// eachElement calls fn for every element of a known, non-null map or
// object, with its key; objects are walked without sorting attribute names,
// which an element iterator does on every call.
func eachElement(v cty.Value, fn func(name string, e cty.Value)) {
	ty := v.Type()
	if ty.IsObjectType() {
		for name := range ty.AttributeTypes() {
			fn(name, v.GetAttr(name))
		}
		return
	}
	keyed := ty.IsMapType()
	for it := elements.Of(v); it.Next(); {
		k, e := it.Element()
		name := ""
		if keyed {
			name = k.AsString()
		}
		fn(name, e)
	}
}

// PlanJSON is Document(nil) encoded as json.MarshalIndent(doc, "", "  ")
// encodes it.
func (r *Result) PlanJSON() ([]byte, error) {
	var buf bytes.Buffer
	if err := r.WriteDocument(&buf, nil); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// unknownAsBool describes where a value is unknown: true for an unknown
// value, false for a known one, and for collections the same shape with
// known parts left out of objects (show -json's after_unknown).
func unknownAsBool(v cty.Value) any {
	v, _ = v.Unmark()
	if !v.IsKnown() {
		return true
	}
	if v.IsNull() {
		return false
	}
	ty := v.Type()
	switch {
	case ty.IsListType() || ty.IsTupleType() || ty.IsSetType():
		out := []any{}
		for it := elements.Of(v); it.Next(); {
			_, e := it.Element()
			out = append(out, unknownAsBool(e))
		}
		return out
	case ty.IsMapType() || ty.IsObjectType():
		out := map[string]any{}
		eachElement(v, func(name string, e cty.Value) {
			if b := unknownAsBool(e); b != false {
				out[name] = b
			}
		})
		return out
	}
	return false
}

// sensitiveAsBool describes where a value is sensitive, shaped as
// unknownAsBool (show -json's after_sensitive).
func sensitiveAsBool(v cty.Value) any {
	if v.HasMark(marks.Sensitive) {
		return true
	}
	v, _ = v.Unmark()
	ty := v.Type()
	if v.IsNull() || ty.IsPrimitiveType() || ty == cty.DynamicPseudoType {
		return false
	}
	switch {
	case ty.IsListType() || ty.IsTupleType() || ty.IsSetType():
		out := []any{}
		if !v.IsKnown() {
			return out
		}
		for it := elements.Of(v); it.Next(); {
			_, e := it.Element()
			out = append(out, sensitiveAsBool(e))
		}
		return out
	case ty.IsMapType() || ty.IsObjectType():
		out := map[string]any{}
		if !v.IsKnown() {
			return out
		}
		eachElement(v, func(name string, e cty.Value) {
			if b := sensitiveAsBool(e); b != false {
				out[name] = b
			}
		})
		return out
	}
	return false
}

// knownJSON is the JSON form of a value with unknown parts left out of
// objects and written as null in sequences (show -json's after).
func knownJSON(v cty.Value) any {
	v, _ = v.Unmark()
	if !v.IsKnown() || v.IsNull() {
		return nil
	}
	ty := v.Type()
	switch {
	case ty == cty.String:
		return v.AsString()
	case ty == cty.Bool:
		return v.True()
	case ty == cty.Number:
		return json.Number(numtext.String(v))
	case ty.IsListType() || ty.IsTupleType() || ty.IsSetType():
		out := []any{}
		for it := elements.Of(v); it.Next(); {
			_, e := it.Element()
			out = append(out, knownJSON(e))
		}
		return out
	case ty.IsMapType() || ty.IsObjectType():
		out := map[string]any{}
		eachElement(v, func(name string, e cty.Value) {
			if eu, _ := e.Unmark(); !eu.IsKnown() {
				return
			}
			out[name] = knownJSON(e)
		})
		return out
	}
	return nil
}

// WriteIndented writes the document as json.MarshalIndent(d, "", "  ")
// would, byte for byte, with the resources marshalled on every CPU: for a
// large tree they are most of the document.
func (d *PlanDocument) WriteIndented(w io.Writer) error {
	if d.Resources == nil {
		return d.writeIndented(w, -1, nil)
	}
	return d.writeIndented(w, len(d.Resources), func(i int) ([]byte, error) {
		return d.Resources[i].marshalIndent(resourceIndent)
	})
}

// writeWindow is how many resource instances are made before they are
// written: enough to keep every CPU busy.
const writeWindow = 256

// resourceIndent is the prefix of every line of a resource instance in the
// indented document.
const resourceIndent = "    "

// writeIndented writes d's diagnostics and outputs indented, and then n
// resource instances as item gives them, marshalled with resourceIndent;
// n < 0 writes the resources as null.
func (d *PlanDocument) writeIndented(w io.Writer, n int, item func(i int) ([]byte, error)) error {
	var names []string // nil writes null
	if d.Outputs != nil {
		names = sortedKeys(d.Outputs)
	}
	return d.writeIndentedWith(w, names, func(b []byte, i int) ([]byte, error) {
		m, err := json.MarshalIndent(d.Outputs[names[i]], outputIndent, "  ")
		return append(b, m...), err
	}, n, item)
}

// outputIndent is the prefix of every line of an output in the indented
// document.
const outputIndent = "    "

// writeIndentedWith is writeIndented with the outputs named in names (in
// order; nil for null) written one at a time by output, each as
// json.MarshalIndent writes its OutputJSON with outputIndent; d.Outputs is
// not used. An
// output is written out before the next is made, so a large one is in
// memory once, not in every copy MarshalIndent makes of the document.
func (d *PlanDocument) writeIndentedWith(w io.Writer, names []string, output func(b []byte, i int) ([]byte, error), n int, item func(i int) ([]byte, error)) error {
	head := *d
	head.Outputs, head.Resources = nil, nil
	b, err := json.MarshalIndent(head, "", "  ")
	if err != nil {
		return err
	}
	// The head ends with the outputs and resources fields, marshalled as null.
	const tail = "\"outputs\": null,\n  \"resources\": null\n}"
	if !bytes.HasSuffix(b, []byte(tail)) {
		return fmt.Errorf("lang: unexpected JSON document layout")
	}
	b = append(b[:len(b)-len(tail)], "\"outputs\": {"...)
	switch {
	case names == nil:
		b = append(b[:len(b)-1], "null"...)
	case len(names) == 0:
		b = append(b, '}')
	}
	for i, name := range names {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendIndentLine(b, outputIndent, 0)
		b = append(appendJSONString(b, name), ": "...)
		if b, err = output(b, i); err != nil {
			return err
		}
		if _, err := w.Write(b); err != nil {
			return err
		}
		b = b[:0]
	}
	if len(names) > 0 {
		b = append(b, "\n  }"...)
	}
	b = append(b, ",\n  "...)
	if n < 0 {
		_, err := fmt.Fprintf(w, "%s\"resources\": null\n}", b)
		return err
	}
	if n == 0 {
		_, err := fmt.Fprintf(w, "%s\"resources\": []\n}", b)
		return err
	}
	if _, err := fmt.Fprintf(w, "%s\"resources\": [\n", b); err != nil {
		return err
	}
	// The instances are made on every CPU a window at a time and written
	// in order, so memory holds one window of them, not the document.
	items := make([][]byte, min(n, writeWindow))
	errs := make([]error, len(items))
	for start := 0; start < n; start += len(items) {
		window := min(len(items), n-start)
		parallel.For(window, func(i int) {
			items[i], errs[i] = item(start + i)
		})
		for i := range window {
			if errs[i] != nil {
				return errs[i]
			}
			sep := ",\n"
			if start+i == n-1 {
				sep = "\n"
			}
			if _, err := fmt.Fprintf(w, "%s%s%s", resourceIndent, items[i], sep); err != nil {
				return err
			}
			items[i] = nil
		}
	}
	_, err = io.WriteString(w, "  ]\n}")
	return err
}

// marshalIndent is json.MarshalIndent(r, prefix, "  "), written directly
// for the values Document builds and left to encoding/json for anything
// else, which reflection makes several times slower.
func (r ResourceJSON) marshalIndent(prefix string) ([]byte, error) {
	fields := [...]struct {
		key string
		v   any
	}{{"address", r.Address}, {"mode", r.Mode}, {"type", r.Type}, {"name", r.Name},
		{"after", r.After}, {"after_unknown", r.AfterUnknown}, {"after_sensitive", r.AfterSensitive}, {"placeholder", true}}
	n := len(fields)
	if !r.Placeholder {
		n--
	}
	b, ok := appendIndentedObject(make([]byte, 0, 256), prefix, 0, n,
		func(i int) string { return fields[i].key },
		func(b []byte, i int) ([]byte, bool) { return appendJSONIndented(b, fields[i].v, prefix, 1) })
	if !ok {
		return json.MarshalIndent(r, prefix, "  ")
	}
	return b, nil
}

// appendIndentedObject appends an object of n members as json.MarshalIndent
// writes one at depth: name gives the i-th member's name and member appends
// its value, false when it cannot. Members are asked for in order.
func appendIndentedObject(b []byte, prefix string, depth, n int, name func(i int) string, member func(b []byte, i int) ([]byte, bool)) ([]byte, bool) {
	return appendIndentedMembers(b, prefix, depth, n, "{}", name, member)
}

// appendIndentedArray is appendIndentedObject for an array of n elements.
func appendIndentedArray(b []byte, prefix string, depth, n int, elem func(b []byte, i int) ([]byte, bool)) ([]byte, bool) {
	return appendIndentedMembers(b, prefix, depth, n, "[]", nil, elem)
}

// appendIndentedMembers writes what the two above do, between the two
// bytes of brackets, with names when name is not nil.
func appendIndentedMembers(b []byte, prefix string, depth, n int, brackets string, name func(i int) string, member func(b []byte, i int) ([]byte, bool)) ([]byte, bool) {
	if n == 0 {
		return append(b, brackets...), true
	}
	b = append(b, brackets[0])
	for i := range n {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendIndentLine(b, prefix, depth+1)
		if name != nil {
			b = appendJSONString(b, name(i))
			b = append(b, ": "...)
		}
		var ok bool
		if b, ok = member(b, i); !ok {
			return b, false
		}
	}
	b = appendIndentLine(b, prefix, depth)
	return append(b, brackets[1]), true
}

// appendJSONIndented appends v as json.MarshalIndent writes it at the
// given depth, for nil, bools, strings, json.Numbers, []any and
// map[string]any; false for anything else.
func appendJSONIndented(b []byte, v any, prefix string, depth int) ([]byte, bool) {
	switch x := v.(type) {
	case nil:
		return append(b, "null"...), true
	case bool:
		return strconv.AppendBool(b, x), true
	case string:
		return appendJSONString(b, x), true
	case json.Number:
		if !simpleNumber(string(x)) {
			return b, false // encoding/json checks the literal and may refuse it
		}
		return append(b, x...), true
	case []any:
		return appendIndentedArray(b, prefix, depth, len(x), func(b []byte, i int) ([]byte, bool) {
			return appendJSONIndented(b, x[i], prefix, depth+1)
		})
	case map[string]any:
		keys := sortedKeys(x)
		return appendIndentedObject(b, prefix, depth, len(keys),
			func(i int) string { return keys[i] },
			func(b []byte, i int) ([]byte, bool) { return appendJSONIndented(b, x[keys[i]], prefix, depth+1) })
	}
	return b, false
}

// appendIndentLine starts a new line at the given depth.
func appendIndentLine(b []byte, prefix string, depth int) []byte {
	b = append(b, '\n')
	b = append(b, prefix...)
	for range depth {
		b = append(b, "  "...)
	}
	return b
}

// appendJSONString appends s quoted as encoding/json quotes it: printable
// ASCII other than the quote, the backslash and the HTML characters as it
// is, anything else through encoding/json.
func appendJSONString(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c > 0x7e || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			q, _ := json.Marshal(s)
			return append(b, q...)
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}

// simpleNumber reports whether s is a decimal as numtext writes finite
// numbers: an optional minus, digits, and optionally a point and digits.
func simpleNumber(s string) bool {
	s = strings.TrimPrefix(s, "-")
	intPart, frac, hasFrac := strings.Cut(s, ".")
	digits := func(p string) bool {
		if p == "" {
			return false
		}
		for i := 0; i < len(p); i++ {
			if p[i] < '0' || p[i] > '9' {
				return false
			}
		}
		return true
	}
	if !digits(intPart) || len(intPart) > 1 && intPart[0] == '0' {
		return false
	}
	return !hasFrac || digits(frac)
}
