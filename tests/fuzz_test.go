package tests

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tfeval "github.com/tfeval/tfeval"
	"github.com/tfeval/tfeval/dialect"
	"github.com/tfeval/tfeval/format"
	"github.com/tfeval/tfeval/lang"
	"github.com/tfeval/tfeval/render"

	"github.com/tfeval/tfeval/internal/testfiles"
)

// FuzzEvaluate loads and evaluates an arbitrary module (one main.tf), in
// either dialect, with or without the conformance corpus' mock provider
// schema, under small limits. Nothing may panic, and a second evaluation
// must give the same values and the same diagnostics in the same order.
// The seeds are the corpus' own modules.
func FuzzEvaluate(f *testing.F) {
	dirs, _ := filepath.Glob("../testdata/conformance/*")
	for _, d := range dirs {
		if src := concatTF(f, d); src != "" {
			f.Add(src, uint8(0))
			f.Add(src, uint8(3))
		}
	}
	schemas, err := os.ReadFile("../testdata/conformance/err_mock_ephemeral_in_resource/providers-schema.json")
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, src string, flags uint8) {
		if len(src) > 1<<14 {
			return
		}
		checkEvaluatesTwice(t, map[string]string{"main.tf": src}, schemas, flags)
	})
}

// FuzzEvaluateTree is FuzzEvaluate for a root module with a child module
// directory and a terraform.tfvars file, seeded with the corpus' cases
// that call a local module: module calls, their arguments' conversion to
// the child's variable types, and variable values from tfvars.
func FuzzEvaluateTree(f *testing.F) {
	dirs, _ := filepath.Glob("../testdata/conformance/*")
	for _, d := range dirs {
		mods, _ := filepath.Glob(filepath.Join(d, "modules", "*"))
		if len(mods) == 0 {
			continue
		}
		root, module := concatTF(f, d), concatTF(f, mods[0])
		tfvars, _ := os.ReadFile(filepath.Join(d, "terraform.tfvars"))
		rel, _ := filepath.Rel(d, mods[0])
		f.Add(root, filepath.ToSlash(rel), module, string(tfvars), uint8(0))
		f.Add(root, filepath.ToSlash(rel), module, string(tfvars), uint8(3))
	}
	// Provider blocks, which are evaluated for the resources using them,
	// passed to a module and inherited by it.
	f.Add(`provider "mock" {
  alias  = "w"
  region = var.r
  dynamic "assume" {
    for_each = var.roles
    content {
      arn = assume.value
    }
  }
}
variable "r" {}
variable "roles" {
  default = ["a"]
}
module "m" {
  source    = "./m"
  providers = { mock = mock.w }
}
`, "m", `resource "mock_thing" "t" {
  name = "x"
}
`, `r = "eu"`, uint8(1))
	schemas, err := os.ReadFile("../testdata/conformance/err_mock_ephemeral_in_resource/providers-schema.json")
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, root, modDir, module, tfvars string, flags uint8) {
		if len(root)+len(module)+len(tfvars) > 1<<14 || !filepath.IsLocal(modDir) || strings.ContainsAny(modDir, "\\:*?\"<>|\x00") || modDir == "main.tf" || modDir == "terraform.tfvars" {
			return
		}
		checkEvaluatesTwice(t, map[string]string{
			"main.tf":                        root,
			filepath.Join(modDir, "main.tf"): module,
			"terraform.tfvars":               tfvars,
		}, schemas, flags)
	})
}

// concatTF is the .tf files of a directory, one after the other.
func concatTF(tb testing.TB, dir string) string {
	files, _ := filepath.Glob(filepath.Join(dir, "*.tf"))
	var src []byte
	for _, p := range files {
		b, err := os.ReadFile(p)
		if err != nil {
			tb.Fatal(err)
		}
		src = append(append(src, b...), '\n')
	}
	return string(src)
}

