package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tfeval/tfeval/internal/sarifcheck"
)

// repoTree is a repository: roots at two depths calling one module, a
// root with an error, one with a required variable, and an example of
// the top module, which is then not a root itself.
var repoTree = map[string]string{
	".git/HEAD": "ref: refs/heads/main\n",
	"infra/envs/prod/main.tf": `
module "app" {
  source = "../../modules/app"
  name   = "prod"
}
output "name" { value = module.app.name }
`,
	"infra/envs/prod/terraform.tfvars": ``,
	"infra/stacks/eu/west/main.tf": `
module "app" {
  source = "../../../modules/app"
  name   = "eu-😀"
}
`,
	"infra/modules/app/main.tf": `
variable "name" { type = string }
resource "terraform_data" "x" { input = upper(var.name) }
output "name" { value = terraform_data.x.input }
`,
	"infra/broken/main.tf": `
locals {
  note = "😀 before the error"
  x    = 1
  x    = 2
}
`,
	"infra/needs/main.tf": `
variable "region" { type = string }
output "region" { value = var.region }
`,
	"infra/legacy/main.tf": `locals { old = true }`,
}

// roots of repoTree/infra without -exclude.
var repoRoots = []string{"broken", "envs/prod", "legacy", "needs", "stacks/eu/west"}

// TestRecursiveEvalJSON: eval -json -recursive writes, for every root in
// path order, a line that is the document eval -json of that root writes,
// with "root" first; the exit status is 1 as a root has errors.
func TestRecursiveEvalJSON(t *testing.T) {
	repo := writeModule(t, repoTree)
	for _, extra := range [][]string{nil, {"-missing-variables=unknown"}, {"-parallelism=1"}} {
		args := append([]string{"eval", "-json", "-recursive", "infra"}, extra...)
		rc, out, errs := run(t, repo, "", nil, args...)
		if rc != 1 || errs != "" {
			t.Errorf("%v: exit %d, stderr %q", extra, rc, errs)
		}
		lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
		var roots []string
		for _, line := range lines {
			var doc map[string]any
			if err := json.Unmarshal([]byte(line), &doc); err != nil {
				t.Fatalf("%v: a line is not a JSON document: %v\n%s", extra, err, line)
			}
			root, _ := doc["root"].(string)
			if !strings.HasPrefix(line, `{"root":`) {
				t.Errorf("%v: root is not the first member: %.60s", extra, line)
			}
			roots = append(roots, root)
			delete(doc, "root")
			single := append([]string{"eval", "-json", filepath.Join("infra", root)}, extra...)
			_, alone, _ := run(t, repo, "", nil, single...)
			var want map[string]any
			if err := json.Unmarshal([]byte(alone), &want); err != nil {
				t.Fatal(err)
			}
			if a, b := mustJSON(t, doc), mustJSON(t, want); a != b {
				t.Errorf("%v: %s differs from its own run:\n%s\nwant\n%s", extra, root, a, b)
			}
		}
		if !slices.Equal(roots, repoRoots) {
			t.Errorf("%v: roots %q, want %q", extra, roots, repoRoots)
		}
	}
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestRecursiveEvalText: text under a header per root, diagnostics with
// file names relative to the directory, a summary line.
func TestRecursiveEvalText(t *testing.T) {
	repo := writeModule(t, repoTree)
	rc, out, errs := run(t, repo, "", nil, "eval", "-recursive", "-exclude=legacy", "-missing-variables=unknown", "infra")
	if rc != 1 {
		t.Errorf("exit %d", rc)
	}
	var headers []string
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(line, "==> ") {
			headers = append(headers, line)
		}
	}
	want := []string{"==> broken <==", "==> envs/prod <==", "==> needs <==", "==> stacks/eu/west <=="}
	if !slices.Equal(headers, want) {
		t.Errorf("headers %q, want %q", headers, want)
	}
	if !strings.Contains(out, `"input" = "EU-😀"`) {
		t.Errorf("no values of stacks/eu/west:\n%s", out)
	}
	for _, frag := range []string{
		"on broken/main.tf line 5, in locals:",
		"Warning: No value for required variable\n\n  on needs/main.tf line 2:",
		"tfeval eval: 4 root modules, 1 with errors.",
	} {
		if !strings.Contains(errs, frag) {
			t.Errorf("standard error lacks %q:\n%s", frag, errs)
		}
	}
}

