package cli

import (
	"bytes"
	"io"

	"github.com/tfeval/tfeval/format"
	"github.com/tfeval/tfeval/lang"
)

// evalRoot evaluates the whole module tree as terraform plan would: the
// outputs and resource instances as text or the -json document, or the
// diagnostics alone (-format=sarif).
func evalRoot(c *common, env Env) report {
	ev, err := evaluate(c, env, false)
	if err != nil {
		return failure(err)
	}
	rep := report{diags: ev.Diagnostics, config: ev.Config, failed: ev.Diagnostics.HasErrors()}
	res := ev.Result
	if res.Stopped() {
		// What a stopped evaluation made is partial, and can be as large
		// as the limit that stopped it: only the diagnostics are written.
		res = nil
	}
	var out bytes.Buffer
	switch {
	case c.format == "sarif":
	case c.json && c.recursive:
		// A scan makes the document into its line as it is written
		// (rootsWriter.render), so the document is never held whole.
		rep.quiet = true
		sources := format.NewSources(diagOptions(c, env))
		sources.UseConfig(ev.Config)
		rep.write = func(w io.Writer) error {
			if err := format.WriteEvalWith(w, res, ev.Diagnostics, sources); err != nil {
				return err
			}
			_, err := io.WriteString(w, "\n")
			return err
		}
		return rep
	case c.json:
		rep.quiet = true
		sources := format.NewSources(diagOptions(c, env))
		sources.UseConfig(ev.Config)
		if err := format.WriteEvalWith(&out, res, ev.Diagnostics, sources); err != nil {
			return failure(err)
		}
		out.WriteByte('\n')
	case rep.failed:
		// Next to an error, values stand in for what failed (unknown, or
		// what evaluation went on with) and would read as results;
		// terraform plan prints no plan either.
		rep.note = "No values are printed because the configuration has errors; -json writes what could be evaluated, with the diagnostics."
	case res != nil:
		if err := format.WriteText(c.ctx, &out, res, maxOutput); err != nil {
			return failure(err)
		}
	}
	rep.out = out.Bytes()
	return rep
}

// maxOutput bounds what one command prints (lang.Limits.MaxOutputSize).
var maxOutput = lang.Limits{}.WithDefaults().MaxOutputSize
