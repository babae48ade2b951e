package format

import (
	"encoding/json"
	"io"
	"sort"
)

// WriteJSON writes the plan as the binaries do: compact, on one line. It
// writes what json.Marshal makes of the plan, byte for byte, but a piece at
// a time (each resource instance, each change, each output by itself):
// encoding/json holds a whole document in memory before writing any of it,
// and a plan repeats every value (planned values, changes, prior state),
// so a large value shared by a few resources made gigabytes.
func (p *Plan) WriteJSON(w io.Writer) error {
	s := &jsonStream{w: w}
	s.object(func(o *jsonObject) {
		o.value("format_version", p.FormatVersion)
		o.value("terraform_version", p.TerraformVersion)
		if len(p.Variables) > 0 {
			o.field("variables", func() { writeMap(s, p.Variables) })
		}
		o.field("planned_values", func() { p.PlannedValues.write(s) })
		if len(p.ResourceChanges) > 0 {
			o.field("resource_changes", func() { writeSlice(s, p.ResourceChanges) })
		}
		if len(p.DeferredChanges) > 0 {
			o.field("deferred_changes", func() { writeSlice(s, p.DeferredChanges) })
		}
		if len(p.OutputChanges) > 0 {
			o.field("output_changes", func() { writeMap(s, p.OutputChanges) })
		}
		if st := p.PriorState; st != nil {
			o.field("prior_state", func() {
				s.object(func(o *jsonObject) {
					o.value("format_version", st.FormatVersion)
					o.value("terraform_version", st.TerraformVersion)
					if st.Values != nil {
						o.field("values", func() { st.Values.write(s) })
					}
				})
			})
		}
		o.value("configuration", p.Configuration)
		if len(p.RelevantAttrs) > 0 {
			o.value("relevant_attributes", p.RelevantAttrs)
		}
		if len(p.Checks) > 0 {
			o.value("checks", p.Checks)
		}
		if p.Timestamp != "" {
			o.value("timestamp", p.Timestamp)
		}
		if p.Applyable != nil {
			o.value("applyable", p.Applyable)
		}
		if p.Complete != nil {
			o.value("complete", p.Complete)
		}
		o.value("errored", p.Errored)
	})
	s.raw("\n")
	return s.err
}

func (v *Values) write(s *jsonStream) {
	s.object(func(o *jsonObject) {
		if len(v.Outputs) > 0 {
			o.field("outputs", func() { writeMap(s, v.Outputs) })
		}
		o.field("root_module", func() { v.RootModule.write(s) })
	})
}

func (m *Module) write(s *jsonStream) {
	s.object(func(o *jsonObject) {
		if len(m.Resources) > 0 {
			o.field("resources", func() { writeSlice(s, m.Resources) })
		}
		if m.Address != "" {
			o.value("address", m.Address)
		}
		if len(m.ChildModules) > 0 {
			o.field("child_modules", func() {
				s.raw("[")
				for i, c := range m.ChildModules {
					if i > 0 {
						s.raw(",")
					}
					if c == nil {
						s.raw("null")
						continue
					}
					c.write(s)
				}
				s.raw("]")
			})
		}
	})
}

// jsonStream writes a JSON document in pieces; the first error stops it.
type jsonStream struct {
	w   io.Writer
	err error
}

func (s *jsonStream) raw(text string) {
	if s.err == nil {
		_, s.err = io.WriteString(s.w, text)
	}
}

// value writes v as json.Marshal writes it inside a larger value.
func (s *jsonStream) value(v any) {
	if s.err != nil {
		return
	}
	var b []byte
	b, s.err = json.Marshal(v)
	if s.err == nil {
		_, s.err = s.w.Write(b)
	}
}

func (s *jsonStream) object(fields func(*jsonObject)) {
	s.raw("{")
	fields(&jsonObject{s: s})
	s.raw("}")
}

// jsonObject writes the members of an object, with the commas between.
type jsonObject struct {
	s *jsonStream
	n int
}

func (o *jsonObject) field(name string, write func()) {
	if o.n > 0 {
		o.s.raw(",")
	}
	o.n++
	o.s.value(name)
	o.s.raw(":")
	write()
}

func (o *jsonObject) value(name string, v any) {
	o.field(name, func() { o.s.value(v) })
}

func writeSlice[T any](s *jsonStream, items []T) {
	s.raw("[")
	for i := range items {
		if i > 0 {
			s.raw(",")
		}
		s.value(&items[i])
	}
	s.raw("]")
}

// writeMap writes a map as encoding/json does: keys in order.
func writeMap[T any](s *jsonStream, m map[string]T) {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	s.object(func(o *jsonObject) {
		for _, k := range keys {
			o.value(k, m[k])
		}
	})
}

// countingWriter counts what is written to it and keeps none of it.
type countingWriter struct{ n int64 }

func (c *countingWriter) Write(p []byte) (int, error) {
	c.n += int64(len(p))
	return len(p), nil
}

// JSONSize is the number of bytes WriteJSON writes, found by writing the
// plan to nothing: a command that must write the document whole or not at
// all checks it against its limit first.
func (p *Plan) JSONSize() (int64, error) {
	var c countingWriter
	err := p.WriteJSON(&c)
	return c.n, err
}
