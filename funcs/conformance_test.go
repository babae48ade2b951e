package funcs

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/tfeval/tfeval/dialect"
	"github.com/tfeval/tfeval/marks"
	"github.com/tfeval/tfeval/render"
)

// conformanceCases are the recorded console cases that exercise functions.
var conformanceCases = []string{
	"fn_cidr", "fn_collection", "fn_conversion", "fn_datetime", "fn_encoding",
	"fn_numeric", "fn_string", "filesystem", "render", "dialect", "lang_expr", "locals_basic", "named_values", "override_files", "sensitive_values", "tfvars_functions_not_allowed", "tofu_shadow", "types_optional", "undeclared_var_in_tfvars", "validation_pass", "vars_precedence",
}

// knownGaps are units whose expected diagnostics do not come from funcs.
var knownGaps = map[string]string{
	"dialect/tofu/provider::foo::bar(1)": `OpenTofu's console reports an internal "BUG: Uninitialized function provider" error`,
}

type consoleResult struct {
	Expr   string `json:"expr"`
	OK     bool   `json:"ok"`
	Out    string `json:"out"`
	Errors []struct {
		Summary string `json:"summary"`
		Detail  string `json:"detail"`
	} `json:"errors"`
}

type consoleCase struct {
	Mode    string          `json:"mode"`
	Results []consoleResult `json:"results"`
}

func conformanceDir(t *testing.T) string {
	for _, d := range []string{"../testdata/conformance", "../../shared/conformance/cases"} {
		if _, err := os.Stat(filepath.Join(d, "fn_cidr", "expected.json")); err == nil {
			return d
		}
	}
	t.Skip("conformance corpus not found")
	return ""
}

// typeKeywords are the bare words Terraform's reference parser ignores so
// that convert(x, string) is not a reference.
var typeKeywords = map[string]bool{"string": true, "number": true, "bool": true, "any": true}

// standIns are the few named values some cases read, as the evaluator would
// provide them (from the cases' main.tf), so those function calls are tested too.
func standIns(caseName, caseDir string) map[string]cty.Value {
	vars := map[string]cty.Value{
		"path": cty.ObjectVal(map[string]cty.Value{
			"module": cty.StringVal("."),
			"root":   cty.StringVal("."),
			"cwd":    cty.StringVal(filepath.ToSlash(caseDir)),
		}),
	}
	switch caseName {
	case "dialect":
		vars["var"] = cty.ObjectVal(map[string]cty.Value{"tpl": cty.StringVal("Hello, ${name}!")})
		vars["local"] = cty.ObjectVal(map[string]cty.Value{"tpl": cty.StringVal("%{ for x in xs }${x};%{ endfor }")})
	case "filesystem":
		vars["local"] = cty.ObjectVal(map[string]cty.Value{"content": cty.StringVal("Hello World\n")})
	}
	return vars
}

// needsEvaluator reports whether expr refers to anything but functions and
// the stand-in values.
func needsEvaluator(expr hcl.Expression, d dialect.Dialect, vars map[string]cty.Value) bool {
	for _, tr := range expr.Variables() {
		if d == dialect.Terraform && len(tr) == 1 && typeKeywords[tr.RootName()] {
			continue
		}
		if _, diags := tr.TraverseAbs(&hcl.EvalContext{Variables: vars}); len(tr) > 1 && !diags.HasErrors() {
			continue
		}
		return true
	}
	return false
}

// consoleEval is the console's evaluation of one line with only functions in scope.
func consoleEval(src string, opts Options, vars map[string]cty.Value) (out string, ok bool, errs []string, details []string) {
	expr, diags := hclsyntax.ParseExpression([]byte(src), "<console-input>", hcl.Pos{Line: 1, Column: 1})
	if !diags.HasErrors() {
		fns := Functions(opts)
		ctx := &hcl.EvalContext{Functions: fns, Variables: vars}
		v, vdiags := expr.Value(ctx)
		diags = append(diags, UnknownFunctionDiags(opts.Dialect, fns, nil, vdiags)...)
		if !diags.HasErrors() {
			if ty, isType := render.TypeOf(v); isType && v.HasMark(marks.TypeType) {
				return render.Type(ty), true, nil, nil
			}
			if marks.Contains(v, marks.TypeType) {
				return "", false, []string{"Invalid use of type function"}, []string{`The console-only "type" function cannot be used as part of an expression.`}
			}
			return render.Value(v), true, nil, nil
		}
	}
	for _, d := range diags {
		if d.Severity == hcl.DiagError {
			errs = append(errs, d.Summary)
			details = append(details, d.Detail)
		}
	}
	return "", false, errs, details
}

