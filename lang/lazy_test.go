package lang

import (
	"strconv"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
)

// TestLazy: a lazy evaluation evaluates what an expression needs and
// nothing else, with the diagnostics of what it evaluates, while
// references to nothing declared are still reported at the start.
func TestLazy(t *testing.T) {
	var b strings.Builder
	b.WriteString("locals {\n")
	for i := range 1000 {
		// Each would fail (and cost a step budget's worth of work) if evaluated.
		b.WriteString("  la" + strconv.Itoa(i) + " = file(\"missing-" + strconv.Itoa(i) + "\")\n")
	}
	b.WriteString("  ok = upper(\"x\")\n  uses_ok = \"${local.ok}!\"\n}\n")
	b.WriteString("module \"m\" { source = \"./m\" }\noutput \"o\" { value = module.m.out }\n")
	files := map[string]string{"main.tf": b.String(), "m/main.tf": `output "out" { value = "child" }`}

	res, diags := evalFiles(t, files, Options{Console: true, Lazy: true})
	if len(diags) != 0 {
		t.Fatalf("a lazy start evaluated something: %v", diags[:min(3, len(diags))])
	}
	eval := func(src string) (cty.Value, hcl.Diagnostics) {
		expr, d := hclsyntax.ParseExpression([]byte(src), "<console>", hcl.InitialPos)
		if d.HasErrors() {
			t.Fatal(d)
		}
		return res.EvalExpr(expr, nil)
	}
	if v, d := eval("1"); d.HasErrors() || !v.RawEquals(cty.NumberIntVal(1)) {
		t.Errorf("1 = %#v, %v", v, d)
	}
	if v, d := eval("local.uses_ok"); d.HasErrors() || v.AsString() != "X!" {
		t.Errorf("local.uses_ok = %#v, %v", v, d)
	}
	if v, d := eval("module.m.out"); d.HasErrors() || v.AsString() != "child" {
		t.Errorf("module.m.out = %#v, %v", v, d)
	}
	if _, d := eval("local.la0"); !d.HasErrors() || !strings.Contains(d.Error(), "missing-0") {
		t.Errorf("local.la0 gave %v, want its file error", d)
	}
	if len(res.Modules) != 2 {
		t.Errorf("%d module instances after module.m was needed, want 2", len(res.Modules))
	}

	files["main.tf"] += "locals {\n  bad = var.undeclared\n}\n"
	if _, diags := evalFiles(t, files, Options{Console: true, Lazy: true}); !strings.Contains(diags.Error(), "undeclared input variable") {
		t.Errorf("an undeclared reference was not reported at the start: %v", diags)
	}
}
