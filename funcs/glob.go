package funcs

import (
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/bmatcuk/doublestar"
)

// globber lists the paths matching a doublestar pattern as doublestar v1's
// Glob does (which is what Terraform's fileset uses: symlinked directories
// are followed, "**" matches directories and files at any depth), but
// bounded: every directory read charges a step, a directory already being
// walked higher up (a symlink loop) is not entered again, at most
// MaxFilesetEntries entries are visited, and with a sandbox reading a directory
// outside it is an error.
type globber struct {
	e       *env
	visited int
	walking map[string]bool // real paths of the directories being walked
	matches []string
}

func (e *env) glob(pattern string) ([]string, error) {
	g := &globber{e: e, walking: map[string]bool{}}
	components := strings.Split(filepath.ToSlash(pattern), "/")
	base := "."
	if filepath.IsAbs(pattern) {
		base, components = string(filepath.Separator), components[1:]
	}
	if err := g.walk(base, components); err != nil {
		return nil, err
	}
	return g.matches, nil
}

func (g *globber) walk(dir string, components []string) error {
	static := 0
	for static < len(components) && !strings.ContainsAny(components[static], "*?[{\\") {
		static++
	}
	if static > 0 {
		dir = filepath.Join(dir, filepath.Join(components[:static]...))
		components = components[static:]
	}
	box := g.e.box
	if _, err := box.Lstat(dir); err != nil {
		return nil
	}
	if len(components) == 0 {
		g.matches = append(g.matches, dir)
		return nil
	}
	fi, err := box.Stat(dir)
	if err != nil || !fi.IsDir() {
		return nil
	}
	real, err := box.EvalSymlinks(dir)
	if err != nil || g.walking[real] {
		return nil
	}
	if err := g.e.checkSandbox(real, dir, nil); err != nil {
		return err
	}
	if err := g.e.step(); err != nil {
		return err
	}
	g.walking[real] = true
	defer delete(g.walking, real)
	entries, err := box.ReadDir(dir)
	if err != nil && len(entries) == 0 {
		return nil
	}
	g.visited += len(entries)
	if g.visited > g.e.limits.MaxFilesetEntries {
		return fmt.Errorf("the pattern visits more than %d files and directories, the limit for one call (Limits.MaxFilesetEntries)", g.e.limits.MaxFilesetEntries)
	}
	last := len(components) == 1
	if components[0] == "**" {
		for _, entry := range entries {
			path := filepath.Join(dir, entry.Name())
			isDir := entry.IsDir()
			if entry.Type()&fs.ModeSymlink != 0 {
				fi, err := box.Stat(path)
				if err != nil {
					continue
				}
				isDir = fi.IsDir()
			}
			if last {
				g.matches = append(g.matches, path)
			}
			if isDir {
				if err := g.walk(path, components); err != nil {
					return err
				}
			}
		}
		if last {
			return nil
		}
		components = components[1:]
		last = len(components) == 1
	}
	for _, entry := range entries {
		ok, err := doublestar.Match(components[0], entry.Name())
		if err != nil {
			return err
		}
		if !ok {
			continue
		}
		path := filepath.Join(dir, entry.Name())
		if last {
			g.matches = append(g.matches, path)
		} else if err := g.walk(path, components[1:]); err != nil {
			return err
		}
	}
	return nil
}
