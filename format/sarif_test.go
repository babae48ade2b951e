package format

import (
	"encoding/json"
	"fmt"
	"net/url"
	"testing"

	"github.com/hashicorp/hcl/v2"
)

// sarifObject is what the SARIF 2.1.0 schema says of one kind of object
// this package writes: the properties it requires, and the properties it
// allows at all (the schema forbids any other, as additionalProperties is
// false for these objects).
type sarifObject struct {
	required []string
	allowed  []string
}

// sarifObjects are the schema's definitions of the objects NewSARIF
// writes, by the name the schema gives them; properties that hold one of
// these objects name it in sarifChildren.
var sarifObjects = map[string]sarifObject{
	"sarifLog":                 {required: []string{"version", "runs"}, allowed: []string{"$schema", "version", "runs", "inlineExternalProperties", "properties"}},
	"run":                      {required: []string{"tool"}, allowed: []string{"tool", "invocations", "conversion", "language", "versionControlProvenance", "originalUriBaseIds", "artifacts", "logicalLocations", "graphs", "results", "automationDetails", "runAggregates", "baselineGuid", "redactionTokens", "defaultEncoding", "defaultSourceLanguage", "newlineSequences", "columnKind", "externalPropertyFileReferences", "threadFlowLocations", "taxonomies", "addresses", "translations", "policies", "webRequests", "webResponses", "specialLocations", "properties"}},
	"tool":                     {required: []string{"driver"}, allowed: []string{"driver", "extensions", "properties"}},
	"toolComponent":            {required: []string{"name"}, allowed: []string{"guid", "name", "organization", "product", "productSuite", "shortDescription", "fullDescription", "fullName", "version", "semanticVersion", "dottedQuadFileVersion", "releaseDateUtc", "downloadUri", "informationUri", "globalMessageStrings", "notifications", "rules", "taxa", "locations", "language", "contents", "isComprehensive", "localizedDataSemanticVersion", "minimumRequiredLocalizedDataSemanticVersion", "associatedComponent", "translationMetadata", "supportedTaxonomies", "properties"}},
	"reportingDescriptor":      {required: []string{"id"}, allowed: []string{"id", "deprecatedIds", "guid", "deprecatedGuids", "name", "deprecatedNames", "shortDescription", "fullDescription", "messageStrings", "defaultConfiguration", "helpUri", "help", "relationships", "properties"}},
	"multiformatMessageString": {required: []string{"text"}, allowed: []string{"text", "markdown", "properties"}},
	"result":                   {required: []string{"message"}, allowed: []string{"ruleId", "ruleIndex", "rule", "kind", "level", "message", "analysisTarget", "locations", "guid", "correlationGuid", "occurrenceCount", "partialFingerprints", "fingerprints", "stacks", "codeFlows", "graphs", "graphTraversals", "relatedLocations", "suppressions", "baselineState", "rank", "attachments", "hostedViewerUri", "workItemUris", "provenance", "fixes", "taxa", "webRequest", "webResponse", "properties"}},
	"message":                  {allowed: []string{"text", "markdown", "id", "arguments", "properties"}},
	"location":                 {allowed: []string{"id", "physicalLocation", "logicalLocations", "message", "annotations", "relationships", "properties"}},
	"physicalLocation":         {allowed: []string{"address", "artifactLocation", "region", "contextRegion", "properties"}},
	"artifactLocation":         {allowed: []string{"uri", "uriBaseId", "index", "description", "properties"}},
	"region":                   {allowed: []string{"startLine", "startColumn", "endLine", "endColumn", "charOffset", "charLength", "byteOffset", "byteLength", "snippet", "message", "sourceLanguage", "properties"}},
}

// sarifChildren says which definition the value of a property has, per
// object kind; arrays hold items of the definition named.
var sarifChildren = map[string]map[string]string{
	"sarifLog":            {"runs": "run"},
	"run":                 {"tool": "tool", "results": "result"},
	"tool":                {"driver": "toolComponent"},
	"toolComponent":       {"rules": "reportingDescriptor"},
	"reportingDescriptor": {"shortDescription": "multiformatMessageString"},
	"result":              {"message": "message", "locations": "location"},
	"location":            {"physicalLocation": "physicalLocation"},
	"physicalLocation":    {"artifactLocation": "artifactLocation", "region": "region"},
}

