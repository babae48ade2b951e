package install

import (
	"fmt"
	"sort"
	"strings"

	version "github.com/hashicorp/go-version"
)

// Bounds on choosing a version: each version a registry lists is checked
// against every condition of the constraint, so a constraint of thousands
// of conditions against a list of thousands of versions would take
// minutes. Real constraints have a few conditions, real modules a few
// hundred versions.
const (
	maxConstraintTerms = 64
	maxVersions        = 10_000
)

// constraint is a module block's version argument, parsed.
type constraint struct {
	text string
	set  version.Constraints // nil: any version
	// exact are the versions named by = or by no operator: the only
	// pre-release versions the constraint can select.
	exact []*version.Version
}

// parseConstraint reads Terraform's version constraint syntax: conditions
// separated by commas, each an operator (=, !=, >, >=, <, <=, ~>, or none
// for =) and a version. "" means any version.
func parseConstraint(text string) (*constraint, error) {
	c := &constraint{text: text}
	if strings.TrimSpace(text) == "" {
		return c, nil
	}
	if n := strings.Count(text, ",") + 1; n > maxConstraintTerms {
		return nil, fmt.Errorf("it has %d conditions, more than the %d tfeval checks each version against", n, maxConstraintTerms)
	}
	set, err := version.NewConstraint(text)
	if err != nil {
		return nil, err
	}
	c.set = set
	for _, part := range strings.Split(text, ",") {
		part = strings.TrimSpace(part)
		rest, ok := strings.CutPrefix(part, "=")
		if !ok && (part == "" || part[0] < '0' || part[0] > '9') && !strings.HasPrefix(part, "v") {
			continue
		}
		if v, err := version.NewVersion(strings.TrimSpace(rest)); err == nil {
			c.exact = append(c.exact, v)
		}
	}
	return c, nil
}

// allows reports whether the constraint selects v. A pre-release version
// is selected only when the constraint names it exactly, since Terraform
// keeps pre-releases out of every inexact range.
func (c *constraint) allows(v *version.Version) bool {
	if v.Prerelease() != "" {
		named := false
		for _, e := range c.exact {
			if e.Equal(v) && e.Prerelease() == v.Prerelease() {
				named = true
			}
		}
		if !named {
			return false
		}
	}
	return c.set == nil || c.set.Check(v)
}

// choose picks the newest version the constraint allows from a registry's
// list; texts that are not versions are skipped. newest is the newest
// release in the list whatever the constraint, for the error message.
func (c *constraint) choose(available []string) (chosen, newest *version.Version) {
	vs := parseVersions(available)
	for _, v := range vs {
		if c.allows(v) && (chosen == nil || v.GreaterThan(chosen)) {
			chosen = v
		}
		if v.Prerelease() == "" && (newest == nil || v.GreaterThan(newest)) {
			newest = v
		}
	}
	return chosen, newest
}

// parseVersions reads version texts, newest first, skipping what does not parse.
func parseVersions(texts []string) []*version.Version {
	var vs []*version.Version
	for _, t := range texts {
		if v, err := version.NewSemver(t); err == nil {
			vs = append(vs, v)
		}
	}
	sort.SliceStable(vs, func(i, j int) bool { return vs[i].GreaterThan(vs[j]) })
	return vs
}

// constraintError words a version constraint that does not parse.
func constraintError(text string, err error) string {
	return fmt.Sprintf("The version constraint %q is invalid: %s. A constraint is one or more conditions separated by commas, each an operator (=, !=, >, >=, <, <=, ~>) and a version number, such as \">= 1.2.0, < 2.0.0\".", text, strings.TrimSuffix(err.Error(), "."))
}
