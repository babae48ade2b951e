package funcs

import (
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"net/url"
	"unicode/utf8"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/ianaindex"
)

// base64DecodeFunc decodes Base64 into a string, which must be valid UTF-8.
var base64DecodeFunc = function.New(&function.Spec{
	Params:       []function.Parameter{{Name: "str", Type: cty.String, AllowMarked: true}},
	Type:         function.StaticReturnType(cty.String),
	RefineResult: refineNotNull,
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		str, m := args[0].Unmark()
		s := str.AsString()
		dec, err := base64.StdEncoding.DecodeString(s)
		if err != nil {
			return cty.UnknownVal(cty.String), fmt.Errorf("failed to decode base64 data %s", redactIfSensitive(s, m))
		}
		if !utf8.Valid(dec) {
			return cty.UnknownVal(cty.String), errors.New("the result of decoding the provided string is not valid UTF-8")
		}
		return cty.StringVal(string(dec)).WithMarks(m), nil
	},
})

// base64EncodeFunc encodes the UTF-8 bytes of a string in Base64.
var base64EncodeFunc = function.New(&function.Spec{
	Params:       []function.Parameter{{Name: "str", Type: cty.String}},
	Type:         function.StaticReturnType(cty.String),
	RefineResult: refineNotNull,
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		return cty.StringVal(base64.StdEncoding.EncodeToString([]byte(args[0].AsString()))), nil
	},
})

// base64GzipFunc gzips a string and encodes the result in Base64.
var base64GzipFunc = function.New(&function.Spec{
	Params:       []function.Parameter{{Name: "str", Type: cty.String}},
	Type:         function.StaticReturnType(cty.String),
	RefineResult: refineNotNull,
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		var buf bytes.Buffer
		gz := gzip.NewWriter(&buf)
		// Write, Flush, Close in this order reproduces upstream's exact bytes.
		if _, err := gz.Write([]byte(args[0].AsString())); err != nil {
			return cty.UnknownVal(cty.String), fmt.Errorf("failed to write gzip raw data: %w", err)
		}
		if err := gz.Flush(); err != nil {
			return cty.UnknownVal(cty.String), fmt.Errorf("failed to flush gzip writer: %w", err)
		}
		if err := gz.Close(); err != nil {
			return cty.UnknownVal(cty.String), fmt.Errorf("failed to close gzip writer: %w", err)
		}
		return cty.StringVal(base64.StdEncoding.EncodeToString(buf.Bytes())), nil
	},
})

// base64GunzipFunc (OpenTofu) decodes Base64 and gunzips the result.
var base64GunzipFunc = function.New(&function.Spec{
	Params:       []function.Parameter{{Name: "str", Type: cty.String, AllowMarked: true}},
	Type:         function.StaticReturnType(cty.String),
	RefineResult: refineNotNull,
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		str, m := args[0].Unmark()
		s := str.AsString()
		raw, err := base64.StdEncoding.DecodeString(s)
		if err != nil {
			return cty.UnknownVal(cty.String), fmt.Errorf("failed to decode base64 data %s", redactIfSensitive(s, m))
		}
		gz, err := gzip.NewReader(bytes.NewReader(raw))
		if err != nil {
			return cty.UnknownVal(cty.String), fmt.Errorf("failed to gunzip bytestream: %w", err)
		}
		out, err := io.ReadAll(gz)
		if err != nil {
			return cty.UnknownVal(cty.String), fmt.Errorf("failed to read gunzip raw data: %w", err)
		}
		return cty.StringVal(string(out)).WithMarks(m), nil
	},
})

// urlEncodeFunc percent-encodes a string for use in a URL query.
var urlEncodeFunc = function.New(&function.Spec{
	Params:       []function.Parameter{{Name: "str", Type: cty.String}},
	Type:         function.StaticReturnType(cty.String),
	RefineResult: refineNotNull,
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		return cty.StringVal(url.QueryEscape(args[0].AsString())), nil
	},
})

// urlDecodeFunc (OpenTofu) reverses urlencode.
var urlDecodeFunc = function.New(&function.Spec{
	Params:       []function.Parameter{{Name: "str", Type: cty.String}},
	Type:         function.StaticReturnType(cty.String),
	RefineResult: refineNotNull,
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		out, err := url.QueryUnescape(args[0].AsString())
		if err != nil {
			// OpenTofu prints the (empty) partial result where the input belongs.
			return cty.UnknownVal(cty.String), fmt.Errorf("failed to decode URL '%s': %v", out, err)
		}
		return cty.StringVal(out), nil
	},
})

// unsupportedEncoding is the error for an unknown IANA encoding name.
func (e *env) unsupportedEncoding(name string) error {
	product := "Terraform"
	if e.tofu() {
		product = "OpenTofu"
	}
	return function.NewArgErrorf(1, "%q is not a supported IANA encoding name or alias in this %s version", name, product)
}

// ianaEncoding looks up a character encoding by IANA name or alias and
// returns it with its canonical name.
func (e *env) ianaEncoding(name string) (encoding.Encoding, string, error) {
	enc, err := ianaindex.IANA.Encoding(name)
	if err != nil || enc == nil {
		return nil, "", e.unsupportedEncoding(name)
	}
	canon, _ := ianaindex.IANA.Name(enc)
	return enc, canon, nil
}

// textEncodeBase64Func encodes a string in a named character encoding, then Base64.
func (e *env) textEncodeBase64Func() function.Function {
	return function.New(&function.Spec{
		Params: []function.Parameter{
			{Name: "string", Type: cty.String},
			{Name: "encoding", Type: cty.String},
		},
		Type:         function.StaticReturnType(cty.String),
		RefineResult: refineNotNull,
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			enc, canon, err := e.ianaEncoding(args[1].AsString())
			if err != nil {
				return cty.UnknownVal(cty.String), err
			}
			out, err := enc.NewEncoder().Bytes([]byte(args[0].AsString()))
			if err != nil {
				return cty.UnknownVal(cty.String), function.NewArgErrorf(0, "the given string contains characters that cannot be represented in %s", canon)
			}
			return cty.StringVal(base64.StdEncoding.EncodeToString(out)), nil
		},
	})
}

// textDecodeBase64Func decodes Base64 data holding text in a named encoding.
func (e *env) textDecodeBase64Func() function.Function {
	return function.New(&function.Spec{
		Params: []function.Parameter{
			{Name: "source", Type: cty.String},
			{Name: "encoding", Type: cty.String},
		},
		Type:         function.StaticReturnType(cty.String),
		RefineResult: refineNotNull,
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			enc, canon, err := e.ianaEncoding(args[1].AsString())
			if err != nil {
				return cty.UnknownVal(cty.String), err
			}
			raw, err := base64.StdEncoding.DecodeString(args[0].AsString())
			if err != nil {
				var corrupt base64.CorruptInputError
				if errors.As(err, &corrupt) {
					return cty.UnknownVal(cty.String), function.NewArgErrorf(0, "the given value is has an invalid base64 symbol at offset %d", int(corrupt))
				}
				return cty.UnknownVal(cty.String), function.NewArgErrorf(0, "invalid source string: %w", err)
			}
			out, err := enc.NewDecoder().Bytes(raw)
			if err != nil || bytes.ContainsRune(out, utf8.RuneError) {
				return cty.UnknownVal(cty.String), function.NewArgErrorf(0, "the given string contains symbols that are not defined for %s", canon)
			}
			return cty.StringVal(string(out)), nil
		},
	})
}
