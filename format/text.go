package format

import (
	"context"
	"fmt"
	"io"
	"sort"
	"strings"
	"sync/atomic"

	"github.com/tfeval/tfeval/internal/parallel"
	"github.com/tfeval/tfeval/lang"
	"github.com/tfeval/tfeval/marks"
	"github.com/tfeval/tfeval/render"
)

// WriteText writes an evaluation's result as `tfeval eval` prints it:
// resource instances grouped by module, then the root outputs, in the
// console's rendering so unknown and sensitive values read as Terraform
// shows them. It stops with lang.OutputTooLarge once the text would pass
// max bytes, and when ctx (which may be nil) is done.
func WriteText(ctx context.Context, w io.Writer, res *lang.Result, max int64) error {
	if res == nil {
		return nil
	}
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
	// Rendering is most of the cost of printing; values are rendered on
	// every CPU a window at a time and written in order, so memory holds
	// one window of text, not the whole plan's.
	const window = 256
	rendered := make([]string, min(len(ordered), window))
	var total atomic.Int64
	for start := 0; start < len(ordered); start += window {
		if ctx != nil && ctx.Err() != nil {
			return fmt.Errorf("output stopped: %w", ctx.Err())
		}
		n := min(window, len(ordered)-start)
		parallel.For(n, func(i int) {
			if total.Load() > max {
				return
			}
			s, _ := render.ValueWithin(ordered[start+i].Value, int(max))
			rendered[i] = s
			total.Add(int64(len(s)))
		})
		if total.Load() > max {
			return &lang.OutputTooLarge{Max: max}
		}
		for i := range n {
			ri := ordered[start+i]
			if start+i == 0 || ri.Module != ordered[start+i-1].Module {
				title := "Root module"
				if ri.Module != "" {
					title = ri.Module
				}
				fmt.Fprintf(w, "# %s\n\n", title)
			}
			fmt.Fprintf(w, "%s = %s\n\n", ri.Addr, rendered[i])
			rendered[i] = ""
		}
	}
	root := res.Root()
	if root == nil || len(root.Outputs) == 0 {
		return nil
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
		s, ok := render.ValueWithin(v, int(max-total.Load()))
		if !ok {
			return &lang.OutputTooLarge{Max: max}
		}
		total.Add(int64(len(s)))
		fmt.Fprintf(w, "%s = %s\n", n, strings.TrimRight(s, "\n"))
	}
	return nil
}
