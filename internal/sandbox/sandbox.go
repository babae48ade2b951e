package sandbox

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Dir is the directory reading is confined to, and where files come from:
// the operating system's file system, or an fs.FS (see NewFS). The zero
// value reads the operating system's and confines nothing.
type Dir struct {
	// root is the real, absolute path of the directory; "" for none.
	root string
	// fsys, when not nil, is where every file is read from: its root
	// stands for the path FSRoot, and root is FSRoot or below it.
	fsys fs.FS
}

// New resolves a sandbox option: dir relative to workDir (itself relative
// to the process directory when not absolute), every symbolic link
// followed. An empty dir gives the zero Dir.
func New(dir, workDir string) (Dir, error) {
	if dir == "" {
		return Dir{}, nil
	}
	if !filepath.IsAbs(dir) {
		dir = filepath.Join(workDir, dir)
	}
	real, err := RealPath(dir)
	if err != nil {
		return Dir{}, fmt.Errorf("cannot resolve the sandbox directory %s: %w", dir, err)
	}
	return Dir{root: real}, nil
}

// Set reports whether d confines reading.
func (d Dir) Set() bool { return d.root != "" }

// Root is the real, absolute path of the directory, or "" when none is set.
func (d Dir) Root() string { return d.root }

// Contains reports whether path (absolute, or relative to the process
// directory) lies inside d once every symbolic link in it is followed; a
// path that does not exist yet is judged by its longest existing prefix.
// Every path is inside the zero Dir.
func (d Dir) Contains(path string) (bool, error) {
	if d.fsys != nil {
		return Within(d.root, fsAbs(path)), nil
	}
	if d.root == "" {
		return true, nil
	}
	real, err := RealPath(path)
	if err != nil {
		return false, err
	}
	return Within(d.root, real), nil
}

// ErrOutside is the error of reading a file outside the sandbox.
var ErrOutside = errors.New("outside the directory this evaluation may read")

// ErrNotRegular is the error of reading something other than a regular file.
var ErrNotRegular = errors.New("not a regular file")

// ErrDirectory is also wrapped, beside ErrNotRegular, when that something is
// a directory, which callers may report as the operating system would.
var ErrDirectory = errors.New("is a directory")

// Check returns ErrOutside (wrapped with the path) when path is outside d.
func (d Dir) Check(path string) error {
	ok, err := d.Contains(path)
	if err != nil {
		return err
	}
	if !ok {
		return fmt.Errorf("%s is %w (%s)", path, ErrOutside, d.root)
	}
	return nil
}

// Open opens a regular file for reading: one outside d is ErrOutside, and
// anything but a regular file (a FIFO, a device, a directory, a socket) is
// ErrNotRegular, found before opening (opening a FIFO blocks) and again on
// the opened file. The FileInfo is the opened file's.
func (d Dir) Open(path string) (fs.File, fs.FileInfo, error) {
	if err := d.Check(path); err != nil {
		return nil, nil, err
	}
	if d.fsys != nil {
		return d.openFS(path)
	}
	return OpenRegular(path)
}

// OpenRegular is Open without a sandbox.
func OpenRegular(path string) (*os.File, fs.FileInfo, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, nil, notRegular(path, fi)
	}
	f, err := openNonBlocking(path)
	if err != nil {
		return nil, nil, err
	}
	fi, err = f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	if !fi.Mode().IsRegular() {
		f.Close()
		return nil, nil, notRegular(path, fi)
	}
	return f, fi, nil
}

func notRegular(path string, fi fs.FileInfo) error {
	if fi.IsDir() {
		return fmt.Errorf("%s %w, %w", path, ErrDirectory, ErrNotRegular)
	}
	return fmt.Errorf("%s is %w but %q", path, ErrNotRegular, fi.Mode().Type().String())
}

// RealPath is the absolute form of p with every symbolic link followed;
// for a path that does not exist, its longest existing prefix is resolved
// and the rest joined to it.
func RealPath(p string) (string, error) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", err
	}
	rest := ""
	for cur := abs; ; {
		resolved, err := filepath.EvalSymlinks(cur)
		if err == nil {
			return filepath.Join(resolved, rest), nil
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return "", err
		}
		parent := filepath.Dir(cur)
		if parent == cur {
			return abs, nil
		}
		rest = filepath.Join(filepath.Base(cur), rest)
		cur = parent
	}
}

// Within reports whether path is root or below it; both must be clean and
// absolute.
func Within(root, path string) bool {
	rel, err := filepath.Rel(root, path)
	if err != nil {
		return false
	}
	return rel == "." || (rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)))
}

// ErrTooLarge is the error of reading a file larger than the caller allows.
var ErrTooLarge = errors.New("larger than the limit")

// ReadFile reads a regular file inside d (see Open) of at most max bytes;
// a larger one is ErrTooLarge, found from its size before reading. The
// file's size sizes the buffer, so it is read without regrowing; one byte
// more finds a file that grew.
func (d Dir) ReadFile(path string, max int64) ([]byte, error) {
	f, fi, err := d.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if fi.Size() > max {
		// A regular file's size is known: no need to read max bytes first.
		return nil, fmt.Errorf("%s is %w of %d bytes", path, ErrTooLarge, max)
	}
	size := fi.Size() + 1
	return ReadLimited(f, path, max, make([]byte, 0, size))
}

// ReadLimited reads r to its end into buf, failing with ErrTooLarge once
// it has more than max bytes.
func ReadLimited(r io.Reader, path string, max int64, buf []byte) ([]byte, error) {
	r = io.LimitReader(r, max+1)
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := r.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if int64(len(buf)) > max {
			return nil, fmt.Errorf("%s is %w of %d bytes", path, ErrTooLarge, max)
		}
		if err == io.EOF {
			return buf, nil
		}
		if err != nil {
			return nil, err
		}
	}
}
