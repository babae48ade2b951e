package diagsort

import (
	"sort"

	"github.com/hashicorp/hcl/v2"
)

// ByPosition sorts diags in place by file and start of their subject, those
// without one last. Diagnostics at the same place keep their order: hcl
// reports the problems of one expression in a meaningful sequence ("Variables
// not allowed", then what that makes of the value).
func ByPosition(diags hcl.Diagnostics) {
	sort.SliceStable(diags, func(i, j int) bool {
		a, b := diags[i].Subject, diags[j].Subject
		switch {
		case a == nil || b == nil:
			return a != nil && b == nil
		case a.Filename != b.Filename:
			return a.Filename < b.Filename
		}
		return a.Start.Byte < b.Start.Byte
	})
}
