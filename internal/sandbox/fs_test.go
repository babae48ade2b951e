package sandbox

import (
	"errors"
	"io"
	"io/fs"
	"path/filepath"
	"testing"
	"testing/fstest"
)

// TestFS checks a Dir over an fs.FS: files are found below FSRoot,
// nothing outside it (or outside a sandbox directory inside it) is read,
// and only regular files are opened.
func TestFS(t *testing.T) {
	fsys := fstest.MapFS{
		"main.tf":             {Data: []byte("a")},
		"envs/prod/main.tf":   {Data: []byte("b")},
		"envs/prod/vars.json": {Data: []byte("ccc")},
		"secret.txt":          {Data: []byte("s")},
		"envs/empty":          {Mode: fs.ModeDir},
	}
	work := filepath.Join(FSRoot, "envs", "prod")
	whole, err := NewFS(fsys, "", work)
	if err != nil {
		t.Fatal(err)
	}
	boxed, err := NewFS(fsys, ".", work)
	if err != nil {
		t.Fatal(err)
	}
	if !whole.Set() || whole.Root() != FSRoot || boxed.Root() != work || whole.FS() == nil {
		t.Fatalf("roots: %q %q", whole.Root(), boxed.Root())
	}
	read := func(d Dir, path string) (string, error) {
		f, _, err := d.Open(path)
		if err != nil {
			return "", err
		}
		defer f.Close()
		b, err := io.ReadAll(f)
		return string(b), err
	}
	tests := []struct {
		box        Dir
		path, want string
		err        error
	}{
		{whole, filepath.Join(FSRoot, "main.tf"), "a", nil},
		{whole, filepath.Join(work, "main.tf"), "b", nil},
		{whole, "main.tf", "a", nil}, // relative paths are below FSRoot
		{whole, filepath.Join(work, "..", "..", "secret.txt"), "s", nil},
		{boxed, filepath.Join(work, "main.tf"), "b", nil},
		{boxed, filepath.Join(work, "..", "..", "secret.txt"), "", ErrOutside},
		{whole, filepath.Join(FSRoot, "..", "etc", "passwd"), "", ErrOutside},
		{whole, filepath.Join(string(filepath.Separator), "etc", "passwd"), "", ErrOutside},
		{whole, filepath.Join(FSRoot, "envs"), "", ErrNotRegular},
		{whole, filepath.Join(FSRoot, "missing.tf"), "", fs.ErrNotExist},
	}
	for _, tt := range tests {
		got, err := read(tt.box, tt.path)
		if tt.err != nil {
			if !errors.Is(err, tt.err) {
				t.Errorf("Open(%s) in %s: error %v, want %v", tt.path, tt.box.Root(), err, tt.err)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("Open(%s) in %s = %q, %v; want %q", tt.path, tt.box.Root(), got, err, tt.want)
		}
	}
	if b, err := boxed.ReadFile(filepath.Join(work, "vars.json"), 1); !errors.Is(err, ErrTooLarge) {
		t.Errorf("ReadFile past its bound = %q, %v", b, err)
	}
	entries, err := whole.ReadDir(work)
	if err != nil || len(entries) != 2 || entries[0].Name() != "main.tf" || entries[1].Name() != "vars.json" {
		t.Errorf("ReadDir = %v, %v", entries, err)
	}
	if fi, err := whole.Stat(filepath.Join(FSRoot, "envs", "empty")); err != nil || !fi.IsDir() {
		t.Errorf("Stat of a directory = %v, %v", fi, err)
	}
	if _, err := whole.Lstat(filepath.Join(FSRoot, "..", "x")); !errors.Is(err, ErrOutside) {
		t.Errorf("Lstat outside = %v", err)
	}
	if p, err := whole.EvalSymlinks(filepath.Join(work, ".", "main.tf")); err != nil || p != filepath.Join(work, "main.tf") {
		t.Errorf("EvalSymlinks = %q, %v", p, err)
	}
	// The files a user names leave the sandbox directory, not the FS.
	if u := boxed.Unconfined(); u.Root() != FSRoot || u.FS() == nil {
		t.Errorf("Unconfined = %q", u.Root())
	}
	if u := (Dir{}).Unconfined(); u.Set() || u.FS() != nil {
		t.Error("the operating system's Dir unconfined should confine nothing")
	}
	if _, err := NewFS(fsys, "../..", FSRoot); err == nil {
		t.Error("a sandbox outside the FS was accepted")
	}
}
