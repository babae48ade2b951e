package lang

import (
	"fmt"
	"strings"
	"testing"
)

func TestLimits(t *testing.T) {
	tests := []struct {
		name    string
		src     string
		limits  Limits
		summary string
	}{
		{
			name:    "step budget",
			src:     `locals { xs = [for i in range(500) : [for j in range(50) : i * j]] }`,
			limits:  Limits{MaxSteps: 1000},
			summary: "Evaluation step limit reached",
		},
		{
			name:   "default budget is enough for the same work",
			src:    `locals { xs = [for i in range(500) : [for j in range(50) : i * j]] }`,
			limits: Limits{},
		},
		{
			name:    "elements of one for expression",
			src:     `locals { xs = [for i in range(40) : [for j in range(40) : j]] }`,
			limits:  Limits{MaxElements: 1000},
			summary: "Too many elements in for expression",
		},
		{
			name:    "elements of a for expression in a resource argument",
			src:     `resource "terraform_data" "x" { input = [for i in range(40) : [for j in range(40) : j]] }`,
			limits:  Limits{MaxElements: 1000},
			summary: "Too many elements in for expression",
		},
		{
			name:    "step budget in a resource argument",
			src:     `resource "terraform_data" "x" { input = [for i in range(100) : [for j in range(100) : j]] }`,
			limits:  Limits{MaxSteps: 1000},
			summary: "Evaluation step limit reached",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, diags := evalFiles(t, map[string]string{"main.tf": tt.src}, Options{Limits: tt.limits})
			if tt.summary == "" {
				if diags.HasErrors() {
					t.Fatalf("unexpected errors: %s", diags.Error())
				}
				return
			}
			if !diags.HasErrors() {
				t.Fatalf("no error at the limit")
			}
			d := diags[0]
			if d.Summary != tt.summary {
				t.Errorf("summary = %q, want %q", d.Summary, tt.summary)
			}
			if d.Subject == nil || !strings.HasSuffix(d.Subject.Filename, "main.tf") {
				t.Errorf("diagnostic has no range in main.tf: %+v", d.Subject)
			}
		})
	}
}

// Console lines and API calls arrive after evaluation; a long-lived Result
// keeps at most maxAdHocCached of them in its caches.
func TestAdHocExpressionsAreNotCached(t *testing.T) {
	res, diags := evalFiles(t, map[string]string{"main.tf": `locals { a = 1 }`}, Options{})
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	sizes := func() (int, int, int) {
		sh := res.ev.share()
		guarded := 0
		res.ev.limits.guarded.Range(func(any, any) bool { guarded++; return true })
		return len(sh.exprRefs), len(sh.nsCalls), guarded
	}
	r0, n0, g0 := sizes()
	for i := 0; i < 3*maxAdHocCached; i++ {
		mustEval(t, res, fmt.Sprintf("local.a + %d", i), nil)
	}
	if r1, n1, g1 := sizes(); r1+n1 > r0+n0+2*maxAdHocCached || g1 > g0+maxAdHocCached {
		t.Errorf("caches grew from (%d, %d, %d) to (%d, %d, %d) entries, over the bound of %d ad hoc expressions", r0, n0, g0, r1, n1, g1, maxAdHocCached)
	}
}

// TestHugeSchemaTypeCharged: failing to convert an instance's argument to
// an object type of thousands of attributes, which go-cty and tfeval
// explain by walking and sorting the whole type, is charged to the step
// budget by the type's size, so that a thousand instances stop at the
// limit instead of taking seconds; a small type's failures cost nothing
// more than their steps.
func TestHugeSchemaTypeCharged(t *testing.T) {
	schema := func(n int) *ProviderSchemas {
		var attrs strings.Builder
		for i := range n {
			if i > 0 {
				attrs.WriteString(",")
			}
			fmt.Fprintf(&attrs, `"a%05d":"string"`, i)
		}
		s, err := ParseProviderSchemas([]byte(`{"provider_schemas":{"registry.terraform.io/hashicorp/aws":{"resource_schemas":{"aws_thing":{"block":{"attributes":{"obj":{"type":["object",{` + attrs.String() + `}],"optional":true}}}}}}}}`))
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	files := map[string]string{"main.tf": "resource \"aws_thing\" \"t\" {\n  count = 1000\n  obj   = {}\n}\n"}
	_, diags := evalFiles(t, files, Options{Schemas: schema(3000)})
	if !strings.Contains(diags.Error(), "Evaluation step limit reached") {
		t.Errorf("a thousand failures against 3,000 attributes did not reach the step limit: %d diagnostics", len(diags))
	}
	res, diags := evalFiles(t, files, Options{Schemas: schema(20)})
	if strings.Contains(diags.Error(), "Evaluation step limit reached") || res.Steps() > 20_000 {
		t.Errorf("failures against 20 attributes took %d steps: %v", res.Steps(), diags[0])
	}
}
