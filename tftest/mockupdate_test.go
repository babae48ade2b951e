package tftest

import (
	"testing"

	"github.com/tfeval/tfeval/dialect"
)

// TestMockUpdateFillsNothing: Terraform's mocked provider (v1.15.9
// internal/providers/mock.go) fills computed attributes only when it
// creates an object; an update is planned and applied as Terraform
// proposes it from the prior state and the configuration
// (internal/plans/objchange): a computed attribute the configuration
// leaves unset keeps its prior value, in the object and in the nested
// objects correlated with prior ones (a list block's by index, a map's by
// key, a set's by its configured values, a single block with the prior
// one), and one of a nested object added since stays null, known while
// planning already. tfeval generated values for them (and planned them
// unknown). The map block's labels are constant: Terraform validates the
// module before each run, every variable unknown, where a label drawn
// from a for_each that depends on one is an error.
func TestMockUpdateFillsNothing(t *testing.T) {
	main := `terraform {
  required_providers {
    mock = { source = "tfeval/mock" }
  }
}
variable "names" {
  type    = list(string)
  default = ["a"]
}
variable "single" {
  type    = bool
  default = false
}
resource "mock_nest" "t" {
  dynamic "lst" {
    for_each = var.names
    content {
      name = lst.value
    }
  }
  dynamic "st" {
    for_each = var.names
    content {
      name = st.value
    }
  }
  mp "a" {
    name = "a"
  }
  dynamic "mp" {
    for_each = var.single ? ["b"] : []
    labels   = ["b"]
    content {
      name = mp.value
    }
  }
  dynamic "one" {
    for_each = var.single ? ["c"] : []
    content {
      name = one.value
    }
  }
}
`
	test := `mock_provider "mock" {}
run "create" {}
run "update" {
  variables {
    names  = ["a", "b"]
    single = true
  }
  assert {
    condition     = mock_nest.t.id == run.create.id && mock_nest.t.lst[0].id == run.create.lst0
    error_message = "prior values not kept"
  }
  assert {
    condition     = mock_nest.t.lst[1].id == null && mock_nest.t.lst[1].num == null && mock_nest.t.one.id == null && mock_nest.t.mp["b"].id == null
    error_message = "added objects filled"
  }
  assert {
    condition     = [for o in mock_nest.t.st : o.id if o.name == "a"][0] == run.create.st0 && [for o in mock_nest.t.st : o.id if o.name == "b"][0] == null
    error_message = "set objects"
  }
  assert {
    condition     = mock_nest.t.mp["a"].id == run.create.mp0
    error_message = "map objects"
  }
}
run "plan_update" {
  command = plan
  variables {
    names  = ["a", "b", "c"]
    single = true
  }
  assert {
    condition     = mock_nest.t.lst[2].id == null && mock_nest.t.lst[0].id == run.create.lst0
    error_message = "planned"
  }
}
`
	files := map[string]string{
		"main.tf":               main + "output \"id\" { value = mock_nest.t.id }\noutput \"lst0\" { value = mock_nest.t.lst[0].id }\noutput \"st0\" { value = [for o in mock_nest.t.st : o.id if o.name == \"a\"][0] }\noutput \"mp0\" { value = mock_nest.t.mp[\"a\"].id }\n",
		"main.tftest.hcl":       test,
		"providers-schema.json": nestSchema,
	}
	rep := runFiles(t, files, dialect.Terraform)
	wantStatuses(t, rep, map[string]string{"main.tftest.hcl::create": "pass", "main.tftest.hcl::update": "pass", "main.tftest.hcl::plan_update": "pass"})
}

// TestMockUpdateFillsNothingByTable: the same without a schema, where
// tfeval's table of the aws provider's schema gives the nested block's
// computed attributes: the set block object added on update has them
// null, the one that correlates with a prior object keeps its values.
func TestMockUpdateFillsNothingByTable(t *testing.T) {
	main := awsProvider + `
variable "devs" {
  type    = list(string)
  default = ["/dev/sdb"]
}
resource "aws_instance" "i" {
  ami           = "ami-123"
  instance_type = "t3.micro"
  dynamic "ebs_block_device" {
    for_each = var.devs
    content {
      device_name = ebs_block_device.value
      volume_size = 8
    }
  }
}
output "vol" { value = [for d in aws_instance.i.ebs_block_device : d.volume_id if d.device_name == "/dev/sdb"][0] }
`
	test := `mock_provider "aws" {}
run "create" {}
run "update" {
  variables {
    devs = ["/dev/sdb", "/dev/sdc"]
  }
  assert {
    condition     = [for d in aws_instance.i.ebs_block_device : d.volume_id if d.device_name == "/dev/sdc"][0] == null
    error_message = "the added object was filled"
  }
  assert {
    condition     = [for d in aws_instance.i.ebs_block_device : d.volume_id if d.device_name == "/dev/sdb"][0] == run.create.vol
    error_message = "the prior object's values were not kept"
  }
}
`
	rep := runFiles(t, map[string]string{"main.tf": main, "main.tftest.hcl": test}, dialect.Terraform)
	wantStatuses(t, rep, map[string]string{"main.tftest.hcl::create": "pass", "main.tftest.hcl::update": "pass"})
}
