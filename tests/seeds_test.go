package tests

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/tfeval/tfeval"
	"github.com/tfeval/tfeval/render"
)

// TestSeedBuckets checks the types chapter's buckets example: optional()
// defaults applied at every depth give exactly the value the seed prints.
func TestSeedBuckets(t *testing.T) {
	dir := filepath.Join("..", "testdata", "seeds", "buckets")
	want, err := os.ReadFile(filepath.Join(dir, "expected.txt"))
	if err != nil {
		t.Fatal(err)
	}
	ev := tfeval.Evaluate(tfeval.Options{WorkDir: dir, Console: true})
	if ev.Diagnostics.HasErrors() {
		t.Fatal(ev.Diagnostics.Error())
	}
	expr, diags := hclsyntax.ParseExpression([]byte("var.buckets"), "<console-input>", hcl.InitialPos)
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	v, diags := ev.Result.EvalExpr(expr, nil)
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	// The seed's text lost the indentation of blank heredoc lines; compare without trailing spaces.
	trim := func(s string) string {
		lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
		for i, l := range lines {
			lines[i] = strings.TrimRight(l, " ")
		}
		return strings.Join(lines, "\n")
	}
	if got := render.Value(v); trim(got) != trim(string(want)) {
		t.Errorf("var.buckets\n got:\n%s\nwant:\n%s", got, want)
	}
}
