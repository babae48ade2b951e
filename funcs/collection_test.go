package funcs

import (
	"testing"

	"github.com/tfeval/tfeval/dialect"
)

func TestCollection(t *testing.T) {
	bothDialects(t, []fnCase{
		{expr: `length("👍🏽")`, want: `1`},
		{expr: `length({a = 1, b = 2})`, want: `2`},
		{expr: `length(null)`, err: `Invalid value for "value" parameter: argument must not be null.`},
		{expr: `length(1)`, err: `Error in function call: Call to function "length" failed: argument must be a string, a collection type, or a structural type.`},
		{expr: `length(unk_list)`, want: `(known after apply)`},
		{expr: `length(unk_list) == null`, want: `false`},
		{expr: `length(dyn)`, want: `(known after apply)`},
		{expr: `length(sensitive([1, 2]))`, want: `(sensitive value)`},
		{expr: `nonsensitive(length(sensitive([1, 2])))`, want: `2`},
		{expr: `alltrue(["true", true])`, want: `true`},
		{expr: `alltrue([null])`, want: `false`},
		{expr: `alltrue([unk_bool, false])`, want: `(known after apply)`},
		{expr: `alltrue(["yes"])`, err: `Invalid value for "list" parameter: a bool is required.`},
		{expr: `anytrue([unk_bool, true])`, want: `true`},
		{expr: `anytrue([unk_bool, false])`, want: `(known after apply)`},
		{expr: `anytrue([false, null])`, want: `false`},
		{expr: `coalesce("", "b")`, want: `"b"`},
		{expr: `coalesce(1, "a")`, want: `"1"`},
		{expr: `coalesce(null, null)`, err: `no non-null, non-empty-string arguments.`},
		{expr: `coalesce(unk_str, "b")`, want: `(known after apply)`},
		{expr: `coalesce("a", unk_str)`, want: `"a"`},
		{expr: `coalesce(secret, "b")`, want: `(sensitive value)`},
		{expr: `coalesce([1], "a")`, err: `all arguments must have the same type`},
		{expr: `index(["a", "b", "c"], "b")`, want: `1`},
		{expr: `index(["a"], "d")`, err: `item not found.`},
		{expr: `index([], "d")`, err: `cannot search an empty list.`},
		{expr: `index(toset(["a"]), "a")`, err: `argument must be a list or tuple.`},
		{expr: `index(["a", unk_str], "b")`, want: `(known after apply)`},
		{expr: `lookup({a = "ay"}, "c", "what?")`, want: `"what?"`},
		{expr: `lookup({a = "ay"}, "c")`, err: `Invalid value for "inputMap" parameter: the given object has no attribute "c".`},
		{expr: `lookup(tomap({a = "ay"}), "c")`, err: `lookup failed to find key "c".`},
		{expr: `lookup(tomap({a = "ay"}), secret)`, err: `lookup failed to find key (sensitive value).`},
		{expr: `lookup(tomap({a = "ay"}), "a", [])`, err: `Invalid value for "default" parameter: the default value must have the same type as the map elements.`},
		{expr: `lookup("x", "a")`, err: `lookup() requires a map as the first argument.`},
		{expr: `lookup(secret_map, "a")`, want: `(sensitive value)`},
		{expr: `lookup({a = 1}, unk_str)`, want: `(known after apply)`},
		// Terraform v1.11 and later look up a partly unknown collection.
		{expr: `lookup({a = unk_str, b = "x"}, "b", null)`, want: `"x"`},
		{expr: `lookup({a = unk_str}, "missing", null) == null`, want: `true`},
		{expr: `lookup(tomap({a = unk_str, b = "x"}), "b")`, want: `"x"`},
		{expr: `lookup({a = unk_str}, "a")`, want: `(known after apply)`},
		{expr: `matchkeys(["i-1", "i-2", "i-3"], ["w", "e", "e"], ["e"])`, want: "tolist([\n  \"i-2\",\n  \"i-3\",\n])"},
		{expr: `matchkeys(["a"], ["x"], [])`, want: `tolist([])`},
		{expr: `matchkeys(["a", "b"], ["x"], ["x"])`, err: `length of keys and values should be equal.`},
		{expr: `one([])`, want: `null`},
		{expr: `one(toset(["x"]))`, want: `"x"`},
		{expr: `one(["a", "b"])`, err: `must be a list, set, or tuple value with either zero or one elements.`},
		{expr: `one(unk_list)`, want: `(known after apply)`},
		{expr: `sum([10, 13, 6, 4.5])`, want: `33.5`},
		{expr: `sum([])`, err: `cannot sum an empty list.`},
		{expr: `sum([1, null])`, err: `argument must be list, set, or tuple of number values.`},
		{expr: `sum([1/0, -1/0])`, err: `can't compute sum of opposing infinities.`},
		{expr: `sum({a = 1})`, err: `argument must be list, set, or tuple. Received object.`},
		{expr: `sum([1, secret_num])`, want: `(sensitive value)`},
		{expr: `transpose({"a" = ["1", "2"], "b" = ["2"]})`, want: "tomap({\n  \"1\" = tolist([\n    \"a\",\n  ])\n  \"2\" = tolist([\n    \"a\",\n    \"b\",\n  ])\n})"},
		{expr: `transpose({"a" = unk_list})`, want: `(known after apply)`},
		{expr: `list("a")`, err: `Error in function call: Call to function "list" failed: the "list" function was deprecated in Terraform v0.12 and is`},
	})
	runCases(t, dialect.Terraform, []fnCase{
		{expr: `list("a")`, err: `deprecated in Terraform v0.12 and is no longer available; use tolist([ ... ]) syntax to write a literal list.`},
		{expr: `map("a", "b")`, err: `deprecated in Terraform v0.12 and is no longer available; use tomap({ ... }) syntax to write a literal map.`},
		{expr: `transpose({"a" = [null]})`, err: `input list must not contain null string.`},
		{expr: `transpose({"a" = null})`, err: `input must not contain null list.`},
	})
	runCases(t, dialect.Tofu, []fnCase{
		{expr: `list("a")`, err: `deprecated in Terraform v0.12 and is not available in OpenTofu; use tolist([ ... ]) syntax to write a literal list.`},
		{expr: `map()`, err: `is not available in OpenTofu; use tomap({ ... }) syntax to write a literal map.`},
		{expr: `transpose({"a" = [null]})`, err: `cannot use null string for a.`},
		{expr: `transpose({"a" = null})`, err: `cannot use null list for a.`},
	})
}
