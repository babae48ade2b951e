package tfeval_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tfeval/tfeval"
	"github.com/tfeval/tfeval/format"
	"github.com/tfeval/tfeval/internal/cli"
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
	if got := format.DOT(g); got != string(want) {
		t.Errorf("docs/quickstart-graph.dot is out of date; regenerate it (see the test's comment). Current output:\n%s", got)
	}
}

// TestDocumentedCommands runs every `go run ./cmd/tfeval ...` command line
// of the README's and docs' shell blocks (in process, from the repository
// root, with standard input from an `echo '...' |` before it) and requires
// it to succeed, so a documented command cannot rot.
func TestDocumentedCommands(t *testing.T) {
	files, _ := filepath.Glob("docs/*.md")
	files = append([]string{"README.md"}, files...)
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, file := range files {
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		inShell := false
		for i, line := range strings.Split(string(src), "\n") {
			switch {
			case strings.HasPrefix(line, "```sh"):
				inShell = true
				continue
			case strings.HasPrefix(line, "```"):
				inShell = false
				continue
			}
			stdin, cmd, piped := strings.Cut(line, " | ")
			if !piped {
				stdin, cmd = "", line
			} else if s, ok := strings.CutPrefix(stdin, "echo "); ok {
				stdin = strings.Trim(s, "'") + "\n"
			} else {
				continue
			}
			args, ok := strings.CutPrefix(cmd, "go run ./cmd/tfeval ")
			if !inShell || !ok {
				continue
			}
			n++
			var out, errb bytes.Buffer
			rc := cli.Run(strings.Fields(args), cli.Env{Stdin: strings.NewReader(stdin), Stdout: &out, Stderr: &errb, WorkDir: wd})
			if rc != 0 {
				t.Errorf("%s:%d: %s: exit %d\n%s%s", file, i+1, line, rc, out.String(), errb.String())
			}
		}
	}
	if n < 4 {
		t.Errorf("found %d documented commands; the README has at least 4", n)
	}
}
