package lang

import (
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
)

// rangeText is the source text a range covers in one of files.
func rangeText(t *testing.T, files map[string]string, rng hcl.Range) string {
	t.Helper()
	src, ok := files[rng.Filename]
	if !ok {
		t.Fatalf("range %s is in no file of the test", rng)
	}
	if rng.End.Byte > len(src) || rng.Start.Byte > rng.End.Byte {
		t.Fatalf("range %s is outside its file", rng)
	}
	return src[rng.Start.Byte:rng.End.Byte]
}

// findInstance is the resource instance at addr.
func findInstance(t *testing.T, res *Result, addr string) *ResourceInstance {
	t.Helper()
	for _, ri := range res.Resources {
		if ri.Addr == addr {
			return ri
		}
	}
	t.Fatalf("no resource instance %s", addr)
	return nil
}

// rangeTestSchema has a resource type whose rule blocks make a set and
// whose step blocks make a list, to test both with a schema.
const rangeTestSchema = `{"format_version":"1.0","provider_schemas":{"registry.terraform.io/hashicorp/mock":{
 "resource_schemas":{"mock_fw":{"block":{
  "attributes":{
   "id":{"type":"string","computed":true},
   "name":{"type":"string","optional":true},
   "tags":{"type":["map","string"],"optional":true},
   "labels":{"type":["map","string"],"optional":true},
   "list":{"type":["set","string"],"optional":true}},
  "block_types":{
   "rule":{"nesting_mode":"set","block":{
    "attributes":{"port":{"type":"number","optional":true},"arn":{"type":"string","computed":true}},
    "block_types":{"nested":{"nesting_mode":"list","block":{"attributes":{"deep":{"type":"string","optional":true}}}}}}},
   "step":{"nesting_mode":"list","block":{"attributes":{"n":{"type":"number","optional":true}}}},
   "named":{"nesting_mode":"map","block":{"attributes":{"v":{"type":"string","optional":true}}}}}}}}}}}`

const rangeTestNative = `variable "ports" {
  default = [22, 443]
}

resource "mock_fw" "a" {
  count = 2
  name  = "fw-${count.index}"
  tags = {
    (var.ports[0] > 0 ? "computed" : "key") = "k"
    Name                 = "a"
    "kubernetes.io/role" = "node"
  }
  labels = {
    app = "a"
    (var.ports[0] > 0 ? "computed" : "key") = "k"
  }
  list = ["zeta", upper("alpha")]
  rule {
    port = 80
    nested {
      deep = "d"
    }
  }
  dynamic "rule" {
    for_each = var.ports
    content {
      port = rule.value
      dynamic "nested" {
        for_each = [rule.value * 10]
        content {
          deep = "n${nested.value}"
        }
      }
    }
  }
  step {
    n = 1
  }
  dynamic "step" {
    for_each = [2, 3]
    iterator = s
    content {
      n = s.value + count.index
    }
  }
  named "x" {
    v = "vx"
  }
}
`

// rangeTestNativeNoSchema is rangeTestNative without the map-nested
// block, which without a schema is a block with a label nothing expects.
var rangeTestNativeNoSchema = strings.Replace(rangeTestNative, "named \"x\" {\n    v = \"vx\"\n  }\n", "", 1)

// rangeTestJSON is rangeTestNative in JSON syntax.
const rangeTestJSON = `{
  "variable": {"ports": {"default": [22, 443]}},
  "resource": {"mock_fw": {"a": {
    "count": 2,
    "name": "fw-${count.index}",
    "tags": {"Name": "a", "kubernetes.io/role": "node"},
    "labels": {"app": "a", "${var.ports[0] > 0 ? \"computed\" : \"key\"}": "k"},
    "list": ["zeta", "${upper(\"alpha\")}"],
    "rule": [
      {"port": 80, "nested": {"deep": "d"}}
    ],
    "step": {"n": 1},
    "dynamic": {
      "rule": {
        "for_each": "${var.ports}",
        "content": {
          "port": "${rule.value}",
          "dynamic": {"nested": {"for_each": "${[rule.value * 10]}", "content": {"deep": "n${nested.value}"}}}
        }
      },
      "step": {"for_each": [2, 3], "iterator": "s", "content": {"n": "${s.value + count.index}"}}
    },
    "named": {"x": {"v": "vx"}}
  }}}
}`

