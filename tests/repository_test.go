package tests

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// maxTrackedFile is the largest file the repository may track: the
// generated provider tables are the largest sources (about 0.5 MB each).
const maxTrackedFile = 1 << 20

// TestNoBuildOutputsTracked fails when git tracks an executable (ELF,
// Mach-O or PE) or a file past maxTrackedFile: a `go build` at the top of
// a checkout writes its executable there, and a commit of everything then
// takes it in (it happened once, with a 9 MB generator).
func TestNoBuildOutputsTracked(t *testing.T) {
	out, err := exec.Command("git", "-C", repoRoot, "ls-files", "-z").Output()
	if err != nil {
		t.Skipf("not a git checkout, or no git: %v", err)
	}
	magics := [][]byte{
		[]byte("\x7fELF"),
		{0xcf, 0xfa, 0xed, 0xfe}, // Mach-O, 64-bit
		{0xce, 0xfa, 0xed, 0xfe}, // Mach-O, 32-bit
		[]byte("MZ"),             // PE
	}
	for _, name := range strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00") {
		path := filepath.Join(repoRoot, filepath.FromSlash(name))
		st, err := os.Lstat(path)
		if err != nil || !st.Mode().IsRegular() {
			continue // deleted in the work tree, or a link
		}
		if st.Size() > maxTrackedFile {
			t.Errorf("%s: %d bytes tracked, more than %d", name, st.Size(), maxTrackedFile)
		}
		f, err := os.Open(path)
		if err != nil {
			t.Error(err)
			continue
		}
		head := make([]byte, 4)
		n, _ := f.Read(head)
		f.Close()
		for _, m := range magics {
			if bytes.HasPrefix(head[:n], m) {
				t.Errorf("%s: an executable is tracked", name)
			}
		}
	}
}

// TestEveryPackageHasDocFile holds the layout the README promises: every
// package of the module (the documentation examples aside) has a doc.go
// whose comment says what the package is for ("// Package name ..." or, for
// a command, "// Command name ..."), so the package comment is in one place
// and not in whichever file came first.
func TestEveryPackageHasDocFile(t *testing.T) {
	cmd := exec.Command("go", "list", "-f", "{{.Dir}} {{.Name}}", "./...")
	cmd.Dir = repoRoot
	out, err := cmd.Output()
	if err != nil {
		t.Skipf("go list: %v", err)
	}
	root, err := filepath.Abs(repoRoot)
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		dir, name, _ := strings.Cut(line, " ")
		rel, err := filepath.Rel(root, dir)
		if err != nil {
			t.Fatal(err)
		}
		rel = filepath.ToSlash(rel)
		if strings.HasPrefix(rel, "docs/examples/") {
			continue
		}
		checked++
		src, err := os.ReadFile(filepath.Join(dir, "doc.go"))
		if err != nil {
			t.Errorf("%s: no doc.go", rel)
			continue
		}
		want := "// Package " + name + " "
		if name == "main" {
			want = "// Command "
		}
		if !strings.HasPrefix(string(src), want) {
			t.Errorf("%s/doc.go: the file does not start with %q", rel, want)
		}
	}
	if checked < 20 {
		t.Errorf("only %d packages listed under %s", checked, repoRoot)
	}
}
