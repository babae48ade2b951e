package tfvars

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"

	"github.com/tfeval/tfeval/dialect"
	"github.com/tfeval/tfeval/render"
)

// conformanceDir is the shared corpus, which lives beside the repository.
const conformanceDir = "../../shared/conformance/cases"

type recordedDiag struct {
	Severity string `json:"severity"`
	Summary  string `json:"summary"`
	Detail   string `json:"detail"`
}

type recordedResult struct {
	Mode        string         `json:"mode"`
	Diagnostics []recordedDiag `json:"diagnostics"`
	Results     []struct {
		Expr     string         `json:"expr"`
		OK       bool           `json:"ok"`
		Out      string         `json:"out"`
		Errors   []recordedDiag `json:"errors"`
		Warnings []recordedDiag `json:"warnings"`
	} `json:"results"`
}

// caseInputs reads a case's args.txt and env.txt into Inputs.
func caseInputs(t *testing.T, dir string, d dialect.Dialect) Inputs {
	in := Inputs{Dir: dir, Dialect: d}
	if b, err := os.ReadFile(filepath.Join(dir, "args.txt")); err == nil {
		for _, line := range strings.Split(strings.TrimRight(string(b), "\n"), "\n") {
			switch {
			case strings.HasPrefix(line, "-var="):
				in.Args = append(in.Args, Arg{Kind: VarFlag, Text: strings.TrimPrefix(line, "-var=")})
			case strings.HasPrefix(line, "-var-file="):
				in.Args = append(in.Args, Arg{Kind: VarFileFlag, Text: strings.TrimPrefix(line, "-var-file=")})
			case line != "":
				t.Fatalf("unexpected argument %q", line)
			}
		}
	}
	if b, err := os.ReadFile(filepath.Join(dir, "env.txt")); err == nil {
		for _, line := range strings.Split(strings.TrimRight(string(b), "\n"), "\n") {
			if line != "" {
				in.Env = append(in.Env, line)
			}
		}
	}
	return in
}

var space = regexp.MustCompile(`\s+`)

// diagKey identifies a diagnostic independently of the console's line wrapping.
func diagKey(severity, summary, detail string) string {
	return severity + "|" + summary + "|" + space.ReplaceAllString(detail, " ")
}

func diagKeys(diags hcl.Diagnostics) []string {
	var out []string
	for _, d := range diags {
		sev := "error"
		if d.Severity == hcl.DiagWarning {
			sev = "warning"
		}
		out = append(out, diagKey(sev, d.Summary, d.Detail))
	}
	sort.Strings(out)
	return out
}

func TestConformance(t *testing.T) {
	if _, err := os.Stat(conformanceDir); err != nil {
		t.Skip("conformance corpus not beside the repository")
	}
	cases := []string{
		"vars_precedence", "undeclared_var_in_tfvars", "tfvars_functions_not_allowed",
		"err_var_cli_bad_hcl", "err_var_list_any_mixed", "err_var_missing_attr", "err_var_wrong_type",
		"err_nullable_false", "err_missing_required", "err_undeclared_var_cli", "err_tfvars_syntax",
		"types_optional",
	}
	for _, name := range cases {
		for _, d := range []dialect.Dialect{dialect.Terraform, dialect.Tofu} {
			t.Run(name+"/"+d.String(), func(t *testing.T) {
				dir := filepath.Join(conformanceDir, name)
				raw, err := os.ReadFile(filepath.Join(dir, "expected.json"))
				if err != nil {
					t.Fatal(err)
				}
				var expected map[string]recordedResult
				if err := json.Unmarshal(raw, &expected); err != nil {
					t.Fatal(err)
				}
				want := expected[d.String()]

				decls := loadVariables(t, dir)
				final, _, diags := Resolve(caseInputs(t, dir, d), decls)

				var wantDiags []string
				if want.Mode == "plan" {
					for _, rd := range want.Diagnostics {
						wantDiags = append(wantDiags, diagKey(rd.Severity, rd.Summary, rd.Detail))
					}
				} else if len(want.Results) > 0 {
					// Collection problems repeat on every console result; take the first.
					r := want.Results[0]
					for _, rd := range r.Errors {
						if rd.Summary != "Reference to undeclared input variable" {
							wantDiags = append(wantDiags, diagKey("error", rd.Summary, rd.Detail))
						}
					}
					for _, rd := range r.Warnings {
						// OpenTofu's ignored-attribute lint of defaults is the config loader's.
						if rd.Summary != "Object attribute is ignored" {
							wantDiags = append(wantDiags, diagKey("warning", rd.Summary, rd.Detail))
						}
					}
				}
				sort.Strings(wantDiags)
				if got := diagKeys(diags); strings.Join(got, "\n") != strings.Join(wantDiags, "\n") {
					t.Errorf("diagnostics\n got: %q\nwant: %q", got, wantDiags)
				}
				if diags.HasErrors() {
					return
				}

				compared := 0
				defer func() { t.Logf("%d diagnostics, %d values compared", len(diags), compared) }()
				exprRe := regexp.MustCompile(`^(type\()?var\.([a-z_0-9]+)\)?$`)
				for _, r := range want.Results {
					m := exprRe.FindStringSubmatch(r.Expr)
					if m == nil || !r.OK {
						continue
					}
					v, ok := final[m[2]]
					if !ok {
						t.Errorf("%s: no value", r.Expr)
						continue
					}
					compared++
					got := render.Value(v)
					if m[1] != "" {
						got = render.Type(v.Type())
					}
					if got != r.Out {
						t.Errorf("%s:\n got: %s\nwant: %s", r.Expr, got, r.Out)
					}
				}
			})
		}
	}
}
