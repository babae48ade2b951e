package dialect

import "fmt"

// Dialect is the language flavour being evaluated.
type Dialect int

const (
	// Terraform is HashiCorp Terraform v1.15.
	Terraform Dialect = iota
	// Tofu is OpenTofu v1.12.
	Tofu
)

// String returns the name used on the command line: "terraform" or "tofu".
func (d Dialect) String() string {
	if d == Tofu {
		return "tofu"
	}
	return "terraform"
}

// Parse turns a command-line name ("terraform", "tofu" or "opentofu") into a Dialect.
func Parse(s string) (Dialect, error) {
	switch s {
	case "", "terraform":
		return Terraform, nil
	case "tofu", "opentofu":
		return Tofu, nil
	}
	return Terraform, fmt.Errorf("unknown dialect %q: want terraform or tofu", s)
}

// Product is the product name used in diagnostic texts: "Terraform" or "OpenTofu".
func (d Dialect) Product() string {
	if d == Tofu {
		return "OpenTofu"
	}
	return "Terraform"
}

// Version is the release of the tool whose behaviour tfeval reproduces,
// which documents that name a version (terraform show -json) report:
// "1.15.9" for Terraform, "1.12.6" for OpenTofu.
func (d Dialect) Version() string {
	if d == Tofu {
		return "1.12.6"
	}
	return "1.15.9"
}

// RegistryHost is the host of the dialect's default provider and module
// registry, which a provider source address without a host refers to.
func (d Dialect) RegistryHost() string {
	if d == Tofu {
		return "registry.opentofu.org"
	}
	return "registry.terraform.io"
}
