package cli

import (
	"encoding/json"

	"github.com/tfeval/tfeval"
	"github.com/tfeval/tfeval/format"
)

// validateRoot loads and statically checks the module tree without
// needing variable values.
func validateRoot(c *common, env Env) report {
	opts, err := options(c, env, false)
	if err != nil {
		return failure(err)
	}
	v := tfeval.ValidateConfig(opts)
	diags := v.Diagnostics
	rep := report{diags: diags, config: v.Config, failed: diags.HasErrors()}
	switch {
	case c.format == "sarif":
	case c.json:
		doc := format.NewValidateDocument(diags)
		sources := format.NewSources(diagOptions(c, env))
		sources.UseConfig(v.Config)
		doc.Diagnostics = sources.Diagnostics(diags)
		b, _ := json.MarshalIndent(doc, "", "  ")
		rep.out, rep.quiet = append(b, '\n'), true
	case !rep.failed:
		rep.out = []byte("Success! The configuration is valid.\n")
	}
	return rep
}
