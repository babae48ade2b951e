package tftest

import (
	version "github.com/hashicorp/go-version"

	"github.com/tfeval/tfeval/config"
	"github.com/tfeval/tfeval/lang"
)

// tableAdmits reports whether lang's table of the computed attributes of
// provider source applies to the configuration whose root is root: every
// version constraint its modules give the provider allows the version the
// table is of. Terraform installs one version for the whole configuration,
// so a constraint that excludes the table's (aws ">= 6.0" for a table of
// v5.100.0) means a schema the table may not describe; a constraint
// tfeval cannot read is taken as excluding it too.
func tableAdmits(root *config.Config, source string) bool {
	text := lang.ComputedTableVersion(source)
	if text == "" {
		return false
	}
	v, err := version.NewVersion(text)
	return err == nil && allows(root, source, v)
}

// admits is tableAdmits, once a provider in an evaluation.
func (in *instances) admits(root *config.Config, source string) bool {
	in.mu.Lock()
	defer in.mu.Unlock()
	if ok, done := in.tables[source]; done {
		return ok
	}
	if in.tables == nil {
		in.tables = map[string]bool{}
	}
	ok := tableAdmits(root, source)
	in.tables[source] = ok
	return ok
}

func allows(c *config.Config, source string, v *version.Version) bool {
	if c.Module != nil {
		for _, rp := range c.Module.RequiredProviders {
			src := rp.Source
			if src == "" {
				continue
			}
			if normalizeSource(src) != source || rp.Version == "" {
				continue
			}
			cs, err := version.NewConstraint(rp.Version)
			if err != nil || !cs.Check(v) {
				return false
			}
		}
	}
	for _, child := range c.Children {
		if !allows(child, source, v) {
			return false
		}
	}
	return true
}
