package lang

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/hashicorp/hcl/v2/ext/dynblock"
	"github.com/hashicorp/hcl/v2/hcldec"

	"github.com/tfeval/tfeval/config"
)

// checkDynamicCases are bodies of a resource without schema with dynamic
// blocks, and whether dynblock's expansion of them has no diagnostic.
var checkDynamicCases = map[string]struct {
	body  string
	clean bool
}{
	"known": {`
  depends_on = [x_thing.u]
  lifecycle {
    create_before_destroy = true
  }
  dynamic "setting" {
    for_each = var.list
    content {
      name  = setting.value
      index = setting.key + 1
    }
  }`, true},
	"unknown": {`
  dynamic "setting" {
    for_each = x_thing.u.list
    content {
      name = setting.value.nope.deeper
    }
  }`, true},
	"nested, the outer iterator inside": {`
  dynamic "outer" {
    for_each = var.objs
    content {
      dynamic "inner" {
        for_each = outer.value.tags
        content {
          pair = "${outer.key}-${inner.value}"
        }
      }
    }
  }`, true},
	"nested in an unknown one": {`
  dynamic "outer" {
    for_each = x_thing.u.list
    content {
      dynamic "inner" {
        for_each = outer.value
        content {
          v = inner.value
        }
      }
    }
  }`, true},
	"renamed iterator, shadowing": {`
  dynamic "outer" {
    for_each = var.list
    iterator = it
    content {
      dynamic "inner" {
        for_each = [1, 2]
        iterator = it
        content {
          n = it.value * 2
        }
      }
      s = upper(it.value)
    }
  }`, true},
	"static block inside, reading the iterator": {`
  dynamic "outer" {
    for_each = var.list
    content {
      deep {
        v = upper(outer.value)
      }
    }
  }`, true},
	"dynamic inside a static block": {`
  wrapper {
    dynamic "item" {
      for_each = var.objs
      content {
        n = length(item.value.tags)
      }
    }
  }
  plain = var.list[0]`, true},
	"an error after an unknown block of its type is not read": {`
  dynamic "setting" {
    for_each = x_thing.u.list
    content {
      v = 1
    }
  }
  dynamic "setting" {
    for_each = var.list
    content {
      v = setting.value.nope
    }
  }`, true},
	"only the first block of a type in an unknown one": {`
  dynamic "outer" {
    for_each = x_thing.u.list
    content {
      b {}
      b {
        dynamic "c" {
          for_each = 5
          content {}
        }
      }
    }
  }`, true},
	"a for_each in an unknown block is evaluated": {`
  dynamic "outer" {
    for_each = x_thing.u.list
    content {
      dynamic "inner" {
        for_each = 5
        content {}
      }
    }
  }`, false},
	"a string for_each": {`
  dynamic "setting" {
    for_each = "abc"
    content {}
  }`, false},
	"a null for_each": {`
  dynamic "setting" {
    for_each = null
    content {}
  }`, false},
	"no content": {`
  dynamic "setting" {
    for_each = var.list
  }`, false},
	"two contents": {`
  dynamic "setting" {
    for_each = var.list
    content {}
    content {}
  }`, false},
	"a dynamic block without its type": {`
  dynamic "setting" {
    for_each = var.list
    content {}
  }
  dynamic {
    for_each = var.list
    content {}
  }`, false},
	"a nested dynamic block without its type": {`
  dynamic "setting" {
    for_each = var.list
    content {
      dynamic {
        for_each = var.list
        content {}
      }
    }
  }`, false},

	"an unknown argument of the dynamic block": {`
  dynamic "setting" {
    for_each = var.list
    other    = 1
    content {}
  }`, false},
	"an error in one element": {`
  dynamic "setting" {
    for_each = var.objs
    content {
      v = setting.value.tags[1]
    }
  }`, false},
	"an error in a for_each": {`
  dynamic "setting" {
    for_each = var.list[5]
    content {}
  }`, false},
	"an error in an argument": {`
  top = upper(1, 2)
  dynamic "setting" {
    for_each = var.list
    content {}
  }`, false},
	"a bad iterator": {`
  dynamic "setting" {
    for_each = var.list
    iterator = a.b
    content {}
  }`, false},
	"an error in a nested static block": {`
  dynamic "setting" {
    for_each = var.list
    content {
      deep {
        v = setting.value + 1
      }
    }
  }`, false},
}

// TestCheckDynamicAgreesWithDynblock: checkDynamic finds a body without
// schema clean exactly where checkDecoded of dynblock's expansion finds
// no diagnostic, for dynamic blocks with known and unknown for_each,
// nested, renamed iterators, blocks hcldec skips after an unknown one,
// and every kind of diagnostic a dynamic block can have.
func TestCheckDynamicAgreesWithDynblock(t *testing.T) {
	for name, c := range checkDynamicCases {
		t.Run(name, func(t *testing.T) {
			if clean, ok := checkDynamicAgrees(t, c.body); !ok {
				t.Fatalf("not a dynamic body without schema")
			} else if clean != c.clean {
				t.Errorf("clean %v, want %v", clean, c.clean)
			}
		})
	}
}

