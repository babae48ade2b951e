package tfeval

import (
	"github.com/hashicorp/hcl/v2"

	"github.com/tfeval/tfeval/lang"
)

// Graph loads the module tree opts names and returns its dependency graph:
// a node for every variable, local value, module call, resource, data
// source, output and check block of every module, and an edge from each to
// the objects its expressions refer to. Nothing is evaluated, so variable
// values are not needed; Dir, WorkDir, Dialect, Sandbox, Schemas (or
// ProviderSchemas) and ModuleCache are used. Render it with format.DOT or
// format.Mermaid.
func Graph(opts Options) (*lang.Graph, hcl.Diagnostics) {
	cfg, workDir, diags := load(opts)
	if cfg == nil || cfg.Module == nil || diags.HasErrors() {
		return &lang.Graph{}, diags
	}
	schemas, diag := providerSchemas(opts, workDir)
	if diag != nil {
		return &lang.Graph{}, append(diags, diag)
	}
	return lang.BuildGraph(cfg, lang.Options{Dialect: opts.Dialect, Schemas: schemas}), diags
}
