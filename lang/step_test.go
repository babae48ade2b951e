package lang

import (
	"sync"
	"testing"
)

// TestStepInstances: Options.Step is called before each configuration
// object with the resource instances (managed and data) expanded so far,
// so by an output that reads them all it has seen every one of them;
// module instances are not counted.
func TestStepInstances(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string
		want  int
	}{
		{
			name:  "no resources",
			files: map[string]string{"main.tf": `output "o" { value = 1 }`},
			want:  0,
		},
		{
			name: "count, a data source and a single resource",
			files: map[string]string{"main.tf": `
resource "null_resource" "a" { count = 3 }
data "null_data_source" "d" {}
resource "null_resource" "b" {}
output "o" { value = [length(null_resource.a), data.null_data_source.d, null_resource.b] }
`},
			want: 5,
		},
		{
			name: "for_each in two module instances",
			files: map[string]string{
				"main.tf": `
module "m" {
  source = "./m"
  count  = 2
}
output "o" { value = module.m[*].n }
`,
				"m/main.tf": `
resource "null_resource" "r" { for_each = toset(["x", "y", "z"]) }
output "n" { value = length(null_resource.r) }
`,
			},
			want: 6,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var mu sync.Mutex
			calls, most := 0, -1
			_, diags := evalFiles(t, tt.files, Options{Step: func(n int) {
				mu.Lock()
				calls++
				most = max(most, n)
				mu.Unlock()
			}})
			if diags.HasErrors() {
				t.Fatalf("diagnostics: %s", diags.Error())
			}
			if calls == 0 || most != tt.want {
				t.Errorf("%d calls, most instances %d, want %d", calls, most, tt.want)
			}
		})
	}
}
