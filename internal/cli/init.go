package cli

import (
	"fmt"
	"strings"

	"github.com/zclconf/go-cty/cty"

	"github.com/tfeval/tfeval/config"
	"github.com/tfeval/tfeval/install"
	"github.com/tfeval/tfeval/tfvars"
)

// initRoot installs the module sources of the tree into
// .terraform/modules and reports each module call as terraform init does.
func initRoot(c *common, env Env) report {
	res, diags := install.Modules(install.Options{
		WorkDir:  env.WorkDir,
		Dialect:  c.dialect,
		Upgrade:  c.upgrade,
		CacheDir: c.cacheDir,
		Offline:  c.offline,
		Env:      env.Environ,
		Sandbox:  c.sandbox,
		Context:  c.ctx,
		RootVariables: func(decls map[string]*config.Variable) map[string]cty.Value {
			return tfvars.InitValues(tfvars.Inputs{Dir: env.WorkDir, Env: env.Environ, Args: c.varArgs, Sandbox: c.sandbox}, decls)
		},
	})
	var out strings.Builder
	out.WriteString("Initializing modules...\n")
	for _, m := range res.Modules {
		version := ""
		if m.Version != "" {
			version = " " + m.Version
		}
		switch m.Origin {
		case install.Downloaded:
			fmt.Fprintf(&out, "Downloading %s%s for %s...\n", m.Source, version, m.Key)
		case install.Cached:
			fmt.Fprintf(&out, "Copying %s%s from the module cache for %s...\n", m.Source, version, m.Key)
		}
		fmt.Fprintf(&out, "- %s in %s\n", m.Key, m.Dir)
	}
	rep := report{diags: diags}
	if diags.HasErrors() {
		rep.note = "\ntfeval init failed: the modules above were installed, the others were not."
		rep.failed = true
	} else {
		calls := "module calls"
		if len(res.Modules) == 1 {
			calls = "module call"
		}
		fmt.Fprintf(&out, "\ntfeval has installed %d %s%s. Run \"tfeval validate\" or \"tfeval eval\" now.\n", len(res.Modules), calls, requestsNote(res.Requests))
	}
	rep.out = []byte(out.String())
	return rep
}

// checkInit refuses -offline without a cache to install from.
func checkInit(c *common) error {
	if c.offline && c.cacheDir == "" {
		return fmt.Errorf("-offline needs a module cache: -cache-dir=DIR or TFEVAL_MODULE_CACHE_DIR")
	}
	return nil
}

// requestsNote says how many network requests the installation made.
func requestsNote(n int) string {
	if n == 1 {
		return " (1 network request)"
	}
	return fmt.Sprintf(" (%d network requests)", n)
}
