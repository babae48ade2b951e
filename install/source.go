package install

import (
	"fmt"
	"net/url"
	"path"
	"regexp"
	"strconv"
	"strings"

	"github.com/tfeval/tfeval/config"
	"github.com/tfeval/tfeval/dialect"
)

// kind is the way a module source is obtained.
type kind int

const (
	localKind    kind = iota // a relative path, read in place
	registryKind             // a module registry address
	gitKind                  // a git repository, cloned
	httpKind                 // an HTTP(S) URL: an archive, or a page naming the real location
	fileKind                 // an absolute path on this machine, copied
)

// source is a parsed module source address.
type source struct {
	kind kind
	// host, namespace, name and system make up a registry address.
	host, namespace, name, system string
	// url is the package's location for git, http and file sources:
	// what git clones, the URL fetched, or the directory copied.
	url string
	// ref and depth are git's ?ref= and ?depth=.
	ref   string
	depth int
	// archive is the archive format of an http source: from ?archive= or
	// the URL's extension; "" when the URL is not an archive.
	archive string
	// subdir is the directory in the package that holds the module,
	// from the part after "//"; it may hold * and ? patterns.
	subdir string
	// text is the address as modules.json records it.
	text string
}

// registryAddr is the registry module's address without a subdirectory.
func (s *source) registryAddr() string {
	return s.host + "/" + s.namespace + "/" + s.name + "/" + s.system
}

// packageKey names the package a source is in, without the subdirectory:
// module calls with equal keys share one download.
func (s *source) packageKey() string {
	switch s.kind {
	case registryKind:
		return "registry:" + s.registryAddr()
	case gitKind:
		return fmt.Sprintf("git:%s?ref=%s&depth=%d", s.url, s.ref, s.depth)
	case httpKind:
		return "http:" + s.archive + ":" + s.url
	}
	return "file:" + s.url
}

// DefaultRegistryHost is the registry of the dialect: the host of a
// registry address that names none.
func DefaultRegistryHost(d dialect.Dialect) string {
	if d == dialect.Tofu {
		return "registry.opentofu.org"
	}
	return "registry.terraform.io"
}

var (
	// scpLike is git's user@host:path form of an ssh address.
	scpLike = regexp.MustCompile(`^[A-Za-z0-9._-]+@[A-Za-z0-9.-]+:`)
	// forcedGetter is the "git::" style prefix that forces how a source is read.
	forcedGetter = regexp.MustCompile(`^([A-Za-z0-9]+)::(.*)$`)
)

// archiveExts maps URL endings to archive formats, longest first.
var archiveExts = []struct{ ext, format string }{
	{".tar.gz", "tar.gz"}, {".tar.bz2", "tar.bz2"}, {".tar.xz", "tar.xz"},
	{".tgz", "tar.gz"}, {".tbz2", "tar.bz2"}, {".txz", "tar.xz"},
	{".zip", "zip"}, {".tar", "tar"},
}

// archiveFormats are the ?archive= values tfeval accepts.
var archiveFormats = map[string]string{
	"zip": "zip", "tar.gz": "tar.gz", "tgz": "tar.gz", "tar.bz2": "tar.bz2",
	"tbz2": "tar.bz2", "tar": "tar", "tar.xz": "tar.xz", "txz": "tar.xz",
}

// parseSource reads a module source address; the error says what is
// wrong in a sentence that fits after "The module source address is invalid: ".
func parseSource(addr string, d dialect.Dialect) (*source, error) {
	if isLocal(addr) {
		return &source{kind: localKind, url: addr, text: addr}, nil
	}
	if m := forcedGetter.FindStringSubmatch(addr); m != nil {
		switch strings.ToLower(m[1]) {
		case "git":
			return parseGit(m[2], addr)
		case "file":
			return parseFile(m[2])
		case "hg", "s3", "gcs":
			return nil, fmt.Errorf("the %s:: source type is not supported by tfeval; install the module with %s init", m[1], d)
		default:
			return nil, fmt.Errorf("%q is not a source type; use git::, or an https:// address", m[1]+"::")
		}
	}
	if strings.HasPrefix(addr, "/") {
		return parseFile(addr)
	}
	if s, ok := parseRegistry(addr, d); ok {
		return s, nil
	}
	lower := strings.ToLower(addr)
	switch {
	case strings.HasPrefix(lower, "https://"), strings.HasPrefix(lower, "http://"):
		return parseHTTP(addr)
	case strings.HasPrefix(lower, "github.com/"), strings.HasPrefix(lower, "bitbucket.org/"):
		return parseHostShorthand(addr)
	case scpLike.MatchString(addr):
		return parseGit(addr, addr)
	case strings.Contains(lower, ".s3.amazonaws.com/") || strings.HasPrefix(lower, "s3-") || strings.Contains(lower, "storage.googleapis.com/"):
		return nil, fmt.Errorf("S3 and GCS sources are not supported by tfeval; install the module with %s init", d)
	case strings.Contains(addr, "://"):
		return nil, fmt.Errorf("the scheme of %q is not one tfeval installs from; use https://, or git:: before a git URL", addr)
	}
	return nil, fmt.Errorf("%q is neither a local path starting with ./ or ../, a registry address such as namespace/name/system, a git address nor an https:// URL", addr)
}

