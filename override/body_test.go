package override

import (
	"sort"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/ext/dynblock"
	"github.com/hashicorp/hcl/v2/hcldec"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	hcljson "github.com/hashicorp/hcl/v2/json"
	"github.com/zclconf/go-cty/cty"
)

func parseBody(t *testing.T, name, src string) hcl.Body {
	t.Helper()
	var f *hcl.File
	var diags hcl.Diagnostics
	if strings.HasSuffix(name, ".json") {
		f, diags = hcljson.Parse([]byte(src), name)
	} else {
		f, diags = hclsyntax.ParseConfig([]byte(src), name, hcl.InitialPos)
	}
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	return f.Body
}

// spec decodes attributes a, b (b required) and repeated blocks x and y, each with attribute v.
var spec = hcldec.ObjectSpec{
	"a": &hcldec.AttrSpec{Name: "a", Type: cty.String},
	"b": &hcldec.AttrSpec{Name: "b", Type: cty.String, Required: true},
	"x": &hcldec.BlockListSpec{TypeName: "x", Nested: &hcldec.AttrSpec{Name: "v", Type: cty.String}},
	"y": &hcldec.BlockListSpec{TypeName: "y", Nested: &hcldec.AttrSpec{Name: "v", Type: cty.String}},
}

func decode(t *testing.T, body hcl.Body) (map[string]string, hcl.Diagnostics) {
	t.Helper()
	body = dynblock.Expand(body, &hcl.EvalContext{})
	val, diags := hcldec.Decode(body, spec, nil)
	out := map[string]string{}
	if diags.HasErrors() {
		return out, diags
	}
	for k, v := range val.AsValueMap() {
		switch {
		case v.IsNull():
			out[k] = "null"
		case v.Type() == cty.String:
			out[k] = v.AsString()
		default:
			var parts []string
			for _, e := range v.AsValueSlice() {
				parts = append(parts, e.AsString())
			}
			out[k] = strings.Join(parts, ",")
		}
	}
	return out, diags
}

func TestMergeBodies(t *testing.T) {
	tests := []struct {
		name           string
		base, override string
		overrideFile   string
		want           map[string]string
		wantSummaries  []string
	}{
		{
			name:     "attributes replaced one by one",
			base:     `a = "base-a"` + "\n" + `b = "base-b"`,
			override: `b = "over-b"`,
			want:     map[string]string{"a": "base-a", "b": "over-b", "x": "", "y": ""},
		},
		{
			name:     "required argument only in the override",
			base:     `a = "base-a"`,
			override: `b = "over-b"`,
			want:     map[string]string{"a": "base-a", "b": "over-b", "x": "", "y": ""},
		},
		{
			name:          "required argument in neither",
			base:          `a = "base-a"`,
			override:      `a = "over-a"`,
			wantSummaries: []string{"Missing required argument"},
		},
		{
			name:     "blocks of an overridden type replaced wholesale, others kept",
			base:     "b = \"b\"\nx { v = \"x1\" }\nx { v = \"x2\" }\ny { v = \"y1\" }",
			override: "x { v = \"x3\" }",
			want:     map[string]string{"a": "null", "b": "b", "x": "x3", "y": "y1"},
		},
		{
			name:     "dynamic block in the override replaces static base blocks",
			base:     "b = \"b\"\nx { v = \"x1\" }",
			override: "dynamic \"x\" {\n  for_each = [\"d1\", \"d2\"]\n  content { v = x.value }\n}",
			want:     map[string]string{"a": "null", "b": "b", "x": "d1,d2", "y": ""},
		},
		{
			name:     "static override block replaces a dynamic base block",
			base:     "b = \"b\"\ndynamic \"x\" {\n  for_each = [\"d1\"]\n  content { v = x.value }\n}\ny { v = \"y1\" }",
			override: "x { v = \"s\" }",
			want:     map[string]string{"a": "null", "b": "b", "x": "s", "y": "y1"},
		},
		{
			name:         "JSON override",
			base:         "b = \"b\"\nx { v = \"x1\" }",
			override:     `{"a": "json-a", "x": [{"v": "jx"}]}`,
			overrideFile: "o.tf.json",
			want:         map[string]string{"a": "json-a", "b": "b", "x": "jx", "y": ""},
		},
		{
			name:          "unknown argument in the override",
			base:          `b = "b"`,
			override:      `c = "c"`,
			wantSummaries: []string{"Unsupported argument"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			overFile := tc.overrideFile
			if overFile == "" {
				overFile = "override.tf"
			}
			merged := MergeBodies(parseBody(t, "base.tf", tc.base), parseBody(t, overFile, tc.override))
			got, diags := decode(t, merged)
			var summaries []string
			for _, d := range diags {
				summaries = append(summaries, d.Summary)
				if d.Subject == nil {
					t.Errorf("diagnostic without range: %s", d)
				}
			}
			sort.Strings(summaries)
			if strings.Join(summaries, "|") != strings.Join(tc.wantSummaries, "|") {
				t.Fatalf("diagnostics = %q, want %q", summaries, tc.wantSummaries)
			}
			if tc.want == nil {
				return
			}
			for k, v := range tc.want {
				if got[k] != v {
					t.Errorf("%s = %q, want %q", k, got[k], v)
				}
			}
		})
	}
}

func TestMergeBodiesJustAttributesAndRemain(t *testing.T) {
	merged := MergeBodies(
		parseBody(t, "base.tf", "a = 1\nb = 2\n"),
		parseBody(t, "override.tf", "b = 3\nc = 4\n"),
	)
	attrs, diags := merged.JustAttributes()
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	if len(attrs) != 3 || attrs["b"].Range.Filename != "override.tf" || attrs["a"].Range.Filename != "base.tf" {
		t.Errorf("JustAttributes = %v", attrs)
	}
	content, remain, diags := merged.PartialContent(&hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: "a"}}})
	if diags.HasErrors() || len(content.Attributes) != 1 {
		t.Fatalf("PartialContent = %v, %s", content, diags)
	}
	rest, diags := remain.JustAttributes()
	if diags.HasErrors() || len(rest) != 2 || rest["b"].Range.Filename != "override.tf" {
		t.Errorf("remain = %v, %s", rest, diags)
	}
	if r := merged.MissingItemRange(); r.Filename != "base.tf" {
		t.Errorf("MissingItemRange = %s, want the base's", r)
	}
}
