package install

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
)

// The module registry protocol: service discovery at
// https://HOST/.well-known/terraform.json names the modules.v1 base URL;
// BASE/NAMESPACE/NAME/SYSTEM/versions lists the versions, and
// BASE/NAMESPACE/NAME/SYSTEM/VERSION/download answers with the package's
// location in its X-Terraform-Get header.

// errModuleNotFound is a registry's 404 for a module.
var errModuleNotFound = errors.New("module not found")

// discover returns the modules.v1 base URL of a registry host.
func (f *fetcher) discover(host string) (*url.URL, error) {
	if r, ok := f.services[host]; ok {
		return r.base, r.err
	}
	base, err := f.discoverOnce(host)
	f.services[host] = serviceResult{base, err}
	return base, err
}

func (f *fetcher) discoverOnce(host string) (*url.URL, error) {
	if base, ok, err := f.hosts.modulesBase(host); ok {
		return base, err
	}
	doc := &url.URL{Scheme: "https", Host: host, Path: "/.well-known/terraform.json"}
	resp, err := f.get(doc.String(), "")
	if err != nil {
		return nil, fmt.Errorf("service discovery at %s failed: %w", doc, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode == http.StatusNotFound {
		return nil, fmt.Errorf("%s is not a module registry: it has no service discovery document", host)
	}
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("service discovery at %s failed: %w", doc, statusError(resp))
	}
	body, err := readDocument(resp)
	if err != nil {
		return nil, fmt.Errorf("service discovery at %s failed: %w", doc, err)
	}
	var services map[string]any
	if err := json.Unmarshal(body, &services); err != nil {
		return nil, fmt.Errorf("the service discovery document of %s is not a JSON object", host)
	}
	raw, ok := services["modules.v1"].(string)
	if !ok {
		return nil, fmt.Errorf("%s does not provide a module registry: its service discovery document has no modules.v1 string", host)
	}
	ref, err := url.Parse(raw)
	if err != nil {
		return nil, fmt.Errorf("the modules.v1 URL %q of %s is not a URL", raw, host)
	}
	// The document's own URL after redirects is the base of a relative one.
	return serviceBase(resp.Request.URL.ResolveReference(ref), raw, host)
}

// serviceBase checks a modules.v1 base URL, resolved from raw, and ends
// its path with a slash.
func serviceBase(base *url.URL, raw, host string) (*url.URL, error) {
	if base.Scheme != "https" && base.Scheme != "http" {
		return nil, fmt.Errorf("the modules.v1 URL %q of %s is not an http(s) URL", raw, host)
	}
	if !strings.HasSuffix(base.Path, "/") {
		base.Path += "/"
	}
	return base, nil
}

// registryVersions lists the versions a registry offers for a module.
func (f *fetcher) registryVersions(s *source) ([]string, error) {
	key := s.registryAddr()
	if r, ok := f.versionLists[key]; ok {
		return r.versions, r.err
	}
	vs, err := f.registryVersionsOnce(s)
	f.versionLists[key] = versionsResult{vs, err}
	return vs, err
}

func (f *fetcher) registryVersionsOnce(s *source) ([]string, error) {
	base, err := f.discover(s.host)
	if err != nil {
		return nil, err
	}
	u := base.JoinPath(s.namespace, s.name, s.system, "versions")
	resp, err := f.get(u.String(), f.creds.token(f.env, s.host))
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	switch resp.StatusCode {
	case http.StatusOK:
	case http.StatusNotFound:
		return nil, errModuleNotFound
	case http.StatusUnauthorized, http.StatusForbidden:
		return nil, fmt.Errorf("%w; set TF_TOKEN_%s or a credentials block for %s", statusError(resp), strings.TrimPrefix(tokenEnvName(s.host), "TF_TOKEN_"), s.host)
	default:
		return nil, statusError(resp)
	}
	body, err := readDocument(resp)
	if err != nil {
		return nil, err
	}
	var doc struct {
		Modules []struct {
			Versions []struct {
				Version string `json:"version"`
			} `json:"versions"`
		} `json:"modules"`
	}
	if err := json.Unmarshal(body, &doc); err != nil || len(doc.Modules) == 0 {
		return nil, errors.New("the registry's answer is not a list of module versions")
	}
	if n := len(doc.Modules[0].Versions); n > maxVersions {
		return nil, fmt.Errorf("the registry lists %d versions of the module, more than the %d tfeval chooses among", n, maxVersions)
	}
	var vs []string
	for _, v := range doc.Modules[0].Versions {
		vs = append(vs, v.Version)
	}
	return vs, nil
}

// registryLocation asks a registry where a module version's package is.
// A relative location is resolved against the download URL.
func (f *fetcher) registryLocation(s *source, version string) (string, error) {
	base, err := f.discover(s.host)
	if err != nil {
		return "", err
	}
	u := base.JoinPath(s.namespace, s.name, s.system, version, "download")
	resp, err := f.get(u.String(), f.creds.token(f.env, s.host))
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	var loc string
	switch resp.StatusCode {
	case http.StatusNoContent, http.StatusOK:
		loc = resp.Header.Get("X-Terraform-Get")
		if loc == "" && resp.StatusCode == http.StatusOK {
			body, err := readDocument(resp)
			if err != nil {
				return "", err
			}
			var doc struct {
				Location string `json:"location"`
			}
			if json.Unmarshal(body, &doc) == nil {
				loc = doc.Location
			}
		}
	case http.StatusNotFound:
		return "", errModuleNotFound
	default:
		return "", statusError(resp)
	}
	if loc == "" {
		return "", errors.New("the registry's answer has no X-Terraform-Get header naming the package's location")
	}
	if strings.HasPrefix(loc, "/") || strings.HasPrefix(loc, "./") || strings.HasPrefix(loc, "../") {
		ref, err := url.Parse(loc)
		if err != nil {
			return "", fmt.Errorf("the package location %q is not a URL", loc)
		}
		loc = resp.Request.URL.ResolveReference(ref).String()
	}
	return loc, nil
}
