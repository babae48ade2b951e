package render_test

import (
	"fmt"

	"github.com/zclconf/go-cty/cty"

	"github.com/tfeval/tfeval/marks"
	"github.com/tfeval/tfeval/render"
)

func ExampleValue() {
	v := cty.ObjectVal(map[string]cty.Value{
		"name":     cty.StringVal("web"),
		"ports":    cty.ListVal([]cty.Value{cty.NumberIntVal(80), cty.NumberIntVal(443)}),
		"id":       cty.UnknownVal(cty.String),
		"password": cty.StringVal("hunter2").Mark(marks.Sensitive),
		"script":   cty.StringVal("#!/bin/sh\necho hi"),
	})
	fmt.Println(render.Value(v))
	// Output:
	// {
	//   "id" = (known after apply)
	//   "name" = "web"
	//   "password" = (sensitive value)
	//   "ports" = tolist([
	//     80,
	//     443,
	//   ])
	//   "script" = <<-EOT
	//   #!/bin/sh
	//   echo hi
	//   EOT
	// }
}

func ExampleType() {
	t := cty.Map(cty.Object(map[string]cty.Type{"cidr": cty.String, "public": cty.Bool}))
	fmt.Println(render.Type(t))
	// Output:
	// map(
	//     object({
	//         cidr: string,
	//         public: bool,
	//     }),
	// )
}

// Render a value with a bound on the text, as a program printing values
// from an untrusted configuration would: a value whose parts repeat one
// another can print far more text than it takes memory.
func ExampleValueWithin() {
	v := cty.StringVal("leaf")
	for range 30 {
		v = cty.ObjectVal(map[string]cty.Value{"a": v, "b": v}) // 2^30 leaves
	}
	s, ok := render.ValueWithin(v, 1000)
	fmt.Println(ok, len(s) < 10_000) // past the bound by at most the closing lines
	// Output:
	// false true
}
