package tftest

import (
	"slices"
	"testing"

	"github.com/tfeval/tfeval/dialect"
)

// TestUnusedFileValues: Terraform (1.13 on) works out every value of a
// test file's variables block once its runs and values are done, whether
// a run takes it or not; a value that reads a run and that no run takes
// still reports its errors as the file's, and fails no run. A value that
// reads a run that errored is not worked out. OpenTofu works out the
// file's values for each run, and knows no run there.
func TestUnusedFileValues(t *testing.T) {
	main := `
variable "x" {
  type    = string
  default = "d"
}
output "o" { value = var.x }
output "u" { value = uuid() }
`
	for _, tc := range []struct {
		name  string
		test  string
		want  map[string]string
		file  string // the file's status
		diags []string
	}{{
		name: "an attribute the run's outputs lack",
		test: `
variables {
  unused = run.setup.nope
}
run "setup" { command = plan }
run "second" { command = plan }
`,
		want:  map[string]string{"setup": "pass", "second": "pass"},
		file:  "error",
		diags: []string{"error: Unsupported attribute"},
	}, {
		name: "through another value",
		test: `
variables {
  base   = run.setup.o
  unused = tonumber(var.base)
}
run "setup" { command = plan }
`,
		want:  map[string]string{"setup": "pass"},
		file:  "error",
		diags: []string{"error: Invalid function argument"},
	}, {
		name: "an unknown value of a plan",
		test: `
variables {
  unused = run.setup.u
}
run "setup" { command = plan }
`,
		want:  map[string]string{"setup": "pass"},
		file:  "error",
		diags: []string{"error: Reference to unknown value"},
	}, {
		name: "a value that works",
		test: `
variables {
  unused = upper(run.setup.o)
}
run "setup" { command = plan }
`,
		want: map[string]string{"setup": "pass"},
		file: "pass",
	}, {
		name: "a run that errored",
		test: `
variables {
  unused = run.setup.nope
}
run "setup" {
  command = plan
  variables {
    x = tonumber("no")
  }
}
run "second" { command = plan }
`,
		want:  map[string]string{"setup": "error", "second": "skip"},
		file:  "error",
		diags: []string{"error: Invalid function argument"},
	}, {
		name: "a value a skipped run would take",
		test: `
variables {
  x = run.setup.nope
}
run "setup" {
  command = plan
  variables {
    x = "set"
  }
}
run "broken" {
  command = plan
  variables {
    x = tonumber("no")
  }
}
run "later" { command = plan }
`,
		want:  map[string]string{"setup": "pass", "broken": "error", "later": "skip"},
		file:  "error",
		diags: []string{"error: Invalid function argument", "error: Unsupported attribute"},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			rep := runFiles(t, map[string]string{"main.tf": main, "main.tftest.hcl": tc.test}, dialect.Terraform)
			want := map[string]string{"main.tftest.hcl": tc.file}
			for k, v := range tc.want {
				want["main.tftest.hcl::"+k] = v
			}
			wantStatuses(t, rep, want)
			if got := summaries(rep); !slices.Equal(got, tc.diags) {
				t.Errorf("diagnostics %q, want %q", got, tc.diags)
			}
		})
	}
}
