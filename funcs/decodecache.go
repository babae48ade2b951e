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
	mu      sync.Mutex
	results map[string]decoded
	bytes   int
	// last is the latest document decoded past the bound, so a call's
	// type check and value still share one decode.
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
// decoded once; unknown and null arguments go to fn unchanged. fast, when
// not nil, decodes what it can faster than fn and leaves the rest (and
// every error) to fn.
func cachedDecoder(fn function.Function, fast func(string) (cty.Value, bool), cache *decodeCache) function.Function {
	params := fn.Params()
	decode := func(s string) (cty.Value, error) {
		cache.mu.Lock()
		r, ok := cache.results[s]
		if !ok && cache.hasLast && cache.lastDoc == s {
			r, ok = cache.last, true
		}
		cache.mu.Unlock()
		if ok {
			return r.val, r.err
		}
		var v cty.Value
		var err error
		if fv, ok := fastDecode(fast, s); ok {
			v = fv
		} else {
			v, err = fn.Call([]cty.Value{cty.StringVal(s)})
		}
		cache.mu.Lock()
		defer cache.mu.Unlock()
		if cache.bytes+len(s) <= maxDecodedBytes {
			if cache.results == nil {
				cache.results = map[string]decoded{}
			}
			if _, ok := cache.results[s]; !ok {
				cache.results[s] = decoded{v, err}
				cache.bytes += len(s)
			}
		} else {
			cache.lastDoc, cache.last, cache.hasLast = s, decoded{v, err}, true
		}
		return v, err
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
		Params:      params,
		VarParam:    fn.VarParam(),
		Type: func(args []cty.Value) (cty.Type, error) {
			s, ok := known(args)
			if !ok {
				return fn.ReturnTypeForValues(args)
			}
			v, err := decode(s)
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
			return decode(s)
		},
	})
}

// fastDecode is fast(s), or false without a fast decoder.
func fastDecode(fast func(string) (cty.Value, bool), s string) (cty.Value, bool) {
	if fast == nil {
		return cty.NilVal, false
	}
	return fast(s)
}
