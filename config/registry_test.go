package config

import "testing"

func TestIsRegistrySource(t *testing.T) {
	for _, tc := range []struct {
		src  string
		want bool
	}{
		{"hashicorp/consul/aws", true},
		{"hashicorp/consul/aws//modules/x", true},
		{"app.terraform.io/org/name/aws", true},
		{"registry.example.com:8443/org/name/aws", true},
		{"localhost:8080/org/name/aws", false}, // Terraform's registry hosts have a dot
		{"github.com/org/repo", false},
		{"github.com/org/repo/x", false},
		{"git::https://example.com/m.git", false},
		{"https://example.com/m.zip", false},
		{"s3::https://s3.amazonaws.com/b/m.zip", false},
		{"./local", false},
		{"org/name/AWS", false},
		{"org/name", false},
		{"org/na me/aws", false},
		{`org\\x/name/aws`, false},
		{"org/name/aws?ref=1", false},
	} {
		if got := IsRegistrySource(tc.src); got != tc.want {
			t.Errorf("IsRegistrySource(%q) = %v, want %v", tc.src, got, tc.want)
		}
	}
}

func TestRegistrySourceProblem(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"hashicorp/consul/aws", ""},
		{"hashicorp/consul/aws//modules/x", ""},
		{"app.terraform.io/org/name/aws", ""},
		{"registry.example.com:8443/org/name/aws", ""},
		{"localhost:8080/org/name/aws", "invalid module registry hostname: must contain at least one dot"},
		{"hashicorp/consul/aws//../x", `subdirectory path "../x" leads outside of the module package`},
		{"git::https://github.com/org/repo.git?ref=v1", "a module registry source address must have either three or four slash-separated components"},
		{"git::https://example.com/m.git?ref=v1", `invalid module registry hostname "git::https:"`},
		{"s3::https://s3.amazonaws.com/b/m.zip", "a module registry source address must have either three or four slash-separated components"},
		{"git@github.com:org/repo.git", "a module registry source address must have either three or four slash-separated components"},
		{"https://example.com/m.zip", `invalid module registry hostname "https:"`},
		{"xn--bad--/org/name/aws", `invalid module registry hostname "xn--bad--"; internationalized domain names must be given as direct unicode characters, not in punycode`},
		{"localhost/org/name/aws", "invalid module registry hostname: must contain at least one dot"},
		{"github.com/org/repo/aws", `can't use "github.com" as a module registry host, because it's reserved for installing directly from version control repositories`},
		{"github.com/org/repo", "source address must have three more components after the hostname: the namespace, the name, and the target system"},
		{"org_/name/aws", `invalid namespace "org_": ` + registryNameRule},
		{"org/-name/aws", `invalid module name "-name": ` + registryNameRule},
		{"org/name/aws?ref=1", "module registry addresses may not include a query string portion"},
		{"org/name/AWS", `invalid target system "AWS": ` + registrySystemRule},
	} {
		if got := registrySourceProblem(tc.src); got != tc.want {
			t.Errorf("registrySourceProblem(%q) = %q, want %q", tc.src, got, tc.want)
		}
	}
}