// TestAttrRange checks that the range of every attribute path is the
// expression that produced it, in native syntax and JSON, with and
// without a schema: top-level arguments, items of object and tuple
// constructors, nested blocks, dynamic blocks' content (nested in one
// another), set-nested blocks matched by value, and the fallbacks.
func TestAttrRange(t *testing.T) {
	schemas, err := ParseProviderSchemas([]byte(rangeTestSchema))
	if err != nil {
		t.Fatal(err)
	}
	type want struct{ path, native, json string }
	// block is the resource block's own range: the fallback.
	const block = "<block>"
	// The paths hold in every variant; the set positions are found from
	// the evaluated value below.
	common := []want{
		{"", block, block},
		{"name", `"fw-${count.index}"`, `"fw-${count.index}"`},
		{"tags", "{\n    (var", `{"Name"`},
		{"tags.Name", `"a"`, `"a"`},
		{`tags["kubernetes.io/role"]`, `"node"`, `"node"`},
		// A key made from variables after app's item could be app.
		{"labels.app", "{\n    app", `{"app"`},
		{"no_such_attribute", block, block},
	}
	// Without a schema, blocks of a type make a tuple in order, and list
	// is a tuple as written.
	noSchema := []want{
		{"rule[0].port", "80", "80"},
		{"rule[0].nested[0].deep", `"d"`, `"d"`},
		{"rule[0].nested[0]", "nested", `{"deep"`},
		{"rule[1].port", "rule.value", `"${rule.value}"`},
		{"rule[2].nested[0].deep", `"n${nested.value}"`, `"n${nested.value}"`},
		{"rule[2].nested[0]", `dynamic "nested"`, `"nested"`},
		{"rule[7].port", block, block},
		{"step[0].n", "1", "1"},
		{"step[2].n", "s.value + count.index", `"${s.value + count.index}"`},
		{"list[0]", `"zeta"`, `"zeta"`},
		{"list[1]", `upper("alpha")`, `"${upper(\"alpha\")}"`},
		{"list[2]", `["zeta", upper("alpha")]`, `["zeta", "${upper(\"alpha\")}"]`},
	}
	// With the schema, list is a set: "alpha" comes first but is
	// computed, so its position ends at the whole constructor; "zeta"
	// is found by value.
	withSchema := []want{
		{"step[0].n", "1", "1"},
		{"step[2].n", "s.value + count.index", `"${s.value + count.index}"`},
		{"list[1]", `"zeta"`, `"zeta"`},
		{"list[0]", `["zeta", upper("alpha")]`, `["zeta", "${upper(\"alpha\")}"]`},
		{"id", block, block},
		{"named.x.v", `"vx"`, `"vx"`},
		{"named.y", block, block},
	}
	// JSON needs a schema to tell blocks from arguments, as in Terraform.
	for _, variant := range []struct {
		name    string
		schemas *ProviderSchemas
		syntax  string
		paths   []want
	}{
		{"no schema", nil, "native", append(append([]want{}, common...), noSchema...)},
		{"schema", schemas, "native", append(append([]want{}, common...), withSchema...)},
		{"schema", schemas, "json", append(append([]want{}, common...), withSchema...)},
	} {
		syntax := variant.syntax
		{
			t.Run(variant.name+"/"+syntax, func(t *testing.T) {
				files := map[string]string{"main.tf": rangeTestNative}
				if variant.schemas == nil {
					files = map[string]string{"main.tf": rangeTestNativeNoSchema}
				}
				if syntax == "json" {
					files = map[string]string{"main.tf.json": rangeTestJSON}
				}
				res, diags := evalFiles(t, files, Options{Schemas: variant.schemas})
				if diags.HasErrors() {
					t.Fatal(diags.Error())
				}
				ri := findInstance(t, res, "mock_fw.a[1]")
				for _, w := range variant.paths {
					p := parseTestPath(t, w.path)
					wantText := w.native
					if syntax == "json" {
						wantText = w.json
					}
					if wantText == block {
						wantText = rangeText(t, files, ri.DeclRange)
					}
					got := rangeText(t, files, res.AttrRange(ri, p))
					if len(got) > len(wantText) {
						got = got[:len(wantText)]
					}
					if got != wantText {
						t.Errorf("AttrRange(%s) starts %q, want %q", w.path, got, wantText)
					}
				}
				if variant.schemas == nil {
					return
				}
				// Set-nested blocks: each element by its position in the
				// set's order goes to the block that made it.
				rules := ri.Value.GetAttr("rule")
				i := 0
				for it := rules.ElementIterator(); it.Next(); i++ {
					_, rule := it.Element()
					port, _ := rule.GetAttr("port").AsBigFloat().Int64()
					wantPort, wantDeep := "rule.value", `"n${nested.value}"`
					if syntax == "json" {
						wantPort = `"${rule.value}"`
					}
					if port == 80 {
						wantPort, wantDeep = "80", `"d"`
					}
					p := cty.GetAttrPath("rule").Index(cty.NumberIntVal(int64(i)))
					if got := rangeText(t, files, res.AttrRange(ri, p.GetAttr("port"))); got != wantPort {
						t.Errorf("rule[%d].port (port %d) = %q, want %q", i, port, got, wantPort)
					}
					if got := rangeText(t, files, res.AttrRange(ri, p.GetAttr("nested").Index(cty.NumberIntVal(0)).GetAttr("deep"))); got != wantDeep {
						t.Errorf("rule[%d].nested[0].deep (port %d) = %q, want %q", i, port, got, wantDeep)
					}
					// cty's own paths name the element by itself.
					byElement := cty.GetAttrPath("rule").Index(rule).GetAttr("port")
					if got := rangeText(t, files, res.AttrRange(ri, byElement)); got != wantPort {
						t.Errorf("rule[<element>].port (port %d) = %q, want %q", port, got, wantPort)
					}
					// arn is computed: the rule block is the nearest place.
					if got, block := res.AttrRange(ri, p.GetAttr("arn")), res.AttrRange(ri, p); got != block || got == ri.DeclRange {
						t.Errorf("rule[%d].arn (port %d) = %s, want the rule block", i, port, got)
					}
				}
				if i != 3 {
					t.Errorf("rule has %d elements, want 3", i)
				}
				if got := rangeText(t, files, res.AttrRange(ri, cty.GetAttrPath("list").Index(cty.StringVal("zeta")))); got != `"zeta"` {
					t.Errorf("list[<element zeta>] = %q", got)
				}
			})
		}
	}
}

