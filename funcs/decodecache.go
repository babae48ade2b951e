package funcs

import (
	"sync"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
)

// maxDecodedBytes bounds the documents one table keeps decoded results of
// (their values take several times the text); past it, documents are
// decoded on every call as before.
const maxDecodedBytes = 16 << 20

// decodeCache keeps the results of a decoding function (jsondecode,
// yamldecode) by the document decoded. Modules that read a library of
// documents, once per instance of a module called many times, decode the
// same text again and again; and cty's decoders parse each document twice,
// once to find the result type and once for the value. The result depends
// only on the text, so one decode serves every call.
type decodeCache struct {
	results memo[decoded] // bounded by maxDecodedBytes of documents
	// last is the latest document decoded past the bound, so a call's
	// type check and value still share one decode; mu guards it.
	mu      sync.Mutex
	lastDoc string
	last    decoded
	hasLast bool
}

// decoded is one document's result, or why it could not be decoded.
type decoded struct {
	val cty.Value
	err error
}

// cachedDecoder wraps a function of one string parameter whose result
// depends only on that string so that each distinct known string is
// decoded once, by decode; unknown and null arguments go to fn unchanged.
// An error of the evaluation's budget (budgetError) is not kept: the
// document itself may be fine.
func cachedDecoder(fn function.Function, decode func(string) (cty.Value, error), cache *decodeCache) function.Function {
	cachedDecode := func(s string) (cty.Value, error) {
		if r, ok := cache.get(s); ok {
			return r.val, r.err
		}
		var r decoded
		r.val, r.err = decode(s)
		if !isBudgetError(r.err) {
			cache.put(s, r)
		}
		return r.val, r.err
	}
	// known is the argument's text when the cache can answer for it.
	known := func(args []cty.Value) (string, bool) {
		if len(args) != 1 || !args[0].IsKnown() || args[0].IsNull() || args[0].IsMarked() || args[0].Type() != cty.String {
			return "", false
		}
		return args[0].AsString(), true
	}
	return function.New(&function.Spec{
		Description: fn.Description(),
		Params:      fn.Params(),
		VarParam:    fn.VarParam(),
		Type: func(args []cty.Value) (cty.Type, error) {
			s, ok := known(args)
			if !ok {
				return fn.ReturnTypeForValues(args)
			}
			v, err := cachedDecode(s)
			if err != nil {
				return cty.NilType, err
			}
			return v.Type(), nil
		},
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			s, ok := known(args)
			if !ok {
				return fn.Call(args)
			}
			return cachedDecode(s)
		},
	})
}

// get is the result kept for a document.
func (c *decodeCache) get(doc string) (decoded, bool) {
	if r, ok := c.results.get(doc); ok {
		return r, true
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.last, c.hasLast && c.lastDoc == doc
}

// put keeps a document's result: among the results while they are within
// their bound, else as the last one.
func (c *decodeCache) put(doc string, r decoded) {
	if c.results.put(doc, r, len(doc)) {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.lastDoc, c.last, c.hasLast = doc, r, true
}
