package conformance

import (
	"os"
	"sort"
	"strings"
)

// KnownFailures is the ratchet list: unit IDs expected to fail.
type KnownFailures map[string]bool

// ReadKnownFailures reads known-failures.txt: one unit ID a line; blank
// lines and lines starting with # (reasons, grouped above their units) are
// skipped. A missing file is an empty list.
func ReadKnownFailures(path string) (KnownFailures, error) {
	b, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return KnownFailures{}, nil
	}
	if err != nil {
		return nil, err
	}
	return ParseKnownFailures(string(b)), nil
}

// ParseKnownFailures parses the text of known-failures.txt.
func ParseKnownFailures(text string) KnownFailures {
	kf := KnownFailures{}
	for _, l := range strings.Split(text, "\n") {
		l = strings.TrimRight(l, "\r")
		if strings.TrimSpace(l) == "" || strings.HasPrefix(l, "#") {
			continue
		}
		kf[l] = true
	}
	return kf
}

// Verdict is what the ratchet says about a run.
type Verdict struct {
	// NewFailures failed and are not listed: the run must fail.
	NewFailures []Unit
	// NowPassing are listed but passed: they must be removed from the list.
	NowPassing []string
	// Stale are listed but were not run at all (renamed or removed units).
	Stale []string
}

// OK reports whether the ratchet holds.
func (v Verdict) OK() bool {
	return len(v.NewFailures) == 0 && len(v.NowPassing) == 0 && len(v.Stale) == 0
}

// Judge compares a run's units with the ratchet list.
func Judge(units []Unit, known KnownFailures) Verdict {
	var v Verdict
	seen := map[string]bool{}
	for _, u := range units {
		id := u.ID()
		seen[id] = true
		switch {
		case !u.Passed() && !known[id]:
			v.NewFailures = append(v.NewFailures, u)
		case u.Passed() && known[id]:
			v.NowPassing = append(v.NowPassing, id)
		}
	}
	for id := range known {
		if !seen[id] {
			v.Stale = append(v.Stale, id)
		}
	}
	sort.Strings(v.NowPassing)
	sort.Strings(v.Stale)
	return v
}
