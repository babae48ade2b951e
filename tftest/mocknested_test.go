package tftest

import (
	"fmt"
	"testing"

	"github.com/hashicorp/hcl/v2"

	"github.com/tfeval/tfeval/dialect"
)

// nestSchema is a schema document for a provider "tfeval/mock" whose
// resource mock_nest has a nested block of each nesting mode, each with
// computed attributes (lst two, and a nested block of its own).
const nestSchema = `{"format_version":"1.0","provider_schemas":{"registry.terraform.io/tfeval/mock":{"provider":{"version":0,"block":{}},"resource_schemas":{"mock_nest":{"version":0,"block":{
  "attributes":{"id":{"type":"string","computed":true}},
  "block_types":{
    "lst":{"nesting_mode":"list","block":{
      "attributes":{"name":{"type":"string","optional":true},"id":{"type":"string","computed":true},"num":{"type":"number","computed":true}},
      "block_types":{"inner":{"nesting_mode":"list","block":{"attributes":{"id":{"type":"string","computed":true}}}}}}},
    "st":{"nesting_mode":"set","block":{"attributes":{"name":{"type":"string","optional":true},"id":{"type":"string","computed":true}}}},
    "one":{"nesting_mode":"single","block":{"attributes":{"name":{"type":"string","optional":true},"id":{"type":"string","computed":true}}}},
    "mp":{"nesting_mode":"map","block":{"attributes":{"name":{"type":"string","optional":true},"id":{"type":"string","computed":true}}}}
  }}}}}}}`

const nestMain = `terraform {
  required_providers {
    mock = { source = "tfeval/mock" }
  }
}

resource "mock_nest" "t" {
  lst {
    name = "a"
    inner {}
  }
  st {
    name = "b"
  }
  one {
    name = "c"
  }
  mp "k" {
    name = "d"
  }
}
`

// wantDiag is one diagnostic a test expects: its detail and where its
// subject starts in main.tf.
type wantDiag struct {
	detail    string
	line, col int
}