// checkSARIF checks a decoded SARIF log against the schema's structure:
// required and allowed properties, types, enumerations and minimums, and
// the cross-references the specification requires (a result's ruleIndex
// names the rule with its ruleId).
func checkSARIF(doc any) []string {
	var problems []string
	bad := func(path, format string, args ...any) {
		problems = append(problems, path+": "+fmt.Sprintf(format, args...))
	}
	var walk func(path, kind string, v any)
	walk = func(path, kind string, v any) {
		obj, ok := v.(map[string]any)
		if !ok {
			bad(path, "a %s must be an object, not %T", kind, v)
			return
		}
		def := sarifObjects[kind]
		for _, r := range def.required {
			if _, ok := obj[r]; !ok {
				bad(path, "%s lacks required property %q", kind, r)
			}
		}
		allowed := map[string]bool{}
		for _, a := range def.allowed {
			allowed[a] = true
		}
		for name, pv := range obj {
			p := path + "." + name
			if !allowed[name] {
				bad(p, "%s has no property %q", kind, name)
				continue
			}
			child, ok := sarifChildren[kind][name]
			if !ok {
				continue
			}
			if items, isArray := pv.([]any); isArray {
				for i, item := range items {
					walk(fmt.Sprintf("%s[%d]", p, i), child, item)
				}
			} else {
				walk(p, child, pv)
			}
		}
		str := func(name string) (string, bool) {
			s, ok := obj[name].(string)
			if _, present := obj[name]; present && !ok {
				bad(path+"."+name, "must be a string")
			}
			return s, ok
		}
		integer := func(name string, minimum float64) {
			n, present := obj[name]
			if !present {
				return
			}
			f, ok := n.(float64)
			if !ok || f != float64(int64(f)) || f < minimum {
				bad(path+"."+name, "must be an integer of at least %v, not %v", minimum, n)
			}
		}
		switch kind {
		case "sarifLog":
			if v, _ := str("version"); v != "2.1.0" {
				bad(path+".version", "must be \"2.1.0\", not %q", v)
			}
			if s, ok := str("$schema"); ok {
				if u, err := url.Parse(s); err != nil || !u.IsAbs() {
					bad(path+".$schema", "must be an absolute URI")
				}
			}
			if _, ok := obj["runs"].([]any); !ok {
				bad(path+".runs", "must be an array")
			}
		case "toolComponent", "reportingDescriptor":
			str("name")
			str("id")
			str("version")
		case "multiformatMessageString":
			str("text")
		case "message":
			_, hasText := obj["text"]
			_, hasID := obj["id"]
			if !hasText && !hasID {
				bad(path, "a message needs text or id")
			}
			str("text")
		case "result":
			if l, ok := str("level"); ok && l != "none" && l != "note" && l != "warning" && l != "error" {
				bad(path+".level", "must be none, note, warning or error, not %q", l)
			}
			str("ruleId")
			integer("ruleIndex", -1)
		case "artifactLocation":
			if s, ok := str("uri"); ok {
				if _, err := url.Parse(s); err != nil {
					bad(path+".uri", "must be a URI reference: %v", err)
				}
			}
			str("uriBaseId")
		case "region":
			for _, name := range []string{"startLine", "startColumn", "endLine", "endColumn"} {
				integer(name, 1)
			}
		}
	}
	walk("$", "sarifLog", doc)

	// The specification's cross-references: each result's ruleIndex is the
	// index of the rule whose id is its ruleId.
	log, _ := doc.(map[string]any)
	runs, _ := log["runs"].([]any)
	for ri, r := range runs {
		run, _ := r.(map[string]any)
		tool, _ := run["tool"].(map[string]any)
		driver, _ := tool["driver"].(map[string]any)
		rules, _ := driver["rules"].([]any)
		results, _ := run["results"].([]any)
		for i, res := range results {
			result, _ := res.(map[string]any)
			idx, ok := result["ruleIndex"].(float64)
			if !ok || idx < 0 {
				continue
			}
			if int(idx) >= len(rules) {
				bad(fmt.Sprintf("$.runs[%d].results[%d]", ri, i), "ruleIndex %v is past the %d rules", idx, len(rules))
				continue
			}
			rule, _ := rules[int(idx)].(map[string]any)
			if rule["id"] != result["ruleId"] {
				bad(fmt.Sprintf("$.runs[%d].results[%d]", ri, i), "ruleId %v is not rule %v's id %v", result["ruleId"], idx, rule["id"])
			}
		}
	}
	return problems
}

