package limit

import (
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
)

// TestParseTemplateInPieces checks that a long template, parsed in pieces,
// renders what hcl's parse of the whole renders, with the same ranges.
func TestParseTemplateInPieces(t *testing.T) {
	var b strings.Builder
	for i := range 6000 {
		switch i % 500 {
		case 7:
			b.WriteString("%{ if flag ~}\n  on\n%{ else ~}\n  off\n%{ endif ~}\n")
		case 9:
			b.WriteString("%{ for n in names }\n- ${n}\n%{ endfor }\n")
		case 11:
			b.WriteString("trimmed before   \n${~ name}\n")
		case 13:
			b.WriteString("escaped $${not} and %%{not} 100%\n")
		default:
			// Every other line trims the spaces ending the line before.
			b.WriteString("line of text for ${name}   \n${~ name}\n")
		}
	}
	src := []byte(b.String())
	if cuts := scanSource(src, Template).cuts; len(cuts) < 2 {
		t.Fatalf("a template of %d bytes was cut %d times", len(src), len(cuts))
	}
	ctx := &hcl.EvalContext{Variables: map[string]cty.Value{
		"name":  cty.StringVal("x"),
		"flag":  cty.True,
		"names": cty.ListVal([]cty.Value{cty.StringVal("a"), cty.StringVal("b")}),
	}}
	whole, diags := hclsyntax.ParseTemplate(src, "t.tmpl", hcl.InitialPos)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	pieces, diags := ParseTemplate(src, "t.tmpl")
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	want, _ := whole.Value(ctx)
	got, diags := pieces.Value(ctx)
	if diags.HasErrors() || !got.RawEquals(want) {
		t.Errorf("pieces render differently (%v)", diags)
	}
	if got, want := pieces.Range(), whole.Range(); got != want {
		t.Errorf("range %v, want %v", got, want)
	}

	// An error in a late piece points where it points in the whole file.
	_, wantDiags := whole.Value(&hcl.EvalContext{})
	_, gotDiags := pieces.Value(&hcl.EvalContext{})
	if len(gotDiags) == 0 || len(wantDiags) == 0 || *gotDiags[len(gotDiags)-1].Subject != *wantDiags[len(wantDiags)-1].Subject {
		t.Errorf("last diagnostic at %v, want %v", gotDiags[len(gotDiags)-1].Subject, wantDiags[len(wantDiags)-1].Subject)
	}
}
