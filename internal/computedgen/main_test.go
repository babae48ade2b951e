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
		{0, "0"}, {31, "v"}, {32, "w0"}, {95, "w-"}, {96, "x0"}, {two - 1, "Z-"},
		{two, "_00"}, {two + 4096, "-00"}, {two + 2*4096 - 1, "---"},
	} {
		got, err := index(tc.i)
		if err != nil || got != tc.want {
			t.Errorf("index(%d) = %q, %v, want %q", tc.i, got, err, tc.want)
		}
	}
	if _, err := index(two + 2*4096); err == nil {
		t.Error("an index past three digits is written")
	}
}

// TestGenerate: a self-written schema document gives a dictionary of its
// names, most used first, and a line a type with each attribute's mark.
func TestGenerate(t *testing.T) {
	src := `{"provider_schemas": {"registry.terraform.io/example/thing": {
  "resource_schemas": {"thing_a": {"block": {"attributes": {
    "id": {"type": "string", "computed": true, "optional": true},
    "name": {"type": "string", "optional": true},
    "size": {"type": "number", "computed": true},
    "tags": {"type": ["map", "string"], "computed": true}}}}},
  "data_source_schemas": {"thing_a": {"block": {"attributes": {
    "id": {"type": "string", "computed": true},
    "on": {"type": "bool", "computed": true},
    "name": {"type": "string", "required": true}}}}}}}}`
	var out bytes.Buffer
	if err := generate(&out, []byte(src), "example/thing", "1.0.0"); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"const computedThing = \"id name on size tags\\n\" +",
		"\"d thing_a 0s1.2b\\n\" +",
		"\"r thing_a 0s1.3n4o\\n\"",
		"example/thing provider v1.0.0 schema",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("no %s in\n%s", want, out.String())
		}
	}
	if err := generate(&out, []byte(src), "hashicorp/aws", ""); err == nil {
		t.Error("a document without the provider's schema gives a table")
	}
}
