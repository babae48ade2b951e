package testfiles

import (
	"os"
	"path/filepath"
	"testing"
)

func TestDir(t *testing.T) {
	dir := Dir(t, map[string]string{"main.tf": "a", "modules/x/main.tf": "b"})
	for name, want := range map[string]string{"main.tf": "a", "modules/x/main.tf": "b"} {
		got, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(name)))
		if err != nil || string(got) != want {
			t.Errorf("%s: %q, %v; want %q", name, got, err, want)
		}
	}
}
