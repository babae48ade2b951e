// Package dialect names the two configuration languages tfeval understands:
// Terraform's and OpenTofu's. They share almost everything; the few places
// where they differ (function table, file extensions, diagnostic texts) ask
// the dialect.
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
