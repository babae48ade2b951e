package config

import (
	"regexp"
	"strings"
)

var (
	// registryPart is a namespace or a module name.
	registryPart = regexp.MustCompile(`^[0-9A-Za-z](?:[0-9A-Za-z_-]{0,62}[0-9A-Za-z])?$`)
	// registrySystem is a target system such as aws.
	registrySystem = regexp.MustCompile(`^[0-9a-z]{1,64}$`)
	// registryHost is a registry host, with an optional port.
	registryHost = regexp.MustCompile(`^[0-9A-Za-z](?:[0-9A-Za-z.-]*[0-9A-Za-z])?(?::[0-9]{1,5})?$`)
)

// RegistryAddress reads a module registry package address,
// [HOST/]NAMESPACE/NAME/SYSTEM without a subdirectory: its host in lower
// case ("" when it names none) and its three parts.
func RegistryAddress(pkg string) (host, namespace, name, system string, ok bool) {
	if strings.ContainsAny(pkg, "?\\ ") {
		return "", "", "", "", false
	}
	parts := strings.Split(pkg, "/")
	switch len(parts) {
	case 3:
	case 4:
		host = strings.ToLower(parts[0])
		if !registryHost.MatchString(host) || !strings.ContainsAny(host, ".:") || host == "github.com" || host == "bitbucket.org" {
			return "", "", "", "", false
		}
		parts = parts[1:]
	default:
		return "", "", "", "", false
	}
	if !registryPart.MatchString(parts[0]) || !registryPart.MatchString(parts[1]) || !registrySystem.MatchString(parts[2]) {
		return "", "", "", "", false
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