// TestMockValuesOfNestedBlocks: Terraform's mocked provider looks for the
// values of a nested block's objects in an object (one for every object
// of the block): anything else given for the block (a tuple of objects,
// a string, a null) is an error for each computed attribute it fills in
// them, naming the object's path as Terraform writes it and placed at
// the nested block the configuration writes (the resource for a set's
// or a single block's); a value of the wrong type inside the object is
// the attribute's error. An override_resource's values are looked in
// while planning already; a mock_resource's, with the apply. Checked
// with terraform test v1.11.4 and aws v5.100.0 (its path written as the
// v1.15.9 source writes it, and its place as v1.15.9 finds it).
func TestMockValuesOfNestedBlocks(t *testing.T) {
	defaults := func(values string) string {
		return fmt.Sprintf("mock_provider \"mock\" {\n  mock_resource \"mock_nest\" {\n    defaults = {\n      %s\n    }\n  }\n}\n", values)
	}
	const at = "main.tftest.hcl:3,5-5,6"
	for _, tc := range []struct {
		name  string
		d     dialect.Dialect
		test  string
		want  map[string]string
		diags []wantDiag
	}{{
		name: "a tuple for a list block, once for each computed attribute of its object and below",
		d:    dialect.Terraform,
		test: defaults(`lst = [{ id = "x" }]`) + "run \"plan\" {\n  command = plan\n}\nrun \"apply\" {}\nrun \"later\" {}\n",
		want: map[string]string{"plan": "pass", "apply": "error", "later": "skip"},
		diags: []wantDiag{
			{`Terraform expected an object type for attribute ".lst[0]" defined within the mocked data at ` + at + `, but found tuple.`, 8, 7},
			{`Terraform expected an object type for attribute ".lst[0]" defined within the mocked data at ` + at + `, but found tuple.`, 8, 7},
			{`Terraform expected an object type for attribute ".lst[0]" defined within the mocked data at ` + at + `, but found tuple.`, 8, 7},
		},
	}, {
		name:  "a string for a set block, at the resource",
		d:     dialect.Terraform,
		test:  defaults(`st = "s"`) + "run \"apply\" {}\n",
		want:  map[string]string{"apply": "error"},
		diags: []wantDiag{{`Terraform expected an object type for attribute ".st[...]" defined within the mocked data at ` + at + `, but found string.`, 7, 26}},
	}, {
		name:  "a null for a single block, at the resource",
		d:     dialect.Terraform,
		test:  defaults(`one = null`) + "run \"apply\" {}\n",
		want:  map[string]string{"apply": "error"},
		diags: []wantDiag{{`Terraform expected an object type for attribute ".one" defined within the mocked data at ` + at + `, but found dynamic.`, 7, 26}},
	}, {
		name:  "a number for a map block, at the block of the key",
		d:     dialect.Terraform,
		test:  defaults(`mp = 1`) + "run \"apply\" {}\n",
		want:  map[string]string{"apply": "error"},
		diags: []wantDiag{{`Terraform expected an object type for attribute ".mp[\"k\"]" defined within the mocked data at ` + at + `, but found number.`, 18, 10}},
	}, {
		name:  "a tuple for a block nested in a block",
		d:     dialect.Terraform,
		test:  defaults(`lst = { inner = [] }`) + "run \"apply\" {}\n",
		want:  map[string]string{"apply": "error"},
		diags: []wantDiag{{`Terraform expected an object type for attribute ".lst[0].inner[0]" defined within the mocked data at ` + at + `, but found tuple.`, 10, 11}},
	}, {
		name:  "a value of the wrong type in the object, at the block",
		d:     dialect.Terraform,
		test:  defaults(`lst = { id = ["x"] }`) + "run \"apply\" {}\n",
		want:  map[string]string{"apply": "error"},
		diags: []wantDiag{{`Terraform could not compute a value for the target type string with the mocked data defined at ` + at + ` with the attribute ".lst[0].id": string required, but have tuple.`, 8, 7}},
	}, {
		name: "objects for each block",
		d:    dialect.Terraform,
		test: defaults(`lst = { id = "x", inner = { id = "i" } }
      st  = { id = "y" }
      one = { id = "z" }
      mp  = { id = "w" }`) + `run "apply" {
  assert {
    condition     = mock_nest.t.lst[0].id == "x" && mock_nest.t.lst[0].inner[0].id == "i" && one(mock_nest.t.st).id == "y" && mock_nest.t.one.id == "z" && mock_nest.t.mp["k"].id == "w"
    error_message = "values"
  }
}
`,
		want: map[string]string{"apply": "pass"},
	}, {
		name: "an override is looked in while planning",
		d:    dialect.Terraform,
		test: `mock_provider "mock" {}
override_resource {
  target = mock_nest.t
  values = {
    one = ["x"]
  }
}
run "plan" {
  command = plan
}
run "later" {}
`,
		want:  map[string]string{"plan": "error", "later": "skip"},
		diags: []wantDiag{{`Terraform expected an object type for attribute ".one" defined within the mocked data at main.tftest.hcl:2,1-18, but found tuple.`, 7, 26}},
	}, {
		name: "OpenTofu's mocks as they were",
		d:    dialect.Tofu,
		test: defaults(`lst = [{ id = "x" }]`) + "run \"apply\" {}\n",
		want: map[string]string{"apply": "pass"},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			rep := runFiles(t, map[string]string{"main.tf": nestMain, "main.tftest.hcl": tc.test, "providers-schema.json": nestSchema}, tc.d)
			checkMockDiags(t, rep, tc.want, tc.diags)
		})
	}
}

