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
		if opts.Dialect == dialect.Tofu {
			tw.diags(fr.Diagnostics)
		}
		for _, rr := range fr.Runs {
			tw.printf("  run %q... %s\n", rr.Name, tw.color(rr.Status, runWord(rr)))
			if opts.Verbose && rr.Result != nil && !rr.Stopped {
				if rr.Command == tftest.Plan {
					tw.printf("%s", verbosePlan(rr, opts.Dialect))
				} else {
					tw.printf("%s", verboseState(rr))
				}
			}
			if opts.Verbose && rr.VerboseDiagnostics != nil {
				// terraform test -verbose shows the expected failures too.
				tw.diags(rr.VerboseDiagnostics)
			} else {
				tw.diags(rr.Diagnostics)
			}
		}
		if opts.Dialect != dialect.Tofu {
			tw.printf("%s... %s\n", fr.Path, tw.paint("37", "tearing down"))
			tw.printf("%s... %s\n", fr.Path, tw.color(fr.Status, statusWord(fr.Status)))
			// Terraform prints a file's own diagnostics once it is done.
			tw.diags(fr.Diagnostics)
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
func verboseState(rr *tftest.RunResult) string {
	var b bytes.Buffer
	b.WriteByte('\n')
	module := ""
	for _, ri := range rootFirst(rr.Result.Resources) {
		if ri.Mode != config.ManagedResourceMode || !inState(rr, ri.Addr) {
			continue
		}
		if ri.Module != module {
			b.WriteByte('\n') // a line between module instances
			module = ri.Module
		}
		fmt.Fprintf(&b, "# %s:\nresource %q %q {\n", ri.Addr, ri.Type, ri.Name)
		writeAttributes(&b, ri.Value, "    ", "")
		b.WriteString("}\n\n")
	}
	// A state keeps no output whose value is null.
	var names []string
	outputs := runOutputs(rr)
	for _, name := range sortedKeys(outputs) {
		if v, _ := outputs[name].UnmarkDeep(); !v.IsNull() {
			names = append(names, name)
		}
	}
	if len(names) > 0 {
		b.WriteString("\nOutputs:\n\n")
		for _, name := range names {
			fmt.Fprintf(&b, "%s = %s\n", name, render.Value(outputs[name]))
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// rootFirst orders resource instances as the binaries list them: by
// module instance, the root module's first, then by address.
func rootFirst(instances []*lang.ResourceInstance) []*lang.ResourceInstance {
	out := append([]*lang.ResourceInstance(nil), instances...)
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Module != out[j].Module {
			return out[i].Module < out[j].Module
		}
		return out[i].Addr < out[j].Addr
	})
	return out
}

// inState reports whether the state after an apply run has an instance:
// one the run planned, or one it left as the state had it.
func inState(rr *tftest.RunResult, addr string) bool {
	_, prior := rr.Prior[addr]
	return !rr.NotPlanned[addr] || prior
}

// runOutputs are the root module outputs a run's plan or state has.
func runOutputs(rr *tftest.RunResult) map[string]cty.Value {
	if rr.Outputs != nil {
		return rr.Outputs
	}
	if root := rr.Result.Root(); root != nil {
		return root.Outputs
	}
	return nil
}

// verbosePlan is a plan run's plan, as terraform test -verbose shows it
// (terraform plan's layout): each managed resource instance the plan
// creates or updates from the prior state, then the outputs that change.
func verbosePlan(rr *tftest.RunResult, d dialect.Dialect) string {
	var b bytes.Buffer
	add, change := 0, 0
	var body bytes.Buffer
	for _, ri := range rootFirst(rr.Result.Resources) {
		if ri.Mode != config.ManagedResourceMode || rr.NotPlanned[ri.Addr] {
			continue
		}
		old, ok := rr.Prior[ri.Addr]
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
	outputs := outputChanges(rr)
	product := d.Product()
	paragraph := func(text string) {
		b.WriteString(wrap(text, 77)) // the binaries break lines before column 78
		b.WriteString("\n")
	}
	switch {
	case add+change == 0 && outputs == "":
		b.WriteString("\nNo changes. Your infrastructure matches the configuration.\n\n")
		paragraph(product + " has compared your real infrastructure against your configuration and found no differences, so no changes are needed.")
		b.WriteByte('\n')
		return b.String()
	case add+change == 0:
		b.WriteString("\nChanges to Outputs:\n" + outputs + "\n")
		paragraph("You can apply this plan to save these new output values to the " + product + " state, without changing any real infrastructure.")
		b.WriteByte('\n')
		return b.String()
	}
	b.WriteByte('\n')
	paragraph(product + " used the selected providers to generate the following execution plan. Resource actions are indicated with the following symbols:")
	if add > 0 {
		b.WriteString("  + create\n")
	}
	if change > 0 {
		b.WriteString("  ~ update in-place\n")
	}
	fmt.Fprintf(&b, "\n%s will perform the following actions:\n\n", product)
	b.Write(body.Bytes())
	fmt.Fprintf(&b, "Plan: %d to add, %d to change, 0 to destroy.\n", add, change)
	if outputs != "" {
		b.WriteString("\nChanges to Outputs:\n" + outputs)
	}
	b.WriteByte('\n')
	return b.String()
}

// outputChanges are the lines of a plan's changes to the root module's
// outputs: each new one (+), each one whose value changes (~), names
// aligned; "" when none changes.
func outputChanges(rr *tftest.RunResult) string {
	outputs := runOutputs(rr)
	var names []string
	width := 0 // of all the names in the plan, as the binaries align them
	for _, name := range sortedKeys(outputs) {
		if rr.NotPlanned["output."+name] {
			continue
		}
		width = max(width, len(name))
		old, ok := rr.PriorOutputs[name]
		if ok && old.RawEquals(outputs[name]) {
			continue
		}
		if v, _ := outputs[name].UnmarkDeep(); !ok && v.IsNull() {
			continue // null, as before
		}
		names = append(names, name)
	}
	var b strings.Builder
	for _, name := range names {
		if old, ok := rr.PriorOutputs[name]; ok {
			fmt.Fprintf(&b, "  ~ %-*s = %s -> %s\n", width, name, render.Value(old), render.Value(outputs[name]))
		} else {
			fmt.Fprintf(&b, "  + %-*s = %s\n", width, name, render.Value(outputs[name]))
		}
	}
	return b.String()
}

// shownUnchanged are the attributes an update shows even when they keep
// their value: those that say which object it is.
var shownUnchanged = map[string]bool{"id": true, "name": true, "tags": true}

// writeChanges writes an update's attributes, names aligned: those it
// adds (+), removes (-) or changes (~, old -> new), the unchanged ones
// that name the object, and how many others it leaves as they are.
func writeChanges(b *bytes.Buffer, old, cur cty.Value, indent string) {
	ov, _ := old.Unmark()
	cv, _ := cur.Unmark()
	if !ov.IsKnown() || !cv.IsKnown() || ov.IsNull() || cv.IsNull() || !ov.Type().IsObjectType() || !cv.Type().IsObjectType() {
		return
	}
	attr := func(v cty.Value, n string) cty.Value {
		if v.Type().HasAttribute(n) {
			if a := v.GetAttr(n); !a.IsNull() {
				return a
			}
		}
		return cty.NilVal
	}
	var names []string
	width := 0
	for n := range cv.Type().AttributeTypes() {
		names = append(names, n)
	}
	for n := range ov.Type().AttributeTypes() {
		if !cv.Type().HasAttribute(n) {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	for _, n := range names {
		if attr(ov, n) != cty.NilVal || attr(cv, n) != cty.NilVal {
			width = max(width, len(n))
		}
	}
	hidden := 0
	for _, n := range names {
		was, is := attr(ov, n), attr(cv, n)
		switch {
		case was == cty.NilVal && is == cty.NilVal:
		case was == cty.NilVal:
			fmt.Fprintf(b, "%s+ %-*s = %s\n", indent, width, n, render.Value(is))
		case is == cty.NilVal:
			fmt.Fprintf(b, "%s- %-*s = %s -> null\n", indent, width, n, render.Value(was))
		case !was.RawEquals(is):
			fmt.Fprintf(b, "%s~ %-*s = %s -> %s\n", indent, width, n, render.Value(was), render.Value(is))
		case shownUnchanged[n]:
			fmt.Fprintf(b, "%s  %-*s = %s\n", indent, width, n, render.Value(is))
		default:
			hidden++
		}
	}
	switch hidden {
	case 0:
	case 1:
		fmt.Fprintf(b, "%s  # (1 unchanged attribute hidden)\n", indent)
	default:
		fmt.Fprintf(b, "%s  # (%d unchanged attributes hidden)\n", indent, hidden)
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
	for _, n := range sortedKeys(attrs) {
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
