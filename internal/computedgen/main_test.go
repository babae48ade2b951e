package main

import (
	"bytes"
	"strings"
	"testing"
)

// TestIndex: dictionary indices take one, two or three digits, each
// width starting where the shorter one ends.
func TestIndex(t *testing.T) {
	for _, tc := range []struct {
		i    int
		want string
	}{
		{0, "0"}, {31, "v"}, {32, "w0"}, {95, "w-"}, {96, "x0"}, {two - 1, "X-"},
		{two, "Y00"}, {two + 4096, "Z00"}, {two + 4*4096 - 1, "---"},
	} {
		got, err := index(tc.i)
		if err != nil || got != tc.want {
			t.Errorf("index(%d) = %q, %v, want %q", tc.i, got, err, tc.want)
		}
	}
	if _, err := index(two + 4*4096); err == nil {
		t.Error("an index past three digits is written")
	}
}

// TestGenerate: a self-written schema document gives a dictionary of its
// names, most used first, a line a distinct nested block and a line a
// type, with each attribute's mark and type and each nested block's
// nesting mode and number.
func TestGenerate(t *testing.T) {
	src := `{"provider_schemas": {"registry.terraform.io/example/thing": {
  "resource_schemas": {"thing_a": {"block": {"attributes": {
    "id": {"type": "string", "computed": true, "optional": true},
    "name": {"type": "string", "optional": true},
    "size": {"type": "number", "computed": true},
    "tags": {"type": ["map", "string"], "computed": true}},
    "block_types": {
      "rule": {"nesting_mode": "set", "block": {"attributes": {"on": {"type": "bool", "optional": true}}}},
      "other": {"nesting_mode": "list", "block": {"attributes": {"on": {"type": "bool", "optional": true}}}},
      "timeouts": {"nesting_mode": "single", "block": {"attributes": {
        "size": {"type": ["list", ["object", {"name": "string", "on": "bool"}]], "computed": true}}}}}}}},
  "data_source_schemas": {"thing_a": {"block": {"attributes": {
    "id": {"type": "string", "computed": true},
    "on": {"type": "bool", "computed": true},
    "name": {"type": "string", "required": true}}}}}}}}`
	var out bytes.Buffer
	if err := generate(&out, []byte(src), "example/thing", "1.0.0"); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		// rule and other share their block, 0; timeouts' is 1.
		"const computedThing = \"on name id size other rule tags timeouts\\n\" +",
		"\"b 0B\\n\" +",
		"\"b 3tl(1s0b)\\n\" +",
		"\"d thing_a 2s1S0b\\n\" +",
		"\"r thing_a 2s1S4L05E03n6tms7O1\\n\"",
		"example/thing provider v1.0.0 schema",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("no %s in\n%s", want, out.String())
		}
	}
	out.Reset()
	if err := generateFrom(&out, []byte(src), "example/thing", "1.0.0", "a repository", "computedThing1"); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"\n// The document: a repository.\n", "\nconst computedThing1 = "} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("no %q in\n%s", want, out.String())
		}
	}
	if err := generate(&out, []byte(src), "hashicorp/aws", ""); err == nil {
		t.Error("a document without the provider's schema gives a table")
	}
}

// TestGenerateNested: a nested attribute type is written as the type it
// implies (an object, or a list, set or map of them) where nothing in it
// is computed; one in which an attribute is computed, at any depth, is
// left out of a type's block, undecided.
func TestGenerateNested(t *testing.T) {
	src := `{"provider_schemas": {"registry.terraform.io/example/thing": {
  "resource_schemas": {"thing_a": {"block": {"attributes": {
    "one": {"nested_type": {"nesting_mode": "single", "attributes": {"on": {"type": "bool", "optional": true}}}, "optional": true},
    "many": {"nested_type": {"nesting_mode": "set", "attributes": {
      "in": {"nested_type": {"nesting_mode": "list", "attributes": {"on": {"type": "bool", "required": true}}}, "optional": true}}}, "optional": true},
    "outer": {"nested_type": {"nesting_mode": "list", "attributes": {"on": {"type": "bool"}}}, "computed": true},
    "inner": {"nested_type": {"nesting_mode": "map", "attributes": {
      "deep": {"nested_type": {"nesting_mode": "single", "attributes": {"on": {"type": "bool", "computed": true}}}, "optional": true}}}, "optional": true}}}}}}}}`
	var out bytes.Buffer
	if err := generate(&out, []byte(src), "example/thing", ""); err != nil {
		t.Fatal(err)
	}
	// Dictionary: on, in, many, one; inner and outer are left out.
	for _, want := range []string{
		"const computedThing = \"on in many one\\n\" +",
		"\"r thing_a 2Te(1l(0b))3T(0b)\\n\"",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("no %s in\n%s", want, out.String())
		}
	}
}

