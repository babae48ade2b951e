package lang

import (
	"sort"
	"strings"
	"testing"

	"github.com/zclconf/go-cty/cty"
)

func TestProvisionersAndConnections(t *testing.T) {
	tests := []struct {
		name     string
		src      string
		summary  string // "" when evaluation must succeed
		errRange string
	}{
		{
			name: "self, count and other objects are fine at create time",
			src: `locals { user = "admin" }
resource "t" "a" {
  count = 2
  name  = "n${count.index}"
  connection {
    host = self.name
    user = local.user
  }
  provisioner "remote-exec" {
    inline = ["echo ${self.name} ${count.index} ${local.user}"]
    connection {
      port = 22
    }
  }
}`,
		},
		{
			name: "undeclared variable in a provisioner",
			src: `resource "t" "a" {
  provisioner "local-exec" {
    command = var.nope
  }
}`,
			summary:  "Reference to undeclared input variable",
			errRange: "main.tf:3,15-23",
		},
		{
			name: "undeclared local in a connection",
			src: `resource "t" "a" {
  connection {
    host = local.missing
  }
}`,
			summary:  "Reference to undeclared local value",
			errRange: "main.tf:3,12-25",
		},
		{
			name: "each outside for_each in a provisioner",
			src: `resource "t" "a" {
  provisioner "local-exec" {
    command = each.key
  }
}`,
			summary:  `Reference to "each" in context without for_each`,
			errRange: "main.tf:3,15-23",
		},
		{
			name: "a provisioner may name its own resource",
			src: `resource "t" "a" {
  name = "n"
  provisioner "local-exec" {
    command = "echo ${t.a.name}"
  }
  connection {
    host = t.a.name
  }
}`,
		},
		{
			name: "the resource's own arguments may not",
			src: `resource "t" "a" {
  name = t.a.id
  provisioner "local-exec" {
    command = "echo ${t.a.name}"
  }
}`,
			summary:  "Self-referential block",
			errRange: "main.tf:1,1-17",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, diags := evalFiles(t, map[string]string{"main.tf": tt.src}, Options{})
			if tt.summary == "" {
				if diags.HasErrors() {
					t.Fatalf("unexpected errors: %s", diags.Error())
				}
				return
			}
			if len(diags) != 1 || diags[0].Summary != tt.summary {
				t.Fatalf("diagnostics = %s; want one %q", diags.Error(), tt.summary)
			}
			if got := diags[0].Subject.String(); got != tt.errRange {
				t.Errorf("range = %s, want %s", got, tt.errRange)
			}
		})
	}
}

// A resource without a schema is what its body sets: meta-arguments,
// lifecycle, connection and provisioner blocks are not attributes.
func TestSchemalessResourceLeavesOutMetaArguments(t *testing.T) {
	res, diags := evalFiles(t, map[string]string{"main.tf": `
resource "t" "a" {
  count = 1
  name  = "x"
  rule { port = 22 }
  lifecycle { prevent_destroy = false }
  connection { host = "h" }
  provisioner "local-exec" { command = "c" }
  depends_on = []
}`}, Options{})
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	v := res.Resources[0].Value
	want := cty.ObjectVal(map[string]cty.Value{
		"name": cty.StringVal("x"),
		"rule": cty.TupleVal([]cty.Value{cty.ObjectVal(map[string]cty.Value{"port": cty.NumberIntVal(22)})}),
	})
	if !v.RawEquals(want) {
		t.Errorf("value = %#v\nwant %#v", v, want)
	}
}

// Terraform evaluates provisioner and connection blocks before they run only
// in its validation walk, where self and every value but path and terraform
// are unknown: what fails only for the values a plan knows (a null in a
// template) is no error, in validate or in a plan; what fails whatever the
// values is.
func TestProvisionersSeeUnknownValues(t *testing.T) {
	src := `variable "key" {
  type    = string
  default = null
}
locals { user = var.key }
resource "t" "a" {
  count = 1
  name  = null
  tags  = { k = var.key }
  provisioner "local-exec" {
    command = "echo ${var.key} ${self.name} ${self.tags.k} ${length(var.key)} ${local.user}"
  }
  connection {
    host = "${self.tags["k"]}:${count.index}"
  }
}
`
	constant := `resource "t" "b" {
  provisioner "local-exec" {
    command = "echo ${null}"
  }
}
`
	for _, validate := range []bool{false, true} {
		_, diags := evalFiles(t, map[string]string{"main.tf": src}, Options{Validate: validate})
		if diags.HasErrors() {
			t.Errorf("validate=%v: unexpected errors: %s", validate, diags.Error())
		}
		_, diags = evalFiles(t, map[string]string{"main.tf": constant}, Options{Validate: validate})
		if len(diags) != 1 || diags[0].Summary != "Invalid template interpolation value" || diags[0].Subject.String() != "main.tf:3,23-27" {
			t.Errorf("validate=%v: diagnostics = %s; want one \"Invalid template interpolation value\" at main.tf:3,23-27", validate, diags.Error())
		}
	}
}

// The validation walk knows a local computed from constants, path,
// terraform and other such locals (a plan's value, then), and no local that
// reads a variable, a resource or plantimestamp(): a null or an index past
// the end in such a local fails a provisioner in validate and in a plan.
func TestProvisionersSeeValidationKnownLocals(t *testing.T) {
	src := `variable "v" {
  type    = string
  default = null
}
locals {
  n     = null
  chain = local.n
  fromv = var.v
  l     = ["a"]
  pt    = plantimestamp() == "" ? "x" : null
  ws    = terraform.workspace == "default" ? null : "x"
}
resource "t" "chain" {
  provisioner "local-exec" { command = "echo ${local.chain}" }
}
resource "t" "fromv" {
  provisioner "local-exec" { command = "echo ${local.fromv}" }
}
resource "t" "idx" {
  provisioner "local-exec" { command = "echo ${local.l[3]}" }
}
resource "t" "pt" {
  provisioner "local-exec" { command = "echo ${local.pt}" }
}
resource "t" "ws" {
  connection {
    host = local.ws
  }
  provisioner "local-exec" { command = "echo ${local.ws}" }
}
`
	want := []string{
		"Invalid index main.tf:20,55-58",
		"Invalid template interpolation value main.tf:14,48-59",
		"Invalid template interpolation value main.tf:29,48-56",
	}
	for _, validate := range []bool{false, true} {
		_, diags := evalFiles(t, map[string]string{"main.tf": src}, Options{Validate: validate})
		var got []string
		for _, d := range diags {
			got = append(got, d.Summary+" "+d.Subject.String())
		}
		sort.Strings(got)
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("validate=%v: diagnostics =\n%s\nwant\n%s", validate, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	}
}
