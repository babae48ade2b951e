// Command policylint reports public buckets and open firewall rules in a module.
package main

import (
	"fmt"
	"os"

	"github.com/zclconf/go-cty/cty"

	"github.com/tfeval/tfeval"
)

// check returns the finding for the value at path in a resource, or "".
func check(resourceType, path string, v cty.Value) string {
	switch {
	case !v.IsKnown() || v.IsNull() || v.Type() != cty.String:
		return "" // unknown until apply, or unset: nothing to judge yet
	case resourceType == "mock_bucket" && path == "acl" && v.AsString() == "public-read":
		return "bucket is readable by anyone"
	case resourceType == "mock_firewall" && v.AsString() == "0.0.0.0/0":
		return "rule is open to the whole internet"
	}
	return ""
}

// lint evaluates a module as terraform plan would and lists its findings.
func lint(dir string) ([]string, error) {
	ev := tfeval.Evaluate(tfeval.Options{WorkDir: dir})
	if ev.HasErrors() {
		return nil, ev.Diagnostics
	}
	var findings []string
	for _, r := range ev.Resources() {
		tfeval.Walk(r.Value, func(path string, v cty.Value) bool {
			if msg := check(r.Type, path, v); msg != "" {
				at := r.AttrRange(path) // the expression that produced v
				findings = append(findings, fmt.Sprintf("%s:%d:%d: %s.%s: %s", at.Filename, at.Start.Line, at.Start.Column, r.Addr, path, msg))
			}
			return true
		})
	}
	return findings, nil
}

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: policylint DIR")
		os.Exit(2)
	}
	findings, err := lint(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	for _, f := range findings {
		fmt.Println(f)
	}
	os.Exit(min(len(findings), 1)) // 1 when there are findings
}
