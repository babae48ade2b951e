package sarifcheck

import (
	"fmt"
	"net/url"
	"strings"
)

// GitHub's limits on an uploaded log: beyond them the upload is refused
// or cut.
const (
	maxRuns            = 20
	maxResultsPerRun   = 25_000
	maxRulesPerRun     = 25_000
	maxLocationsResult = 1_000
)

// GitHub checks a decoded SARIF log against what GitHub code scanning
// requires of an uploaded log to place its alerts (its "SARIF support for
// code scanning" page), and what it needs to place them right:
//
//   - every rule has an id, and shortDescription, fullDescription and
//     help texts, the alert's title and body; ids are unique in a run;
//   - every result has a message text, a ruleId naming a rule of the run
//     (its ruleIndex, when given, that rule's), at least one location and
//     at most 1,000, and partialFingerprints with non-empty values, no two
//     results of a rule alike (they would be one alert);
//   - every location has a physicalLocation with an artifactLocation.uri:
//     with a uriBaseId, a relative reference with forward slashes, no ".."
//     and no leading "/", escaped as a URI, whose uriBaseId the run's
//     originalUriBaseIds names as a directory (a file URI ending in "/");
//     without one, an absolute file URI (a file outside the repository);
//   - every region has startLine, startColumn, endLine and endColumn of at
//     least 1, and does not end before it starts;
//   - columns are in UTF-16 code units (columnKind absent or
//     utf16CodeUnits), which code scanning counts in;
//   - at most 20 runs, 25,000 results and 25,000 rules a run.
func GitHub(doc any) []string {
	var problems []string
	bad := func(path, format string, args ...any) {
		problems = append(problems, path+": "+fmt.Sprintf(format, args...))
	}
	log, _ := doc.(map[string]any)
	if log["version"] != "2.1.0" {
		bad("$.version", "must be 2.1.0")
	}
	runs, _ := log["runs"].([]any)
	if len(runs) == 0 || len(runs) > maxRuns {
		bad("$.runs", "must hold 1 to %d runs, not %d", maxRuns, len(runs))
	}
	for ri, r := range runs {
		rp := fmt.Sprintf("$.runs[%d]", ri)
		run, _ := r.(map[string]any)
		if k, ok := run["columnKind"]; ok && k != "utf16CodeUnits" {
			bad(rp+".columnKind", "code scanning counts columns in UTF-16 code units, not %v", k)
		}
		bases := map[string]bool{}
		if obi, ok := run["originalUriBaseIds"].(map[string]any); ok {
			for id, loc := range obi {
				l, _ := loc.(map[string]any)
				u, _ := l["uri"].(string)
				pu, err := url.Parse(u)
				if err != nil || pu.Scheme != "file" || !strings.HasSuffix(u, "/") {
					bad(rp+".originalUriBaseIds."+id, "must be a file URI of a directory (ending in /), not %q", u)
				}
				bases[id] = true
			}
		}
		tool, _ := run["tool"].(map[string]any)
		driver, _ := tool["driver"].(map[string]any)
		if name, _ := driver["name"].(string); name == "" {
			bad(rp+".tool.driver.name", "is required")
		}
		rules, _ := driver["rules"].([]any)
		if len(rules) > maxRulesPerRun {
			bad(rp+".tool.driver.rules", "%d rules, more than %d", len(rules), maxRulesPerRun)
		}
		ruleIndex := map[string]int{}
		for i, x := range rules {
			p := fmt.Sprintf("%s.tool.driver.rules[%d]", rp, i)
			rule, _ := x.(map[string]any)
			id, _ := rule["id"].(string)
			if id == "" {
				bad(p+".id", "is required")
			}
			if _, dup := ruleIndex[id]; dup {
				bad(p+".id", "%q is the id of an earlier rule", id)
			}
			ruleIndex[id] = i
			for _, name := range []string{"shortDescription", "fullDescription", "help"} {
				m, _ := rule[name].(map[string]any)
				if t, _ := m["text"].(string); strings.TrimSpace(t) == "" {
					bad(p+"."+name+".text", "is required")
				}
			}
		}
		results, ok := run["results"].([]any)
		if !ok {
			bad(rp+".results", "is required")
		}
		if len(results) > maxResultsPerRun {
			bad(rp+".results", "%d results, more than %d", len(results), maxResultsPerRun)
		}
		fingerprints := map[string]bool{}
		for i, x := range results {
			p := fmt.Sprintf("%s.results[%d]", rp, i)
			res, _ := x.(map[string]any)
			msg, _ := res["message"].(map[string]any)
			if t, _ := msg["text"].(string); strings.TrimSpace(t) == "" {
				bad(p+".message.text", "is required")
			}
			id, _ := res["ruleId"].(string)
			ri, known := ruleIndex[id]
			if !known {
				bad(p+".ruleId", "%q names no rule of the run", id)
			}
			if idx, ok := res["ruleIndex"].(float64); ok && known && int(idx) != ri {
				bad(p+".ruleIndex", "%v is not the index %d of rule %q", idx, ri, id)
			}
			fps, _ := res["partialFingerprints"].(map[string]any)
			if len(fps) == 0 {
				bad(p+".partialFingerprints", "are required for alerts to be tracked across runs")
			}
			for k, v := range fps {
				s, _ := v.(string)
				if s == "" {
					bad(p+".partialFingerprints."+k, "must be a non-empty string")
				}
				key := id + "\x00" + k + "\x00" + s
				if fingerprints[key] {
					bad(p+".partialFingerprints."+k, "%q is another result's of rule %q: the two would be one alert", s, id)
				}
				fingerprints[key] = true
			}
			locs, _ := res["locations"].([]any)
			if len(locs) == 0 || len(locs) > maxLocationsResult {
				bad(p+".locations", "must hold 1 to %d locations, not %d", maxLocationsResult, len(locs))
			}
			for li, l := range locs {
				checkLocation(fmt.Sprintf("%s.locations[%d]", p, li), l, bases, bad)
			}
		}
	}
	return problems
}

