package lang

import (
	"testing"

	"github.com/hashicorp/hcl/v2/ext/dynblock"
	"github.com/hashicorp/hcl/v2/hcldec"
)

// TestCheckDynamicAgreesWithDynblock: checkDynamic finds a body without
// schema clean exactly where checkDecoded of dynblock's expansion finds
// no diagnostic, for dynamic blocks with known and unknown for_each,
// nested, renamed iterators, blocks hcldec skips after an unknown one,
// and every kind of diagnostic a dynamic block can have.
func TestCheckDynamicAgreesWithDynblock(t *testing.T) {
	cases := map[string]struct {
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
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			res, _ := evalFiles(t, map[string]string{"main.tf": `
variable "list" {
  default = ["a", "b"]
}
variable "objs" {
  default = {one = {tags = ["x"]}, two = {tags = ["y", "z"]}}
}
resource "x_thing" "u" {}
resource "x_thing" "r" {
  count = 0` + c.body + `
}`}, Options{})
			ev := res.ev
			s := ev.scope(res.Root())
			rc := findResource(res.Root().Config.Module, "x_thing.r")
			info := ev.resourceInfo(res.Root().Config, rc)
			if !info.dynamic || !tuplesOnly(info.spec) {
				t.Fatalf("not a dynamic body without schema")
			}
			ctx, diags := s.refContext(info.bodyRefs)
			if diags.HasErrors() {
				t.Fatal(diags.Error())
			}
			want := checkDecoded(dynblock.Expand(info.body, ctx), info.spec.(hcldec.ObjectSpec), ctx)
			if (len(want) == 0) != c.clean {
				t.Fatalf("checkDecoded has %d diagnostics, want clean %v: %s", len(want), c.clean, want.Error())
			}
			steps := ev.limits.steps.Load()
			if got := s.checkDynamic(info.syntax, info.hidden, info.dynamicSpec(), ctx); got != c.clean {
				t.Errorf("checkDynamic reports clean %v, want %v", got, c.clean)
			} else if !got && ev.limits.steps.Load() != steps {
				t.Errorf("checkDynamic kept the steps it charged before it gave up")
			}
		})
	}
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
