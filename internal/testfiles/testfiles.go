package testfiles

import (
	"os"
	"path/filepath"
	"testing"
)

// Write writes files, by slash-separated path relative to dir, into dir,
// creating the directories on the way; a failure ends the test.
func Write(t testing.TB, dir string, files map[string]string) {
	t.Helper()
	for name, src := range files {
		path := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// Dir writes files into a new temporary directory, removed when the test
// ends, and returns it.
func Dir(t testing.TB, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	Write(t, dir, files)
	return dir
}
