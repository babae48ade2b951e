package install

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tfeval/tfeval/internal/testfiles"
)

func TestResolveSubdir(t *testing.T) {
	root := t.TempDir()
	testfiles.Write(t, root, map[string]string{"top-abc/modules/x/main.tf": "", "two/a/main.tf": "", "two/b/main.tf": "", "file.tf": ""})
	tests := []struct{ sub, want, err string }{
		{"", "", ""},
		{"top-abc/modules/x", "top-abc/modules/x", ""},
		{"top-*/modules/x", "top-abc/modules/x", ""},
		{"*", "", "matches 2 directories"},
		{"two/*", "", "matches 2 directories"},
		{"nope", "", "not in the package"},
		{"file.tf", "", "not in the package"},
		{"[", "", "malformed"},
	}
	for _, tt := range tests {
		got, err := resolveSubdir(root, tt.sub)
		if got != tt.want || (err == nil) != (tt.err == "") || (err != nil && !strings.Contains(err.Error(), tt.err)) {
			t.Errorf("%q: %q, %v; want %q, %q", tt.sub, got, err, tt.want, tt.err)
		}
	}
}

func TestTreeHash(t *testing.T) {
	make := func(files map[string]string, link string) string {
		dir := t.TempDir()
		testfiles.Write(t, dir, files)
		if link != "" {
			os.Symlink(link, filepath.Join(dir, "l"))
		}
		h, err := treeHash(dir)
		if err != nil {
			t.Fatal(err)
		}
		return h
	}
	base := make(map[string]string{"a.tf": "x", "d/b.tf": "y"}, "a.tf")
	if again := make(map[string]string{"d/b.tf": "y", "a.tf": "x"}, "a.tf"); again != base {
		t.Error("the same files hash differently")
	}
	for name, h := range map[string]string{
		"content":  make(map[string]string{"a.tf": "X", "d/b.tf": "y"}, "a.tf"),
		"name":     make(map[string]string{"c.tf": "x", "d/b.tf": "y"}, "a.tf"),
		"link":     make(map[string]string{"a.tf": "x", "d/b.tf": "y"}, "d/b.tf"),
		"no link":  make(map[string]string{"a.tf": "x", "d/b.tf": "y"}, ""),
		"moved":    make(map[string]string{"a.tf": "x", "e/b.tf": "y"}, "a.tf"),
		"new file": make(map[string]string{"a.tf": "x", "d/b.tf": "y", "d/c.tf": ""}, "a.tf"),
	} {
		if h == base {
			t.Errorf("a change of %s keeps the hash", name)
		}
	}
}

func TestCheckTree(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string
		links map[string]string
		err   string
	}{
		{"fine", map[string]string{"a.tf": "x"}, map[string]string{"l": "a.tf", "d": "."}, ""},
		{"link out", map[string]string{"a.tf": "x"}, map[string]string{"l": "../x"}, "outside the package"},
		{"dangling", map[string]string{"a.tf": "x"}, map[string]string{"l": "nope"}, "outside the package"},
		{"absolute", map[string]string{"a.tf": "x"}, map[string]string{"l": "/etc/passwd"}, "outside the package"},
		{"size", map[string]string{"a.tf": strings.Repeat("x", 101)}, nil, "larger than 100 bytes"},
		{"count", map[string]string{"1": "", "2": "", "3": "", "4": ""}, nil, "more than 3 files"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			testfiles.Write(t, dir, tt.files)
			for n, target := range tt.links {
				os.Symlink(target, filepath.Join(dir, n))
			}
			err := checkTree(dir, 100, 3)
			if (err == nil) != (tt.err == "") || (err != nil && !strings.Contains(err.Error(), tt.err)) {
				t.Errorf("err = %v, want %q", err, tt.err)
			}
		})
	}
}
