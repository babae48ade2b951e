package format_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/tfeval/tfeval"
	"github.com/tfeval/tfeval/dialect"
	"github.com/tfeval/tfeval/format"
	"github.com/tfeval/tfeval/internal/conformance"
	"github.com/tfeval/tfeval/lang"
)

// corpus is the repository's copy of the recorded cases.
const corpus = "../testdata/conformance"

// planOf evaluates a recorded case as `tfeval show -json` runs it and
// returns the plan document decoded as generic JSON.
func planOf(t *testing.T, c *conformance.Case, d dialect.Dialect) any {
	t.Helper()
	opts := tfeval.Options{WorkDir: c.Dir, Dialect: d, Env: c.Env}
	for _, a := range c.Args {
		switch {
		case strings.HasPrefix(a, "-var="):
			opts.VarArgs = append(opts.VarArgs, tfeval.Var(strings.TrimPrefix(a, "-var=")))
		case strings.HasPrefix(a, "-var-file="):
			opts.VarArgs = append(opts.VarArgs, tfeval.VarFile(strings.TrimPrefix(a, "-var-file=")))
		}
	}
	ev := tfeval.Evaluate(opts)
	if ev.HasErrors() {
		t.Fatalf("evaluation failed: %s", ev.Diagnostics.Error())
	}
	plan, err := format.NewPlan(ev.Result, format.PlanOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := plan.WriteJSON(&buf); err != nil {
		t.Fatal(err)
	}
	// WriteJSON writes in pieces what encoding/json writes whole.
	whole, err := json.Marshal(plan)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(buf.Bytes(), append(whole, '\n')) {
		t.Fatalf("WriteJSON differs from json.Marshal:\n%s\n%s", buf.Bytes(), whole)
	}
	if n, err := plan.JSONSize(); err != nil || n != int64(buf.Len()) {
		t.Errorf("JSONSize = %d, %v; WriteJSON wrote %d bytes", n, err, buf.Len())
	}
	var doc any
	if err := json.Unmarshal(buf.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	return doc
}

// normalise drops what differs between runs and tools, as the corpus's
// compare_extra.py does: timestamps and versions, and the order of
// relevant_attributes.
func normalise(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := map[string]any{}
		for k, e := range x {
			if k == "timestamp" || k == "terraform_version" {
				continue
			}
			if list, ok := e.([]any); ok && k == "relevant_attributes" {
				sorted := append([]any(nil), list...)
				sort.Slice(sorted, func(i, j int) bool {
					a, _ := json.Marshal(sorted[i])
					b, _ := json.Marshal(sorted[j])
					return string(a) < string(b)
				})
				e = sorted
			}
			out[k] = normalise(e)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = normalise(e)
		}
		return out
	}
	return v
}

// differences lists the first paths where two documents differ.
func differences(want, got any, path string, out []string) []string {
	if len(out) >= 8 {
		return out
	}
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			return append(out, fmt.Sprintf("%s: want an object, got %v", path, got))
		}
		keys := map[string]bool{}
		for k := range w {
			keys[k] = true
		}
		for k := range g {
			keys[k] = true
		}
		var names []string
		for k := range keys {
			names = append(names, k)
		}
		sort.Strings(names)
		for _, k := range names {
			wv, inWant := w[k]
			gv, inGot := g[k]
			switch {
			case !inGot:
				out = append(out, path+"."+k+": missing")
			case !inWant:
				out = append(out, fmt.Sprintf("%s.%s: not expected (%v)", path, k, gv))
			default:
				out = differences(wv, gv, path+"."+k, out)
			}
		}
		return out
	case []any:
		g, ok := got.([]any)
		if ok && len(g) == len(w) {
			for i := range w {
				out = differences(w[i], g[i], fmt.Sprintf("%s[%d]", path, i), out)
			}
			return out
		}
	}
	if !reflect.DeepEqual(want, got) {
		out = append(out, fmt.Sprintf("%s: want %v, got %v", path, want, got))
	}
	return out
}

