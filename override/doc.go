// Package override implements the body-level part of Terraform's override
// files: MergeBodies layers an override block's body over a base body, with
// arguments replaced one by one and nested blocks replaced per block type
// (dynamic blocks included). The per-element rules (which arguments of a
// variable, output, resource... an override may change) live in package
// config, which owns those structures and calls MergeBodies for their bodies.
package override
