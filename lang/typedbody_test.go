package lang

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"

	"github.com/tfeval/tfeval/config"
)

// tagsSchema is a mock resource with a map attribute and a nested block.
const tagsSchema = `{"format_version":"1.0","provider_schemas":{"registry.terraform.io/tfeval/mock":{
 "resource_schemas":{"mock_thing":{"block":{
  "attributes":{"id":{"type":"string","computed":true},"tags":{"type":["map","string"],"optional":true}},
  "block_types":{"setting":{"nesting_mode":"list","block":{"attributes":{"name":{"type":"string","optional":true}}}}}}}}}}}`

// A value that cannot convert is explained by its first offending element
// or attribute in name order, the same every run, wherever the conversion
// happens: a variable's default, a module argument, a resource argument
// decoded directly, one decoded by hcldec (a body with a dynamic block),
// a nested block's argument and tomap(). go-cty names the first it meets
// in Go's map order.
func TestConversionMessagesDeterministic(t *testing.T) {
	schemas, err := ParseProviderSchemas([]byte(tagsSchema))
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{"versions.tf": mockVersions, "main.tf": `
module "m" {
  source = "./m"
  in     = { z = [1], y = [2], x = [3] }
}
resource "mock_thing" "direct" {
  tags = { c = ["z"], b = ["y"], a = ["x"] }
}
resource "mock_thing" "dynamic" {
  tags = { c = ["z"], b = ["y"], a = ["x"] }
  dynamic "setting" {
    for_each = [1]
    content {
      name = { q = 1, p = 2 }
    }
  }
}
output "o" { value = tomap({ k = [1], j = "s", i = [2] }) }
output "t" { value = transpose({ z = "x", y = {}, x = ["a"], w = true }) }
`, "m/main.tf": `variable "in" { type = map(string) }`}
	want := []string{
		`element "x": string required, but have tuple`,
		`Inappropriate value for attribute "tags": element "a": string required, but have tuple.`,
		`Inappropriate value for attribute "name": string required, but have object.`,
		`cannot convert object to map of any single type`,
		`Invalid value for "values" parameter: element "w": list of string required, but have bool.`,
	}
	var first string
	for run := range 20 {
		_, diags := evalFiles(t, files, Options{Schemas: schemas})
		text := diagDetails(diags)
		if run == 0 {
			first = text
			for _, w := range want {
				if !strings.Contains(text, w) {
					t.Errorf("diagnostics lack %q:\n%s", w, text)
				}
			}
			if n := strings.Count(text, `element "a": string required`); n != 2 {
				t.Errorf("%d tags diagnostics name element \"a\", want both:\n%s", n, text)
			}
			continue
		}
		if text != first {
			t.Fatalf("run %d differs:\n%s\nfirst run:\n%s", run, text, first)
		}
	}
}

// The same for a variable's default, checked when the module loads.
func TestDefaultMismatchDeterministic(t *testing.T) {
	dir := t.TempDir()
	src := `
variable "tiers" {
  type = map(object({ newbats = number, public = optional(bool, false) }))
  default = {
    public  = { newbits = 8, public = true }
    private = { newbits = 8 }
    data    = { newbits = 10 }
  }
}
`
	if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	for range 20 {
		_, diags := config.Load(dir, config.Options{})
		if text := diagDetails(diags); !strings.Contains(text, `element "data": attribute "newbats" is required`) {
			t.Fatalf("diagnostics:\n%s", text)
		}
	}
}

// diagDetails is every diagnostic's summary and detail, one a line.
func diagDetails(diags hcl.Diagnostics) string {
	var b strings.Builder
	for _, d := range diags {
		b.WriteString(d.Summary + ": " + d.Detail + "\n")
	}
	return b.String()
}