// Every plan the binaries recorded (terraform show -json of a saved plan,
// in both dialects) is what NewPlan writes for the same configuration,
// after the corpus's normalisation.
func TestPlanConformance(t *testing.T) {
	cases, err := conformance.LoadCases(corpus)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, c := range cases {
		b, err := os.ReadFile(filepath.Join(c.Dir, "expected_extra.json"))
		if err != nil {
			continue
		}
		var extra map[string]struct {
			PlanJSON any `json:"plan_json"`
		}
		if err := json.Unmarshal(b, &extra); err != nil {
			t.Fatalf("%s: %v", c.Name, err)
		}
		for _, d := range []dialect.Dialect{dialect.Terraform, dialect.Tofu} {
			want := extra[d.String()].PlanJSON
			if want == nil {
				continue
			}
			n++
			t.Run(d.String()+"/"+c.Name, func(t *testing.T) {
				if c.Schemas {
					// Evaluate finds providers-schema.json in the root module.
					if _, err := os.Stat(filepath.Join(c.Dir, tfeval.SchemaFile)); err != nil {
						t.Fatal(err)
					}
				}
				got := planOf(t, c, d)
				for _, p := range differences(normalise(want), normalise(got), "$", nil) {
					t.Error(p)
				}
			})
		}
	}
	if n < 60 {
		t.Errorf("only %d recorded plans found under %s", n, corpus)
	}
}

// The plan is the same, byte for byte, every time, given the same time.
func TestPlanDeterministic(t *testing.T) {
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	var first string
	for i := range 3 {
		ev := tfeval.Evaluate(tfeval.Options{WorkDir: "../testdata/examples/quickstart", Now: func() time.Time { return at }})
		if ev.HasErrors() {
			t.Fatal(ev.Diagnostics.Error())
		}
		plan, err := format.NewPlan(ev.Result, format.PlanOptions{Timestamp: at})
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		if err := plan.WriteJSON(&buf); err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			first = buf.String()
			if !strings.Contains(first, `"timestamp":"2026-01-02T03:04:05Z"`) {
				t.Errorf("timestamp missing from %s", first)
			}
			continue
		}
		if buf.String() != first {
			t.Fatalf("run %d differs", i)
		}
	}
}

// What tfeval does not know appears as Terraform shows what it defers: a
// resource counted by a data source tfeval did not read is one deferred
// change whose address has [*] (and the plan is not complete); the data
// source is read during apply. Given the data source's result, it is part
// of the prior state, its instances are planned and the plan is complete.
func TestPlanUnknownExpansionAndData(t *testing.T) {
	for _, tc := range []struct {
		name      string
		data      []string
		deferred  []string
		changes   []string
		prior     []string
		complete  bool
		readNoWhy bool
	}{
		{name: "unread", deferred: []string{"aws_subnet.app[*]"}, changes: []string{"aws_lb.app", "data.aws_availability_zones.available"}, readNoWhy: true},
		{name: "given", data: []string{"data.json"}, changes: []string{"aws_lb.app", "aws_subnet.app[0]", "aws_subnet.app[1]", "aws_subnet.app[2]"}, prior: []string{"data.aws_availability_zones.available"}, complete: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ev := tfeval.Evaluate(tfeval.Options{WorkDir: "../testdata/examples/offline", MissingModules: tfeval.MissingModulesUnknown, DataFiles: tc.data})
			if ev.HasErrors() {
				t.Fatal(ev.Diagnostics.Error())
			}
			p, err := format.NewPlan(ev.Result, format.PlanOptions{})
			if err != nil {
				t.Fatal(err)
			}
			var deferred, changes, prior []string
			for _, d := range p.DeferredChanges {
				if d.Reason != "instance_count_unknown" {
					t.Errorf("%s deferred because %q", d.ResourceChange.Address, d.Reason)
				}
				deferred = append(deferred, d.ResourceChange.Address)
			}
			for _, rc := range p.ResourceChanges {
				changes = append(changes, rc.Address)
				if rc.Mode == "data" && (rc.Change.Actions[0] != "read" || (rc.ActionReason == "") != tc.readNoWhy) {
					t.Errorf("%s: actions %v, reason %q", rc.Address, rc.Change.Actions, rc.ActionReason)
				}
			}
			if p.PriorState != nil {
				for _, r := range p.PriorState.Values.RootModule.Resources {
					prior = append(prior, r.Address)
				}
			}
			if fmt.Sprint(deferred) != fmt.Sprint(tc.deferred) || fmt.Sprint(changes) != fmt.Sprint(tc.changes) || fmt.Sprint(prior) != fmt.Sprint(tc.prior) {
				t.Errorf("deferred %v, changes %v, prior %v; want %v, %v, %v", deferred, changes, prior, tc.deferred, tc.changes, tc.prior)
			}
			if *p.Complete != tc.complete || !*p.Applyable {
				t.Errorf("complete %v applyable %v, want complete %v", *p.Complete, *p.Applyable, tc.complete)
			}
		})
	}
}

