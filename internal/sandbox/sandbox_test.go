//go:build unix

package sandbox

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// fixture is a directory holding a sandbox "box" with a file, links out of
// it, and a secret beside it.
func fixture(t *testing.T) (root, box string) {
	t.Helper()
	root = t.TempDir()
	box = filepath.Join(root, "box")
	for _, d := range []string{box, filepath.Join(box, "sub"), filepath.Join(root, "out")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for name, text := range map[string]string{"box/in.txt": "in", "secret.txt": "secret", "out/x.txt": "x"} {
		if err := os.WriteFile(filepath.Join(root, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for link, target := range map[string]string{"box/file-out": "../secret.txt", "box/dir-out": "../out", "box/file-in": "in.txt", "box/sub/up": ".."} {
		if err := os.Symlink(target, filepath.Join(root, link)); err != nil {
			t.Skip("no symlinks:", err)
		}
	}
	return root, box
}

func TestContains(t *testing.T) {
	root, box := fixture(t)
	d, err := New("box", root)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		path string
		in   bool
	}{
		{"box/in.txt", true},
		{"box/file-in", true},
		{"box/sub/up/in.txt", true},
		{"box/missing/deeper.txt", true},
		{"box", true},
		{"secret.txt", false},
		{"box/../secret.txt", false},
		{"box/file-out", false},
		{"box/dir-out/x.txt", false},
		{"box/dir-out/missing.txt", false},
		{"boxer/x", false},
		{"/", false},
	}
	for _, tt := range tests {
		path := tt.path
		if !filepath.IsAbs(path) {
			path = filepath.Join(root, path)
		}
		got, err := d.Contains(path)
		if err != nil || got != tt.in {
			t.Errorf("Contains(%s) = %v, %v; want %v", tt.path, got, err, tt.in)
		}
		if err := d.Check(path); (err == nil) != tt.in || (err != nil && !errors.Is(err, ErrOutside)) {
			t.Errorf("Check(%s) = %v", tt.path, err)
		}
	}
	if ok, _ := (Dir{}).Contains("/etc/passwd"); !ok {
		t.Error("the zero Dir refused a path")
	}
	if _, box2 := fixture(t); box2 == box {
		t.Fatal("fixtures share a directory")
	}
}

// TestNewResolvesAgainstWorkDir: a relative sandbox is the working
// directory's, not the process's, whatever the process directory is.
func TestNewResolvesAgainstWorkDir(t *testing.T) {
	root, box := fixture(t)
	d, err := New(".", box)
	if err != nil {
		t.Fatal(err)
	}
	real, _ := filepath.EvalSymlinks(box)
	if d.Root() != real {
		t.Errorf("Root() = %s, want %s", d.Root(), real)
	}
	if ok, _ := d.Contains(filepath.Join(root, "secret.txt")); ok {
		t.Error("a file beside the working directory is inside the sandbox")
	}
	if d, _ := New("", box); d.Set() {
		t.Error("an empty option set a sandbox")
	}
}

func TestReadFile(t *testing.T) {
	root, box := fixture(t)
	d, _ := New(box, "")
	if b, err := d.ReadFile(filepath.Join(box, "in.txt"), 10); err != nil || string(b) != "in" {
		t.Errorf("inside: %q, %v", b, err)
	}
	if _, err := d.ReadFile(filepath.Join(box, "in.txt"), 1); !errors.Is(err, ErrTooLarge) {
		t.Errorf("over the size: %v", err)
	}
	if _, err := d.ReadFile(filepath.Join(box, "file-out"), 10); !errors.Is(err, ErrOutside) {
		t.Errorf("link out: %v", err)
	}
	if _, err := d.ReadFile(box, 10); !errors.Is(err, ErrNotRegular) {
		t.Errorf("directory: %v", err)
	}
	fifo := filepath.Join(box, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip("no FIFOs:", err)
	}
	// With no writer, opening the FIFO would block: it must be refused first.
	if _, err := d.ReadFile(fifo, 10); !errors.Is(err, ErrNotRegular) {
		t.Errorf("FIFO: %v", err)
	}
	if _, err := (Dir{}).ReadFile(fifo, 10); !errors.Is(err, ErrNotRegular) {
		t.Errorf("FIFO without a sandbox: %v", err)
	}
	if _, err := os.Stat("/dev/zero"); err == nil {
		if _, err := (Dir{}).ReadFile("/dev/zero", 10); !errors.Is(err, ErrNotRegular) {
			t.Errorf("/dev/zero: %v", err)
		}
	}
	_ = root
}

// TestOpenNonBlocking opens a FIFO the way OpenRegular does after its
// check, as though a file had been replaced by one in between: the open
// returns at once and the opened file is refused.
func TestOpenNonBlocking(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip("no FIFOs:", err)
	}
	f, err := openNonBlocking(fifo)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || fi.Mode().IsRegular() {
		t.Errorf("Stat = %v, %v", fi, err)
	}
}
