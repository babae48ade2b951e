package lang

import (
	"testing"

	"github.com/hashicorp/hcl/v2"
)

// TestEphemeralModuleArgument checks that a module argument holding an
// ephemeral value, however deep, is refused by a variable that does not
// accept one and taken by one that does, and that arguments are taken
// where no value is ephemeral (there Prepare is told so, and does not
// search them).
func TestEphemeralModuleArgument(t *testing.T) {
	const child = `
variable "v" {}
variable "e" {
  ephemeral = true
  default   = null
}`
	const root = `
variable "e" {
  ephemeral = true
  default   = "x"
}
variable "p" { default = "x" }
`
	for name, tc := range map[string]struct {
		main string
		want bool
	}{
		"deep, into a variable that does not accept it": {root + `module "m" {
  source = "./m"
  v      = { a = [var.e] }
}`, true},
		"into an ephemeral variable": {root + `module "m" {
  source = "./m"
  v      = 1
  e      = { a = [var.e] }
}`, false},
		"none": {root + `module "m" {
  source = "./m"
  v      = { a = [var.p] }
}`, false},
		"none anywhere": {`module "m" {
  source = "./m"
  v      = { a = ["x"] }
}`, false},
	} {
		t.Run(name, func(t *testing.T) {
			_, diags := evalFiles(t, map[string]string{"main.tf": tc.main, "m/main.tf": child}, Options{})
			found := false
			for _, d := range diags {
				if d.Summary == "Ephemeral value not allowed" {
					found = true
				} else if d.Severity == hcl.DiagError {
					t.Errorf("unexpected: %s", d.Error())
				}
			}
			if found != tc.want {
				t.Errorf("ephemeral argument refused: %v, want %v (%s)", found, tc.want, diags.Error())
			}
		})
	}
}
