package funcs

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestCacheSharesFileTexts: two tables of different roots given one Cache
// read a file they both name once, read it again once it changed, and each
// checks its own sandbox first.
func TestCacheSharesFileTexts(t *testing.T) {
	dir := t.TempDir()
	shared := filepath.Join(dir, "modules", "shared.txt")
	for _, d := range []string{"a", "b", "modules"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(shared, []byte("first"), 0o644); err != nil {
		t.Fatal(err)
	}
	stamp := time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC)
	if err := os.Chtimes(shared, stamp, stamp); err != nil {
		t.Fatal(err)
	}
	cache := &Cache{}
	read := func(root, sandbox string) (string, string) {
		t.Helper()
		v, diags := evalWith(Options{BaseDir: filepath.Join(dir, root), Sandbox: sandbox, Cache: cache}, `file("../modules/shared.txt")`)
		if diags.HasErrors() {
			return "", diags.Error()
		}
		return v.AsString(), ""
	}
	if got, err := read("a", ""); got != "first" {
		t.Fatalf("first read = %q, %s", got, err)
	}
	// The same size and time: the cache cannot tell it changed, which
	// shows the second root used what the first one read.
	if err := os.WriteFile(shared, []byte("again"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(shared, stamp, stamp); err != nil {
		t.Fatal(err)
	}
	if got, err := read("b", ""); got != "first" {
		t.Errorf("second root's read = %q, %s; want the text the first root read", got, err)
	}
	// Another size: read again.
	if err := os.WriteFile(shared, []byte("changed"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got, err := read("b", ""); got != "changed" {
		t.Errorf("read after a change = %q, %s", got, err)
	}
	// A table whose sandbox excludes the file is refused, cached or not.
	if got, err := read("b", "."); !strings.Contains(err, "outside the directory") {
		t.Errorf("a read outside the sandbox gave %q, %q; want it refused", got, err)
	}
}

// TestCacheSharesDecodes: what depends only on a text is shared whatever
// the table's files, such as a decoded document.
func TestCacheSharesDecodes(t *testing.T) {
	cache := &Cache{}
	for _, base := range []string{"/a", "/b"} {
		v, diags := evalWith(Options{BaseDir: base, Cache: cache}, `jsondecode("{\"k\": [1, 2]}")`)
		if diags.HasErrors() {
			t.Fatal(diags)
		}
		if got := v.GetAttr("k").LengthInt(); got != 2 {
			t.Fatalf("decoded %#v", v)
		}
	}
	if _, ok := cache.decoded.results.get(`{"k": [1, 2]}`); !ok {
		t.Error("the decoded document is not in the shared cache")
	}
}

// TestMemoEvicts: a bounded memo that evicts drops what it kept longest
// and never holds more than its limit.
func TestMemoEvicts(t *testing.T) {
	m := memo[int]{limit: 10, evict: true}
	for i, k := range []string{"a", "b", "c", "d"} {
		if !m.put(k, i, 4) {
			t.Fatalf("put %s refused", k)
		}
		if m.size > m.limit {
			t.Fatalf("size %d over the limit %d", m.size, m.limit)
		}
	}
	for k, want := range map[string]bool{"a": false, "b": false, "c": true, "d": true} {
		if _, ok := m.get(k); ok != want {
			t.Errorf("%s kept = %v, want %v", k, ok, want)
		}
	}
	if !m.put("c", 9, 6) || m.size != 10 {
		t.Errorf("replacing c with a larger value: size %d", m.size)
	}
	if m.put("big", 0, 11) {
		t.Error("a value larger than the limit was kept")
	}
	fixed := memo[int]{limit: 4}
	if !fixed.put("a", 1, 4) || fixed.put("b", 2, 1) {
		t.Error("a memo without evict kept past its limit")
	}
}
