package config

import "github.com/hashicorp/hcl/v2"

// LoadModule reads the one module in dir, without the modules it calls:
// for tools that walk module calls themselves, such as an installer that
// must fetch a child before it can read it. dir is resolved against
// opts.WorkDir and kept as given in the module's SourceDir; opts.Dialect
// opts.Cache and opts.Sandbox apply, the other options do not.
func LoadModule(dir string, opts Options) (*Module, hcl.Diagnostics) {
	box, diags := sandboxOf(opts)
	if diags.HasErrors() {
		return nil, diags
	}
	return loadModule(opts, box, dir, sourceDirOf(dir))
}
