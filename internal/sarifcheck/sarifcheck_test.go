package sarifcheck

import (
	"encoding/json"
	"os"
	"slices"
	"sort"
	"strings"
	"testing"
)

// The check itself finds what the schema forbids.
func TestCheckSARIFFindsProblems(t *testing.T) {
	for name, tc := range map[string]struct {
		doc  string
		want int
	}{
		"valid":              {`{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"x"}},"results":[]}]}`, 0},
		"wrong version":      {`{"version":"2.0.0","runs":[]}`, 1},
		"no runs":            {`{"version":"2.1.0"}`, 2},
		"unknown property":   {`{"version":"2.1.0","runs":[],"extra":1}`, 1},
		"driver lacks name":  {`{"version":"2.1.0","runs":[{"tool":{"driver":{}}}]}`, 1},
		"bad level":          {`{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"x","rules":[{"id":"r"}]}},"results":[{"ruleId":"r","ruleIndex":0,"level":"fatal","message":{"text":"m"}}]}]}`, 1},
		"line zero":          {`{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"x","rules":[{"id":"r"}]}},"results":[{"ruleId":"r","ruleIndex":0,"message":{"text":"m"},"locations":[{"physicalLocation":{"artifactLocation":{"uri":"a.tf"},"region":{"startLine":0}}}]}]}]}`, 1},
		"wrong rule index":   {`{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"x","rules":[{"id":"r"},{"id":"s"}]}},"results":[{"ruleId":"r","ruleIndex":1,"message":{"text":"m"}}]}]}`, 1},
		"message lacks text": {`{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"x"}},"results":[{"message":{}}]}]}`, 1},
	} {
		var doc any
		if err := json.Unmarshal([]byte(tc.doc), &doc); err != nil {
			t.Fatal(err)
		}
		if got := Schema(doc); len(got) != tc.want {
			t.Errorf("%s: %d problems %q, want %d", name, len(got), got, tc.want)
		}
	}
}

// valid is a log code scanning accepts, which the cases below damage.
const valid = `{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"x","rules":[{"id":"r","shortDescription":{"text":"s"},"fullDescription":{"text":"f"},"help":{"text":"h"}}]}},
"originalUriBaseIds":{"%SRCROOT%":{"uri":"file:///repo/"}},
"results":[{"ruleId":"r","ruleIndex":0,"message":{"text":"m"},"partialFingerprints":{"k":"1"},
"locations":[{"physicalLocation":{"artifactLocation":{"uri":"a/main.tf","uriBaseId":"%SRCROOT%"},"region":{"startLine":2,"startColumn":3,"endLine":2,"endColumn":5}}}]}]}]}`

// The GitHub check finds each rule broken.
func TestGitHubFindsProblems(t *testing.T) {
	for name, tc := range map[string]struct{ from, to string }{
		"valid":                 {"", ""},
		"no full description":   {`"fullDescription":{"text":"f"},`, ""},
		"empty help":            {`"help":{"text":"h"}`, `"help":{"text":" "}`},
		"no fingerprints":       {`"partialFingerprints":{"k":"1"},`, ""},
		"no locations":          {`"locations":[{"physicalLocation":{"artifactLocation":{"uri":"a/main.tf","uriBaseId":"%SRCROOT%"},"region":{"startLine":2,"startColumn":3,"endLine":2,"endColumn":5}}}]`, `"locations":[]`},
		"parent directory":      {`"a/main.tf"`, `"../main.tf"`},
		"absolute with a base":  {`"a/main.tf"`, `"/repo/a/main.tf"`},
		"backslash":             {`"a/main.tf"`, `"a\\main.tf"`},
		"unescaped space":       {`"a/main.tf"`, `"a b/main.tf"`},
		"unknown base":          {`"uriBaseId":"%SRCROOT%"`, `"uriBaseId":"%OTHER%"`},
		"base not a directory":  {`"file:///repo/"`, `"file:///repo"`},
		"no end column":         {`,"endColumn":5`, ""},
		"ends before it starts": {`"endColumn":5`, `"endColumn":2`},
		"code points":           {`"originalUriBaseIds"`, `"columnKind":"unicodeCodePoints","originalUriBaseIds"`},
		"unknown rule":          {`"ruleId":"r"`, `"ruleId":"q"`},
	} {
		var doc any
		if err := json.Unmarshal([]byte(strings.Replace(valid, tc.from, tc.to, 1)), &doc); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		got := GitHub(doc)
		if want := name != "valid"; (len(got) > 0) != want {
			t.Errorf("%s: problems %q", name, got)
		}
	}
}

// TestSchemaTableMatchesSchema compares the definitions Schema knows
// with the official SARIF 2.1.0 schema document, when
// TFEVAL_SARIF_SCHEMA names a copy of it (sarif-schema-2.1.0.json, which
// several SARIF tools ship).
func TestSchemaTableMatchesSchema(t *testing.T) {
	path := os.Getenv("TFEVAL_SARIF_SCHEMA")
	if path == "" {
		t.Skip("TFEVAL_SARIF_SCHEMA does not name the SARIF 2.1.0 schema")
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var schema struct {
		Properties  map[string]any `json:"properties"`
		Required    []string       `json:"required"`
		Definitions map[string]struct {
			Properties map[string]any `json:"properties"`
			Required   []string       `json:"required"`
		} `json:"definitions"`
	}
	if err := json.Unmarshal(b, &schema); err != nil {
		t.Fatal(err)
	}
	for kind, obj := range sarifObjects {
		props, required := schema.Properties, schema.Required
		if kind != "sarifLog" {
			def, ok := schema.Definitions[kind]
			if !ok {
				t.Errorf("the schema has no definition %q", kind)
				continue
			}
			props, required = def.Properties, def.Required
		}
		var names []string
		for name := range props {
			names = append(names, name)
		}
		sort.Strings(names)
		allowed := slices.Sorted(slices.Values(obj.allowed))
		if !slices.Equal(names, allowed) {
			t.Errorf("%s: the schema allows %q, the table %q", kind, names, allowed)
		}
		sort.Strings(required)
		if req := slices.Sorted(slices.Values(obj.required)); !slices.Equal(required, req) {
			t.Errorf("%s: the schema requires %q, the table %q", kind, required, req)
		}
	}
}
