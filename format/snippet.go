package format

import (
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
	ctyjson "github.com/zclconf/go-cty/cty/json"

	"github.com/tfeval/tfeval/dialect"
	"github.com/tfeval/tfeval/funcs"
	"github.com/tfeval/tfeval/lang"
	"github.com/tfeval/tfeval/marks"
)

// Snippet is the source excerpt of a JSON diagnostic, as Terraform writes
// it: the lines of the diagnostic's range and of its context range (empty
// lines left out), the block they are in, where the range is in them (in
// bytes), the values of what the diagnostic's expression refers to, and
// the function the diagnostic is about.
type Snippet struct {
	Context              *string        `json:"context"`
	Code                 string         `json:"code"`
	StartLine            int            `json:"start_line"`
	HighlightStartOffset int            `json:"highlight_start_offset"`
	HighlightEndOffset   int            `json:"highlight_end_offset"`
	Values               []SnippetValue `json:"values"`
	FunctionCall         *FunctionCall  `json:"function_call,omitempty"`
	lines                []string       // Code's lines, for the text layout
}

// SnippetValue is what a reference of the expression was when the
// diagnostic was made: `var.x` and `is 1`.
type SnippetValue struct {
	Traversal string `json:"traversal"`
	Statement string `json:"statement"`
}

// FunctionCall is the function a diagnostic is about, as it was called,
// and its signature.
type FunctionCall struct {
	CalledAs  string             `json:"called_as"`
	Signature *FunctionSignature `json:"signature,omitempty"`
}

// FunctionSignature is a function's parameters and result type, types in
// cty's JSON form.
type FunctionSignature struct {
	Name          string          `json:"name"`
	Params        []FunctionParam `json:"params"`
	VariadicParam *FunctionParam  `json:"variadic_param,omitempty"`
	ReturnType    json.RawMessage `json:"return_type"`
}

// FunctionParam is a parameter of a function.
type FunctionParam struct {
	Name string          `json:"name"`
	Type json.RawMessage `json:"type"`
}

// maxSnippetLines bounds the lines of a snippet: a diagnostic about a
// whole generated file is not copied into every JSON diagnostic.
const maxSnippetLines = 100

// Snippet is the snippet of d, nil if d has no range or its file cannot
// be read. The values of the expression are computed here, when the
// diagnostic is written, not when it is made.
func (s *Sources) Snippet(d *hcl.Diagnostic) *Snippet {
	if d.Subject == nil {
		return nil
	}
	highlight := s.inRoot(*d.Subject)
	if highlight.End == (hcl.Pos{}) {
		// A range made without its end is where it starts, as Terraform
		// takes it.
		highlight.End = highlight.Start
	}
	whole := highlight
	if d.Context != nil {
		whole = hcl.RangeOver(s.inRoot(*d.Context), highlight)
	}
	src := s.source(highlight.Filename)
	if src == nil || highlight.Start.Line < 1 {
		return nil
	}
	highlight, whole = src.withBytes(highlight), src.withBytes(whole)
	// Empty ranges are widened by a byte, as Terraform does.
	if whole.Empty() {
		whole.End.Byte++
		whole.End.Column++
	}
	if highlight.Empty() {
		highlight.End.Byte++
		highlight.End.Column++
	}
	sn := &Snippet{StartLine: whole.Start.Line, Values: snippetValues(d)}
	if c := s.context(highlight); c != "" {
		sn.Context = &c
	}
	// The lines the whole range overlaps, as hcl's range scanner gives
	// them (without line ends): an empty line overlaps nothing and is
	// left out.
	codeStart := -1
	for n := src.lineAt(whole.Start.Byte); n >= 1 && n <= src.lineCount() && len(sn.lines) < maxSnippetLines; n++ {
		start := src.starts[n-1]
		if start > whole.End.Byte {
			break
		}
		text := strings.TrimSuffix(src.line(n), "\r")
		line := hcl.Range{Filename: whole.Filename, Start: hcl.Pos{Byte: start}, End: hcl.Pos{Byte: start + len(text)}}
		if !line.Overlaps(whole) {
			continue
		}
		if codeStart < 0 {
			codeStart = start
		}
		sn.lines = append(sn.lines, excerptLine(text))
	}
	if codeStart < 0 {
		// Only empty lines, or none (past the end of the file): the code
		// is empty, and shows as one empty line.
		codeStart = 0
		sn.lines = []string{""}
	}
	sn.Code = strings.Join(sn.lines, "\n")
	// Offsets past the code (the range starts or ends at a line end) are
	// brought within it.
	clamp := func(n int) int { return max(0, min(n, len(sn.Code))) }
	sn.HighlightStartOffset = clamp(highlight.Start.Byte - codeStart)
	sn.HighlightEndOffset = clamp(highlight.Start.Byte - codeStart + highlight.End.Byte - highlight.Start.Byte)
	sn.FunctionCall = functionCall(d, s.d)
	return sn
}

// maxStatementString bounds, in bytes, a string value a snippet shows.
const maxStatementString = 64 << 10

