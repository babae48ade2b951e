package moduletest

import (
	"os"
	"slices"
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/tfeval/tfeval"
	"github.com/tfeval/tfeval/lang"
	"github.com/tfeval/tfeval/render"
)

// TestWebappModule unit-tests the module in webapp/: each row gives input
// variables and the outputs and resource arguments they must produce, or
// the error or failed rule that rejects them. docs/testing-modules.md
// shows this file verbatim.
func TestWebappModule(t *testing.T) {
	// The schema document `terraform providers schema -json` wrote for the
	// module's providers: with it, unset optional attributes are null,
	// computed ones unknown and sensitive ones marked, as in a real plan.
	// Parsed once for all rows: a real provider's document is large.
	doc, err := os.ReadFile("webapp/providers-schema.json")
	if err != nil {
		t.Fatal(err)
	}
	schemas, err := lang.ParseProviderSchemas(doc)
	if err != nil {
		t.Fatal(err)
	}

	tests := []struct {
		name      string
		vars      map[string]cty.Value
		wantNames []string          // output "names"
		wantArgs  map[string]string // resource address + "." + path -> rendered value
		wantError string            // summary of the expected error, if any
		// wantFailure is the error_message of a validation rule or
		// condition that must fail, if any.
		wantFailure string
		// data are data source results to use as though read: without
		// them the data source's computed attributes are unknown.
		data map[string]cty.Value
	}{
		{
			name:      "defaults",
			vars:      map[string]cty.Value{"name": cty.StringVal("shop")},
			wantNames: []string{"shop-01"},
			wantArgs: map[string]string{
				`mock_thing.web[0].name`:      `"shop-01"`,
				`mock_thing.web[0].tags.App`:  `"shop"`,
				`mock_thing.web[0].secret`:    `(sensitive value)`,
				`mock_thing.web[0].enabled`:   `tobool(null)`,
				`data.mock_lookup.image.key`:  `"image-shop"`,
				`mock_thing.web[0].tags.Team`: "", // "" means: must not exist
			},
		},
		{
			name: "three instances with tags",
			vars: map[string]cty.Value{
				"name":      cty.StringVal("api"),
				"instances": cty.NumberIntVal(3),
				"tags":      cty.MapVal(map[string]cty.Value{"Team": cty.StringVal("core")}),
			},
			wantNames: []string{"api-01", "api-02", "api-03"},
			wantArgs: map[string]string{
				`mock_thing.web[2].name`:      `"api-03"`,
				`mock_thing.web[2].tags.Team`: `"core"`,
			},
		},
		{
			name: "image pinned by a data source result",
			vars: map[string]cty.Value{"name": cty.StringVal("shop")},
			data: map[string]cty.Value{"data.mock_lookup.image": cty.ObjectVal(map[string]cty.Value{
				"value":  cty.StringVal("ami-0123"),
				"length": cty.NumberIntVal(8),
			})},
			wantNames: []string{"shop-01"},
			wantArgs: map[string]string{
				`mock_thing.web[0].size`:       `8`,
				`data.mock_lookup.image.value`: `"ami-0123"`,
			},
		},
		{
			name:      "name is required",
			vars:      map[string]cty.Value{},
			wantError: "No value for required variable",
		},
		{
			name:        "too many instances",
			vars:        map[string]cty.Value{"name": cty.StringVal("shop"), "instances": cty.NumberIntVal(11)},
			wantFailure: "Between 1 and 10 instances, not 11.",
		},
	}

	// One module cache for the table: the module is parsed for the first
	// row only, and read again for the others just to see that it did not change.
	modules := &tfeval.ModuleCache{}

	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ev := tfeval.Evaluate(tfeval.Options{
				WorkDir:         "webapp",
				Variables:       tt.vars,
				DataSources:     tt.data,
				ProviderSchemas: schemas,
				ModuleCache:     modules,
			})
			if tt.wantFailure != "" {
				// A rule of the module rejected the inputs: find it by its
				// error_message among the checks that failed.
				var failed []string
				for _, c := range ev.Checks() {
					if c.Status == lang.CheckFail {
						failed = append(failed, c.ErrorMessage)
					}
				}
				if !slices.Contains(failed, tt.wantFailure) {
					t.Fatalf("want a failure %q, got %q", tt.wantFailure, failed)
				}
				return
			}
			if tt.wantError != "" {
				if !ev.HasErrors() || ev.Diagnostics[0].Summary != tt.wantError {
					t.Fatalf("want error %q, got %v", tt.wantError, ev.Diagnostics)
				}
				return
			}
			if ev.HasErrors() {
				t.Fatal(ev.Diagnostics)
			}

			// Outputs: a known list of strings.
			out, _ := ev.Output("names")
			var names []string
			for _, v := range out.Value.AsValueSlice() {
				names = append(names, v.AsString())
			}
			if !slices.Equal(names, tt.wantNames) {
				t.Errorf("names = %q, want %q", names, tt.wantNames)
			}

			// Resource arguments, by address and path.
			for key, want := range tt.wantArgs {
				addr, path := splitAddr(key)
				r, ok := ev.Resource(addr)
				if !ok {
					t.Errorf("no resource %s", addr)
					continue
				}
				v, err := r.Attr(path)
				if want == "" {
					if err == nil {
						t.Errorf("%s: want no such attribute, got %s", key, render.Value(v))
					}
					continue
				}
				if err != nil {
					t.Errorf("%s: %s", key, err)
				} else if got := render.Value(v); got != want {
					t.Errorf("%s = %s, want %s", key, got, want)
				}
			}

			if tt.data != nil {
				return
			}
			// Without a result the data source is not read: what the
			// provider would compute is unknown, and so is everything
			// derived from it.
			image, _ := ev.Resource("data.mock_lookup.image")
			if got := image.UnknownPaths(); !slices.Equal(got, []string{"items", "length", "secret", "value"}) {
				t.Errorf("data source unknown paths = %q", got)
			}
			if o, _ := ev.Output("image"); o.Value.IsKnown() {
				t.Errorf("output image should be unknown, got %s", render.Value(o.Value))
			}
			web, _ := ev.Resource("mock_thing.web[0]")
			if size, _ := web.Attr("size"); size.IsKnown() {
				t.Errorf("size comes from the data source and should be unknown")
			}
			if list, _ := web.Attr("list"); !list.IsKnown() || !list.IsNull() {
				t.Errorf("list is unset and should be null, got %s", render.Value(list))
			}
		})
	}
}

// splitAddr splits `mock_thing.web[0].tags.App` into the resource address
// `mock_thing.web[0]` and the path `tags.App`; data sources have one more part.
func splitAddr(key string) (addr, path string) {
	dots := 2
	if len(key) > 5 && key[:5] == "data." {
		dots = 3
	}
	for i, c := range key {
		if c == '.' {
			dots--
			if dots == 0 {
				return key[:i], key[i+1:]
			}
		}
	}
	return key, ""
}