// isLocal reports whether a source is a relative path, read in place.
func isLocal(src string) bool {
	return strings.HasPrefix(src, "./") || strings.HasPrefix(src, "../") ||
		src == "." || src == ".." ||
		strings.HasPrefix(src, `.\`) || strings.HasPrefix(src, `..\`)
}

// splitSubdir splits "pkg//sub?query" into "pkg?query" and "sub". The
// "//" of a scheme ("https://") does not count.
func splitSubdir(addr string) (string, string, error) {
	query := ""
	if i := strings.IndexByte(addr, '?'); i >= 0 {
		addr, query = addr[:i], addr[i:]
	}
	start := 0
	if i := strings.Index(addr, "://"); i >= 0 {
		start = i + 3
	}
	i := strings.Index(addr[start:], "//")
	if i < 0 {
		return addr + query, "", nil
	}
	pkg, sub := addr[:start+i], addr[start+i+2:]
	sub, err := cleanSubdir(sub)
	return pkg + query, sub, err
}

// cleanSubdir checks a package subdirectory: relative, inside the package.
func cleanSubdir(sub string) (string, error) {
	if sub == "" {
		return "", nil
	}
	if strings.Contains(sub, `\`) || strings.HasPrefix(sub, "/") {
		return "", fmt.Errorf("the subdirectory %q must be a relative path with forward slashes", sub)
	}
	clean := path.Clean(sub)
	if clean == ".." || strings.HasPrefix(clean, "../") {
		return "", fmt.Errorf("the subdirectory %q leaves the package", sub)
	}
	if clean == "." {
		return "", nil
	}
	return clean, nil
}

// parseRegistry reads [HOST/]NAMESPACE/NAME/SYSTEM[//SUBDIR].
func parseRegistry(addr string, d dialect.Dialect) (*source, bool) {
	if strings.ContainsAny(addr, "?\\ ") {
		return nil, false
	}
	pkg, sub, err := splitSubdir(addr)
	if err != nil {
		return nil, false
	}
	host, namespace, name, system, ok := config.RegistryAddress(pkg)
	if !ok {
		return nil, false
	}
	if host == "" {
		host = DefaultRegistryHost(d)
	}
	s := &source{kind: registryKind, host: host, namespace: namespace, name: name, system: system, subdir: sub}
	s.text = s.registryAddr()
	if sub != "" {
		s.text += "//" + sub
	}
	return s, true
}

// parseHostShorthand reads github.com/ORG/REPO[/SUB] and its Bitbucket
// twin as the git repository over HTTPS that they stand for.
func parseHostShorthand(addr string) (*source, error) {
	pkg, sub, err := splitSubdir(addr)
	if err != nil {
		return nil, err
	}
	query := ""
	if i := strings.IndexByte(pkg, '?'); i >= 0 {
		pkg, query = pkg[:i], pkg[i:]
	}
	parts := strings.Split(pkg, "/")
	if len(parts) < 3 || parts[1] == "" || parts[2] == "" {
		return nil, fmt.Errorf("%q must name a repository, as in %s/ORGANIZATION/REPOSITORY", addr, parts[0])
	}
	repo := strings.TrimSuffix(parts[2], ".git")
	if len(parts) > 3 {
		extra, err := cleanSubdir(strings.Join(parts[3:], "/"))
		if err != nil {
			return nil, err
		}
		sub = path.Join(extra, sub)
	}
	full := "https://" + strings.ToLower(parts[0]) + "/" + parts[1] + "/" + repo + ".git"
	if sub != "" {
		full += "//" + sub
	}
	return parseGit(full+query, addr)
}

// parseGit reads what follows "git::": a URL or user@host:path, with an
// optional //SUBDIR and ?ref= and ?depth=.
func parseGit(rest, orig string) (*source, error) {
	pkg, sub, err := splitSubdir(rest)
	if err != nil {
		return nil, err
	}
	s := &source{kind: gitKind, subdir: sub}
	raw, query, _ := strings.Cut(pkg, "?")
	values, err := url.ParseQuery(query)
	if err != nil {
		return nil, fmt.Errorf("the query string of %q is malformed: %s", orig, err)
	}
	if v, ok := values["ref"]; ok {
		if len(v) != 1 || v[0] == "" || strings.HasPrefix(v[0], "-") {
			return nil, fmt.Errorf("the ref of %q must be one branch, tag or commit name", orig)
		}
		s.ref = v[0]
		delete(values, "ref")
	}
	if v, ok := values["depth"]; ok {
		n, err := strconv.Atoi(v[0])
		if len(v) != 1 || err != nil || n < 1 {
			return nil, fmt.Errorf("the depth of %q must be a positive whole number", orig)
		}
		s.depth = n
		delete(values, "depth")
	}
	if _, ok := values["sshkey"]; ok {
		return nil, fmt.Errorf("the sshkey argument of %q is not supported by tfeval; use an SSH agent", orig)
	}
	if scpLike.MatchString(raw) && !strings.Contains(raw, "://") {
		// user@host:path is ssh://user@host/path; a numeric port would be
		// ambiguous, as git itself says.
		at := strings.IndexByte(raw, '@')
		colon := at + strings.IndexByte(raw[at:], ':')
		p := raw[colon+1:]
		if p == "" || p[0] >= '0' && p[0] <= '9' && strings.Contains(p, "/") && strings.IndexFunc(p[:strings.IndexByte(p, '/')], func(r rune) bool { return r < '0' || r > '9' }) < 0 {
			return nil, fmt.Errorf("%q has a port number where the path should be; write ssh://%s:PORT/PATH instead", orig, raw[:colon])
		}
		raw = "ssh://" + raw[:colon] + "/" + strings.TrimPrefix(p, "/")
	}
	u, err := url.Parse(raw)
	if err != nil {
		return nil, fmt.Errorf("%q is not a valid git URL: %s", orig, err)
	}
	if strings.Contains(raw, "#") {
		return nil, fmt.Errorf("the git URL %q has a fragment (#...), which names nothing in a repository", orig)
	}
	switch u.Scheme {
	case "https", "http", "ssh", "file", "git":
	default:
		return nil, fmt.Errorf("the git URL %q must start with https://, ssh://, file:// or user@host:", orig)
	}
	if u.Scheme != "file" && u.Host == "" {
		return nil, fmt.Errorf("the git URL %q has no host", orig)
	}
	s.text = "git::" + u.String()
	if sub != "" {
		s.text += "//" + sub
	}
	var q []string
	if len(values) > 0 {
		u.RawQuery = values.Encode()
		q = append(q, u.RawQuery)
	}
	s.url = u.String()
	if s.ref != "" {
		q = append(q, "ref="+url.QueryEscape(s.ref))
	}
	if s.depth > 0 {
		q = append(q, "depth="+strconv.Itoa(s.depth))
	}
	if len(q) > 0 {
		s.text += "?" + strings.Join(q, "&")
	}
	return s, nil
}

// parseHTTP reads an http(s) URL: an archive when ?archive= or its
// extension says so, otherwise a page whose X-Terraform-Get header or
// terraform-get meta tag names the real location.
func parseHTTP(addr string) (*source, error) {
	pkg, sub, err := splitSubdir(addr)
	if err != nil {
		return nil, err
	}
	u, err := url.Parse(pkg)
	if err != nil || u.Host == "" {
		return nil, fmt.Errorf("%q is not a valid URL", addr)
	}
	u.Scheme = strings.ToLower(u.Scheme)
	s := &source{kind: httpKind, subdir: sub, text: addr}
	q := u.Query()
	if a, ok := q["archive"]; ok {
		delete(q, "archive")
		u.RawQuery = q.Encode()
		if len(a) != 1 {
			return nil, fmt.Errorf("%q gives the archive argument more than once", addr)
		}
		if a[0] != "false" {
			f, ok := archiveFormats[a[0]]
			if !ok {
				return nil, fmt.Errorf("%q names the archive format %q, which is not one of zip, tar.gz, tgz, tar.bz2, tbz2, tar.xz or tar", addr, a[0])
			}
			s.archive = f
		}
	} else {
		lower := strings.ToLower(u.Path)
		for _, e := range archiveExts {
			if strings.HasSuffix(lower, e.ext) {
				s.archive = e.format
				break
			}
		}
	}
	s.url = u.String()
	return s, nil
}

// parseFile reads an absolute path, copied as a package.
func parseFile(p string) (*source, error) {
	p = strings.TrimPrefix(p, "file://")
	pkg, sub, err := splitSubdir(p)
	if err != nil {
		return nil, err
	}
	if !path.IsAbs(pkg) {
		return nil, fmt.Errorf("the file source %q must be an absolute path", p)
	}
	s := &source{kind: fileKind, url: path.Clean(pkg), subdir: sub, text: p}
	return s, nil
}