// checkEvaluatesTwice writes files into a new directory and evaluates it
// twice (flags bit 0: with the mock schema, bit 1: OpenTofu's dialect):
// nothing may panic or run on, and both must give the same values and the
// same diagnostics in the same order.
func checkEvaluatesTwice(t *testing.T, files map[string]string, schemas []byte, flags uint8) {
	t.Helper()
	// Limits bound every input; one that runs on is a bug, reported as a
	// crash so that the fuzzer keeps it.
	timer := time.AfterFunc(20*time.Second, func() { panic(fmt.Sprintf("slow input (flags %d): %q", flags, files)) })
	defer timer.Stop()
	dir := t.TempDir()
	testfiles.Write(t, dir, files)
	evaluate := func() (string, string) {
		opts := tfeval.Options{
			WorkDir: dir,
			Sandbox: dir,
			Now:     func() time.Time { return time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC) },
			Rand:    rand.NewChaCha8([32]byte{1}),
			Limits:  lang.Limits{MaxElements: 10_000, MaxStringLength: 1 << 20, MaxSteps: 200_000, MaxFileSize: 1 << 20},
		}
		if flags&1 != 0 {
			opts.Schemas = schemas
		}
		if flags&2 != 0 {
			opts.Dialect = dialect.Tofu
		}
		ev := tfeval.Evaluate(opts)
		checkWriteDocument(t, ev)
		var values bytes.Buffer
		for _, r := range ev.Resources() {
			values.WriteString(r.Addr + " = " + render.Value(r.Value) + "\n")
		}
		for _, o := range ev.Outputs() {
			values.WriteString("output " + o.Name + " = " + render.Value(o.Value) + "\n")
		}
		var diags strings.Builder
		for _, d := range ev.Diagnostics {
			if d.Summary == "" {
				t.Fatalf("diagnostic without summary: %#v", d)
			}
			diags.WriteString(d.Error() + "\n")
		}
		return values.String(), diags.String()
	}
	v1, d1 := evaluate()
	v2, d2 := evaluate()
	if v1 != v2 || d1 != d2 {
		if diff := lineDiff(v1+d1, v2+d2); diff != "" {
			t.Fatalf("two evaluations differ:\n%s", diff)
		}
		t.Fatalf("two evaluations give the same lines in another order:\n%s\n---\n%s", d1, d2)
	}
}

// checkWriteDocument checks that the CLI's direct JSON writer gives the
// bytes of the document's own: json.MarshalIndent of NewEvalDocument,
// which format's TestWriteIndented holds WriteIndented to.
func checkWriteDocument(t *testing.T, ev *tfeval.Evaluation) {
	t.Helper()
	var direct, doc bytes.Buffer
	if err := format.WriteEval(&direct, ev.Result, ev.Diagnostics); err != nil {
		t.Fatalf("WriteEval: %v", err)
	}
	if err := format.NewEvalDocument(ev.Result, ev.Diagnostics).WriteIndented(&doc); err != nil {
		t.Fatalf("WriteIndented: %v", err)
	}
	if direct.String() != doc.String() {
		t.Fatalf("WriteEval differs from NewEvalDocument().WriteIndented:\n%s", lineDiff(doc.String(), direct.String()))
	}
}

// lineDiff lists the lines only one of a and b has, marked - and +.
func lineDiff(a, b string) string {
	count := map[string]int{}
	for _, l := range strings.Split(a, "\n") {
		count[l]++
	}
	for _, l := range strings.Split(b, "\n") {
		count[l]--
	}
	var out strings.Builder
	for l, n := range count {
		switch {
		case n > 0:
			out.WriteString("- " + l + "\n")
		case n < 0:
			out.WriteString("+ " + l + "\n")
		}
	}
	return out.String()
}

