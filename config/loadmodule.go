package config

import "github.com/hashicorp/hcl/v2"

// LoadModule reads the one module in dir, without the modules it calls:
// for tools that walk module calls themselves, such as an installer that
// must fetch a child before it can read it. dir is resolved against
// opts.WorkDir and kept as given in the module's SourceDir; opts.Dialect
// and opts.Cache apply, the other options do not.
func LoadModule(dir string, opts Options) (*Module, hcl.Diagnostics) {
	return loadModule(opts.WorkDir, dir, sourceDirOf(dir), opts.Dialect, opts.Cache)
}