// FuzzCheckDynamic: checkDynamic agrees with checkDecoded of dynblock's
// expansion on any body without schema that has dynamic blocks.
func FuzzCheckDynamic(f *testing.F) {
	for _, c := range checkDynamicCases {
		f.Add(c.body)
	}
	f.Add(`
  dynamic "a" {
    for_each = var.objs
    iterator = it
    content {
      v = it.value.tags
      dynamic "b" {
        for_each = it.value.tags
        content {
          w = "${it.key}${b.value}"
        }
      }
    }
  }
  dynamic "c" {
    for_each = x_thing.u.list
    content {
      d {}
    }
  }`)
	f.Fuzz(func(t *testing.T, body string) {
		if len(body) > 1<<12 {
			return
		}
		checkDynamicAgrees(t, body)
	})
}

// checkDynamicAgrees evaluates a module with a resource without schema
// and no instance whose body is body, and reports whether checkDynamic
// finds it clean, having failed the test where checkDecoded of dynblock's
// expansion does not agree, or where checkDynamic kept the steps it
// charged before it gave up; ok is false where the body does not load, or
// is not a tuplesOnly body with dynamic blocks.
func checkDynamicAgrees(t *testing.T, body string) (clean, ok bool) {
	t.Helper()
	dir := t.TempDir()
	src := `
variable "list" {
  default = ["a", "b"]
}
variable "objs" {
  default = {one = {tags = ["x"]}, two = {tags = ["y", "z"]}}
}
resource "x_thing" "u" {}
resource "x_thing" "r" {
  count = 0` + body + `
}`
	if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, diags := config.Load(dir, config.Options{})
	if diags.HasErrors() || cfg == nil || cfg.Module == nil {
		return false, false
	}
	rc := findResource(cfg.Module, "x_thing.r")
	if rc == nil {
		return false, false
	}
	res, _ := Evaluate(cfg, Options{Limits: Limits{MaxSteps: 100_000}})
	ev := res.ev
	s := ev.scope(res.Root())
	info := ev.resourceInfo(res.Root().Config, rc)
	if !info.dynamic || info.schema != nil || !tuplesOnly(info.spec) || info.syntax == nil {
		return false, false
	}
	ctx, diags := s.refContext(info.bodyRefs)
	if diags.HasErrors() {
		return false, false
	}
	// Both start from the same steps taken.
	steps := ev.limits.steps.Load()
	want := checkDecoded(dynblock.Expand(info.body, ctx), info.spec.(hcldec.ObjectSpec), ctx)
	ev.limits.steps.Store(steps)
	clean = s.checkDynamic(info.syntax, info.hidden, info.dynamicSpec(), ctx)
	if clean != (len(want) == 0) {
		t.Errorf("checkDynamic finds the body clean %v, checkDecoded has %d diagnostics: %s", clean, len(want), want.Error())
	}
	if !clean && ev.limits.steps.Load() != steps {
		t.Errorf("checkDynamic kept the steps it charged before it gave up")
	}
	return clean, true
}

// TestUnexpandedDynamicAllocations holds what validating a resource with
// no instance and dynamic blocks allocates beyond the plan: checkDynamic
// reads the body from its syntax: 155 allocations when the bound was set,
// where dynblock's expansion took 493.
func TestUnexpandedDynamicAllocations(t *testing.T) {
	res, diags := evalFiles(t, map[string]string{"main.tf": `
variable "rules" {
  type    = map(object({ port = number, cidrs = list(string) }))
  default = {}
}
resource "x_group" "g" {
  count = 0
  name  = "g"
  dynamic "ingress" {
    for_each = var.rules
    content {
      from_port = ingress.value.port
      to_port   = ingress.value.port
      dynamic "cidr" {
        for_each = ingress.value.cidrs
        content {
          block = cidr.value
        }
      }
    }
  }
  dynamic "egress" {
    for_each = length(var.rules) > 0 ? [1] : []
    content {
      all = true
    }
  }
}`}, Options{})
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	cfg := res.ev.cfg
	allocs := func(validate bool) float64 {
		return testing.AllocsPerRun(10, func() { Evaluate(cfg, Options{ValidateUnexpanded: validate}) })
	}
	added := allocs(true) - allocs(false)
	t.Logf("validating the resource with no instance took %.0f allocations", added)
	const bound = 175
	if added > bound {
		t.Errorf("validating the resource with no instance took %.0f allocations, more than %d", added, bound)
	}
}
