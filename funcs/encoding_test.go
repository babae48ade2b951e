package funcs

import (
	"testing"

	"github.com/tfeval/tfeval/dialect"
)

func TestEncoding(t *testing.T) {
	bothDialects(t, []fnCase{
		{expr: `base64encode("Hello World")`, want: `"SGVsbG8gV29ybGQ="`},
		{expr: `base64decode("SGVsbG8gV29ybGQ=")`, want: `"Hello World"`},
		{expr: `base64decode("not base64!")`, err: `failed to decode base64 data "not base64!".`},
		{expr: `base64decode(sensitive("!!"))`, err: `failed to decode base64 data (sensitive value).`},
		{expr: `base64decode(sensitive("SGk="))`, want: `(sensitive value)`},
		{expr: `base64decode("/w==")`, err: `the result of decoding the provided string is not valid UTF-8.`},
		{expr: `base64gzip("test")`, want: `"H4sIAAAAAAAA/ypJLS4BAAAA//8BAAD//wx+f9gEAAAA"`},
		{expr: `urlencode("☃ x")`, want: `"%E2%98%83+x"`},
		{expr: `textencodebase64("Hello World", "UTF-16LE")`, want: `"SABlAGwAbABvACAAVwBvAHIAbABkAA=="`},
		{expr: `textencodebase64("日本", "ISO-8859-1")`, err: `the given string contains characters that cannot be represented in ISO_8859-1:1987.`},
		{expr: `textdecodebase64("5A==", "ISO-8859-1")`, want: `"ä"`},
		{expr: `textdecodebase64("@@", "UTF-8")`, err: `Invalid value for "source" parameter: the given value is has an invalid base64 symbol at offset 0.`},
		{expr: `base64encode(unk_str)`, want: `(known after apply)`},
		{expr: `yamldecode("a: 1")`, want: "{\n  \"a\" = 1\n}"},
		{expr: `jsonencode({a = secret})`, want: `(sensitive value)`},
	})
	runCases(t, dialect.Terraform, []fnCase{
		{expr: `textencodebase64("x", "nope")`, err: `Invalid value for "encoding" parameter: "nope" is not a supported IANA encoding name or alias in this Terraform version.`},
		{expr: `urldecode("a%20b")`, err: `There is no function named "urldecode".`},
		{expr: `base64gunzip("x")`, err: `There is no function named "base64gunzip".`},
	})
	runCases(t, dialect.Tofu, []fnCase{
		{expr: `textencodebase64("x", "nope")`, err: `"nope" is not a supported IANA encoding name or alias in this OpenTofu version.`},
		{expr: `urldecode("Hello+World%21")`, want: `"Hello World!"`},
		{expr: `urldecode("%zz")`, err: `failed to decode URL '': invalid URL escape "%zz".`},
		{expr: `base64gunzip(base64gzip("hello"))`, want: `"hello"`},
		{expr: `base64gunzip("SGVsbG8gV29ybGQ=")`, err: `failed to gunzip bytestream: gzip: invalid header.`},
		{expr: `base64gunzip("!")`, err: `failed to decode base64 data "!".`},
		{expr: `base64gunzip(sensitive(base64gzip("x")))`, want: `(sensitive value)`},
	})
}
