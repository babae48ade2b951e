package tests

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/tfeval/tfeval"
	"github.com/tfeval/tfeval/format"
	"github.com/tfeval/tfeval/internal/cli"
)

// repoRoot is the repository's root, relative to this package.
const repoRoot = ".."

// documents are the README and the guides in docs/, relative to the root.
func documents(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(repoRoot, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	for i, f := range files {
		files[i], _ = filepath.Rel(repoRoot, f)
	}
	return append([]string{"README.md"}, files...)
}

// codeBlock is a fenced code block of a document.
type codeBlock struct {
	file string
	line int // of the opening fence
	text string
}

// codeBlocks are the blocks of the documents fenced as lang.
func codeBlocks(t *testing.T, lang string) []codeBlock {
	t.Helper()
	var out []codeBlock
	for _, file := range documents(t) {
		src, err := os.ReadFile(filepath.Join(repoRoot, file))
		if err != nil {
			t.Fatal(err)
		}
		var cur *codeBlock
		for i, line := range strings.Split(string(src), "\n") {
			switch {
			case cur == nil && line == "```"+lang:
				cur = &codeBlock{file: file, line: i + 1}
			case cur != nil && line == "```":
				out = append(out, *cur)
				cur = nil
			case cur != nil:
				cur.text += line + "\n"
			}
		}
	}
	return out
}

// goSources are the Go files of the repository that the go command
// builds (those under testdata directories are not), by path from the root.
func goSources(t *testing.T) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(repoRoot, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && path != repoRoot && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(repoRoot, path)
		out[filepath.ToSlash(rel)] = string(src)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestDocumentedCode keeps every Go code block of the README and the
// guides compiled and run by the tests. A block that is a whole file
// (it has a package clause) must be a file of the repository, byte for
// byte; any other block, less an import block at its top, must be the
// body of a test or example function (indented by one tab) in a test
// file that imports at least what the block's import block names, so
// that go test compiles and runs it. Most such blocks are in
// docs/examples/snippets.
func TestDocumentedCode(t *testing.T) {
	sources := goSources(t)
	blocks := codeBlocks(t, "go")
	if len(blocks) < 6 {
		t.Fatalf("found %d Go blocks in the documents; there are at least 6", len(blocks))
	}
	for _, b := range blocks {
		if regexp.MustCompile(`(?m)^package \w+$`).MatchString(b.text) {
			found := ""
			for path, src := range sources {
				if src == b.text {
					found = path
				}
			}
			if found == "" {
				t.Errorf("%s:%d: the Go file in this block is no file of the repository; copy the file it shows into the document", b.file, b.line)
			}
			continue
		}
		imports, body := splitImports(b.text)
		var indented strings.Builder
		for _, line := range strings.Split(strings.TrimRight(body, "\n"), "\n") {
			if line != "" {
				indented.WriteString("\t" + line)
			}
			indented.WriteString("\n")
		}
		found := false
		for path, src := range sources {
			if !strings.HasSuffix(path, "_test.go") || !strings.Contains(src, "\n"+indented.String()) {
				continue
			}
			missing := ""
			for _, imp := range imports {
				if !strings.Contains(src, "\t"+imp+"\n") {
					missing = imp
				}
			}
			if missing != "" {
				t.Errorf("%s:%d: %s runs this block but does not import %s", b.file, b.line, path, missing)
			}
			found = true
		}
		if !found {
			t.Errorf("%s:%d: no test runs this Go block; put it, verbatim and indented by a tab, in a test function (docs/examples/snippets)", b.file, b.line)
		}
	}
}

// splitImports takes an import declaration off the top of a code block:
// the imported paths, quoted, and the rest of the block.
func splitImports(block string) ([]string, string) {
	if line, rest, ok := strings.Cut(block, "\n"); ok && strings.HasPrefix(line, "import \"") {
		return []string{strings.TrimPrefix(line, "import ")}, strings.TrimLeft(rest, "\n")
	}
	decl, rest, ok := strings.Cut(block, "\n)\n")
	if !ok || !strings.HasPrefix(decl, "import (\n") {
		return nil, block
	}
	var imports []string
	for _, line := range strings.Split(strings.TrimPrefix(decl, "import (\n"), "\n") {
		if line = strings.TrimSpace(line); line != "" {
			imports = append(imports, line)
		}
	}
	return imports, strings.TrimLeft(rest, "\n")
}

// TestGraphPicture keeps docs/quickstart-graph.dot current; after changing
// it, re-render the picture:
//
//	go run ./cmd/tfeval graph testdata/examples/quickstart > docs/quickstart-graph.dot
//	dot -Tpng -Gdpi=110 docs/quickstart-graph.dot -o docs/quickstart-graph.png
func TestGraphPicture(t *testing.T) {
	want, err := os.ReadFile(filepath.Join(repoRoot, "docs", "quickstart-graph.dot"))
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
	wd, err := filepath.Abs(repoRoot)
	if err != nil {
		t.Fatal(err)
	}
	files := documents(t)
	n := 0
	for _, file := range files {
		src, err := os.ReadFile(filepath.Join(repoRoot, file))
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
