package install

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"

	"github.com/tfeval/tfeval/internal/limit"
	"github.com/tfeval/tfeval/internal/sandbox"
)

// cache is the shared module cache (Options.CacheDir), reused across
// root modules and runs. Its layout:
//
//	content/SHA256/          a package's files, named by treeHash
//	refs/registry/HOST/NAMESPACE/NAME/SYSTEM/VERSION.json
//	refs/git/SHA256(URL)/COMMIT.json
//	refs/git/SHA256(URL)/ref-SHA256(REF).json    the commit a ref named
//	refs/http/SHA256(URL).json
//	tmp/                     downloads under way
//
// A ref file names the content directory of a package; packages with
// the same files share one directory. Every file and directory is
// written under tmp/ and renamed into place, so a reader never sees a
// partial one and concurrent runs may share the cache.
type cache struct {
	dir string
}

// cacheRef is a ref file's content.
type cacheRef struct {
	// Content is the content directory's name.
	Content string `json:"content"`
	// Source is the package's address, for people reading the cache.
	Source string `json:"source"`
	// Location is where a registry said the package was, and Subdir the
	// directory of it that a "//" in that location selected.
	Location string `json:"location,omitempty"`
	Subdir   string `json:"subdir,omitempty"`
	// Commit is the commit a git ref named.
	Commit string `json:"commit,omitempty"`
}

func hashText(s string) string {
	h := sha256.Sum256([]byte(s))
	return hex.EncodeToString(h[:])
}

// registryRef is the ref file of a registry module version.
func (c *cache) registryRef(s *source, version string) string {
	host := strings.ReplaceAll(s.host, ":", "_")
	return filepath.Join(c.dir, "refs", "registry", host, s.namespace, s.name, s.system, version+".json")
}

// registryVersions lists the versions of a registry module in the cache.
func (c *cache) registryVersions(s *source) []string {
	entries, err := os.ReadDir(filepath.Dir(c.registryRef(s, "x")))
	if err != nil {
		return nil
	}
	var vs []string
	for _, e := range entries {
		if v, ok := strings.CutSuffix(e.Name(), ".json"); ok {
			vs = append(vs, v)
		}
	}
	return vs
}

// gitRef is the ref file of a commit of a repository.
func (c *cache) gitRef(s *source, commit string) string {
	return filepath.Join(c.dir, "refs", "git", hashText(s.url), commit+".json")
}

// gitRefName is the file recording the commit a ref named when last fetched.
func (c *cache) gitRefName(s *source) string {
	return filepath.Join(c.dir, "refs", "git", hashText(s.url), "ref-"+hashText(s.ref)+".json")
}

// httpRef is the ref file of an archive URL.
func (c *cache) httpRef(s *source) string {
	return filepath.Join(c.dir, "refs", "http", hashText(s.archive+" "+s.url)+".json")
}

// readRef reads a ref file.
func (c *cache) readRef(refFile string) (*cacheRef, bool) {
	b, err := sandbox.Dir{}.ReadFile(refFile, limit.DefaultMaxSourceSize)
	if err != nil {
		return nil, false
	}
	var r cacheRef
	if json.Unmarshal(b, &r) != nil {
		return nil, false
	}
	return &r, true
}

// read returns a ref file and the content directory it names, if both
// are there.
func (c *cache) read(refFile string) (*cacheRef, string, bool) {
	r, ok := c.readRef(refFile)
	if !ok || len(r.Content) != 64 || strings.Trim(r.Content, "0123456789abcdef") != "" {
		return nil, "", false
	}
	dir := filepath.Join(c.dir, "content", r.Content)
	if info, err := os.Stat(dir); err != nil || !info.IsDir() {
		return nil, "", false
	}
	return r, dir, true
}

// tempDir makes a fresh directory under tmp/ for a download.
func (c *cache) tempDir() (string, error) {
	tmp := filepath.Join(c.dir, "tmp")
	if err := os.MkdirAll(tmp, 0o755); err != nil {
		return "", err
	}
	return os.MkdirTemp(tmp, "pkg-")
}

// store moves a checked package from stage (a tempDir) into content/
// and writes its ref file; it returns the content directory.
func (c *cache) store(stage, refFile string, r cacheRef) (string, error) {
	hash, err := treeHash(stage)
	if err != nil {
		return "", err
	}
	dir := filepath.Join(c.dir, "content", hash)
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		return "", err
	}
	if err := os.Rename(stage, dir); err != nil {
		// Another run stored the same content first: keep theirs.
		if _, serr := os.Stat(dir); serr != nil {
			return "", err
		}
		os.RemoveAll(stage)
	}
	r.Content = hash
	return dir, c.writeRef(refFile, r)
}

// writeRef writes a ref file through a temporary file and a rename.
func (c *cache) writeRef(refFile string, r cacheRef) error {
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(refFile), 0o755); err != nil {
		return err
	}
	var suffix [8]byte
	rand.Read(suffix[:])
	tmp := refFile + "." + hex.EncodeToString(suffix[:]) + ".tmp"
	if err := os.WriteFile(tmp, append(b, '\n'), 0o644); err != nil {
		return err
	}
	if err := os.Rename(tmp, refFile); err != nil {
		os.Remove(tmp)
		return err
	}
	return nil
}

// errNotCached is offline mode's answer for a package not in the cache.
var errNotCached = errors.New("not in the module cache")