// checkMockDiags checks the statuses of a report's runs and their
// diagnostics, all "Failed to compute attribute" errors.
func checkMockDiags(t *testing.T, rep *Report, wantStatus map[string]string, want []wantDiag) {
	t.Helper()
	ws := map[string]string{}
	for k, v := range wantStatus {
		ws["main.tftest.hcl::"+k] = v
	}
	wantStatuses(t, rep, ws)
	got := runDiagnostics(t, rep)
	if len(got) != len(want) {
		t.Fatalf("diagnostics %v, want %d", got, len(want))
	}
	for i, w := range want {
		g := got[i]
		if g.Severity != hcl.DiagError || g.Summary != "Failed to compute attribute" || g.Detail != w.detail {
			t.Errorf("diagnostic %d: %q: %q\nwant %q", i, g.Summary, g.Detail, w.detail)
		}
		if g.Subject == nil || g.Subject.Filename != "main.tf" || g.Subject.Start.Line != w.line || g.Subject.Start.Column != w.col {
			t.Errorf("diagnostic %d: subject %v, want main.tf:%d,%d", i, g.Subject, w.line, w.col)
		}
	}
}

// runDiagnostics are the diagnostics of a report's runs, in order; a
// file-level diagnostic is an error of the test.
func runDiagnostics(t *testing.T, rep *Report) []*hcl.Diagnostic {
	t.Helper()
	var got []*hcl.Diagnostic
	for _, f := range rep.Files {
		if len(f.Diagnostics) > 0 {
			t.Errorf("file diagnostics %v, want none", f.Diagnostics)
		}
		for _, r := range f.Runs {
			got = append(got, r.Diagnostics...)
		}
	}
	return got
}

// TestMockValuesOfNestedBlocksByTable: without a provider schema, the
// table of the aws provider's schema, which knows the nesting of the
// blocks and their computed attributes, is looked in the same way: as
// many errors as terraform test v1.11.4 with aws v5.100.0 reports (one
// for each computed attribute of root_block_device, of ebs_block_device).
func TestMockValuesOfNestedBlocksByTable(t *testing.T) {
	main := awsProvider + `
resource "aws_instance" "a" {
  ami           = "ami-1"
  instance_type = "t3.micro"
  root_block_device {
    volume_size = 8
  }
  ebs_block_device {
    device_name = "/dev/sdb"
  }
}
`
	repeat := func(n int, d wantDiag) []wantDiag {
		out := make([]wantDiag, n)
		for i := range out {
			out[i] = d
		}
		return out
	}
	for _, tc := range []struct {
		name  string
		test  string
		want  map[string]string
		diags []wantDiag
	}{{
		name: "a tuple for a list block",
		test: `mock_provider "aws" {}
override_resource {
  target = aws_instance.a
  values = {
    root_block_device = [{ volume_id = "x" }]
  }
}
run "plan" {
  command = plan
}
`,
		want:  map[string]string{"plan": "error"},
		diags: repeat(8, wantDiag{`Terraform expected an object type for attribute ".root_block_device[0]" defined within the mocked data at main.tftest.hcl:2,1-18, but found tuple.`, 11, 21}),
	}, {
		name: "a string for a set block",
		test: `mock_provider "aws" {
  mock_resource "aws_instance" {
    defaults = {
      ebs_block_device = "y"
    }
  }
}
run "plan" {
  command = plan
}
run "apply" {}
`,
		want:  map[string]string{"plan": "pass", "apply": "error"},
		diags: repeat(9, wantDiag{`Terraform expected an object type for attribute ".ebs_block_device[...]" defined within the mocked data at main.tftest.hcl:3,5-5,6, but found string.`, 8, 29}),
	}, {
		name: "objects",
		test: `mock_provider "aws" {
  mock_resource "aws_instance" {
    defaults = {
      root_block_device = { volume_id = "x" }
      ebs_block_device  = { volume_id = "y" }
    }
  }
}
run "apply" {
  assert {
    condition     = aws_instance.a.root_block_device[0].volume_id == "x" && one(aws_instance.a.ebs_block_device).volume_id == "y"
    error_message = "values"
  }
}
`,
		want: map[string]string{"apply": "pass"},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			rep := runFiles(t, map[string]string{"main.tf": main, "main.tftest.hcl": tc.test}, dialect.Terraform)
			checkMockDiags(t, rep, tc.want, tc.diags)
		})
	}
}