// A configuration that did not evaluate has no plan.
func TestPlanWithoutResult(t *testing.T) {
	if _, err := format.NewPlan(nil, format.PlanOptions{}); err == nil {
		t.Error("a plan of nothing")
	}
}

// A plan holds each value's JSON once more than the evaluation holds the
// value: one string shared by many resources is many strings there. The
// plan of an evaluation whose values would write more than
// Limits.MaxOutputSize is refused while it is made.
func TestPlanHeldToOutputSize(t *testing.T) {
	files := fstest.MapFS{"main.tf": {Data: []byte(`
locals { s = format("%100000s", "") }
resource "terraform_data" "r" {
  count = 20
  input = local.s
}`)}}
	for _, max := range []int64{1 << 20, 64 << 20} {
		ev := tfeval.Evaluate(tfeval.Options{FS: files, Limits: lang.Limits{MaxOutputSize: max}})
		if ev.HasErrors() {
			t.Fatal(ev.Diagnostics.Error())
		}
		plan, err := format.NewPlan(ev.Result, format.PlanOptions{})
		var tooLarge *lang.OutputTooLarge
		if max < 4<<20 {
			if !errors.As(err, &tooLarge) {
				t.Errorf("limit %d: %v, want OutputTooLarge", max, err)
			}
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		n, err := plan.JSONSize()
		if err != nil || n < 40*100_000 {
			t.Fatalf("JSONSize = %d, %v", n, err)
		}
	}
}

// An imported terraform_data instance is planned as Terraform v1.11.4
// plans it: the object read (its id, every other attribute null) is the
// change's before and part of the prior state, and the action is no-op
// when nothing is set, update when input is, a replacement (with the path
// that forces it) when triggers_replace is; the change says it imports.
func TestPlanImport(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{"main.tf": `
import {
  to = terraform_data.a
  id = "id-a"
}
resource "terraform_data" "a" {}
import {
  to = terraform_data.b
  id = "id-b"
}
resource "terraform_data" "b" { input = "x" }
import {
  to = terraform_data.c
  id = "id-c"
}
resource "terraform_data" "c" { triggers_replace = "t" }
resource "terraform_data" "new" { input = terraform_data.b.id }
`}
	for name, src := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want := map[string]string{
		"terraform_data.a":   `{"actions":["no-op"],"before":{"id":"id-a","input":null,"output":null,"triggers_replace":null},"after":{"id":"id-a","input":null,"output":null,"triggers_replace":null},"after_unknown":{},"before_sensitive":{},"after_sensitive":{},"importing":{"id":"id-a"}}`,
		"terraform_data.b":   `{"actions":["update"],"before":{"id":"id-b","input":null,"output":null,"triggers_replace":null},"after":{"id":"id-b","input":"x","triggers_replace":null},"after_unknown":{"output":true},"before_sensitive":{},"after_sensitive":{},"importing":{"id":"id-b"}}`,
		"terraform_data.c":   `{"actions":["delete","create"],"before":{"id":"id-c","input":null,"output":null,"triggers_replace":null},"after":{"input":null,"output":null,"triggers_replace":"t"},"after_unknown":{"id":true},"before_sensitive":{},"after_sensitive":{},"replace_paths":[["triggers_replace"]],"importing":{"id":"id-c"}}`,
		"terraform_data.new": `{"actions":["create"],"before":null,"after":{"input":"id-b","triggers_replace":null},"after_unknown":{"id":true,"output":true},"before_sensitive":false,"after_sensitive":{}}`,
	}
	for _, d := range []dialect.Dialect{dialect.Terraform, dialect.Tofu} {
		ev := tfeval.Evaluate(tfeval.Options{WorkDir: dir, Dialect: d})
		if ev.HasErrors() {
			t.Fatal(ev.Diagnostics.Error())
		}
		p, err := format.NewPlan(ev.Result, format.PlanOptions{})
		if err != nil {
			t.Fatal(err)
		}
		for _, rc := range p.ResourceChanges {
			b, _ := json.Marshal(rc.Change)
			if string(b) != want[rc.Address] {
				t.Errorf("%s: %s change\n%s\nwant\n%s", d, rc.Address, b, want[rc.Address])
			}
			if reason := rc.ActionReason; (rc.Address == "terraform_data.c") != (reason == "replace_because_cannot_update") {
				t.Errorf("%s: %s action reason %q", d, rc.Address, reason)
			}
		}
		var prior []string
		if p.PriorState != nil {
			for _, r := range p.PriorState.Values.RootModule.Resources {
				prior = append(prior, r.Address)
			}
		}
		if fmt.Sprint(prior) != "[terraform_data.a terraform_data.b terraform_data.c]" {
			t.Errorf("%s: prior state %v", d, prior)
		}
	}
}

// Without the aws provider's schema, the attributes its table says are
// sensitive are sensitive in the plan document's values of its resources
// and data sources (top-level and in nested blocks) and its outputs'
// changes, as terraform show -json of a plan with the aws provider
// v5.100.0 writes them for the attributes the configuration has; OpenTofu
// leaves a data source's out (as it does with the schema).
func TestPlanTableSensitive(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"main.tf": `
resource "aws_db_instance" "x" {
  engine   = "mysql"
  username = "u"
  password = "literal-pw"
}
resource "aws_elasticache_user" "e" {
  user_id = "u1"
  authentication_mode {
    type      = "password"
    passwords = ["password123456789"]
  }
}
data "aws_secretsmanager_secret_version" "v" { secret_id = "abc" }
output "p" {
  value     = aws_db_instance.x.password
  sensitive = true
}
output "u" { value = aws_db_instance.x.username }
`,
		"data.json": `{"data.aws_secretsmanager_secret_version.v": {"secret_id": "abc", "secret_string": "s"}}`,
	}
	for name, src := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		d    dialect.Dialect
		want map[string]string
	}{
		{dialect.Terraform, map[string]string{
			"aws_db_instance.x":                        `{"password":true}`,
			"aws_elasticache_user.e":                   `{"authentication_mode":[{"passwords":true}]}`,
			"data.aws_secretsmanager_secret_version.v": `{"secret_string":true}`,
		}},
		{dialect.Tofu, map[string]string{
			"aws_db_instance.x":                        `{"password":true}`,
			"aws_elasticache_user.e":                   `{"authentication_mode":[{"passwords":true}]}`,
			"data.aws_secretsmanager_secret_version.v": `{}`,
		}},
	} {
		ev := tfeval.Evaluate(tfeval.Options{WorkDir: dir, Dialect: tc.d, DataFiles: []string{filepath.Join(dir, "data.json")}})
		if ev.HasErrors() {
			t.Fatal(ev.Diagnostics.Error())
		}
		p, err := format.NewPlan(ev.Result, format.PlanOptions{})
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range p.PlannedValues.RootModule.Resources {
			got, _ := json.Marshal(r.SensitiveValues)
			if string(got) != tc.want[r.Address] {
				t.Errorf("%s %s: sensitive_values %s, want %s", tc.d, r.Address, got, tc.want[r.Address])
			}
		}
		if len(p.PlannedValues.RootModule.Resources) != len(tc.want) {
			t.Errorf("%s: %d resources, want %d", tc.d, len(p.PlannedValues.RootModule.Resources), len(tc.want))
		}
		for name, want := range map[string]bool{"p": true, "u": false} {
			if got := p.OutputChanges[name].AfterSensitive; got != want {
				t.Errorf("%s output %s: after_sensitive %v, want %v", tc.d, name, got, want)
			}
		}
	}
}