// TestRecursiveSARIF: one log, one run, URIs relative to the top of the
// git work tree, columns in UTF-16 code units, and what GitHub's upload
// checks require; with a single root as well.
func TestRecursiveSARIF(t *testing.T) {
	repo := writeModule(t, repoTree)
	for _, tc := range []struct {
		args []string
		uris []string
	}{
		{[]string{"validate", "-format=sarif", "-recursive", "infra"}, []string{"infra/broken/main.tf"}},
		{[]string{"eval", "-format=sarif", "-recursive", "infra"}, []string{"infra/broken/main.tf", "infra/needs/main.tf"}},
		{[]string{"validate", "-format=sarif", "infra/broken"}, []string{"infra/broken/main.tf"}},
		{[]string{"validate", "-format=sarif", "-sarif-root=infra", "infra/broken"}, []string{"broken/main.tf"}},
	} {
		rc, out, _ := run(t, repo, "", nil, tc.args...)
		if rc != 1 {
			t.Errorf("%v: exit %d", tc.args, rc)
		}
		var doc any
		if err := json.Unmarshal([]byte(out), &doc); err != nil {
			t.Fatalf("%v: %v", tc.args, err)
		}
		for _, p := range append(sarifcheck.Schema(doc), sarifcheck.GitHub(doc)...) {
			t.Errorf("%v: %s", tc.args, p)
		}
		var log struct {
			Runs []struct {
				OriginalURIBaseIDs map[string]struct{ URI string } `json:"originalUriBaseIds"`
				Results            []struct {
					Locations []struct {
						PhysicalLocation struct {
							ArtifactLocation struct{ URI string }
							Region           struct{ StartLine, StartColumn int }
						}
					}
				}
			}
		}
		json.Unmarshal([]byte(out), &log)
		var uris []string
		for _, r := range log.Runs[0].Results {
			loc := r.Locations[0].PhysicalLocation
			uris = append(uris, loc.ArtifactLocation.URI)
			if loc.ArtifactLocation.URI == "infra/broken/main.tf" && (loc.Region.StartLine != 5 || loc.Region.StartColumn != 3) {
				t.Errorf("%v: the error is at %+v", tc.args, loc.Region)
			}
		}
		if !slices.Equal(uris, tc.uris) {
			t.Errorf("%v: URIs %q, want %q", tc.args, uris, tc.uris)
		}
		base := log.Runs[0].OriginalURIBaseIDs["%SRCROOT%"].URI
		if !strings.HasPrefix(base, "file:///") || !strings.HasSuffix(base, "/") {
			t.Errorf("%v: %%SRCROOT%% is %q", tc.args, base)
		}
	}
}

// TestRecursiveShowOut: show -json -recursive -out=DIR writes a plan
// document per root without errors, each the document show -json of the
// root writes (but for the time it was made).
func TestRecursiveShowOut(t *testing.T) {
	repo := writeModule(t, repoTree)
	rc, out, errs := run(t, repo, "", nil, "show", "-json", "-recursive", "-out=plans", "infra")
	if rc != 1 || out != "" || !strings.Contains(errs, "on broken/main.tf line 5") {
		t.Errorf("exit %d, stdout %q, stderr %q", rc, out, errs)
	}
	var written []string
	filepath.WalkDir(filepath.Join(repo, "plans"), func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(filepath.Join(repo, "plans"), path)
			written = append(written, filepath.ToSlash(rel))
		}
		return nil
	})
	want := []string{"envs/prod/plan.json", "legacy/plan.json", "stacks/eu/west/plan.json"}
	if !slices.Equal(written, want) {
		t.Fatalf("wrote %q, want %q", written, want)
	}
	for _, f := range want {
		root := strings.TrimSuffix(f, "/plan.json")
		got, _ := os.ReadFile(filepath.Join(repo, "plans", f))
		_, alone, _ := run(t, repo, "", nil, "show", "-json", filepath.Join("infra", root))
		if a, b := withoutTimestamp(t, got), withoutTimestamp(t, []byte(alone)); a != b {
			t.Errorf("%s differs from its own run:\n%s\nwant\n%s", f, a, b)
		}
	}
}

func withoutTimestamp(t *testing.T, doc []byte) string {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(doc, &m); err != nil {
		t.Fatalf("%v: %s", err, doc)
	}
	delete(m, "timestamp")
	return mustJSON(t, m)
}

