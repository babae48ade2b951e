package install

import (
	"archive/tar"
	"archive/zip"
	"compress/bzip2"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// extractor unpacks archives into a fresh directory, refusing entries that
// would land outside it: absolute names, names with "..", and writes
// through symbolic links (links are made last, after every file, and then
// checked by checkTree). Content beyond maxBytes or entries beyond
// maxFiles stop it.
type extractor struct {
	dst      string
	maxBytes int64
	maxFiles int
	written  int64
	entries  int
	links    []archiveLink
}

type archiveLink struct{ name, target string }

// extractArchive unpacks the archive file src, of format ("zip", "tar",
// "tar.gz", "tar.bz2"), into dst.
func extractArchive(format, src, dst string, maxBytes int64, maxFiles int) error {
	if err := os.MkdirAll(dst, 0o755); err != nil {
		return err
	}
	x := &extractor{dst: dst, maxBytes: maxBytes, maxFiles: maxFiles}
	var err error
	switch format {
	case "zip":
		err = x.zip(src)
	case "tar", "tar.gz", "tar.bz2":
		err = x.tarFile(format, src)
	case "tar.xz":
		return errors.New("xz-compressed archives are not supported by tfeval; use .tar.gz or .zip")
	default:
		return fmt.Errorf("%q is not an archive format tfeval reads", format)
	}
	if err != nil {
		return err
	}
	for _, l := range x.links {
		if err := os.Symlink(l.target, filepath.Join(dst, filepath.FromSlash(l.name))); err != nil {
			return fmt.Errorf("the archive's symbolic link %s cannot be made: %w", l.name, errors.Unwrap(err))
		}
	}
	return checkTree(dst, maxBytes, maxFiles)
}

// entryName checks an archive entry's name and returns it cleaned and
// relative; "" for the archive's root directory.
func entryName(name string) (string, error) {
	n := strings.ReplaceAll(name, `\`, "/")
	if strings.HasPrefix(n, "/") || (len(n) > 1 && n[1] == ':') {
		return "", fmt.Errorf("the archive entry %q has an absolute path", name)
	}
	for _, part := range strings.Split(n, "/") {
		if part == ".." {
			return "", fmt.Errorf("the archive entry %q has a \"..\" in its path, which would write outside the module directory", name)
		}
	}
	clean := path.Clean(n)
	if clean == "." {
		return "", nil
	}
	return clean, nil
}

// count charges one entry.
func (x *extractor) count() error {
	x.entries++
	if x.entries > x.maxFiles {
		return fmt.Errorf("the archive has more than %d entries", x.maxFiles)
	}
	return nil
}

func (x *extractor) dir(name string) error {
	if name == "" {
		return nil
	}
	return os.MkdirAll(filepath.Join(x.dst, filepath.FromSlash(name)), 0o755)
}

// file writes one regular file, replacing an earlier entry of that name.
func (x *extractor) file(name string, mode fs.FileMode, r io.Reader) error {
	if name == "" {
		return errors.New("the archive has a file entry without a name")
	}
	if err := x.dir(path.Dir(name)); err != nil {
		return err
	}
	p := filepath.Join(x.dst, filepath.FromSlash(name))
	if info, err := os.Lstat(p); err == nil && info.IsDir() {
		return fmt.Errorf("the archive has both a directory and a file named %s", name)
	}
	os.Remove(p)
	f, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_EXCL, fileMode(mode))
	if err != nil {
		return err
	}
	n, err := io.Copy(f, io.LimitReader(r, x.maxBytes-x.written+1))
	x.written += n
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	if x.written > x.maxBytes {
		return fmt.Errorf("the archive unpacks to more than %s", sizeText(x.maxBytes))
	}
	return nil
}

// link records a symbolic link, made after every file.
func (x *extractor) link(name, target string) error {
	if name == "" {
		return errors.New("the archive has a link entry without a name")
	}
	t := strings.ReplaceAll(target, `\`, "/")
	if strings.HasPrefix(t, "/") || (len(t) > 1 && t[1] == ':') {
		return fmt.Errorf("the archive's symbolic link %s points to the absolute path %s, outside the module directory", name, target)
	}
	if j := path.Join(path.Dir(name), t); j == ".." || strings.HasPrefix(j, "../") {
		return fmt.Errorf("the archive's symbolic link %s points to %s, outside the module directory", name, target)
	}
	x.links = append(x.links, archiveLink{name, target})
	return x.dir(path.Dir(name))
}

func (x *extractor) zip(src string) error {
	zr, err := zip.OpenReader(src)
	if err != nil {
		return fmt.Errorf("the download is not a valid zip archive: %w", err)
	}
	defer zr.Close()
	for _, f := range zr.File {
		if err := x.count(); err != nil {
			return err
		}
		name, err := entryName(f.Name)
		if err != nil {
			return err
		}
		mode := f.Mode()
		switch {
		case mode.IsDir():
			err = x.dir(name)
		case mode&fs.ModeSymlink != 0:
			var target []byte
			target, err = readSmall(f)
			if err == nil {
				err = x.link(name, string(target))
			}
		case mode.IsRegular():
			var rc io.ReadCloser
			rc, err = f.Open()
			if err == nil {
				err = x.file(name, mode, rc)
				rc.Close()
			}
		default:
			err = fmt.Errorf("the archive entry %s is not a file, directory or symbolic link", f.Name)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// readSmall reads a zip entry that holds a link target.
func readSmall(f *zip.File) ([]byte, error) {
	rc, err := f.Open()
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	b, err := io.ReadAll(io.LimitReader(rc, 4097))
	if len(b) > 4096 {
		return nil, fmt.Errorf("the archive's symbolic link %s has a target longer than 4096 bytes", f.Name)
	}
	return b, err
}

func (x *extractor) tarFile(format, src string) error {
	f, err := os.Open(src)
	if err != nil {
		return err
	}
	defer f.Close()
	var r io.Reader = f
	switch format {
	case "tar.gz":
		gz, err := gzip.NewReader(f)
		if err != nil {
			return fmt.Errorf("the download is not a valid gzip stream: %w", err)
		}
		defer gz.Close()
		r = gz
	case "tar.bz2":
		r = bzip2.NewReader(f)
	}
	tr := tar.NewReader(r)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return fmt.Errorf("the download is not a valid %s archive: %w", format, err)
		}
		if h.Typeflag == tar.TypeXGlobalHeader || h.Typeflag == tar.TypeXHeader {
			continue
		}
		if err := x.count(); err != nil {
			return err
		}
		name, err := entryName(h.Name)
		if err != nil {
			return err
		}
		switch h.Typeflag {
		case tar.TypeDir:
			err = x.dir(name)
		case tar.TypeReg:
			err = x.file(name, fs.FileMode(h.Mode), tr)
		case tar.TypeSymlink:
			err = x.link(name, h.Linkname)
		case tar.TypeLink:
			err = x.hardLink(name, h.Linkname)
		default:
			err = fmt.Errorf("the archive entry %s is not a file, directory or link", h.Name)
		}
		if err != nil {
			return err
		}
	}
}

// hardLink copies an earlier regular file of the archive.
func (x *extractor) hardLink(name, target string) error {
	t, err := entryName(target)
	if err != nil || t == "" {
		return fmt.Errorf("the archive's hard link %s points to %s, outside the module directory", name, target)
	}
	src := filepath.Join(x.dst, filepath.FromSlash(t))
	info, err := os.Lstat(src)
	if err != nil || !info.Mode().IsRegular() {
		return fmt.Errorf("the archive's hard link %s points to %s, which is not an earlier file of the archive", name, target)
	}
	f, err := os.Open(src)
	if err != nil {
		return err
	}
	defer f.Close()
	return x.file(name, info.Mode(), f)
}
