package lang

import (
	"strconv"
	"strings"
	"testing"
)

// TestDynamicBlockBudget: the blocks the dynamic blocks of one body
// generate, nested ones included, are bounded by Limits.MaxElements (a
// billion blocks from three nested dynamic blocks of a thousand elements
// took the machine's memory before), in a resource body with and without
// schema, in validate and plan, and in a provider block; within the bound
// they are evaluated as before.
func TestDynamicBlockBudget(t *testing.T) {
	nested := func(header string, n int) string {
		return `locals {
  r = range(` + strconv.Itoa(n) + `)
}
` + header + ` {
  dynamic "a" {
    for_each = local.r
    content {
      dynamic "b" {
        for_each = local.r
        content {
          v = "x${b.value}"
        }
      }
    }
  }
}
resource "aws_s3_bucket" "x" {}
`
	}
	s, err := ParseProviderSchemas([]byte(`{"format_version":"1.0","provider_schemas":{"registry.terraform.io/hashicorp/aws":{
 "provider":{"version":0,"block":{"block_types":{"a":{"nesting_mode":"list","block":{"block_types":{"b":{"nesting_mode":"list","block":{
   "attributes":{"v":{"type":"string","optional":true}}}}}}}}}},
 "resource_schemas":{"aws_s3_bucket":{"block":{"attributes":{"id":{"type":"string","computed":true}}}},
  "aws_thing":{"block":{"block_types":{"a":{"nesting_mode":"list","block":{"block_types":{"b":{"nesting_mode":"list","block":{
   "attributes":{"v":{"type":"string","optional":true}}}}}}}}}}}}}}`))
	if err != nil {
		t.Fatal(err)
	}
	for _, header := range []string{`resource "aws_thing" "t"`, `provider "aws"`} {
		for _, schema := range []bool{false, true} {
			for _, validate := range []bool{false, true} {
				opts := Options{Validate: validate, Limits: Limits{MaxElements: 1000}}
				if schema {
					opts.Schemas = s
				}
				_, diags := evalFiles(t, map[string]string{"main.tf": nested(header, 40)}, opts)
				if len(diags) != 1 || diags[0].Summary != "Too many dynamic blocks" || diags[0].Subject == nil || diags[0].Subject.Start.Line != 9 {
					t.Errorf("%s, schema %v, validate %v: %v", header, schema, validate, diags)
				}
				_, diags = evalFiles(t, map[string]string{"main.tf": nested(header, 20)}, opts)
				if diags.HasErrors() {
					t.Errorf("%s, schema %v, validate %v, within the bound: %v", header, schema, validate, diags)
				}
			}
		}
	}
}

// TestDynamicBlockSteps: each block a dynamic block generates costs
// dynamicBlockSteps of Limits.MaxSteps, since it is kept with its values
// for the whole evaluation: a thousand blocks, with the evaluation of
// their attributes, fit in 8,000 steps, not in 3,000.
func TestDynamicBlockSteps(t *testing.T) {
	src := `resource "aws_thing" "t" {
  dynamic "a" {
    for_each = range(1000)
    content {
      v = a.value
    }
  }
}
`
	for _, tc := range []struct {
		steps int64
		stop  bool
	}{{3000, true}, {8000, false}} {
		_, diags := evalFiles(t, map[string]string{"main.tf": src}, Options{Limits: Limits{MaxSteps: tc.steps}})
		stopped := false
		for _, d := range diags {
			stopped = stopped || strings.Contains(d.Summary, "step limit")
		}
		if stopped != tc.stop {
			t.Errorf("MaxSteps %d: stopped %v, want %v (%v)", tc.steps, stopped, tc.stop, diags)
		}
	}
}
