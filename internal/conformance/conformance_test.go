package conformance

import (
	"bytes"
	"flag"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/tfeval/tfeval/internal/cli"
)

const (
	corpusDir        = "../../testdata/conformance"
	knownFailuresTxt = "../../testdata/conformance/known-failures.txt"
)

var writeRatchet = flag.Bool("ratchet.write", false, "rewrite known-failures.txt with the units failing now (to shrink it after fixes)")

// inProcess runs the CLI inside the test process, with only the case's
// environment, so runs are hermetic and can go in parallel. Randomness is
// fixed: the corpus records that one random uuid() happened not to look
// like a version 4 UUID, which a fresh random one fails one time in 64.
func inProcess(args []string, stdin, workDir string, env []string) (int, string, string) {
	var out, errb bytes.Buffer
	var seed [32]byte
	rc := cli.Run(args, cli.Env{
		Stdin:   strings.NewReader(stdin),
		Stdout:  &out,
		Stderr:  &errb,
		Environ: env,
		WorkDir: workDir,
		Rand:    rand.NewChaCha8(seed),
	})
	return rc, out.String(), errb.String()
}

func TestConformance(t *testing.T) {
	if testing.Short() {
		t.Skip("conformance corpus skipped in -short mode")
	}
	cases, err := LoadCases(corpusDir)
	if err != nil {
		t.Fatal(err)
	}
	if len(cases) == 0 {
		t.Fatalf("no cases under %s", corpusDir)
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
				t.Run(d+"/"+c.Name, func(t *testing.T) {
					t.Parallel()
					us, err := RunCase(c, d, inProcess, t.TempDir())
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

	totals := map[string][2]int{}
	for _, u := range units {
		n := totals[u.Dialect]
		if u.Passed() {
			n[0]++
		} else {
			n[1]++
		}
		totals[u.Dialect] = n
	}
	for _, d := range []string{"terraform", "tofu"} {
		t.Logf("conformance %s: %d passed, %d failed", d, totals[d][0], totals[d][1])
	}
	// Details are the next bar after summaries, and every recorded console
	// detail matches: keep it that way.
	for _, u := range units {
		if u.Passed() && len(u.DetailProblems) > 0 {
			t.Errorf("error detail differs from the recording: %s\n\t%s", u.ID(), strings.Join(u.DetailProblems, "\n\t"))
		}
	}

	if *writeRatchet {
		if err := os.WriteFile(knownFailuresTxt, []byte(formatKnownFailures(units)), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	v := Judge(units, known)
	for _, u := range v.NewFailures {
		t.Errorf("new failure (fix it; the ratchet list only shrinks): %s\n\t%s", u.ID(), strings.Join(u.Problems, "\n\t"))
	}
	for _, id := range v.NowPassing {
		t.Errorf("now passing, remove it from the list: %s", id)
	}
	for _, id := range v.Stale {
		t.Errorf("listed but no such unit, remove it from the list: %s", id)
	}
}

// formatKnownFailures writes the failing units as known-failures.txt.
func formatKnownFailures(units []Unit) string {
	var ids []string
	for _, u := range units {
		if !u.Passed() {
			ids = append(ids, u.ID())
		}
	}
	sort.Strings(ids)
	var b strings.Builder
	b.WriteString("# Conformance units that still fail: DIALECT CASE :: UNIT, one a line.\n")
	b.WriteString("# The list only shrinks: a unit that fails and is not listed fails CI, and a listed\n")
	b.WriteString("# unit that passes must be removed (go test ./internal/conformance -ratchet.write).\n")
	for _, id := range ids {
		b.WriteString(id + "\n")
	}
	return b.String()
}

func TestCorpusIsACopyOfShared(t *testing.T) {
	shared := filepath.Join("..", "..", "..", "shared", "conformance", "cases")
	if _, err := os.Stat(shared); err != nil {
		t.Skip("../shared not beside the repository")
	}
	err := filepath.Walk(shared, func(path string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(shared, path)
		want, _ := os.ReadFile(path)
		got, err := os.ReadFile(filepath.Join(corpusDir, rel))
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("testdata/conformance/%s differs from ../shared: re-copy the corpus", rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
