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

// needsEvaluator reports whether expr refers to anything but functions.
func needsEvaluator(expr hcl.Expression, d dialect.Dialect) bool {
	for _, tr := range expr.Variables() {
		if d == dialect.Terraform && len(tr) == 1 && typeKeywords[tr.RootName()] {
			continue
		}
		return true
	}
	return false
}

// consoleEval is the console's evaluation of one line with only functions in scope.
func consoleEval(src string, opts Options) (out string, ok bool, errs []string, details []string) {
	expr, diags := hclsyntax.ParseExpression([]byte(src), "<console-input>", hcl.Pos{Line: 1, Column: 1})
	if !diags.HasErrors() {
		fns := Functions(opts)
		ctx := &hcl.EvalContext{Functions: fns}
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
func consoleEvalIn(t *testing.T, dir, src string, opts Options) (string, bool, []string, []string) {
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
	out, ok, errs, details := consoleEval(src, opts)
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
			caseDir, err := filepath.Abs(filepath.Join(dir, name))
			if err != nil {
				t.Fatal(err)
			}
			for _, want := range all[d.String()].Results {
				expr, _ := hclsyntax.ParseExpression([]byte(want.Expr), "<console-input>", hcl.Pos{Line: 1, Column: 1})
				if expr != nil && needsEvaluator(expr, d) {
					skipped++
					continue
				}
				unit := name + "/" + d.String() + "/" + want.Expr
				out, ok, errs, details := consoleEvalIn(t, caseDir, want.Expr, opts)
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
		}
		t.Logf("conformance %s: %d passed, %d failed, %d skipped (need the evaluator), %d detail mismatches", d, pass, fail, skipped, detailMismatch)
	}
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
