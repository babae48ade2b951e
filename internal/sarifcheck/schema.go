package sarifcheck

import (
	"fmt"
	"net/url"
	"strings"
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
	"reportingConfiguration":   {allowed: []string{"enabled", "level", "rank", "parameters", "properties"}},
	"result":                   {required: []string{"message"}, allowed: []string{"ruleId", "ruleIndex", "rule", "kind", "level", "message", "analysisTarget", "locations", "guid", "correlationGuid", "occurrenceCount", "partialFingerprints", "fingerprints", "stacks", "codeFlows", "graphs", "graphTraversals", "relatedLocations", "suppressions", "baselineState", "rank", "attachments", "hostedViewerUri", "workItemUris", "provenance", "fixes", "taxa", "webRequest", "webResponse", "properties"}},
	"message":                  {allowed: []string{"text", "markdown", "id", "arguments", "properties"}},
	"location":                 {allowed: []string{"id", "physicalLocation", "logicalLocations", "message", "annotations", "relationships", "properties"}},
	"physicalLocation":         {allowed: []string{"address", "artifactLocation", "region", "contextRegion", "properties"}},
	"artifactLocation":         {allowed: []string{"uri", "uriBaseId", "index", "description", "properties"}},
	"region":                   {allowed: []string{"startLine", "startColumn", "endLine", "endColumn", "charOffset", "charLength", "byteOffset", "byteLength", "snippet", "message", "sourceLanguage", "properties"}},
}

// sarifChildren says which definition the value of a property has, per
// object kind; arrays hold items of the definition named, and "{name}"
// is an object whose every property is one.
var sarifChildren = map[string]map[string]string{
	"sarifLog":            {"runs": "run"},
	"run":                 {"tool": "tool", "results": "result", "originalUriBaseIds": "{artifactLocation}"},
	"tool":                {"driver": "toolComponent"},
	"toolComponent":       {"rules": "reportingDescriptor"},
	"reportingDescriptor": {"shortDescription": "multiformatMessageString", "fullDescription": "multiformatMessageString", "help": "multiformatMessageString", "defaultConfiguration": "reportingConfiguration"},
	"result":              {"message": "message", "locations": "location"},
	"location":            {"physicalLocation": "physicalLocation"},
	"physicalLocation":    {"artifactLocation": "artifactLocation", "region": "region"},
}

// Schema checks a decoded SARIF log against the schema's structure:
// required and allowed properties, types, enumerations and minimums, and
// the cross-references the specification requires (a result's ruleIndex
// names the rule with its ruleId).
func Schema(doc any) []string {
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
			if strings.HasPrefix(child, "{") {
				members, _ := pv.(map[string]any)
				if members == nil {
					bad(p, "must be an object")
				}
				for k, m := range members {
					walk(p+"."+k, strings.Trim(child, "{}"), m)
				}
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
		case "run":
			if k, ok := str("columnKind"); ok && k != "utf16CodeUnits" && k != "unicodeCodePoints" {
				bad(path+".columnKind", "must be utf16CodeUnits or unicodeCodePoints, not %q", k)
			}
		case "reportingConfiguration":
			if l, ok := str("level"); ok && l != "none" && l != "note" && l != "warning" && l != "error" {
				bad(path+".level", "must be none, note, warning or error, not %q", l)
			}
		case "result":
			if l, ok := str("level"); ok && l != "none" && l != "note" && l != "warning" && l != "error" {
				bad(path+".level", "must be none, note, warning or error, not %q", l)
			}
			str("ruleId")
			integer("ruleIndex", -1)
			if fp, present := obj["partialFingerprints"]; present {
				m, ok := fp.(map[string]any)
				if !ok {
					bad(path+".partialFingerprints", "must be an object")
				}
				for k, v := range m {
					if _, ok := v.(string); !ok {
						bad(path+".partialFingerprints."+k, "must be a string")
					}
				}
			}
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
