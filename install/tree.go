package install

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
)

// Package trees: checking what was fetched, copying it, naming its content.

// checkTree walks a fetched package and rejects what could reach outside
// it or exhaust the disk: a symbolic link that resolves outside root (or
// to nothing), a special file, more than maxFiles entries or more than
// maxBytes of file content.
func checkTree(root string, maxBytes int64, maxFiles int) error {
	realRoot, err := filepath.EvalSymlinks(root)
	if err != nil {
		return err
	}
	var total int64
	files := 0
	return filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if p == root {
			return nil
		}
		rel := filepath.ToSlash(strings.TrimPrefix(p, root+string(filepath.Separator)))
		files++
		if files > maxFiles {
			return fmt.Errorf("the package has more than %d files and directories", maxFiles)
		}
		switch t := d.Type(); {
		case t&fs.ModeSymlink != 0:
			target, err := filepath.EvalSymlinks(p)
			if err != nil || !within(realRoot, target) {
				link, _ := os.Readlink(p)
				return fmt.Errorf("the symbolic link %s points to %s, outside the package", rel, link)
			}
		case t.IsDir():
		case t.IsRegular():
			info, err := d.Info()
			if err != nil {
				return err
			}
			total += info.Size()
			if total > maxBytes {
				return fmt.Errorf("the package is larger than %s", sizeText(maxBytes))
			}
		default:
			return fmt.Errorf("%s is not a regular file, directory or symbolic link", rel)
		}
		return nil
	})
}

// within reports whether p is dir or inside it; both are absolute and clean.
func within(dir, p string) bool {
	rel, err := filepath.Rel(dir, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// copyTree copies the package at src to dst, which must not exist:
// directories, regular files (keeping the executable bit) and symbolic
// links as they are.
func copyTree(src, dst string) error {
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, p)
		if err != nil {
			return err
		}
		target := filepath.Join(dst, rel)
		switch t := d.Type(); {
		case t&fs.ModeSymlink != 0:
			link, err := os.Readlink(p)
			if err != nil {
				return err
			}
			return os.Symlink(link, target)
		case t.IsDir():
			return os.Mkdir(target, 0o755)
		case t.IsRegular():
			info, err := d.Info()
			if err != nil {
				return err
			}
			return copyFile(p, target, fileMode(info.Mode()))
		}
		return nil
	})
}

// fileMode is the mode a package file is written with: readable, and
// executable when it was.
func fileMode(m fs.FileMode) fs.FileMode {
	if m&0o111 != 0 {
		return 0o755
	}
	return 0o644
}

func copyFile(src, dst string, mode fs.FileMode) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, mode)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// treeHash names a package by its content: the SHA-256 of every entry's
// path, kind, executable bit and content or link target, in path order.
func treeHash(root string) (string, error) {
	type entry struct{ rel, kind, data string }
	var entries []entry
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || p == root {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		switch t := d.Type(); {
		case t&fs.ModeSymlink != 0:
			link, err := os.Readlink(p)
			if err != nil {
				return err
			}
			entries = append(entries, entry{rel, "l", link})
		case t.IsDir():
			entries = append(entries, entry{rel, "d", ""})
		case t.IsRegular():
			info, err := d.Info()
			if err != nil {
				return err
			}
			h := sha256.New()
			f, err := os.Open(p)
			if err != nil {
				return err
			}
			_, err = io.Copy(h, f)
			f.Close()
			if err != nil {
				return err
			}
			kind := "f"
			if fileMode(info.Mode()) == 0o755 {
				kind = "x"
			}
			entries = append(entries, entry{rel, kind, hex.EncodeToString(h.Sum(nil))})
		}
		return nil
	})
	if err != nil {
		return "", err
	}
	sort.Slice(entries, func(i, j int) bool { return entries[i].rel < entries[j].rel })
	h := sha256.New()
	for _, e := range entries {
		fmt.Fprintf(h, "%s\x00%s\x00%s\n", e.kind, e.rel, e.data)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// resolveSubdir finds a subdirectory of a package; a component with * or
// ? must match exactly one directory, as "//*" does for an archive whose
// files are all under one top directory.
func resolveSubdir(root, sub string) (string, error) {
	if sub == "" {
		return "", nil
	}
	var out []string
	for _, part := range strings.Split(sub, "/") {
		if !strings.ContainsAny(part, "*?[") {
			out = append(out, part)
			continue
		}
		dir := filepath.Join(root, filepath.FromSlash(path.Join(out...)))
		entries, err := os.ReadDir(dir)
		if err != nil {
			return "", fmt.Errorf("the subdirectory %q is not in the package", sub)
		}
		var matches []string
		for _, e := range entries {
			if ok, err := path.Match(part, e.Name()); err != nil {
				return "", fmt.Errorf("the subdirectory pattern %q is malformed", sub)
			} else if ok && e.IsDir() {
				matches = append(matches, e.Name())
			}
		}
		if len(matches) != 1 {
			return "", fmt.Errorf("the subdirectory pattern %q matches %d directories in the package, not one", sub, len(matches))
		}
		out = append(out, matches[0])
	}
	rel := path.Join(out...)
	info, err := os.Stat(filepath.Join(root, filepath.FromSlash(rel)))
	if err != nil || !info.IsDir() {
		return "", fmt.Errorf("the subdirectory %q is not in the package", sub)
	}
	return rel, nil
}

// sizeText writes a byte count for people.
func sizeText(n int64) string {
	switch {
	case n >= 1<<30 && n%(1<<30) == 0:
		return fmt.Sprintf("%d GiB", n>>30)
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}
