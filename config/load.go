package config

import (
	"github.com/hashicorp/hcl/v2"
	"github.com/tfeval/tfeval/dialect"
)

// Options controls how a module tree is loaded.
type Options struct {
	Dialect dialect.Dialect
	// MaxDepth bounds module nesting; 0 means the default.
	MaxDepth int
	// Sandbox, when not empty, is a directory outside which no module source
	// may be read.
	Sandbox string
}

// Load reads the module in dir and every module it calls, returning the tree
// and every problem found without evaluating anything. dir is kept as given
// (relative stays relative) because Terraform reports path.module that way.
func Load(dir string, opts Options) (*Config, hcl.Diagnostics) {
	panic("config.Load: not yet written") // TODO(issue 3)
}
