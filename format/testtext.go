package format

import (
	"bytes"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/tfeval/tfeval/config"
	"github.com/tfeval/tfeval/dialect"
	"github.com/tfeval/tfeval/lang"
	"github.com/tfeval/tfeval/render"
	"github.com/tfeval/tfeval/tftest"
)

// TestTextOptions say how WriteTestText writes a test report.
type TestTextOptions struct {
	Dialect dialect.Dialect
	// Color colours the statuses, as on a terminal.
	Color bool
	// Verbose prints each run's plan or state after its status, as
	// terraform test -verbose does.
	Verbose bool
	// Diagnostics, when not nil, prints each run's diagnostics after its
	// status line (Terraform writes them to standard error).
	Diagnostics *DiagnosticPrinter
}

// WriteTestText writes a test report as terraform test (tofu test) prints
// it: each file in progress, each run's status, the file's status, and
// the summary line. A run skipped for want of a provider says which and
// why.
func WriteTestText(w io.Writer, rep *tftest.Report, opts TestTextOptions) error {
	tw := &testText{w: w, opts: opts}
	if rep.Stopped() {
		tw.diags(rep.Diagnostics)
		return tw.err
	}
	tw.diags(rep.Diagnostics)
	for _, fr := range rep.Files {
		if opts.Dialect == dialect.Tofu {
			tw.printf("%s... %s\n", fr.Path, tw.color(fr.Status, statusWord(fr.Status)))
		} else {
			tw.printf("%s... %s\n", fr.Path, tw.paint("37", "in progress"))
		}
		tw.diags(fr.Diagnostics)
		for _, rr := range fr.Runs {
			tw.printf("  run %q... %s\n", rr.Name, tw.color(rr.Status, runWord(rr)))
			if opts.Verbose && rr.Result != nil {
				if rr.Command == tftest.Plan {
					tw.printf("%s", verbosePlan(rr.Result, rr.Prior, opts.Dialect))
				} else {
					tw.printf("%s", verboseState(rr.Result))
				}
			}
			tw.diags(rr.Diagnostics)
		}
		if opts.Dialect != dialect.Tofu {
			tw.printf("%s... %s\n", fr.Path, tw.paint("37", "tearing down"))
			tw.printf("%s... %s\n", fr.Path, tw.color(fr.Status, statusWord(fr.Status)))
		}
	}
	line := SummaryLine(rep)
	head, rest, _ := strings.Cut(line, " ")
	if rep.Status == tftest.Fail || rep.Status == tftest.Error {
		head = tw.paint("31", head)
	} else {
		head = tw.paint("32", head)
	}
	tw.printf("\n%s %s\n", head, rest)
	return tw.err
}

type testText struct {
	w    io.Writer
	opts TestTextOptions
	err  error
}

func (t *testText) printf(format string, args ...any) {
	if t.err == nil {
		_, t.err = fmt.Fprintf(t.w, format, args...)
	}
}

func (t *testText) diags(diags hcl.Diagnostics) {
	if t.opts.Diagnostics != nil && len(diags) > 0 {
		t.opts.Diagnostics.Print(diags)
	}
}

// paint colours text with an ANSI code when colour is on.
func (t *testText) paint(code, text string) string {
	if !t.opts.Color {
		return text
	}
	return "\x1b[" + code + "m" + text + "\x1b[0m"
}

func (t *testText) color(s tftest.Status, text string) string {
	switch s {
	case tftest.Pass:
		return t.paint("32", text)
	case tftest.Fail, tftest.Error:
		return t.paint("31", text)
	case tftest.Skip:
		return t.paint("33", text)
	}
	return text
}

