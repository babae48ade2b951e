package benchgen

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/hashicorp/hcl/v2/hclwrite"
)

// text accumulates one configuration file; hclwrite.Format then gives it the
// canonical layout terraform fmt would, so the trees look like real code.
type text struct{ b strings.Builder }

// l writes a line verbatim (no format verbs, so HCL's own %s stays intact).
func (t *text) l(lines ...string) {
	for _, s := range lines {
		t.b.WriteString(s)
		t.b.WriteByte('\n')
	}
}

// f writes a formatted line.
func (t *text) f(format string, args ...any) {
	fmt.Fprintf(&t.b, format, args...)
	t.b.WriteByte('\n')
}

func (t *text) hcl() []byte { return hclwrite.Format([]byte(t.b.String())) }

// numbers renders a list of numbers as an HCL tuple.
func numbers(ns []int) string {
	parts := make([]string, len(ns))
	for i, n := range ns {
		parts[i] = strconv.Itoa(n)
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// versions is the terraform block every module carries; mock adds the
// required_providers entry that maps the local name to bench/mock.
func versions(mock bool) []byte {
	var t text
	t.l(`terraform {`, `required_version = ">= 1.5.0"`)
	if mock {
		t.l(`required_providers {`, `mock = {`, `source = "bench/mock"`, `}`, `}`)
	}
	t.l(`}`)
	return t.hcl()
}