// TestRecursiveOtherCommands: validate, graph and init work on each root.
func TestRecursiveOtherCommands(t *testing.T) {
	repo := writeModule(t, repoTree)
	rc, out, _ := run(t, repo, "", nil, "validate", "-recursive", "-exclude=broken", "infra")
	if rc != 0 || strings.Count(out, "Success! The configuration is valid.") != 4 {
		t.Errorf("validate: exit %d\n%s", rc, out)
	}
	rc, out, _ = run(t, repo, "", nil, "graph", "-recursive", "-exclude=broken", "-exclude=needs", "infra")
	if rc != 0 || !strings.HasPrefix(out, "// envs/prod\ndigraph {") || strings.Count(out, "digraph {") != 3 {
		t.Errorf("graph: exit %d\n%s", rc, out)
	}
	rc, _, errs := run(t, repo, "", nil, "init", "-recursive", "-exclude=broken", "infra")
	if rc != 0 {
		t.Errorf("init: exit %d\n%s", rc, errs)
	}
	for _, root := range []string{"envs/prod", "stacks/eu/west", "legacy"} {
		if _, err := os.Stat(filepath.Join(repo, "infra", root, ".terraform", "modules", "modules.json")); err != nil {
			t.Errorf("init wrote no manifest in %s: %v", root, err)
		}
	}
	// -all-dirs makes the module a root too.
	rc, out, _ = run(t, repo, "", nil, "validate", "-recursive", "-all-dirs", "-json", "infra")
	if rc != 1 || strings.Count(out, "\n") != 6 || !strings.Contains(out, `{"root":"modules/app",`) {
		t.Errorf("-all-dirs: exit %d\n%s", rc, out)
	}
}

// TestRecursiveProgress: on a terminal, a progress line that is taken away
// before anything else is written; none with -no-progress.
func TestRecursiveProgress(t *testing.T) {
	repo := writeModule(t, repoTree)
	for _, noProgress := range []bool{false, true} {
		var out, errb bytes.Buffer
		args := []string{"validate", "-recursive", "infra/envs"}
		if noProgress {
			args = append(args, "-no-progress")
		}
		Run(args, Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb, WorkDir: repo, ErrTerminal: true})
		shown := strings.Contains(errb.String(), "\r\x1b[K0/1 root modules, 0 failing")
		if shown == noProgress {
			t.Errorf("-no-progress=%v: stderr %q", noProgress, errb.String())
		}
		if !strings.HasSuffix(errb.String(), "\n") {
			t.Errorf("the progress line was left: %q", errb.String())
		}
	}
}

// TestNoConfiguration: a directory without configuration files is an
// error that counts the module directories below it.
func TestNoConfiguration(t *testing.T) {
	repo := writeModule(t, repoTree)
	for _, cmd := range []string{"eval", "validate", "graph"} {
		rc, out, errs := run(t, repo, "", nil, cmd, "infra")
		errs = strings.Join(strings.Fields(errs), " ")
		if rc != 1 || out != "" || !strings.Contains(errs, "Error: No configuration files") || !strings.Contains(errs, "6 directories below it have some: run with -recursive") {
			t.Errorf("%s: exit %d, stdout %q, stderr %q", cmd, rc, out, errs)
		}
	}
	empty := writeModule(t, map[string]string{"README.md": "nothing"})
	if rc, _, errs := run(t, empty, "", nil, "eval", "-recursive"); rc != 1 || !strings.Contains(errs, "Error: No configuration files") {
		t.Errorf("-recursive in an empty directory: exit %d, %q", rc, errs)
	}
	if rc, _, errs := run(t, empty, "", nil, "eval"); rc != 1 || strings.Contains(errs, "-recursive") {
		t.Errorf("an empty directory: exit %d, %q", rc, errs)
	}
}

func TestRecursiveUsage(t *testing.T) {
	repo := writeModule(t, repoTree)
	for _, args := range [][]string{
		{"eval", "-all-dirs", "infra/broken"},
		{"eval", "-exclude=x", "infra/broken"},
		{"eval", "-recursive", "-exclude=[", "infra"},
		{"show", "-json", "-out=x", "infra/broken"},
		{"eval", "-recursive", "-parallelism=-1", "infra"},
		{"eval", "-recursive", "-missing-variables=maybe", "infra"},
	} {
		if rc, _, errs := run(t, repo, "", nil, args...); rc != 2 || errs == "" {
			t.Errorf("%v: exit %d, %q", args, rc, errs)
		}
	}
}

