package main

import (
	"bytes"
	"strings"
	"testing"
)

// TestGenerate: the table lists, per mode and type, the top-level blocks
// of nesting mode set, sorted, and only the provider asked for; a
// document without it is an error.
func TestGenerate(t *testing.T) {
	doc := []byte(`{"format_version":"1.0","provider_schemas":{
 "registry.terraform.io/hashicorp/aws":{
  "resource_schemas":{
   "aws_b":{"block":{"block_types":{"rule":{"nesting_mode":"set"},"a":{"nesting_mode":"set"},"list":{"nesting_mode":"list"}}}},
   "aws_a":{"block":{"block_types":{"only":{"nesting_mode":"single"}}}}},
  "data_source_schemas":{
   "aws_d":{"block":{"block_types":{"filter":{"nesting_mode":"set"}}}}}},
 "registry.terraform.io/hashicorp/google":{
  "resource_schemas":{"google_x":{"block":{"block_types":{"s":{"nesting_mode":"set"}}}}}}}}`)
	var out bytes.Buffer
	if err := generate(&out, doc, "hashicorp/aws", "1.2.3"); err != nil {
		t.Fatal(err)
	}
	got := out.String()
	for _, want := range []string{
		"from the hashicorp/aws provider v1.2.3 schema",
		"\"resource\": {\n\t\t\t\"aws_b\": {\"a\", \"rule\"},\n\t\t},",
		"\"data\": {\n\t\t\t\"aws_d\": {\"filter\"},\n\t\t},",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("output lacks %q:\n%s", want, got)
		}
	}
	for _, absent := range []string{`"aws_a"`, `"list"`, `"google_x"`} {
		if strings.Contains(got, absent) {
			t.Errorf("output has %q:\n%s", absent, got)
		}
	}
	if err := generate(&out, doc, "hashicorp/azurerm", ""); err == nil {
		t.Error("a document without the provider: no error")
	}
}