// consoleEvalIn runs consoleEval from inside dir, as the console runs in
// the configuration directory, and reads its output the way compare.py does
// (text mode: \r\n and \r become \n).
func consoleEvalIn(t *testing.T, dir, src string, opts Options, vars map[string]cty.Value) (string, bool, []string, []string) {
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Chdir(dir); err != nil {
		t.Fatal(err)
	}
	defer func() {
		if err := os.Chdir(wd); err != nil {
			t.Fatal(err)
		}
	}()
	out, ok, errs, details := consoleEval(src, opts, vars)
	out = strings.ReplaceAll(strings.ReplaceAll(out, "\r\n", "\n"), "\r", "\n")
	return out, ok, errs, details
}

func sortedCopy(s []string) []string {
	out := append([]string(nil), s...)
	sort.Strings(out)
	return out
}

func squash(s string) string { return strings.Join(strings.Fields(s), " ") }

func TestConformance(t *testing.T) {
	dir := conformanceDir(t)
	for _, d := range []dialect.Dialect{dialect.Terraform, dialect.Tofu} {
		pass, fail, skipped, detailMismatch := 0, 0, 0, 0
		for _, name := range conformanceCases {
			casePass, caseFail, caseSkip := pass, fail, skipped
			raw, err := os.ReadFile(filepath.Join(dir, name, "expected.json"))
			if err != nil {
				t.Fatal(err)
			}
			var all map[string]consoleCase
			if err := json.Unmarshal(raw, &all); err != nil {
				t.Fatal(err)
			}
			// A fixed random stream keeps uuid()-shape checks from passing by chance.
			opts := Options{Dialect: d, ConsoleMode: true, BaseDir: ".", Rand: zeroReader{}}
			caseDir := copyCase(t, filepath.Join(dir, name))
			vars := standIns(name, caseDir)
			for _, want := range all[d.String()].Results {
				expr, _ := hclsyntax.ParseExpression([]byte(want.Expr), "<console-input>", hcl.Pos{Line: 1, Column: 1})
				if expr != nil && needsEvaluator(expr, d, vars) {
					skipped++
					continue
				}
				unit := name + "/" + d.String() + "/" + want.Expr
				out, ok, errs, details := consoleEvalIn(t, caseDir, want.Expr, opts, vars)
				var wantErrs, wantDetails []string
				for _, e := range want.Errors {
					wantErrs = append(wantErrs, e.Summary)
					wantDetails = append(wantDetails, squash(e.Detail))
				}
				var problems []string
				if ok != want.OK {
					problems = append(problems, "outcome: want ok="+boolStr(want.OK)+" got "+boolStr(ok)+" "+strings.Join(errs, "; ")+" "+strings.Join(details, "; "))
				} else if ok && out != want.Out {
					problems = append(problems, "value: want "+want.Out+"\n got "+out)
				}
				if strings.Join(sortedCopy(wantErrs), "|") != strings.Join(sortedCopy(errs), "|") {
					problems = append(problems, "errors: want "+strings.Join(wantErrs, "; ")+" got "+strings.Join(errs, "; "))
				}
				if len(problems) > 0 {
					if reason, gap := knownGaps[unit]; gap {
						t.Logf("known gap %s: %s", unit, reason)
					} else {
						t.Errorf("%s:\n  %s", unit, strings.Join(problems, "\n  "))
					}
					fail++
					continue
				}
				pass++
				for i := range details {
					if i < len(wantDetails) && squash(details[i]) != wantDetails[i] {
						detailMismatch++
						t.Logf("detail differs %s:\n  want %s\n   got %s", unit, wantDetails[i], squash(details[i]))
					}
				}
			}
			t.Logf("conformance %s %s: %d passed, %d failed, %d skipped", d, name, pass-casePass, fail-caseFail, skipped-caseSkip)
		}
		t.Logf("conformance %s total: %d passed, %d failed, %d skipped (need the evaluator), %d detail mismatches", d, pass, fail, skipped, detailMismatch)
	}
}

// copyCase copies a case folder the way compare.py does, without the
// recorded files, so globs see what the binaries saw.
func copyCase(t *testing.T, src string) string {
	dst := filepath.Join(t.TempDir(), "case")
	skip := map[string]bool{"exprs.txt": true, "args.txt": true, "env.txt": true, "mode.txt": true}
	err := filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		if base := d.Name(); skip[base] || (strings.HasPrefix(base, "expected") && strings.HasSuffix(base, ".json")) {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

// zeroReader is an endless stream of zero bytes.
type zeroReader struct{}

func (zeroReader) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}

func boolStr(b bool) string {
	if b {
		return "true"
	}
	return "false"
}
