package format

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/tfeval/tfeval/internal/parallel"
	"github.com/tfeval/tfeval/lang"
	"github.com/tfeval/tfeval/marks"
	"github.com/tfeval/tfeval/render"
)

// WriteText writes an evaluation's result as `tfeval eval` prints it:
// resource instances grouped by module, then the root outputs, in the
// console's rendering so unknown and sensitive values read as Terraform
// shows them.
func WriteText(w io.Writer, res *lang.Result) {
	byModule := map[string][]*lang.ResourceInstance{}
	var modules []string
	for _, ri := range res.Resources {
		if _, ok := byModule[ri.Module]; !ok {
			modules = append(modules, ri.Module)
		}
		byModule[ri.Module] = append(byModule[ri.Module], ri)
	}
	sort.Strings(modules)
	var ordered []*lang.ResourceInstance
	for _, m := range modules {
		ordered = append(ordered, byModule[m]...)
	}
	// Rendering is most of the cost of printing; each value is rendered on
	// its own and written in order.
	rendered := make([]string, len(ordered))
	parallel.For(len(ordered), func(i int) { rendered[i] = render.Value(ordered[i].Value) })
	for i, ri := range ordered {
		if i == 0 || ri.Module != ordered[i-1].Module {
			title := "Root module"
			if ri.Module != "" {
				title = ri.Module
			}
			fmt.Fprintf(w, "# %s\n\n", title)
		}
		fmt.Fprintf(w, "%s = %s\n\n", ri.Addr, rendered[i])
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