func TestJSONLines(t *testing.T) {
	for _, tc := range []struct{ in, want, err string }{
		{"{\n  \"a\": [1, 2],\n  \"s\": \"x \\\" {y}\\\\\"\n}\n", `{"root":"r","a":[1,2],"s":"x \" {y}\\"}` + "\n", ""},
		{"{}\n{ \"b\" : {} }", `{"root":"r"}` + "\n" + `{"root":"r","b":{}}` + "\n", ""},
		{"{ \n }\n", `{"root":"r"}` + "\n", ""},
		{"", "", ""},
		{"[1]", "", "not a stream of JSON objects"},
		{`{"a": "`, "", "ends inside"},
	} {
		got, err := jsonLines("r", []byte(tc.in))
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%q: error %v, want %q", tc.in, err, tc.err)
			}
		} else if err != nil || string(got) != tc.want {
			t.Errorf("%q: got %q, %v; want %q", tc.in, got, err, tc.want)
		}
		// Written a byte at a time, as a document is made into its line
		// while it is written, the lines are the same.
		lw := newLineWriter("r")
		for i := range len(tc.in) {
			if _, err = lw.Write([]byte{tc.in[i]}); err != nil {
				break
			}
		}
		if err == nil {
			err = lw.done()
		}
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%q a byte at a time: error %v, want %q", tc.in, err, tc.err)
			}
		} else if got := bytes.Join(lw.lines(), nil); err != nil || string(got) != tc.want {
			t.Errorf("%q a byte at a time: got %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
}

// A long document is made into its line in pieces of about lineChunk
// bytes, not in one slice grown as it comes (which allocates about five
// times the line), and the pieces are the line.
func TestLineWriterPieces(t *testing.T) {
	var doc bytes.Buffer
	doc.WriteString("{\n  \"items\": [\n")
	for i := range 20000 {
		if i > 0 {
			doc.WriteString(",\n")
		}
		fmt.Fprintf(&doc, "    {\"n\": %d, \"s\": \"a value with spaces { and braces }\"}", i)
	}
	doc.WriteString("\n  ]\n}\n")
	want, err := jsonLines("envs/prod", doc.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	lw := newLineWriter("envs/prod")
	for b := doc.Bytes(); len(b) > 0; {
		n := min(len(b), 4096)
		if _, err := lw.Write(b[:n]); err != nil {
			t.Fatal(err)
		}
		b = b[n:]
	}
	if err := lw.done(); err != nil {
		t.Fatal(err)
	}
	pieces := lw.lines()
	if got := bytes.Join(pieces, nil); !bytes.Equal(got, want) {
		t.Fatalf("the pieces are not the line (%d bytes against %d)", len(got), len(want))
	}
	held := 0
	for _, p := range pieces {
		held += cap(p)
		if cap(p) > lineChunk {
			t.Errorf("a piece of %d bytes, past %d", cap(p), lineChunk)
		}
	}
	if len(pieces) < len(want)/lineChunk || held > len(want)+len(want)/10+lineChunk {
		t.Errorf("%d pieces holding %d bytes for a line of %d", len(pieces), held, len(want))
	}
}

// A -timeout that ends the scan is reported once, not per root.
func TestRecursiveTimeout(t *testing.T) {
	repo := writeModule(t, repoTree)
	rc, _, errs := run(t, repo, "", nil, "eval", "-recursive", "-timeout=1ns", "infra")
	if rc != 1 || strings.Count(errs, "Error: ") != 1 || !strings.Contains(errs, "Scan cancelled") {
		t.Errorf("exit %d, stderr:\n%s", rc, errs)
	}
}

// -var-file, -data and -schemas name files relative to the directory
// scanned, and every root reads them.
func TestRecursiveSharedFiles(t *testing.T) {
	repo := writeModule(t, map[string]string{
		"common.tfvars": `env = "prod"`,
		"data.json":     `{"data.terraform_remote_state.x": {"outputs": {"id": "abc"}}}`,
		"a/main.tf": `
variable "env" { type = string }
output "env" { value = var.env }
`,
		"b/c/main.tf": `
variable "env" { type = string }
data "terraform_remote_state" "x" {
  backend = "local"
}
output "id" { value = "${var.env}-${data.terraform_remote_state.x.outputs.id}" }
`,
	})
	rc, out, errs := run(t, repo, "", nil, "eval", "-json", "-recursive", "-var-file=common.tfvars", "-data=data.json", ".")
	if rc != 0 {
		t.Fatalf("exit %d\n%s\n%s", rc, out, errs)
	}
	for _, want := range []string{`"value":"prod"`, `"value":"prod-abc"`} {
		if !strings.Contains(out, want) {
			t.Errorf("no %s in\n%s", want, out)
		}
	}
}
