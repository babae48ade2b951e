package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/tfeval/tfeval/lang"
	"github.com/tfeval/tfeval/marks"
	"github.com/tfeval/tfeval/render"
)

// runEval evaluates the whole module tree as terraform plan would and prints
// the outputs and resource instances.
func runEval(c *common, env Env) int {
	ev, err := evaluate(c, env, false)
	if err != nil {
		fmt.Fprintf(env.Stderr, "tfeval: %s\n", err)
		return exitError
	}
	if c.json {
		b, err := json.MarshalIndent(ev.Result.Document(ev.Diagnostics), "", "  ")
		if err != nil {
			fmt.Fprintf(env.Stderr, "tfeval: %s\n", err)
			return exitError
		}
		fmt.Fprintln(env.Stdout, string(b))
	} else {
		newDiagPrinter(env.Stderr, c.color, env.WorkDir).print(ev.Diagnostics)
		if ev.Result != nil {
			writeHuman(env.Stdout, ev.Result)
		}
	}
	if ev.Diagnostics.HasErrors() {
		return exitError
	}
	return exitOK
}

// writeHuman lists resource instances grouped by module, then the root
// outputs, in the console's rendering so unknown and sensitive values read
// as Terraform shows them.
func writeHuman(w io.Writer, res *lang.Result) {
	byModule := map[string][]*lang.ResourceInstance{}
	var modules []string
	for _, ri := range res.Resources {
		if _, ok := byModule[ri.Module]; !ok {
			modules = append(modules, ri.Module)
		}
		byModule[ri.Module] = append(byModule[ri.Module], ri)
	}
	sort.Strings(modules)
	for _, m := range modules {
		title := "Root module"
		if m != "" {
			title = m
		}
		fmt.Fprintf(w, "# %s\n\n", title)
		for _, ri := range byModule[m] {
			fmt.Fprintf(w, "%s = %s\n\n", ri.Addr, render.Value(ri.Value))
		}
	}
	root := res.Root()
	if root == nil || len(root.Outputs) == 0 {
		return
	}
	fmt.Fprintf(w, "# Outputs\n\n")
	names := make([]string, 0, len(root.Outputs))
	for n := range root.Outputs {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		v := root.Outputs[n]
		if d := root.Config.Module.Outputs[n]; d != nil && d.Sensitive {
			v = v.Mark(marks.Sensitive)
		}
		fmt.Fprintf(w, "%s = %s\n", n, strings.TrimRight(render.Value(v), "\n"))
	}
}
