package tftest

import (
	"sort"

	"github.com/hashicorp/hcl/v2"
)

// InitModule is the module block of a test file's run block with the key
// `terraform init` installs it under, the key the test command looks the
// module up by in the module manifest (see runKey).
type InitModule struct {
	Key    string
	Module *RunModule
}

// InitModules lists the module blocks of the run blocks of the test files
// opts names (WorkDir, TestDirectory, Dialect, Sandbox, FS; Filter is
// ignored), as `terraform init` reads them to install every run's module
// with the configuration's module calls, in key order. The diagnostics are
// those of finding and reading the files: a file that does not parse adds
// the run modules it still has.
func InitModules(opts Options) ([]InitModule, hcl.Diagnostics) {
	opts.Filter = nil
	r, files, diags := newRunner(opts)
	if r == nil {
		return nil, diags
	}
	var mods []InitModule
	for _, f := range files {
		for _, run := range f.Runs {
			if run.Module != nil {
				mods = append(mods, InitModule{Key: runKey(f.Path, run.Name), Module: run.Module})
			}
		}
	}
	sort.SliceStable(mods, func(i, j int) bool { return mods[i].Key < mods[j].Key })
	return mods, diags
}
