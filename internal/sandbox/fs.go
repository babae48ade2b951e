package sandbox

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// Files from an fs.FS. An editor evaluates its unsaved buffers, and a test
// its inline files, by giving them as an fs.FS; every file an evaluation
// reads then comes from it, and none from the operating system. Paths
// keep their operating-system form throughout tfeval (the working
// directory is absolute, files are joined to it): FSRoot is the absolute
// path the FS's root stands for, and a path is looked up in the FS by its
// place below FSRoot. A path that leaves FSRoot (by "..", or absolute
// elsewhere) is outside, with the error a sandbox gives: the FS is a
// sandbox of its own, and a sandbox directory inside it confines further.
// An fs.FS has no symbolic links to follow, so containment is a matter of
// the cleaned path alone.

// FSRoot is the absolute path the root of an fs.FS stands for.
var FSRoot = fsRoot()

func fsRoot() string {
	root, err := filepath.Abs(string(filepath.Separator) + "tfeval-fs")
	if err != nil {
		return string(filepath.Separator) + "tfeval-fs"
	}
	return root
}

// NewFS is New for files read from fsys: dir (relative to workDir, which
// is under FSRoot) confines reading within fsys; without dir, fsys itself
// does. A nil fsys is New's operating-system file system.
func NewFS(fsys fs.FS, dir, workDir string) (Dir, error) {
	if fsys == nil {
		return New(dir, workDir)
	}
	root := FSRoot
	if dir != "" {
		if !filepath.IsAbs(dir) {
			dir = filepath.Join(workDir, dir)
		}
		root = filepath.Clean(dir)
		if !Within(FSRoot, root) {
			return Dir{}, fmt.Errorf("the sandbox directory %s is outside the file system the evaluation reads", dir)
		}
	}
	return Dir{root: root, fsys: fsys}, nil
}

// FS is the fs.FS files come from, or nil for the operating system's.
func (d Dir) FS() fs.FS { return d.fsys }

// Unconfined is d without its sandbox directory: the files a user names
// (-var-file, -data) are read wherever they are, but from the same fs.FS
// when there is one, which stays the limit.
func (d Dir) Unconfined() Dir {
	if d.fsys == nil {
		return Dir{}
	}
	return Dir{root: FSRoot, fsys: d.fsys}
}

// fsAbs is path made absolute as FS paths are, and cleaned: a relative
// path is below FSRoot, not the process's directory.
func fsAbs(path string) string {
	if !filepath.IsAbs(path) {
		path = filepath.Join(FSRoot, path)
	}
	return filepath.Clean(path)
}

// fsName is the name fsys knows path by, or ErrOutside.
func (d Dir) fsName(path string) (string, error) {
	abs := fsAbs(path)
	if !Within(FSRoot, abs) {
		return "", fmt.Errorf("%s is %w (the files given as an fs.FS)", path, ErrOutside)
	}
	rel, err := filepath.Rel(FSRoot, abs)
	if err != nil {
		return "", err
	}
	return filepath.ToSlash(rel), nil
}

// openFS opens a regular file of fsys.
func (d Dir) openFS(path string) (fs.File, fs.FileInfo, error) {
	name, err := d.fsName(path)
	if err != nil {
		return nil, nil, err
	}
	f, err := d.fsys.Open(name)
	if err != nil {
		return nil, nil, err
	}
	fi, err := f.Stat()
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

// Stat describes the file or directory at path, following symbolic links
// (an fs.FS has none): os.Stat, or fs.Stat of d's FS. Unlike Open it does
// not check that path is inside the sandbox.
func (d Dir) Stat(path string) (fs.FileInfo, error) {
	if d.fsys == nil {
		return os.Stat(path)
	}
	name, err := d.fsName(path)
	if err != nil {
		return nil, err
	}
	return fs.Stat(d.fsys, name)
}

// Lstat is Stat without following a final symbolic link.
func (d Dir) Lstat(path string) (fs.FileInfo, error) {
	if d.fsys == nil {
		return os.Lstat(path)
	}
	return d.Stat(path)
}

// ReadDir lists a directory, sorted by name: os.ReadDir, or fs.ReadDir of
// d's FS. Unlike Open it does not check that path is inside the sandbox.
func (d Dir) ReadDir(path string) ([]fs.DirEntry, error) {
	if d.fsys == nil {
		return os.ReadDir(path)
	}
	name, err := d.fsName(path)
	if err != nil {
		return nil, err
	}
	return fs.ReadDir(d.fsys, name)
}

// EvalSymlinks is filepath.EvalSymlinks, or for an FS the cleaned
// absolute path of something that exists.
func (d Dir) EvalSymlinks(path string) (string, error) {
	if d.fsys == nil {
		return filepath.EvalSymlinks(path)
	}
	if _, err := d.Stat(path); err != nil {
		return "", err
	}
	return fsAbs(path), nil
}

// RealPath is the package's RealPath, or for an FS the cleaned absolute
// path.
func (d Dir) RealPath(path string) (string, error) {
	if d.fsys == nil {
		return RealPath(path)
	}
	return fsAbs(path), nil
}
