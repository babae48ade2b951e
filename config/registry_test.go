package config

import (
	"regexp"
	"strings"
	"testing"
)

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

// The registry address patterns as regular expressions, which
// registryPart, registrySystem and registryHost check without compiling.
var (
	registryPartPattern   = regexp.MustCompile(`^[0-9A-Za-z](?:[0-9A-Za-z_-]{0,62}[0-9A-Za-z])?$`)
	registrySystemPattern = regexp.MustCompile(`^[0-9a-z]{1,64}$`)
	registryHostPattern   = regexp.MustCompile(`^[0-9A-Za-z](?:[0-9A-Za-z.-]*[0-9A-Za-z])?(?::[0-9]{1,5})?$`)
)

// TestRegistryPatterns: the byte-by-byte checks agree with the regular
// expressions on every string of up to three bytes from an alphabet of
// each kind of byte they tell apart, on lengths around their bounds, and
// on the fuzzer's inputs.
func TestRegistryPatterns(t *testing.T) {
	alphabet := []string{"a", "Z", "0", "_", "-", ".", ":", "9", "\n", " ", "/", "\xff", "é", "A"}
	inputs := []string{""}
	for _, a := range alphabet {
		inputs = append(inputs, a)
		for _, b := range alphabet {
			inputs = append(inputs, a+b)
			for _, c := range alphabet {
				inputs = append(inputs, a+b+c)
			}
		}
	}
	for _, n := range []int{62, 63, 64, 65, 66} {
		inputs = append(inputs, strings.Repeat("a", n), "a"+strings.Repeat("-", n-2)+"a", "h:"+strings.Repeat("1", n%7))
	}
	for _, in := range []string{"app.terraform.io", "localhost:8080", "host:123456", "host:", ":80", "a.b-c:1",
		"a..b", "-a", "a-", "a:1:2", "registry.example.com:8443", "a\n", "aws\n"} {
		inputs = append(inputs, in)
	}
	for _, in := range inputs {
		checkRegistryPatterns(t, in)
	}
}

func FuzzRegistryPatterns(f *testing.F) {
	for _, in := range []string{"app.terraform.io:443", "hashicorp", "a_b-c", "x:1"} {
		f.Add(in)
	}
	f.Fuzz(checkRegistryPatterns)
}

func checkRegistryPatterns(t *testing.T, in string) {
	if got, want := registryPart(in), registryPartPattern.MatchString(in); got != want {
		t.Errorf("registryPart(%q) = %v, the pattern says %v", in, got, want)
	}
	if got, want := registrySystem(in), registrySystemPattern.MatchString(in); got != want {
		t.Errorf("registrySystem(%q) = %v, the pattern says %v", in, got, want)
	}
	if got, want := registryHost(in), registryHostPattern.MatchString(in); got != want {
		t.Errorf("registryHost(%q) = %v, the pattern says %v", in, got, want)
	}
}
