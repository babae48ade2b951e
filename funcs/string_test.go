package funcs

import "testing"

func TestString(t *testing.T) {
	bothDialects(t, []fnCase{
		{expr: `startswith("hello world", "hello")`, want: `true`},
		{expr: `endswith("hello world", "hello")`, want: `false`},
		{expr: `strcontains("hello", "")`, want: `true`},
		{expr: `startswith(unk_str, "x")`, want: `(known after apply)`},
		{expr: `startswith(unk_str, "")`, want: `true`},
		{expr: `startswith("rg-${unk_str}", "rg")`, want: `true`},
		{expr: `startswith("rg-${unk_str}", "rg-")`, want: `true`},
		{expr: `startswith("rg-${unk_str}", "st")`, want: `false`},
		{expr: `startswith("rg-${unk_str}", "rg-west")`, want: `(known after apply)`},
		{expr: `startswith("rg-${unk_str}", "st-west")`, want: `(known after apply)`},
		{expr: `startswith(sensitive("rg-${unk_str}"), "rg")`, want: `(sensitive value)`},
		{expr: `startswith(secret, "h")`, want: `(sensitive value)`},
		{expr: `replace("hello world", "/o+/", "0")`, want: `"hell0 w0rld"`},
		{expr: `replace("hello world", "/(h)(e)/", "$2$1")`, want: `"ehllo world"`},
		{expr: `replace("1 + 2", "+", "plus")`, want: `"1 plus 2"`},
		{expr: `replace("a/b", "/", "-")`, want: `"a-b"`},
		{expr: `replace("abc", "/[/", "x")`, err: "error parsing regexp: missing closing ]: `[`."},
		{expr: `upper(true)`, want: `"TRUE"`},
		{expr: `format("%s", null)`, err: `null value cannot be formatted.`},
		{expr: `core::upper("hello")`, want: `"HELLO"`},
		{expr: `core::nope("hello")`, err: `Call to unknown function`},
	})
}
