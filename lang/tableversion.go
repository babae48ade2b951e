package lang

import (
	"github.com/hashicorp/go-version"

	"github.com/tfeval/tfeval/config"
)

// TableVersion is the newest version of provider source of which
// tfeval holds a table (TableVersions) that the configuration cfg
// belongs to admits: every version constraint its modules'
// required_providers place on the provider allows it, as Terraform
// requires of the version it installs; "" if none. A table describes
// that version's schema; a configuration that rules it out (azurerm
// "~> 3.0" where the table is of 4.x) gets a version whose schema may
// differ, and is left without the table. A constraint that does not
// parse rules every table out. Modules not installed are not read.
func TableVersion(cfg *config.Config, source string) string {
	versions := TableVersions(source)
	if len(versions) == 0 || cfg == nil {
		return ""
	}
	for cfg.Parent != nil {
		cfg = cfg.Parent
	}
	var constraints []version.Constraints
	ok := true
	var collect func(c *config.Config)
	collect = func(c *config.Config) {
		if c.Module != nil {
			for local, rp := range c.Module.RequiredProviders {
				if rp.Version == "" || providerKey(providerSource(c.Module, local)) != source {
					continue
				}
				cs, err := version.NewConstraint(rp.Version)
				if err != nil {
					ok = false
					continue
				}
				constraints = append(constraints, cs)
			}
		}
		for _, child := range c.Children {
			collect(child)
		}
	}
	collect(cfg)
	if !ok {
		return ""
	}
next:
	for _, tv := range versions {
		v, err := version.NewVersion(tv)
		if err != nil {
			continue
		}
		for _, cs := range constraints {
			if !cs.Check(v) {
				continue next
			}
		}
		return tv
	}
	return ""
}
