package tfeval_test

import (
	"os"
	"strings"
	"testing"

	"github.com/tfeval/tfeval"
)

// TestModuleTestingGuide keeps the example in docs/testing-modules.md
// identical to moduletest_test.go, which is what actually runs.
func TestModuleTestingGuide(t *testing.T) {
	code, err := os.ReadFile("moduletest_test.go")
	if err != nil {
		t.Fatal(err)
	}
	guide, err := os.ReadFile("docs/testing-modules.md")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(guide), "```go\n"+string(code)+"```\n") {
		t.Error("docs/testing-modules.md does not contain moduletest_test.go verbatim in a ```go block; copy the file into the guide")
	}
}

// TestGraphPicture keeps docs/quickstart-graph.dot current; after changing
// it, re-render the picture:
//
//	go run ./cmd/tfeval graph testdata/examples/quickstart > docs/quickstart-graph.dot
//	dot -Tpng -Gdpi=110 docs/quickstart-graph.dot -o docs/quickstart-graph.png
func TestGraphPicture(t *testing.T) {
	want, err := os.ReadFile("docs/quickstart-graph.dot")
	if err != nil {
		t.Fatal(err)
	}
	g, diags := tfeval.Graph(tfeval.Options{WorkDir: quickstart})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	if got := g.DOT(); got != string(want) {
		t.Errorf("docs/quickstart-graph.dot is out of date; regenerate it (see the test's comment). Current output:\n%s", got)
	}
}
