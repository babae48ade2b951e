package config

import (
	"sort"

	"github.com/hashicorp/hcl/v2"
)

// sortAttributes puts attributes in source order, so that diagnostics and
// "already defined at" ranges do not depend on map iteration.
func sortAttributes(attrs []*hcl.Attribute) {
	sort.Slice(attrs, func(i, j int) bool {
		a, b := attrs[i].Range, attrs[j].Range
		if a.Filename != b.Filename {
			return a.Filename < b.Filename
		}
		return a.Start.Byte < b.Start.Byte
	})
}
