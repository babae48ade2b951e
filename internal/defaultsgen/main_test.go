package main

import (
	"bytes"
	"strings"
	"testing"
)

// fingerprintDoc is lang's TestSchemaFingerprint document, whose
// fingerprint lang computes as 0xb8baf4959b42ee7.
const fingerprintDoc = `{"format_version":"1.0","provider_schemas":{"registry.terraform.io/hashicorp/aws":{"resource_schemas":{
"aws_b":{"block":{"attributes":{"id":{"type":"string","optional":true,"computed":true},"x":{"type":"number","required":true}},
  "block_types":{"s":{"nesting_mode":"set","block":{"attributes":{"y":{"type":"bool","optional":true}}}}}}},
"aws_a":{"block":{"attributes":{"id":{"type":"string","computed":true}}}}}}}}`

// TestFingerprint: the table carries lang's fingerprint of the document
// it was made from, which lang compares with the schema it is given.
func TestFingerprint(t *testing.T) {
	var buf bytes.Buffer
	if err := generate(&buf, []byte(fingerprintDoc), nil, "hashicorp/aws", "1.0.0"); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), "const defaultsAwsFingerprint = 0xb8baf4959b42ee7\n") {
		t.Errorf("table:\n%s", buf.String())
	}
}

// TestGenerate: the table keeps an attribute the provider does not compute
// planned as one known value in every observation, and a block type
// planned as an empty list in every one; it leaves out computed
// attributes, values that differ or are unknown, and required ones.
func TestGenerate(t *testing.T) {
	obs := `{"records":[
{"type":"aws_b","values":{"s":{"value":[]},"s.y":{"value":false},"id":{"unknown":true},"z":{"value":"a"},"w":{"value":null},"v":{"value":1},"x":{"value":1}}},
{"type":"aws_b","values":{"s":{"value":[]},"z":{"value":"b"},"w":{"value":null},"v":{"unknown":true}}},
{"type":"aws_c","values":{"q":{"value":"/"}}}]}`
	doc := strings.Replace(fingerprintDoc, `"x":{"type":"number","required":true}`,
		`"x":{"type":"number","required":true},"z":{"type":"string","optional":true},"w":{"type":"string","optional":true},"v":{"type":"number","optional":true}`, 1)
	var buf bytes.Buffer
	if err := generate(&buf, []byte(doc), [][]byte{[]byte(obs)}, "hashicorp/aws", "1.0.0"); err != nil {
		t.Fatal(err)
	}
	want := "const defaultsAws = `=aws_b\ns []\ns.y false\nw\n`\n"
	if !strings.HasSuffix(buf.String(), want) {
		t.Errorf("generated:\n%s\nwant the end:\n%s", buf.String(), want)
	}
}