// parseTestPath reads the few path forms the tests use: names, [n] and ["k"].
func parseTestPath(t *testing.T, s string) cty.Path {
	t.Helper()
	var p cty.Path
	for s != "" {
		switch {
		case s[0] == '.':
			s = s[1:]
		case s[0] == '[' && s[1] == '"':
			end := 2
			for s[end] != '"' {
				end++
			}
			p = p.Index(cty.StringVal(s[2:end]))
			s = s[end+2:]
		case s[0] == '[':
			end := 1
			n := int64(0)
			for s[end] != ']' {
				n = n*10 + int64(s[end]-'0')
				end++
			}
			p = p.Index(cty.NumberIntVal(n))
			s = s[end+1:]
		default:
			end := 0
			for end < len(s) && s[end] != '.' && s[end] != '[' {
				end++
			}
			p = p.GetAttr(s[:end])
			s = s[end:]
		}
	}
	return p
}

// TestOutputAndVariableRanges checks where outputs' and module
// variables' values were written: inside an output's value, a module
// call's argument, and a default the call leaves in place.
func TestOutputAndVariableRanges(t *testing.T) {
	files := map[string]string{
		"main.tf": `locals {
  x = 2
}

module "m" {
  source = "./m"
  cidr = {
    v4 = "10.0.0.0/16"
  }
}

output "o" {
  value = { a = [1, local.x], b = module.m.zone }
}
`,
		"m/main.tf": `variable "cidr" {
  type = object({ v4 = string })
}

variable "zone" {
  default = "z1"
}

output "zone" {
  value = var.zone
}
`,
	}
	res, diags := evalFiles(t, files, Options{})
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	root, child := res.Root(), res.Module("module.m")
	if child == nil || child.Call == nil || child.Call.Name != "m" {
		t.Fatalf("module.m has no call: %#v", child)
	}
	for _, tt := range []struct {
		what string
		rng  hcl.Range
		want string
	}{
		{"output o", root.OutputRange("o", nil), "{ a = [1, local.x], b = module.m.zone }"},
		{"output o.a[1]", root.OutputRange("o", cty.GetAttrPath("a").Index(cty.NumberIntVal(1))), "local.x"},
		{"output o.b", root.OutputRange("o", cty.GetAttrPath("b")), "module.m.zone"},
		{"output o.c", root.OutputRange("o", cty.GetAttrPath("c")), "{ a = [1, local.x], b = module.m.zone }"},
		{"module output", child.OutputRange("zone", nil), "var.zone"},
		{"call argument", child.VariableRange("cidr", nil), "{\n    v4 = \"10.0.0.0/16\"\n  }"},
		{"inside a call argument", child.VariableRange("cidr", cty.GetAttrPath("v4")), `"10.0.0.0/16"`},
		{"default", child.VariableRange("zone", nil), `"z1"`},
	} {
		if tt.rng.Filename == "" {
			t.Errorf("%s: no range", tt.what)
			continue
		}
		if got := rangeText(t, files, tt.rng); got != tt.want {
			t.Errorf("%s = %q, want %q", tt.what, got, tt.want)
		}
	}
	if rng := root.OutputRange("missing", nil); rng != (hcl.Range{}) {
		t.Errorf("an undeclared output has range %s", rng)
	}
	if rng := child.VariableRange("missing", nil); rng != (hcl.Range{}) {
		t.Errorf("an undeclared variable has range %s", rng)
	}
	// Nothing panics on missing pieces.
	var none *ModuleInstance
	var noResult *Result
	_ = none.OutputRange("o", nil)
	_ = none.VariableRange("v", nil)
	_ = noResult.AttrRange(nil, nil)
	_ = noResult.ResourceSchema(nil)
	_ = noResult.AttrRange(&ResourceInstance{Addr: "x.y"}, cty.GetAttrPath("a"))
}