// The SARIF log of diagnostics of every kind is a valid SARIF 2.1.0 log,
// and each result has its rule, message, file and region.
func TestSARIFSchema(t *testing.T) {
	rng := func(file string, l1, c1, l2, c2 int) *hcl.Range {
		return &hcl.Range{Filename: file, Start: hcl.Pos{Line: l1, Column: c1}, End: hcl.Pos{Line: l2, Column: c2}}
	}
	diags := hcl.Diagnostics{
		{Severity: hcl.DiagError, Summary: "Unsupported argument", Detail: `An argument named "nme" is not expected here.`, Subject: rng("main.tf", 3, 3, 3, 6)},
		{Severity: hcl.DiagError, Summary: "Unsupported argument", Detail: "Another.", Subject: rng("modules/net/main.tf", 7, 5, 9, 1)},
		{Severity: hcl.DiagWarning, Summary: "Deprecated value used", Subject: rng(`sub\dir.tf`, 1, 1, 1, 1)},
		{Severity: hcl.DiagError, Summary: "No value for required variable", Detail: `The root module input variable "name" is not set.`},
		{Severity: hcl.DiagError, Summary: "Cycle: local.a, local.b", Detail: "", Subject: rng("main.tf", 10, 1, 10, 20)},
	}
	doc := NewSARIF(diags, SARIFOptions{ToolVersion: "0.1.0", DefaultFile: "main.tf"})
	b, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	var decoded any
	if err := json.Unmarshal(b, &decoded); err != nil {
		t.Fatal(err)
	}
	for _, p := range checkSARIF(decoded) {
		t.Error(p)
	}
	run := doc.Runs[0]
	if got, want := len(run.Results), len(diags); got != want {
		t.Fatalf("%d results, want %d", got, want)
	}
	var ids []string
	for _, r := range run.Tool.Driver.Rules {
		ids = append(ids, r.ID)
	}
	if want := "[unsupported-argument deprecated-value-used no-value-for-required-variable cycle]"; fmt.Sprint(ids) != want {
		t.Errorf("rules %v, want %s", ids, want)
	}
	for i, r := range run.Results {
		if len(r.Locations) != 1 {
			t.Errorf("result %d has %d locations", i, len(r.Locations))
			continue
		}
		loc := r.Locations[0].PhysicalLocation
		if loc.ArtifactLocation.URI == "" || loc.Region.StartLine < 1 {
			t.Errorf("result %d: location %+v lacks a file or a line", i, loc)
		}
	}
	if got := run.Results[1].Locations[0].PhysicalLocation; got.ArtifactLocation.URI != "modules/net/main.tf" || got.Region != (SARIFRegion{StartLine: 7, StartColumn: 5, EndLine: 9, EndColumn: 1}) {
		t.Errorf("multi-line region %+v", got)
	}
	if got := run.Results[3].Locations[0].PhysicalLocation; got.ArtifactLocation.URI != "main.tf" || got.Region.StartLine != 1 {
		t.Errorf("a diagnostic without a range is at %+v, want main.tf line 1", got)
	}
	if got := run.Results[2].Level; got != "warning" {
		t.Errorf("warning level %q", got)
	}
}

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
		if got := checkSARIF(doc); len(got) != tc.want {
			t.Errorf("%s: %d problems %q, want %d", name, len(got), got, tc.want)
		}
	}
}
