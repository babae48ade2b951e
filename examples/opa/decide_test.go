package opa

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	tfjson "github.com/hashicorp/terraform-json"

	"github.com/tfeval/tfeval"
	"github.com/tfeval/tfeval/dialect"
	"github.com/tfeval/tfeval/format"
)

// The recorded case: a network module whose plan both binaries recorded.
const caseDir = "../../testdata/conformance/realistic_network"

// tfevalPlan is the plan document tfeval writes for the case.
func tfevalPlan(t *testing.T, d dialect.Dialect) []byte {
	t.Helper()
	ev := tfeval.Evaluate(tfeval.Options{WorkDir: caseDir, Dialect: d})
	if ev.HasErrors() {
		t.Fatal(ev.Diagnostics.Error())
	}
	plan, err := format.NewPlan(ev.Result, format.PlanOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := plan.WriteJSON(&buf); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// recordedPlan is the document the dialect's binary wrote for the case.
func recordedPlan(t *testing.T, d dialect.Dialect) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(caseDir, "expected_extra.json"))
	if err != nil {
		t.Fatal(err)
	}
	var extra map[string]struct {
		PlanJSON json.RawMessage `json:"plan_json"`
	}
	if err := json.Unmarshal(b, &extra); err != nil {
		t.Fatal(err)
	}
	return extra[d.String()].PlanJSON
}

// The policy decides the same on tfeval's document as on the binary's, in
// both dialects, and what it decides is what the configuration deserves.
func TestSameDecisions(t *testing.T) {
	src, err := os.ReadFile("policy/network.rego")
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range []dialect.Dialect{dialect.Terraform, dialect.Tofu} {
		t.Run(d.String(), func(t *testing.T) {
			ours, recorded := tfevalPlan(t, d), recordedPlan(t, d)
			// Both documents are plans HashiCorp's own types accept.
			for name, doc := range map[string][]byte{"tfeval": ours, "recorded": recorded} {
				var p tfjson.Plan
				if err := json.Unmarshal(doc, &p); err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				if err := p.Validate(); err != nil {
					t.Fatalf("%s: %v", name, err)
				}
			}
			want, err := Decide(context.Background(), "network.rego", string(src), "tfeval.network", recorded)
			if err != nil {
				t.Fatal(err)
			}
			got, err := Decide(context.Background(), "network.rego", string(src), "tfeval.network", ours)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("decisions on tfeval's plan:\n%v\non the recorded plan:\n%v", got, want)
			}
			deny, _ := got["deny"].([]any)
			warn, _ := got["warn"].([]any)
			creates, _ := got["creates"].([]any)
			if len(deny) != 3 || len(warn) != 1 || len(creates) != 18 || got["name"] != "edge" {
				t.Errorf("decisions %v: want 3 small subnets denied, 1 output warned about, 18 creates, name edge", got)
			}
		})
	}
}