// TestGenerateRefuses: what the table cannot write stops the generator
// rather than being left out: a nested attribute type with computed
// attributes in a nested block, an unknown nesting mode or type.
func TestGenerateRefuses(t *testing.T) {
	for _, block := range []string{
		`{"block_types": {"b": {"nesting_mode": "list", "block": {"attributes": {"n": {"nested_type": {"nesting_mode": "single", "attributes": {}}, "computed": true}}}}}}`,
		`{"attributes": {"n": {"nested_type": {"nesting_mode": "odd", "attributes": {}}, "optional": true}}}`,
		`{"block_types": {"b": {"nesting_mode": "odd", "block": {}}}}`,
		`{"attributes": {"x": {"type": ["capsule", "string"], "computed": true}}}`,
	} {
		src := `{"provider_schemas": {"registry.terraform.io/example/thing": {"resource_schemas": {"thing_a": {"block": ` + block + `}}}}}`
		var out bytes.Buffer
		if err := generate(&out, []byte(src), "example/thing", ""); err == nil {
			t.Errorf("%s: a table", block)
		}
	}
}

// TestGenerateSensitive: a sensitive attribute's mark follows a "!",
// top-level or in a nested block, computed or not, of any type; a nested
// block differing from another only in a sensitive flag is a block of
// its own.
func TestGenerateSensitive(t *testing.T) {
	src := `{"provider_schemas": {"registry.terraform.io/example/thing": {
  "resource_schemas": {"thing_a": {"block": {"attributes": {
    "key": {"type": "string", "computed": true, "sensitive": true},
    "pw": {"type": "string", "optional": true, "sensitive": true},
    "vals": {"type": ["map", "string"], "optional": true, "sensitive": true}},
    "block_types": {
      "auth": {"nesting_mode": "list", "block": {"attributes": {"pw": {"type": ["set", "string"], "optional": true, "sensitive": true}}}},
      "plain": {"nesting_mode": "list", "block": {"attributes": {"pw": {"type": ["set", "string"], "optional": true}}}}}}}},
  "data_source_schemas": {"thing_a": {"block": {"attributes": {
    "key": {"type": "string", "computed": true, "sensitive": true}}}}}}}}`
	var out bytes.Buffer
	if err := generate(&out, []byte(src), "example/thing", "1.0.0"); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"const computedThing = \"pw key auth plain vals\\n\" +",
		"\"b 0!Tes\\n\" +",
		"\"b 0Tes\\n\" +",
		"\"d thing_a 1!s\\n\" +",
		"\"r thing_a 2L01!s3L10!S4!Tms\\n\"",
		"computed, sensitive and write-only flags only",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("no %s in\n%s", want, out.String())
		}
	}
}

// TestGenerateNestedSensitive: a nested attribute type sensitive as a
// whole is written with its "!"; one with a sensitive attribute inside is
// left out of a type's block (Terraform marks the inner attribute's path,
// which the table cannot say), and stops the generator in a nested block.
func TestGenerateNestedSensitive(t *testing.T) {
	src := func(block string) string {
		return `{"provider_schemas": {"registry.terraform.io/example/thing": {"resource_schemas": {"thing_a": {"block": ` + block + `}}}}}`
	}
	var out bytes.Buffer
	err := generate(&out, []byte(src(`{"attributes": {
    "whole": {"nested_type": {"nesting_mode": "single", "attributes": {"k": {"type": "string", "optional": true}}}, "optional": true, "sensitive": true},
    "inner": {"nested_type": {"nesting_mode": "list", "attributes": {"v": {"type": "string", "optional": true, "sensitive": true}}}, "optional": true},
    "name": {"type": "string", "optional": true}}}`)), "example/thing", "1.0.0")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), `"r thing_a 1S2!T(0s)\n"`) {
		t.Errorf("no inner left out, whole marked in\n%s", out.String())
	}
	if err := generate(&out, []byte(src(`{"block_types": {"b": {"nesting_mode": "list", "block": {"attributes": {
    "inner": {"nested_type": {"nesting_mode": "list", "attributes": {"v": {"type": "string", "optional": true, "sensitive": true}}}, "optional": true}}}}}}`)), "example/thing", "1.0.0"); err == nil {
		t.Error("a nested block's nested attribute type with a sensitive attribute is written")
	}
}

// TestGenerateWriteOnly: a write-only argument is written with "~" after
// any "!", and lang reads it back as write-only.
func TestGenerateWriteOnly(t *testing.T) {
	src := `{"provider_schemas": {"registry.terraform.io/example/thing": {
  "resource_schemas": {"thing_a": {"block": {"attributes": {
    "pw_wo": {"type": "string", "optional": true, "sensitive": true, "write_only": true},
    "n_wo": {"type": "number", "optional": true, "write_only": true},
    "pw": {"type": "string", "optional": true, "sensitive": true}}}}}}}}`
	var out bytes.Buffer
	if err := generate(&out, []byte(src), "example/thing", "1.0.0"); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), `"r thing_a 0~N1!S2!~S\n"`) {
		t.Errorf("table:\n%s", out.String())
	}
}
