package config

import (
	"fmt"
	"path"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/tfeval/tfeval/dialect"
)

// The parts of a registry address are checked byte by byte, not with the
// regular expressions that say the same thing (kept in registry_test.go,
// TestRegistryPatterns): compiling those, with their counted repetitions,
// took most of the start of every process, whether or not it read a
// registry address.

// registryPart reports whether s is a namespace or a module name: one to
// 64 ASCII letters, digits, '_' and '-', beginning and ending with a
// letter or digit.
func registryPart(s string) bool {
	if len(s) == 0 || len(s) > 64 || !alnum(s[0]) || !alnum(s[len(s)-1]) {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; !alnum(c) && c != '_' && c != '-' {
			return false
		}
	}
	return true
}

// registrySystem reports whether s is a target system such as aws: one to
// 64 lower-case ASCII letters and digits.
func registrySystem(s string) bool {
	if len(s) == 0 || len(s) > 64 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; (c < '0' || c > '9') && (c < 'a' || c > 'z') {
			return false
		}
	}
	return true
}

// registryHost reports whether s is a registry host, with an optional
// port: ASCII letters, digits, '.' and '-', beginning and ending with a
// letter or digit, then perhaps ':' and one to five digits.
func registryHost(s string) bool {
	if i := strings.IndexByte(s, ':'); i >= 0 {
		port := s[i+1:]
		if len(port) == 0 || len(port) > 5 {
			return false
		}
		for j := 0; j < len(port); j++ {
			if port[j] < '0' || port[j] > '9' {
				return false
			}
		}
		s = s[:i]
	}
	if len(s) == 0 || !alnum(s[0]) || !alnum(s[len(s)-1]) {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; !alnum(c) && c != '.' && c != '-' {
			return false
		}
	}
	return true
}

// alnum reports whether c is an ASCII letter or digit.
func alnum(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

// RegistryAddress reads a module registry package address,
// [HOST/]NAMESPACE/NAME/SYSTEM without a subdirectory: its host in lower
// case ("" when it names none) and its three parts; ok is false where
// the tools' registry parser refuses it (registrySourceProblem).
func RegistryAddress(pkg string) (host, namespace, name, system string, ok bool) {
	if strings.Contains(pkg, "//") || registrySourceProblem(pkg) != "" {
		return "", "", "", "", false
	}
	parts := strings.Split(pkg, "/")
	if len(parts) == 4 {
		host, parts = strings.ToLower(parts[0]), parts[1:]
	}
	return host, parts[0], parts[1], parts[2], true
}

// IsRegistrySource reports whether a module source address is a module
// registry address, with or without a //SUBDIR.
func IsRegistrySource(src string) bool {
	pkg, _, _ := strings.Cut(src, "//")
	_, _, _, _, ok := RegistryAddress(pkg)
	return ok
}

// VersionedSourceError is the error of a module source address src (at
// rng) that is given with a version argument but is not a module registry
// address (a relative path, a git, https or s3 address, a github.com
// shorthand), nil when it is one: the version makes Terraform and OpenTofu
// read the source as a registry address, in a module block and in a test
// run's module block alike.
func VersionedSourceError(src string, rng hcl.Range, d dialect.Dialect) *hcl.Diagnostic {
	problem := registrySourceProblem(src)
	for _, prefix := range []string{"./", "../", `.\`, `..\`} {
		// Not "." or ".." alone, which IsLocalSource takes too.
		if strings.HasPrefix(src, prefix) {
			problem = fmt.Sprintf("can't use local directory %q as a module registry address", src)
		}
	}
	if problem == "" {
		return nil
	}
	return &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  "Invalid registry module source address",
		Detail:   fmt.Sprintf("Failed to parse module registry address: %s.\n\n%s assumed that you intended a module registry source address because you also set the argument \"version\", which applies only to registry modules.", problem, d.Product()),
		Subject:  rng.Ptr(),
	}
}

// registryNameRule and registrySystemRule say what a registry address's
// namespace or name, and its target system, may be, in the words Terraform
// and OpenTofu use when they refuse one.
const (
	registryNameRule   = "must be between one and 64 characters, including ASCII letters, digits, dashes, and underscores, where dashes and underscores may not be the prefix or suffix"
	registrySystemRule = "must be between one and 64 ASCII letters or digits"
)

// registrySourceProblem says why a module source address, read as a module
// registry address (as a module call's version argument makes Terraform
// and OpenTofu read it), is not one: "" when it is. The texts are the
// tools' own; the checks are made in their order, so the first problem of
// an address is the one told. Local paths are refused before this
// (VersionedSourceError).
func registrySourceProblem(src string) string {
	pkg, sub := splitSourceSubdir(src)
	if sub != "" && strings.HasPrefix(path.Clean(sub), "../") {
		return fmt.Sprintf("subdirectory path %q leads outside of the module package", path.Clean(sub))
	}
	parts := strings.Split(pkg, "/")
	if len(parts) != 3 && len(parts) != 4 {
		return "a module registry source address must have either three or four slash-separated components"
	}
	if len(parts) == 4 {
		host := strings.ToLower(parts[0])
		switch {
		case !registryHost(host) && strings.Contains(parts[0], "--"):
			return fmt.Sprintf("invalid module registry hostname %q; internationalized domain names must be given as direct unicode characters, not in punycode", parts[0])
		case !registryHost(host):
			return fmt.Sprintf("invalid module registry hostname %q", parts[0])
		}
		name, _, _ := strings.Cut(host, ":")
		if !strings.Contains(name, ".") {
			return "invalid module registry hostname: must contain at least one dot"
		}
		if host == "github.com" || host == "bitbucket.org" {
			return fmt.Sprintf("can't use %q as a module registry host, because it's reserved for installing directly from version control repositories", host)
		}
		parts = parts[1:]
	}
	switch {
	case !registryPart(parts[0]) && strings.Contains(parts[0], "."):
		// A host with too few parts after it.
		return "source address must have three more components after the hostname: the namespace, the name, and the target system"
	case !registryPart(parts[0]):
		return fmt.Sprintf("invalid namespace %q: %s", parts[0], registryNameRule)
	case !registryPart(parts[1]):
		return fmt.Sprintf("invalid module name %q: %s", parts[1], registryNameRule)
	case !registrySystem(parts[2]) && strings.Contains(parts[2], "?"):
		return "module registry addresses may not include a query string portion"
	case !registrySystem(parts[2]):
		return fmt.Sprintf("invalid target system %q: %s", parts[2], registrySystemRule)
	}
	return ""
}

// splitSourceSubdir cuts a source address at its "//" (not a scheme's):
// the package and the subdirectory, a query string staying with the
// package.
func splitSourceSubdir(src string) (pkg, sub string) {
	stop := len(src)
	if i := strings.Index(src, "?"); i >= 0 {
		stop = i
	}
	offset := 0
	if i := strings.Index(src[:stop], "://"); i >= 0 {
		offset = i + 3
	}
	i := strings.Index(src[offset:stop], "//")
	if i < 0 {
		return src, ""
	}
	i += offset
	pkg, sub = src[:i], src[i+2:]
	if q := strings.Index(sub, "?"); q >= 0 {
		pkg += sub[q:]
		sub = sub[:q]
	}
	return pkg, sub
}
