package format

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/tfeval/tfeval/marks"
	"github.com/tfeval/tfeval/tfvars"
)

// Secrets never leave the process: a sensitive or ephemeral variable has
// no value in the document, and neither has an unknown one; the table
// shows values as the console renders them, on one line.
func TestVars(t *testing.T) {
	entries := []tfvars.Entry{
		{Name: "plain", TypeString: "list(string)", Value: cty.ListVal([]cty.Value{cty.StringVal("a"), cty.StringVal("b")})},
		{Name: "secret", TypeString: "string", Value: cty.StringVal("s").Mark(marks.Sensitive), Sensitive: true},
		{Name: "later", TypeString: "string", Value: cty.UnknownVal(cty.String)},
		{Name: "unset", TypeString: "any", Required: true},
	}
	b, _ := json.Marshal(NewVarsDocument(entries, nil))
	var doc struct {
		FormatVersion string `json:"format_version"`
		Variables     []struct {
			Name  string          `json:"name"`
			Value json.RawMessage `json:"value"`
		} `json:"variables"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	if doc.FormatVersion != "1.0" || len(doc.Variables) != 4 || string(doc.Variables[0].Value) != `["a","b"]` {
		t.Errorf("document %s", b)
	}
	for _, v := range doc.Variables[1:] {
		if v.Value != nil {
			t.Errorf("%s has a value: %s", v.Name, v.Value)
		}
	}
	var table bytes.Buffer
	if err := WriteVars(&table, entries, 80); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"plain\n  type:   list(string)\n  value:  tolist([\n", "(sensitive value)", "(not set)"} {
		if !strings.Contains(table.String(), want) {
			t.Errorf("table lacks %q:\n%s", want, table.String())
		}
	}
}
