package install

import (
	"fmt"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// fetchHTTP fetches an http(s) source into dst: an archive is downloaded
// and unpacked; any other URL is asked (with ?terraform-get=1) for the
// real location, in an X-Terraform-Get header or a terraform-get meta tag
// of an HTML page, which is returned for the caller to fetch instead.
func (f *fetcher) fetchHTTP(s *source, dst string) (next string, err error) {
	if s.archive != "" {
		return "", f.fetchArchive(s.url, s.archive, dst)
	}
	u, err := url.Parse(s.url)
	if err != nil {
		return "", err
	}
	q := u.Query()
	q.Set("terraform-get", "1")
	u.RawQuery = q.Encode()
	resp, err := f.get(u.String(), "")
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK && resp.StatusCode != http.StatusNoContent {
		return "", statusError(resp)
	}
	loc := resp.Header.Get("X-Terraform-Get")
	if loc == "" && strings.Contains(resp.Header.Get("Content-Type"), "html") {
		body, err := readDocument(resp)
		if err != nil {
			return "", err
		}
		loc = metaLocation(string(body))
	}
	if loc == "" {
		return "", fmt.Errorf("%s is not an archive (the URL does not end in .zip, .tar.gz or the like, and has no ?archive=) and its answer names no location in an X-Terraform-Get header or a terraform-get meta tag", redact(s.url))
	}
	if strings.HasPrefix(loc, "/") || strings.HasPrefix(loc, "./") || strings.HasPrefix(loc, "../") {
		ref, err := url.Parse(loc)
		if err != nil {
			return "", fmt.Errorf("the location %q is not a URL", loc)
		}
		loc = resp.Request.URL.ResolveReference(ref).String()
	}
	return loc, nil
}

// metaTag finds <meta name="terraform-get" content="...">.
var metaTag = regexp.MustCompile(`(?is)<meta\s+[^>]*name\s*=\s*["']terraform-get["'][^>]*>`)
var metaContent = regexp.MustCompile(`(?is)content\s*=\s*["']([^"']*)["']`)

func metaLocation(page string) string {
	tag := metaTag.FindString(page)
	if tag == "" {
		return ""
	}
	m := metaContent.FindStringSubmatch(tag)
	if m == nil {
		return ""
	}
	return strings.NewReplacer("&amp;", "&", "&quot;", `"`, "&#39;", "'").Replace(m[1])
}

// fetchArchive downloads an archive beside dst and unpacks it into dst.
func (f *fetcher) fetchArchive(u, format, dst string) error {
	resp, err := f.get(u, "")
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return statusError(resp)
	}
	file := dst + ".download"
	if err := f.downloadFile(resp, file); err != nil {
		return err
	}
	defer removeAll(file)
	return extractArchive(format, file, dst, f.maxSize, f.maxFile)
}

// removeAll removes a path the installer made; errors are of no use then.
func removeAll(p string) {
	_ = os.RemoveAll(filepath.Clean(p))
}
