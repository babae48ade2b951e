package cli

import (
	"fmt"
	"strings"

	"github.com/zclconf/go-cty/cty"

	"github.com/tfeval/tfeval/config"
	"github.com/tfeval/tfeval/install"
	"github.com/tfeval/tfeval/tftest"
	"github.com/tfeval/tfeval/tfvars"
)

// initRoot installs the module sources of the tree into
// .terraform/modules and reports each module call as terraform init does.
func initRoot(c *common, env Env) report {
	// terraform init installs the module of every run block of the test
	// files too, under the key the test command looks it up by.
	runMods, diags := tftest.InitModules(tftest.Options{WorkDir: env.WorkDir, TestDirectory: c.test.testDir, Dialect: c.dialect, Sandbox: c.sandbox})
	testMods := make([]install.TestModule, 0, len(runMods))
	for _, m := range runMods {
		testMods = append(testMods, install.TestModule{Key: m.Key, Source: m.Module.Source, Version: m.Module.Version, SourceRange: m.Module.SourceRange, DeclRange: m.Module.DeclRange})
	}
	res, iDiags := install.Modules(install.Options{
		TestModules: testMods,
		WorkDir:     env.WorkDir,
		Dialect:     c.dialect,
		Upgrade:     c.upgrade,
		CacheDir:    c.cacheDir,
		Offline:     c.offline,
		Env:         env.Environ,
		Sandbox:     c.sandbox,
		Context:     c.ctx,
		RootVariables: func(decls map[string]*config.Variable) map[string]cty.Value {
			return tfvars.InitValues(tfvars.Inputs{Dir: env.WorkDir, Env: env.Environ, Args: c.varArgs, Sandbox: c.sandbox}, decls)
		},
	})
	diags = append(diags, iDiags...)
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
