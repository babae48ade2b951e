package funcs

import (
	"errors"
	"fmt"

	ctyyaml "github.com/zclconf/go-cty-yaml"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
	"github.com/zclconf/go-cty/cty/function/stdlib"

	"github.com/tfeval/tfeval/internal/limit"
)

// Documents: the JSON and YAML texts jsondecode and yamldecode decode, and
// the data source results files the evaluation is given (-data), held to
// one set of limits before they are decoded. A document may nest at most
// Limits.MaxNesting deep (decoders recurse once a level), hold at most
// Limits.MaxElements values (arrays' elements and objects' attributes,
// each alias of a YAML document counted with every value it repeats), and
// write no number in more than limit.MaxNumberText characters.

// Rates at which decoding a document is charged, on top of the step of the
// call: what a call decodes is kept for the rest of the evaluation, so
// only a document's first decoding is charged.
const (
	// jsonBytesPerStep: tfeval's JSON decoder, about 100 ns a byte; a
	// document costs what building its text cost (bytesPerStep).
	jsonBytesPerStep = bytesPerStep
	// ctyJSONBytesPerStep: go-cty's JSON decoder, which answers for the
	// documents tfeval's own leaves to it (see decodeJSON), reads each
	// nested value again and takes about 800 ns a byte.
	ctyJSONBytesPerStep = 2
	// yamlBytesPerStep: go-cty-yaml parses a document twice (for its type,
	// then its value), about 400 ns a byte in all.
	yamlBytesPerStep = 1
)

// DecodeJSON decodes a JSON document as jsondecode does (objects, tuples,
// exact numbers, strings taken literally) after checking it against the
// limits on documents; the error says which it passes, or why the
// document is not JSON.
func DecodeJSON(doc string, limits Limits) (cty.Value, error) {
	if err := CheckJSONDocument(doc, limits); err != nil {
		return cty.NilVal, err
	}
	if v, ok := decodeJSON(doc); ok {
		return v, nil
	}
	v, err := stdlib.JSONDecode(cty.StringVal(doc))
	return v, cleanPanic(err)
}

// CheckJSONDocument refuses a JSON document past the limits on documents,
// from a scan of its bytes (about a nanosecond a byte), before anything
// decodes it.
func CheckJSONDocument(doc string, limits Limits) error {
	limits = limits.withDefaults()
	depth, values := limit.JSONShape(doc)
	if depth > limits.MaxNesting {
		return tooDeepDocument(limits.MaxNesting)
	}
	if values > limits.MaxElements {
		return tooManyValues(limits.MaxElements)
	}
	if limit.LongNumberText(doc) {
		return longNumber()
	}
	return nil
}

func tooDeepDocument(max int) error {
	return fmt.Errorf("the document nests more than %d levels deep, the limit for untrusted input (Limits.MaxNesting)", max)
}

func tooManyValues(max int) error {
	return fmt.Errorf("the document holds more than %d values, the limit on what one document may hold (Limits.MaxElements)", max)
}

func longNumber() error {
	return fmt.Errorf("the document holds a number written with more than %d characters, which tfeval refuses because reading it could take hours", limit.MaxNumberText)
}

// budgetError is an error of the evaluation's budget (its steps, memory or
// context) met while decoding: the document's result is not kept, since
// another call may decode it within a budget.
type budgetError struct{ error }

func (e budgetError) Unwrap() error { return e.error }

// chargeDocument charges n steps for decoding a document.
func (e *env) chargeDocument(n int64) error {
	if err := e.charge(n); err != nil {
		return budgetError{err}
	}
	return nil
}

// jsonDocuments decodes jsondecode's documents: checked against the
// limits, charged, and decoded in one pass where tfeval's decoder can, by
// fn (go-cty's jsondecode) where it cannot.
func (e *env) jsonDocuments(fn function.Function) func(doc string) (cty.Value, error) {
	return func(doc string) (cty.Value, error) {
		if err := e.chargeDocument(int64(len(doc) / jsonBytesPerStep)); err != nil {
			return cty.NilVal, err
		}
		if err := CheckJSONDocument(doc, e.limits); err != nil {
			return cty.NilVal, function.NewArgError(0, err)
		}
		if v, ok := decodeJSON(doc); ok {
			return v, nil
		}
		if err := e.chargeDocument(int64(len(doc) / ctyJSONBytesPerStep)); err != nil {
			return cty.NilVal, err
		}
		return fn.Call([]cty.Value{cty.StringVal(doc)})
	}
}

// yamlDocuments decodes yamldecode's documents as go-cty-yaml does (its
// type, then its value), with the type checked against the limits on
// documents before the value is made. go-cty-yaml shares one value among
// the places an alias (*name) repeats it, so decoding is quick however
// many times a value is repeated, but every later walk over the result
// visits each repetition: ten levels of ten aliases each are ten billion
// values. The type is shared in the same way, and counting its parts
// counts the repetitions.
func (e *env) yamlDocuments() func(doc string) (cty.Value, error) {
	return func(doc string) (cty.Value, error) {
		if err := e.chargeDocument(int64(len(doc) / yamlBytesPerStep)); err != nil {
			return cty.NilVal, err
		}
		if yamlNesting(doc) > e.limits.MaxNesting {
			return cty.NilVal, function.NewArgError(0, tooDeepDocument(e.limits.MaxNesting))
		}
		if limit.LongNumberText(doc) {
			return cty.NilVal, function.NewArgError(0, longNumber())
		}
		ty, err := ctyyaml.ImpliedType([]byte(doc))
		if err != nil {
			return cty.NilVal, err
		}
		if limit.TypeValues(ty, e.limits.MaxElements) > e.limits.MaxElements {
			return cty.NilVal, function.NewArgError(0, tooManyValues(e.limits.MaxElements))
		}
		return ctyyaml.Unmarshal([]byte(doc), ty)
	}
}

// isBudgetError reports whether err stopped a decoding for the
// evaluation's budget rather than for the document.
func isBudgetError(err error) bool {
	var b budgetError
	return errors.As(err, &b)
}
