package conformance

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// validateRecord is what `validate -json` printed for a case, as
// expected_extra.json keeps it.
type validateRecord struct {
	Valid       bool `json:"valid"`
	Diagnostics []struct {
		Severity string `json:"severity"`
		Summary  string `json:"summary"`
		Detail   string `json:"detail"`
		Range    *struct {
			Filename string `json:"filename"`
			Start    struct {
				Line int `json:"line"`
			} `json:"start"`
		} `json:"range"`
		// The recording flattens the range to these two.
		Filename string `json:"filename"`
		Line     int    `json:"line"`
	} `json:"diagnostics"`
}

// keys are the diagnostics as compare_extra.py --validate --details
// compares them: severity and summary, with file and line, and with the
// detail text (whitespace squashed), each as a sorted multiset.
func (r validateRecord) keys() [3][]string {
	var k [3][]string
	for _, d := range r.Diagnostics {
		file, line := d.Filename, d.Line
		if d.Range != nil {
			file, line = d.Range.Filename, d.Range.Start.Line
		}
		k[0] = append(k[0], d.Severity+"|"+d.Summary)
		k[1] = append(k[1], fmt.Sprintf("%s|%s|%s|%d", d.Severity, d.Summary, file, line))
		k[2] = append(k[2], d.Severity+"|"+d.Summary+"|"+strings.Join(strings.Fields(d.Detail), " "))
	}
	for i := range k {
		sort.Strings(k[i])
	}
	return k
}

// TestValidateConformance: `tfeval validate -json` says what `terraform
// validate -json` (and OpenTofu's) said on every case of the corpus that
// recorded it: validity, and every diagnostic's summary, line and detail.
// The corpus passes completely, so there is no ratchet: any difference
// fails.
func TestValidateConformance(t *testing.T) {
	if testing.Short() {
		t.Skip("conformance corpus skipped in -short mode")
	}
	cases, err := LoadCases(corpusDir)
	if err != nil {
		t.Fatal(err)
	}
	scored := 0
	for _, c := range cases {
		b, err := os.ReadFile(filepath.Join(c.Dir, "expected_extra.json"))
		if err != nil {
			continue
		}
		var recorded map[string]struct {
			Validate *validateRecord `json:"validate"`
		}
		if err := json.Unmarshal(b, &recorded); err != nil {
			t.Fatalf("%s: %v", c.Name, err)
		}
		for _, d := range []string{"terraform", "tofu"} {
			want := recorded[d].Validate
			if want == nil {
				continue
			}
			scored++
			t.Run(d+"/"+c.Name, func(t *testing.T) {
				t.Parallel()
				work := filepath.Join(t.TempDir(), "case")
				if err := copyCase(c.Dir, work); err != nil {
					t.Fatal(err)
				}
				args := []string{"validate", "-json"}
				if d == "tofu" {
					args = append(args, "-dialect=tofu")
				}
				_, out, errText := inProcess(args, "", work, c.Env)
				var got validateRecord
				if err := json.Unmarshal([]byte(out), &got); err != nil {
					t.Fatalf("stdout is not JSON: %v\n%s%s", err, out, errText)
				}
				if got.Valid != want.Valid {
					t.Errorf("valid = %v, want %v", got.Valid, want.Valid)
				}
				gk, wk := got.keys(), want.keys()
				for i, what := range []string{"summaries", "lines", "details"} {
					if strings.Join(gk[i], "\n") != strings.Join(wk[i], "\n") {
						t.Errorf("diagnostics by %s:\n got %q\nwant %q", what, gk[i], wk[i])
						break
					}
				}
			})
		}
	}
	if scored == 0 {
		t.Fatal("no case recorded validate -json")
	}
}
