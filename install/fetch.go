package install

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"strings"
	"time"
)

// fetcher performs one installation's network requests with its options
// and remembers, for the length of that installation, what it learnt
// from registries.
type fetcher struct {
	ctx    context.Context
	client *http.Client
	env    []string
	creds  credentials
	// hosts are the service maps the CLI configuration's host blocks give.
	hosts   hostServices
	maxSize int64
	maxFile int
	git     string
	// timeout bounds each git command, as RequestTimeout bounds each
	// HTTP request.
	timeout time.Duration
	// services caches each host's modules.v1 base URL (or the error).
	services map[string]serviceResult
	// versionLists caches each registry module's versions.
	versionLists map[string]versionsResult
	// requests counts the HTTP requests sent, for Result.Requests.
	requests int
}

type serviceResult struct {
	base *url.URL
	err  error
}

type versionsResult struct {
	versions []string
	err      error
}

// maxRedirects bounds the redirects one request follows.
const maxRedirects = 10

// maxIndirections bounds how many X-Terraform-Get or terraform-get
// pointers one module source may pass through.
const maxIndirections = 5

// maxDocument bounds a registry's JSON answers and HTML pages.
const maxDocument = 4 << 20

// httpClient is the client requests go through: Options.HTTPClient (or
// a fresh one) with tfeval's redirect rule.
func httpClient(c *http.Client, timeout time.Duration) *http.Client {
	var out http.Client
	if c != nil {
		out = *c
	} else {
		out.Transport = &http.Transport{
			Proxy:                 http.ProxyFromEnvironment,
			DialContext:           (&net.Dialer{Timeout: 30 * time.Second}).DialContext,
			TLSHandshakeTimeout:   30 * time.Second,
			ResponseHeaderTimeout: 60 * time.Second,
			MaxIdleConnsPerHost:   4,
		}
	}
	if out.Timeout == 0 {
		out.Timeout = timeout
	}
	if out.CheckRedirect == nil {
		out.CheckRedirect = func(req *http.Request, via []*http.Request) error {
			if len(via) >= maxRedirects {
				return fmt.Errorf("stopped after %d redirects (a redirect loop?)", maxRedirects)
			}
			// Credentials go to the host they were meant for only.
			if len(via) > 0 && req.URL.Host != via[0].URL.Host {
				req.Header.Del("Authorization")
			}
			return nil
		}
	}
	return &out
}

// get sends one GET; the caller closes the body of a response it gets.
func (f *fetcher) get(u string, token string) (*http.Response, error) {
	req, err := http.NewRequestWithContext(f.ctx, http.MethodGet, u, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("User-Agent", "tfeval")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	f.requests++
	resp, err := f.client.Do(req)
	if err != nil {
		return nil, cleanURLError(err)
	}
	return resp, nil
}

// cleanURLError drops the method and URL net/http puts before an error,
// which the diagnostic already names.
func cleanURLError(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		if ue.Timeout() {
			return errors.New("the server did not answer in time")
		}
		return ue.Err
	}
	return err
}

// readDocument reads a response body of at most maxDocument bytes.
func readDocument(resp *http.Response) ([]byte, error) {
	b, err := io.ReadAll(io.LimitReader(resp.Body, maxDocument+1))
	if err != nil {
		return nil, cleanURLError(err)
	}
	if len(b) > maxDocument {
		return nil, fmt.Errorf("the answer is larger than %s", sizeText(maxDocument))
	}
	return b, nil
}

// downloadFile saves a response body to dst, at most f.maxSize bytes.
func (f *fetcher) downloadFile(resp *http.Response, dst string) error {
	if resp.ContentLength > f.maxSize {
		return fmt.Errorf("the download is %s, larger than the limit of %s", sizeText(resp.ContentLength), sizeText(f.maxSize))
	}
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	n, err := io.Copy(out, io.LimitReader(resp.Body, f.maxSize+1))
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return cleanURLError(err)
	}
	if n > f.maxSize {
		return fmt.Errorf("the download is larger than the limit of %s", sizeText(f.maxSize))
	}
	return nil
}

// statusError words an unexpected HTTP status.
func statusError(resp *http.Response) error {
	return fmt.Errorf("the server answered %s", strings.TrimSpace(resp.Status))
}

// redact hides the password of a URL in messages.
func redact(u string) string {
	p, err := url.Parse(u)
	if err != nil || p.User == nil {
		return u
	}
	if _, ok := p.User.Password(); ok {
		p.User = url.UserPassword(p.User.Username(), "xxxxx")
	}
	return p.String()
}
