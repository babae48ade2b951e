// Package typeexpr reads the `type` argument of variable and output blocks the
// way Terraform does, layering its legacy-syntax rules (quoted types, bare
// list and map) over hcl's ext/typeexpr, and converts values to such a type
// constraint with optional-attribute defaults applied first.
package typeexpr
