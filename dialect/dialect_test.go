package dialect

import "testing"

func TestParse(t *testing.T) {
	tests := []struct {
		in      string
		want    Dialect
		product string
		err     bool
	}{
		{"", Terraform, "Terraform", false},
		{"terraform", Terraform, "Terraform", false},
		{"tofu", Tofu, "OpenTofu", false},
		{"opentofu", Tofu, "OpenTofu", false},
		{"Terraform", Terraform, "", true},
		{"pulumi", Terraform, "", true},
	}
	for _, tt := range tests {
		got, err := Parse(tt.in)
		if (err != nil) != tt.err {
			t.Errorf("Parse(%q) error = %v, want error %v", tt.in, err, tt.err)
			continue
		}
		if err == nil && (got != tt.want || got.Product() != tt.product) {
			t.Errorf("Parse(%q) = %v (%s), want %v (%s)", tt.in, got, got.Product(), tt.want, tt.product)
		}
	}
	for _, d := range []Dialect{Terraform, Tofu} {
		if back, err := Parse(d.String()); err != nil || back != d {
			t.Errorf("Parse(%q) does not give %v back", d.String(), d)
		}
	}
}

// Each dialect names the release it reproduces and its registry.
func TestVersionAndRegistry(t *testing.T) {
	for _, tc := range []struct {
		d                 Dialect
		version, registry string
	}{
		{Terraform, "1.15.9", "registry.terraform.io"},
		{Tofu, "1.12.6", "registry.opentofu.org"},
	} {
		if got := tc.d.Version(); got != tc.version {
			t.Errorf("%s: Version %q, want %q", tc.d, got, tc.version)
		}
		if got := tc.d.RegistryHost(); got != tc.registry {
			t.Errorf("%s: RegistryHost %q, want %q", tc.d, got, tc.registry)
		}
	}
}