// snippetValues are the values of the references in d's expression, in
// the order of their names, as Terraform shows them: a reference that
// does not resolve is shown as its longest prefix that does, one of a
// single name (a for expression's symbol) never; a sensitive or
// ephemeral value is left out, and an unknown one given by its type,
// unless d is about such a value (lang.ValueCause).
func snippetValues(d *hcl.Diagnostic) []SnippetValue {
	values := []SnippetValue{}
	if d.Expression == nil || d.EvalContext == nil {
		return values
	}
	cause, _ := hcl.DiagnosticExtra[lang.ValueCause](d)
	seen := map[string]bool{}
	for _, t := range d.Expression.Variables() {
		for len(t) > 1 {
			v, diags := t.TraverseAbs(d.EvalContext)
			if diags.HasErrors() {
				t = t[:len(t)-1]
				continue
			}
			name := valueTraversalString(t)
			if seen[name] {
				break
			}
			seen[name] = true
			if st, ok := valueStatement(v, cause); ok {
				values = append(values, SnippetValue{Traversal: name, Statement: st})
			}
			break
		}
	}
	sort.Slice(values, func(i, j int) bool { return values[i].Traversal < values[j].Traversal })
	return values
}

// valueTraversalString writes a reference as Terraform names it among a
// diagnostic's values: an index key as compactValue writes it (a string
// in Go's quoting, not JSON's, which would escape "<" as \u003c), a key
// that is not of a primitive type as "...".
func valueTraversalString(t hcl.Traversal) string {
	return traversalWith(t, func(k cty.Value) string {
		if !k.Type().IsPrimitiveType() {
			return "..."
		}
		return compactValue(k)
	})
}

// valueStatement says what v is ("is 1", "has a sensitive value"); false
// when it is not to be shown.
func valueStatement(v cty.Value, cause lang.ValueCause) (string, bool) {
	switch {
	case v.HasMark(marks.Sensitive):
		return "has a sensitive value", cause.Sensitive
	case v.HasMark(marks.Ephemeral):
		return "has an ephemeral value", cause.Ephemeral
	case !v.IsKnown():
		ty := v.Type()
		switch {
		case cause.Unknown && ty == cty.DynamicPseudoType:
			return "will be known only after apply", true
		case cause.Unknown:
			return fmt.Sprintf("is a %s, known only after apply", ty.FriendlyName()), true
		case ty == cty.DynamicPseudoType:
			return "", false
		}
		return "is a " + ty.FriendlyName(), true
	}
	return "is " + compactValue(v), true
}

// compactValue describes v in a few words: a primitive value as HCL
// writes it, a collection by its type and length, a single-attribute
// object by its attribute's name. What nested values are is never said,
// so nothing sensitive inside shows, and only v's own marks are taken
// off: taking off nested ones would copy the whole value.
func compactValue(v cty.Value) string {
	v, _ = v.Unmark()
	ty := v.Type()
	switch {
	case v.IsNull():
		return "null"
	case !v.IsKnown():
		return "(not yet known)"
	case ty == cty.String:
		str := v.AsString()
		if len(str) > maxStatementString {
			// Terraform writes strings whole; a hostile one is cut,
			// that thousands of diagnostics cannot write gigabytes.
			cut := maxStatementString
			for cut > 0 && !utf8.RuneStart(str[cut]) {
				cut--
			}
			return strconv.Quote(str[:cut]) + "…"
		}
		return strconv.Quote(str)
	case ty == cty.Number:
		return v.AsBigFloat().Text('g', 10)
	case ty == cty.Bool:
		return strconv.FormatBool(v.True())
	case ty.IsObjectType():
		attrs := ty.AttributeTypes()
		switch len(attrs) {
		case 0:
			return "object with no attributes"
		case 1:
			for name := range attrs {
				return fmt.Sprintf("object with 1 attribute %q", name)
			}
		}
		return fmt.Sprintf("object with %d attributes", len(attrs))
	case ty.IsListType(), ty.IsSetType(), ty.IsMapType(), ty.IsTupleType():
		n := v.LengthInt()
		switch n {
		case 0:
			return "empty " + ty.FriendlyName()
		case 1:
			return ty.FriendlyName() + " with 1 element"
		}
		return fmt.Sprintf("%s with %d elements", ty.FriendlyName(), n)
	}
	return ty.FriendlyName()
}

// functionCall is the function d is about, with its signature where the
// diagnostic's context still has it.
func functionCall(d *hcl.Diagnostic, lang dialect.Dialect) *FunctionCall {
	extra, ok := hcl.DiagnosticExtra[hclsyntax.FunctionCallDiagExtra](d)
	if !ok {
		return nil
	}
	name := extra.CalledFunctionName()
	call := &FunctionCall{CalledAs: name}
	var f function.Function
	found := false
	for c := d.EvalContext; c != nil && !found; c = c.Parent() {
		f, found = c.Functions[name]
	}
	if !found {
		return call
	}
	sig := &FunctionSignature{Name: name, Params: []FunctionParam{}}
	var argTypes []cty.Type
	for _, p := range f.Params() {
		sig.Params = append(sig.Params, FunctionParam{Name: p.Name, Type: typeJSON(p.Type)})
		argTypes = append(argTypes, p.Type)
	}
	if p := f.VarParam(); p != nil {
		sig.VariadicParam = &FunctionParam{Name: p.Name, Type: typeJSON(p.Type)}
	}
	ret := funcs.ReturnType(lang, strings.TrimPrefix(name, funcs.CoreNamespace), argTypes)
	if ret == cty.DynamicPseudoType && strings.HasPrefix(name, funcs.ProviderNamespace) {
		// A provider's function declares its own.
		if ty, err := f.ReturnType(argTypes); err == nil {
			ret = ty
		}
	}
	sig.ReturnType = typeJSON(ret)
	call.Signature = sig
	return call
}

func typeJSON(ty cty.Type) json.RawMessage {
	b, err := ctyjson.MarshalType(ty)
	if err != nil {
		return json.RawMessage(`"dynamic"`)
	}
	return b
}