// checkLocation checks one result location.
func checkLocation(p string, l any, bases map[string]bool, bad func(string, string, ...any)) {
	loc, _ := l.(map[string]any)
	phys, ok := loc["physicalLocation"].(map[string]any)
	if !ok {
		bad(p+".physicalLocation", "is required")
		return
	}
	art, _ := phys["artifactLocation"].(map[string]any)
	uri, _ := art["uri"].(string)
	base, hasBase := art["uriBaseId"].(string)
	u, err := url.Parse(uri)
	switch {
	case uri == "" || err != nil:
		bad(p+".physicalLocation.artifactLocation.uri", "must be a URI, not %q", uri)
	case hasBase:
		if !bases[base] {
			bad(p+".physicalLocation.artifactLocation.uriBaseId", "%q is not in the run's originalUriBaseIds", base)
		}
		if u.Scheme != "" || u.Host != "" || strings.HasPrefix(uri, "/") || strings.Contains(uri, `\`) {
			bad(p+".physicalLocation.artifactLocation.uri", "must be a relative reference with forward slashes, not %q", uri)
		}
		for _, seg := range strings.Split(u.Path, "/") {
			if seg == ".." {
				bad(p+".physicalLocation.artifactLocation.uri", "%q leaves the repository", uri)
			}
		}
		if u.RawQuery != "" || u.Fragment != "" || strings.Contains(uri, " ") {
			bad(p+".physicalLocation.artifactLocation.uri", "%q is not escaped: a query, fragment or space", uri)
		}
	default:
		if u.Scheme != "file" || u.Path == "" {
			bad(p+".physicalLocation.artifactLocation.uri", "without a uriBaseId must be an absolute file URI, not %q", uri)
		}
	}
	reg, ok := phys["region"].(map[string]any)
	if !ok {
		bad(p+".physicalLocation.region", "is required")
		return
	}
	num := func(name string) int {
		f, ok := reg[name].(float64)
		if !ok || f < 1 || f != float64(int(f)) {
			bad(p+".physicalLocation.region."+name, "must be a whole number of at least 1, not %v", reg[name])
			return 0
		}
		return int(f)
	}
	sl, sc, el, ec := num("startLine"), num("startColumn"), num("endLine"), num("endColumn")
	if el < sl || (el == sl && ec < sc) {
		bad(p+".physicalLocation.region", "ends (%d,%d) before it starts (%d,%d)", el, ec, sl, sc)
	}
}