// TestSuggestionDeterministic: for an argument a resource's schema does
// not accept, with two schema names equally close to it ("arn" and "id"
// for "a0"), "Did you mean" names the first in name order, every run.
func TestSuggestionDeterministic(t *testing.T) {
	schemas, err := os.ReadFile("../testdata/conformance/err_mock_ephemeral_in_resource/providers-schema.json")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	src := `terraform {
  required_providers {
    mock = { source = "tfeval/mock" }
  }
}
resource "mock_thing" "c" {
  a0 = 1
}
`
	if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(src), 0o600); err != nil {
		t.Fatal(err)
	}
	for range 20 {
		ev := tfeval.Evaluate(tfeval.Options{WorkDir: dir, Schemas: schemas})
		if len(ev.Diagnostics) != 1 || !strings.Contains(ev.Diagnostics[0].Detail, `Did you mean "arn"?`) {
			t.Fatalf("diagnostics: %s", ev.Diagnostics.Error())
		}
	}
}

// FuzzTestFile runs an arbitrary test file (tests/main.tftest.hcl) against
// an arbitrary module (main.tf), in either dialect, with or without the
// module's provider schema, under small limits, as tfeval test does.
// Nothing may panic or run on, and a second run must print the same
// report: statuses, assertion outcomes and diagnostics in the same order.
// The seeds are the recorded test-file cases.
func FuzzTestFile(f *testing.F) {
	cases, _ := filepath.Glob("../testdata/conformance/testcases/*/main.tf")
	for _, mainTF := range cases {
		dir := filepath.Dir(mainTF)
		tests, _ := filepath.Glob(filepath.Join(dir, "tests", "*.tftest.hcl"))
		own, _ := filepath.Glob(filepath.Join(dir, "*.tftest.hcl"))
		tests = append(tests, own...)
		if len(tests) == 0 {
			continue
		}
		src := concatTF(f, dir)
		test, err := os.ReadFile(tests[0])
		if err != nil {
			f.Fatal(err)
		}
		schemas, _ := os.ReadFile(filepath.Join(dir, "providers-schema.json"))
		f.Add(src, string(test), string(schemas), uint8(0))
		f.Add(src, string(test), string(schemas), uint8(2))
	}
	f.Fuzz(func(t *testing.T, module, test, schemas string, flags uint8) {
		if len(module)+len(test)+len(schemas) > 1<<15 {
			return
		}
		files := map[string]string{"main.tf": module, "tests/main.tftest.hcl": test}
		if schemas != "" {
			files["providers-schema.json"] = schemas
		}
		timer := time.AfterFunc(30*time.Second, func() { panic(fmt.Sprintf("slow input (flags %d): %q", flags, files)) })
		defer timer.Stop()
		dir := t.TempDir()
		testfiles.Write(t, dir, files)
		d := dialect.Terraform
		if flags&2 != 0 {
			d = dialect.Tofu
		}
		report := func() string {
			rep := tfeval.Test(nil, tfeval.TestOptions{
				Options: tfeval.Options{
					WorkDir: dir,
					Sandbox: dir,
					Dialect: d,
					Now:     func() time.Time { return time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC) },
					Rand:    rand.NewChaCha8([32]byte{1}),
					Limits:  lang.Limits{MaxElements: 10_000, MaxStringLength: 1 << 20, MaxSteps: 200_000, MaxFileSize: 1 << 20},
				},
			})
			var out bytes.Buffer
			printer := format.NewDiagnosticPrinter(&out, format.DiagnosticOptions{WorkDir: dir, Sandbox: dir, Dialect: d})
			if err := format.WriteTestText(&out, rep, format.TestTextOptions{Dialect: d, Verbose: true, Diagnostics: printer}); err != nil {
				t.Fatalf("WriteTestText: %v", err)
			}
			return out.String()
		}
		r1, r2 := report(), report()
		if r1 != r2 {
			if diff := lineDiff(r1, r2); diff != "" {
				t.Fatalf("two runs differ:\n%s", diff)
			}
			t.Fatalf("two runs give the same lines in another order:\n%s\n---\n%s", r1, r2)
		}
	})
}
