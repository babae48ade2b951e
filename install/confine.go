package install

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/tfeval/tfeval/internal/sandbox"
)

// What -sandbox means for init. The checkout being installed may be a
// stranger's pull request, and every path in it, every answer of a server
// it names, and everything a previous run left (.terraform/modules, a
// module cache committed beside it) is the stranger's to choose. So with a
// sandbox, nothing is read from outside it: a location that names this
// machine's files (an absolute path, a file:// URL, a git::file://
// repository), whether the module call, a registry or an HTTP page gave
// it, must be inside; a local repository must not reach outside through
// the links and files git follows (objects/, refs/, .git files, commondir,
// alternates); and what the cache or an earlier installation holds is
// checked before it is used.

// checkLocal refuses a source that reads this machine's files outside the
// sandbox: a file source, or a git repository named by a file:// URL. Any
// source passes without a sandbox, as with terraform init.
func (in *installer) checkLocal(src *source, what string) error {
	if in.sandbox == "" {
		return nil
	}
	var dir string
	switch {
	case src.kind == fileKind:
		dir = src.url
	case src.kind == gitKind && strings.HasPrefix(src.url, "file://"):
		dir = strings.TrimPrefix(src.url, "file://")
		if i := strings.IndexByte(dir, '?'); i >= 0 {
			dir = dir[:i]
		}
	default:
		return nil
	}
	real := absClean(filepath.FromSlash(dir))
	if !within(in.sandbox, real) {
		return fmt.Errorf("%s names %s, which is outside the directory modules may be read from (-sandbox)", what, redact(src.text))
	}
	if src.kind == gitKind {
		if err := checkLocalRepo(real, in.sandbox); err != nil {
			return fmt.Errorf("%s names the repository %s, which cannot be read inside the sandbox: %w", what, redact(src.text), err)
		}
	}
	return nil
}

// maxRepoEntries bounds the files checkLocalRepo looks at in a
// repository's git directory.
const maxRepoEntries = 1_000_000

// maxAlternates bounds how deeply alternates name further alternates, as
// git itself does.
const maxAlternates = 5

// checkLocalRepo refuses a local git repository at dir (inside box) that
// reaches outside box through what git follows when it reads it: a .git
// file naming another git directory, a commondir file, symbolic links
// anywhere in the git directory (objects/, refs/, packs), and the
// directories objects/info/alternates names.
func checkLocalRepo(dir, box string) error {
	bx, err := sandbox.New(box, "")
	if err != nil {
		return err
	}
	gitDir := dir
	if info, err := os.Lstat(filepath.Join(dir, ".git")); err == nil {
		gitDir = filepath.Join(dir, ".git")
		if info.Mode().IsRegular() {
			target, err := pointerFile(bx, filepath.Join(dir, ".git"), "gitdir:")
			if err != nil {
				return err
			}
			gitDir = resolveFrom(dir, target)
		}
	}
	gitDir = absClean(gitDir)
	if !within(box, gitDir) {
		return fmt.Errorf("its git directory is %s, outside the sandbox", gitDir)
	}
	dirs := []string{gitDir}
	switch target, err := pointerFile(bx, filepath.Join(gitDir, "commondir"), ""); {
	case err == nil:
		common := absClean(resolveFrom(gitDir, target))
		if !within(box, common) {
			return fmt.Errorf("its commondir names %s, outside the sandbox", target)
		}
		dirs = append(dirs, common)
	case !errors.Is(err, fs.ErrNotExist):
		return err
	}
	entries := 0
	for _, d := range dirs {
		err := filepath.WalkDir(d, func(p string, e fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if entries++; entries > maxRepoEntries {
				return fmt.Errorf("its git directory has more than %d entries", maxRepoEntries)
			}
			if e.Type()&fs.ModeSymlink != 0 {
				target, err := filepath.EvalSymlinks(p)
				if err != nil || !within(box, target) {
					link, _ := os.Readlink(p)
					return fmt.Errorf("%s is a link to %s, outside the sandbox", p, link)
				}
			}
			return nil
		})
		if err != nil {
			return err
		}
		if err := checkAlternates(bx, filepath.Join(d, "objects"), 0); err != nil {
			return err
		}
	}
	return nil
}

// checkAlternates refuses an object directory whose alternates (the
// object directories of other repositories git reads objects from) are
// outside box, or have such alternates themselves.
func checkAlternates(box sandbox.Dir, objects string, depth int) error {
	for _, name := range []string{"alternates", "http-alternates"} {
		b, err := box.ReadFile(filepath.Join(objects, "info", name), 1<<20)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return err
		}
		if name == "http-alternates" {
			return fmt.Errorf("it has http-alternates, which tfeval does not follow")
		}
		if depth >= maxAlternates {
			return fmt.Errorf("its alternates name alternates more than %d deep", maxAlternates)
		}
		sc := bufio.NewScanner(bytes.NewReader(b))
		for sc.Scan() {
			line := strings.TrimSpace(sc.Text())
			if line == "" || strings.HasPrefix(line, "#") {
				continue
			}
			alt := absClean(resolveFrom(objects, line))
			if !within(box.Root(), alt) {
				return fmt.Errorf("its alternates name %s, outside the sandbox", line)
			}
			if err := checkAlternates(box, alt, depth+1); err != nil {
				return err
			}
		}
	}
	return nil
}

// pointerFile reads a small file inside box that names another path (a
// .git file's "gitdir: PATH", a commondir file), without its prefix.
func pointerFile(box sandbox.Dir, path, prefix string) (string, error) {
	b, err := box.ReadFile(path, 4096)
	if err != nil {
		return "", err
	}
	text := strings.TrimSpace(string(b))
	if prefix != "" {
		rest, ok := strings.CutPrefix(text, prefix)
		if !ok {
			return "", fmt.Errorf("%s does not start with %q", path, prefix)
		}
		text = strings.TrimSpace(rest)
	}
	return text, nil
}

// resolveFrom is p, relative to base unless absolute.
func resolveFrom(base, p string) string {
	if filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(base, p)
}

// insideDir reports whether p, once its links are followed, is inside
// dir (itself real): what an earlier installation or a cache left may be a
// link to anywhere.
func insideDir(dir, p string) bool {
	real, err := sandbox.RealPath(p)
	return err == nil && within(dir, real)
}
