package lang

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/tfeval/tfeval/config"
	"github.com/tfeval/tfeval/dialect"
	"github.com/tfeval/tfeval/marks"
	"github.com/tfeval/tfeval/render"
	"github.com/tfeval/tfeval/tfvars"
)

type wantConsole struct {
	Mode    string `json:"mode"`
	Results []struct {
		Expr   string `json:"expr"`
		OK     bool   `json:"ok"`
		Out    string `json:"out"`
		Errors []struct {
			Summary, Detail string
		} `json:"errors"`
	} `json:"results"`
}

// consoleSession loads and evaluates the working directory as terraform console does.
func consoleSession(d dialect.Dialect, env, args []string) (*Result, hcl.Diagnostics) {
	cfg, diags := config.Load(".", config.Options{Dialect: d})
	in := tfvars.Inputs{Dir: ".", Env: env, Dialect: d}
	for _, a := range args {
		switch {
		case strings.HasPrefix(a, "-var="):
			in.Args = append(in.Args, tfvars.Arg{Kind: tfvars.VarFlag, Text: strings.TrimPrefix(a, "-var=")})
		case strings.HasPrefix(a, "-var-file="):
			in.Args = append(in.Args, tfvars.Arg{Kind: tfvars.VarFileFlag, Text: strings.TrimPrefix(a, "-var-file=")})
		}
	}
	raw, vdiags := tfvars.Collect(in, cfg.Module.Variables)
	diags = append(diags, vdiags...)
	res, ediags := Evaluate(cfg, Options{Dialect: d, RootVariables: raw, Console: true})
	diags = append(diags, ediags...)
	return res, diags
}

// consoleLine evaluates one console input: the rendered value or the errors.
func consoleLine(res *Result, line string) (string, bool, []string) {
	expr, diags := hclsyntax.ParseExpression([]byte(line), "<console-input>", hcl.Pos{Line: 1, Column: 1})
	var v = res.Root().Outputs["\x00"]
	if !diags.HasErrors() {
		var ed hcl.Diagnostics
		v, ed = res.EvalExpr(expr, nil)
		diags = append(diags, ed...)
	}
	var errs []string
	for _, d := range diags {
		if d.Severity == hcl.DiagError {
			errs = append(errs, d.Summary)
		}
	}
	if diags.HasErrors() {
		return "", false, errs
	}
	if t, ok := render.TypeOf(v); ok {
		return render.Type(t), true, nil
	}
	if marks.Contains(v, marks.TypeType) {
		return "", false, []string{"Invalid use of type function"}
	}
	return render.Value(v), true, nil
}

func TestConformanceConsole(t *testing.T) {
	dir := conformanceDir(t)
	entries, _ := os.ReadDir(dir)
	for _, d := range []dialect.Dialect{dialect.Terraform, dialect.Tofu} {
		passed, failed := 0, 0
		for _, e := range entries {
			caseDir := filepath.Join(dir, e.Name())
			b, err := os.ReadFile(filepath.Join(caseDir, "expected.json"))
			if err != nil {
				continue
			}
			var want map[string]wantConsole
			if json.Unmarshal(b, &want) != nil || want[d.String()].Mode != "console" {
				continue
			}
			t.Chdir(caseDir)
			res, loadDiags := consoleSession(d, readLines("env.txt"), readLines("args.txt"))
			var loadErrs []string
			failAll := false
			for _, ld := range loadDiags {
				if ld.Severity == hcl.DiagError && ld.Subject != nil && strings.Contains(ld.Subject.Filename, "tfvars") {
					failAll = true // variable problems stop the console before it reads input
				}
				if ld.Severity == hcl.DiagError {
					loadErrs = append(loadErrs, ld.Summary)
				}
			}
			for _, r := range want[d.String()].Results {
				out, ok, errs := consoleLine(res, r.Expr)
				if failAll {
					out, ok, errs = "", false, nil
				}
				errs = append(errs, loadErrs...)
				var werrs []string
				for _, we := range r.Errors {
					werrs = append(werrs, we.Summary)
				}
				sort.Strings(errs)
				sort.Strings(werrs)
				var problems []string
				if ok != r.OK {
					problems = append(problems, fmt.Sprintf("outcome: want ok=%v got %v", r.OK, ok))
				} else if ok && out != r.Out {
					problems = append(problems, fmt.Sprintf("value: want %q got %q", r.Out, out))
				}
				if strings.Join(errs, "|") != strings.Join(werrs, "|") {
					problems = append(problems, fmt.Sprintf("errors: want %q got %q", werrs, errs))
				}
				if len(problems) > 0 {
					failed++
					t.Logf("FAIL %s %s :: %s\n    %s", d, e.Name(), r.Expr, strings.Join(problems, "\n    "))
				} else {
					passed++
				}
			}
		}
		t.Logf("console %s: %d passed, %d failed", d, passed, failed)
	}
}
