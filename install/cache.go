package install

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

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
//
// A cache may be inside the checkout being installed (the CI recipe puts
// it there), so a pull request can commit entries: nothing read back is
// trusted. Ref files are read only from inside the cache, a subdirectory
// must stay inside its package, and a content directory must be inside
// the cache, pass checkTree and hash to its name before it is used; no
// directory is made or written through a link out of the cache.
type cache struct {
	// dir is the cache's real path, box reads inside it.
	dir string
	box sandbox.Dir
	// maxBytes and maxFiles bound a package (Options.MaxPackageSize and
	// MaxPackageFiles); verified are the content directories checked
	// this run.
	maxBytes int64
	maxFiles int
	verified map[string]bool
}

// newCache opens the cache at dir, a real path.
func newCache(dir string, maxBytes int64, maxFiles int) (*cache, error) {
	box, err := sandbox.New(dir, "")
	if err != nil {
		return nil, err
	}
	return &cache{dir: dir, box: box, maxBytes: maxBytes, maxFiles: maxFiles, verified: map[string]bool{}}, nil
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

// registryVersions lists the versions of a registry module in the cache,
// at most maxVersions of them.
func (c *cache) registryVersions(s *source) ([]string, error) {
	dir := filepath.Dir(c.registryRef(s, "x"))
	if !insideDir(c.dir, dir) {
		return nil, nil
	}
	d, err := os.Open(dir)
	if err != nil {
		return nil, nil
	}
	defer d.Close()
	entries, _ := d.ReadDir(maxVersions + 1)
	if len(entries) > maxVersions {
		return nil, fmt.Errorf("the module cache holds more than %d versions of %s", maxVersions, s.registryAddr())
	}
	var vs []string
	for _, e := range entries {
		if v, ok := strings.CutSuffix(e.Name(), ".json"); ok {
			vs = append(vs, v)
		}
	}
	return vs, nil
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

// maxRefFile bounds a ref file, a few hundred bytes of JSON.
const maxRefFile = 64 << 10

// readRef reads a ref file from inside the cache.
func (c *cache) readRef(refFile string) (*cacheRef, bool) {
	b, err := c.box.ReadFile(refFile, maxRefFile)
	if err != nil {
		return nil, false
	}
	var r cacheRef
	if json.Unmarshal(b, &r) != nil {
		return nil, false
	}
	if sub, err := cleanSubdir(r.Subdir); err != nil || sub != r.Subdir {
		return nil, false
	}
	return &r, true
}

// read returns a ref file and the content directory it names, if both
// are there and the directory holds what its name says. An entry that
// fails is as good as missing: the package is fetched again.
func (c *cache) read(refFile string) (*cacheRef, string, bool) {
	r, ok := c.readRef(refFile)
	if !ok || len(r.Content) != 64 || strings.Trim(r.Content, "0123456789abcdef") != "" {
		return nil, "", false
	}
	dir := filepath.Join(c.dir, "content", r.Content)
	if info, err := os.Lstat(dir); err != nil || !info.IsDir() || !insideDir(c.dir, dir) {
		return nil, "", false
	}
	if !c.verified[dir] {
		if checkTree(dir, c.maxBytes, c.maxFiles) != nil {
			return nil, "", false
		}
		if hash, err := treeHash(dir); err != nil || hash != r.Content {
			return nil, "", false
		}
		c.verified[dir] = true
	}
	return r, dir, true
}

// mkdir makes dir and its parents inside the cache, refusing one whose
// existing part leads out of it through a link.
func (c *cache) mkdir(dir string) error {
	if !insideDir(c.dir, dir) {
		return fmt.Errorf("the module cache's directory %s leads outside the cache through a symbolic link", dir)
	}
	return os.MkdirAll(dir, 0o755)
}

// tempDir makes a fresh directory under tmp/ for a download.
func (c *cache) tempDir() (string, error) {
	tmp := filepath.Join(c.dir, "tmp")
	if err := c.mkdir(tmp); err != nil {
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
	if err := c.mkdir(filepath.Dir(dir)); err != nil {
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
	if err := c.mkdir(filepath.Dir(refFile)); err != nil {
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
