package lang

import (
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
