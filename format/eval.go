package format

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/tfeval/tfeval/internal/parallel"
	"github.com/tfeval/tfeval/lang"
)

// EvalFormatVersion is the version of the `eval -json` document.
const EvalFormatVersion = "1.0"

// EvalDocument is the `eval -json` document: what terraform plan -json and
// show -json report about outputs and resources, plus diagnostics.
type EvalDocument struct {
	FormatVersion string                `json:"format_version"`
	Diagnostics   []Diagnostic          `json:"diagnostics"`
	Outputs       map[string]EvalOutput `json:"outputs"`
	Resources     []EvalResource        `json:"resources"`
}

// EvalOutput is one root module output.
type EvalOutput struct {
	Sensitive bool `json:"sensitive"`
	// Unknown is false, true, or booleans shaped like the value marking its unknown parts.
	Unknown any `json:"unknown"`
	// Type and Value are present only when the value is wholly known.
	Type  json.RawMessage  `json:"type,omitempty"`
	Value *json.RawMessage `json:"value,omitempty"`
}

// EvalResource is one planned resource instance as show -json writes it.
type EvalResource struct {
	Address        string `json:"address"`
	Mode           string `json:"mode"`
	Type           string `json:"type"`
	Name           string `json:"name"`
	After          any    `json:"after"`
	AfterUnknown   any    `json:"after_unknown"`
	AfterSensitive any    `json:"after_sensitive"`
	// Placeholder is set on an instance that stands for instances tfeval
	// cannot count (lang.ResourceInstance.Placeholder).
	Placeholder bool `json:"placeholder,omitempty"`
}

// NewEvalDocument builds the `eval -json` document of an evaluation's
// result (which may be nil) with the given diagnostics (those of loading
// and of evaluation).
func NewEvalDocument(r *lang.Result, diags hcl.Diagnostics) *EvalDocument {
	doc := evalHead(r, diags)
	if r == nil {
		return doc
	}
	doc.Resources = make([]EvalResource, len(r.Resources))
	parallel.For(len(r.Resources), func(i int) {
		doc.Resources[i] = evalResource(r.Resources[i])
	})
	return doc
}

// evalHead is NewEvalDocument without the resource instances.
func evalHead(r *lang.Result, diags hcl.Diagnostics) *EvalDocument {
	doc := &EvalDocument{FormatVersion: EvalFormatVersion, Diagnostics: Diagnostics(diags), Outputs: map[string]EvalOutput{}, Resources: []EvalResource{}}
	if r == nil {
		return doc
	}
	if root := r.Root(); root != nil {
		for _, name := range sortedKeys(root.Outputs) {
			oj, uv, ok := evalOutput(r, name, root.Outputs[name])
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

// evalOutput is the EvalOutput of a root output without its type and
// value, and, when it has them (ok), the unmarked value to write them
// from (a null of the dynamic type for null).
func evalOutput(r *lang.Result, name string, v cty.Value) (oj EvalOutput, uv cty.Value, ok bool) {
	decl := r.Root().Config.Module.Outputs[name]
	oj = EvalOutput{Sensitive: decl != nil && decl.Sensitive, Unknown: false}
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

// evalResource is one resource instance of the document.
func evalResource(ri *lang.ResourceInstance) EvalResource {
	return EvalResource{
		Address:        ri.Addr,
		Mode:           modeName(ri.Mode),
		Type:           ri.Type,
		Name:           ri.Name,
		After:          knownJSON(ri.Value),
		AfterUnknown:   unknownAsBool(ri.Value),
		AfterSensitive: sensitiveAsBool(ri.Value),
		Placeholder:    ri.Placeholder,
	}
}

// WriteIndented writes the document as json.MarshalIndent(d, "", "  ")
// would, byte for byte, with the resources marshalled on every CPU: for a
// large tree they are most of the document.
func (d *EvalDocument) WriteIndented(w io.Writer) error {
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
func (d *EvalDocument) writeIndented(w io.Writer, n int, item func(i int) ([]byte, error)) error {
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
// json.MarshalIndent writes its EvalOutput with outputIndent; d.Outputs is
// not used. An
// output is written out before the next is made, so a large one is in
// memory once, not in every copy MarshalIndent makes of the document.
func (d *EvalDocument) writeIndentedWith(w io.Writer, names []string, output func(b []byte, i int) ([]byte, error), n int, item func(i int) ([]byte, error)) error {
	head := *d
	head.Outputs, head.Resources = nil, nil
	b, err := json.MarshalIndent(head, "", "  ")
	if err != nil {
		return err
	}
	// The head ends with the outputs and resources fields, marshalled as null.
	const tail = "\"outputs\": null,\n  \"resources\": null\n}"
	if !bytes.HasSuffix(b, []byte(tail)) {
		return fmt.Errorf("format: unexpected JSON document layout")
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
	// in order, so memory holds two windows of them, not the document:
	// the next window is made while this one is written, since writing
	// (a scan's JSON line is compacted as it is written) runs on one
	// goroutine and would otherwise leave the other CPUs idle.
	var windows [2]itemWindow
	for k := range windows {
		windows[k] = itemWindow{items: make([][]byte, min(n, writeWindow)), errs: make([]error, min(n, writeWindow))}
	}
	size := len(windows[0].items)
	made := make(chan struct{}, 1)
	makeWindow := func(win *itemWindow, start int) {
		win.start, win.count = start, min(size, n-start)
		parallel.For(win.count, func(i int) {
			win.items[i], win.errs[i] = item(start + i)
		})
	}
	makeWindow(&windows[0], 0)
	for k, start := 0, 0; start < n; k, start = k^1, start+size {
		cur := &windows[k]
		next := start + size
		if next < n {
			go func() {
				makeWindow(&windows[k^1], next)
				made <- struct{}{}
			}()
		}
		err := cur.write(w, n)
		if next < n {
			<-made
		}
		if err != nil {
			return err
		}
	}
	_, err = io.WriteString(w, "  ]\n}")
	return err
}

// itemWindow is a window of resource instances made for
// writeIndentedWith: count of them from start, each with its error.
type itemWindow struct {
	items [][]byte
	errs  []error
	start int
	count int
}

// write writes the window's instances in order, each with resourceIndent
// before it and the separator after it (none after the n-th), and lets
// each go once written; the first instance's error, or the writer's, ends
// it.
func (win *itemWindow) write(w io.Writer, n int) error {
	for i := range win.count {
		if win.errs[i] != nil {
			return win.errs[i]
		}
		sep := ",\n"
		if win.start+i == n-1 {
			sep = "\n"
		}
		if _, err := fmt.Fprintf(w, "%s%s%s", resourceIndent, win.items[i], sep); err != nil {
			return err
		}
		win.items[i] = nil
	}
	return nil
}

// marshalIndent is json.MarshalIndent(r, prefix, "  "), written directly
// for the values NewEvalDocument builds and left to encoding/json for anything
// else, which reflection makes several times slower.
func (r EvalResource) marshalIndent(prefix string) ([]byte, error) {
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
