package conformance

import (
	"strings"
	"sync"
	"testing"
)

const (
	testCasesDir     = "../../testdata/conformance/testcases"
	needsProviderTxt = "../../testdata/conformance/testcases/NEEDS_PROVIDER.txt"
)

// TestTestConformance scores `tfeval test -json` against the recorded
// streams of terraform test and tofu test, with the same ratchet as the
// rest of the corpus. The cases that read what the real test provider
// answers are TestNeedsProvider's.
func TestTestConformance(t *testing.T) {
	if testing.Short() {
		t.Skip("conformance corpus skipped in -short mode")
	}
	cases, err := LoadTestCases(testCasesDir)
	if err != nil {
		t.Fatal(err)
	}
	needs, err := ReadNeedsProvider(needsProviderTxt)
	if err != nil {
		t.Fatal(err)
	}
	if len(cases) < 40 {
		t.Fatalf("only %d test cases under %s", len(cases), testCasesDir)
	}
	known, err := ReadKnownFailures(knownFailuresTxt)
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var units []Unit
	t.Run("cases", func(t *testing.T) {
		for _, d := range []string{"terraform", "tofu"} {
			for _, c := range cases {
				if needs[c.Name] {
					continue
				}
				t.Run(d+"/"+c.Name, func(t *testing.T) {
					t.Parallel()
					us, err := RunTestCase(c, d, inProcess, t.TempDir())
					if err != nil {
						t.Fatal(err)
					}
					mu.Lock()
					units = append(units, us...)
					mu.Unlock()
				})
			}
		}
	})
	passed := map[string]int{}
	for _, u := range units {
		if u.Passed() {
			passed[u.Dialect]++
		}
	}
	t.Logf("test-conformance: terraform %d, tofu %d units passed of %d", passed["terraform"], passed["tofu"], len(units))
	for _, u := range units {
		switch id := u.ID(); {
		case !u.Passed() && !known[id]:
			t.Errorf("new failure (fix it; the ratchet list only shrinks): %s\n\t%s", id, strings.Join(u.Problems, "\n\t"))
		case u.Passed() && known[id]:
			t.Errorf("now passing, remove it from the list: %s", id)
		}
	}
}

// TestNeedsProvider checks the cases whose runs need what the real test
// provider tfeval/mock answers (computed ids after apply, data sources
// read while planning): every such run is skipped, naming the provider and
// why, never passed or failed, and the files and runs found are the
// binaries'.
func TestNeedsProvider(t *testing.T) {
	cases, err := LoadTestCases(testCasesDir)
	if err != nil {
		t.Fatal(err)
	}
	needs, err := ReadNeedsProvider(needsProviderTxt)
	if err != nil {
		t.Fatal(err)
	}
	if len(needs) == 0 {
		t.Fatal("NEEDS_PROVIDER.txt lists no case")
	}
	for _, d := range []string{"terraform", "tofu"} {
		for _, c := range cases {
			if !needs[c.Name] {
				continue
			}
			t.Run(d+"/"+c.Name, func(t *testing.T) {
				work := t.TempDir()
				if err := copyCase(c.Dir, work); err != nil {
					t.Fatal(err)
				}
				rc, out, errText := inProcess(c.TestArgs(d), "", work, c.Env)
				if rc != 0 {
					t.Errorf("exit status %d, want 0 (no run failed)\n%s", rc, errText)
				}
				events := ParseEvents(out)
				runs := 0
				for _, e := range events {
					if e["type"] != "test_run" {
						continue
					}
					r := e["test_run"].(map[string]any)
					if _, ok := r["status"]; !ok {
						continue
					}
					runs++
					if r["status"] != "skip" || r["needs_provider"] != "tfeval/mock" || r["skip_reason"] == "" || r["skip_reason"] == nil {
						t.Errorf("run %v: status %v, needs_provider %v, skip_reason %v; want skip, tfeval/mock and a reason", r["run"], r["status"], r["needs_provider"], r["skip_reason"])
					}
				}
				if runs == 0 {
					t.Errorf("no run reported:\n%s", out)
				}
				for _, u := range testUnits(c.Expected[d], events, rc) {
					if u.Name == "files" && !u.Passed() {
						t.Errorf("files and runs found differ from the recording: %s", strings.Join(u.Problems, "; "))
					}
				}
			})
		}
	}
}