// verboseState is the state after an apply run, as terraform test
// -verbose shows it (terraform show's layout): each managed resource
// instance's attributes, then the root module's outputs.
func verboseState(res *lang.Result) string {
	var b bytes.Buffer
	b.WriteByte('\n')
	for _, ri := range res.Resources {
		if ri.Mode != config.ManagedResourceMode {
			continue
		}
		fmt.Fprintf(&b, "# %s:\nresource %q %q {\n", ri.Addr, ri.Type, ri.Name)
		writeAttributes(&b, ri.Value, "    ", "")
		b.WriteString("}\n\n")
	}
	if root := res.Root(); root != nil && len(root.Outputs) > 0 {
		b.WriteString("\nOutputs:\n\n")
		for _, name := range sortedNames(root.Outputs) {
			fmt.Fprintf(&b, "%s = %s\n", name, render.Value(root.Outputs[name]))
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// verbosePlan is a plan run's plan, as terraform test -verbose shows it
// (terraform plan's layout): each managed resource instance the plan
// creates or updates from the prior state, then the outputs.
func verbosePlan(res *lang.Result, prior map[string]cty.Value, d dialect.Dialect) string {
	var b bytes.Buffer
	add, change := 0, 0
	var body bytes.Buffer
	for _, ri := range res.Resources {
		if ri.Mode != config.ManagedResourceMode {
			continue
		}
		old, ok := prior[ri.Addr]
		switch {
		case !ok:
			add++
			fmt.Fprintf(&body, "  # %s will be created\n  + resource %q %q {\n", ri.Addr, ri.Type, ri.Name)
			writeAttributes(&body, ri.Value, "      ", "+ ")
		case !old.RawEquals(ri.Value):
			change++
			fmt.Fprintf(&body, "  # %s will be updated in-place\n  ~ resource %q %q {\n", ri.Addr, ri.Type, ri.Name)
			writeChanges(&body, old, ri.Value, "      ")
		default:
			continue
		}
		body.WriteString("    }\n\n")
	}
	product := d.Product()
	if add+change == 0 {
		fmt.Fprintf(&b, "\nNo changes. Your infrastructure matches the configuration.\n\n%s has compared your real infrastructure against your configuration and\nfound no differences, so no changes are needed.\n\n", product)
		return b.String()
	}
	fmt.Fprintf(&b, "\n%s used the selected providers to generate the following execution\nplan. Resource actions are indicated with the following symbols:\n", product)
	if add > 0 {
		b.WriteString("  + create\n")
	}
	if change > 0 {
		b.WriteString("  ~ update in-place\n")
	}
	fmt.Fprintf(&b, "\n%s will perform the following actions:\n\n", product)
	b.Write(body.Bytes())
	fmt.Fprintf(&b, "Plan: %d to add, %d to change, 0 to destroy.\n", add, change)
	if root := res.Root(); root != nil && len(root.Outputs) > 0 {
		b.WriteString("\nChanges to Outputs:\n")
		names := sortedNames(root.Outputs)
		width := 0
		for _, n := range names {
			width = max(width, len(n))
		}
		for _, name := range names {
			fmt.Fprintf(&b, "  + %-*s = %s\n", width, name, render.Value(root.Outputs[name]))
		}
	}
	b.WriteByte('\n')
	return b.String()
}

// writeChanges writes the attributes an update changes, old -> new.
func writeChanges(b *bytes.Buffer, old, cur cty.Value, indent string) {
	ov, _ := old.Unmark()
	cv, _ := cur.Unmark()
	if !ov.IsKnown() || !cv.IsKnown() || ov.IsNull() || cv.IsNull() || !ov.Type().IsObjectType() || !cv.Type().IsObjectType() {
		return
	}
	attrs := cv.AsValueMap()
	for _, n := range sortedNames(attrs) {
		var was cty.Value
		if ov.Type().HasAttribute(n) {
			was = ov.GetAttr(n)
		}
		if was != cty.NilVal && was.RawEquals(attrs[n]) {
			continue
		}
		from := "null"
		if was != cty.NilVal {
			from = render.Value(was)
		}
		fmt.Fprintf(b, "%s~ %s = %s -> %s\n", indent, n, from, render.Value(attrs[n]))
	}
}

// writeAttributes writes an object's attributes one a line, names
// aligned, each after sign ("+ " in a plan), null ones left out.
func writeAttributes(b *bytes.Buffer, v cty.Value, indent, sign string) {
	uv, _ := v.Unmark()
	if !uv.IsKnown() || uv.IsNull() || !uv.Type().IsObjectType() {
		return
	}
	attrs := uv.AsValueMap()
	var names []string
	width := 0
	for _, n := range sortedNames(attrs) {
		if ua, _ := attrs[n].Unmark(); !ua.IsNull() {
			names = append(names, n)
			width = max(width, len(n))
		}
	}
	for _, n := range names {
		a := attrs[n]
		text := strings.ReplaceAll(render.Value(a), "\n", "\n"+indent)
		fmt.Fprintf(b, "%s%s%-*s = %s\n", indent, sign, width, n, text)
	}
}

func sortedNames[T any](m map[string]T) []string {
	names := make([]string, 0, len(m))
	for n := range m {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}
