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
		{"localhost:8080/org/name/aws", true},
		{"github.com/org/repo", false},
		{"github.com/org/repo/x", false},
		{"git::https://example.com/m.git", false},
		{"https://example.com/m.zip", false},
		{"s3::https://s3.amazonaws.com/b/m.zip", false},
		{"./local", false},
		{"org/name/AWS", false},
		{"org/name", false},
	} {
		if got := IsRegistrySource(tc.src); got != tc.want {
			t.Errorf("IsRegistrySource(%q) = %v, want %v", tc.src, got, tc.want)
		}
	}
}
