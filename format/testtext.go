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
				tw.printf("%s", verboseResult(rr.Result, rr.Command))
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

// verboseResult is a run's state (after apply) or plan, as terraform
// test -verbose shows it: each resource instance's attributes, then the
// root module's outputs.
func verboseResult(res *lang.Result, cmd tftest.Command) string {
	var b bytes.Buffer
	b.WriteByte('\n')
	for _, ri := range res.Resources {
		mode := "resource"
		if ri.Mode == config.DataResourceMode {
			mode = "data"
		}
		suffix := ""
		if cmd == tftest.Plan {
			suffix = " (planned)"
		}
		fmt.Fprintf(&b, "# %s%s:\n%s %q %q {\n", ri.Addr, suffix, mode, ri.Type, ri.Name)
		writeAttributes(&b, ri.Value, "    ")
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

// writeAttributes writes an object's attributes one a line, names aligned.
func writeAttributes(b *bytes.Buffer, v cty.Value, indent string) {
	uv, _ := v.Unmark()
	if !uv.IsKnown() || uv.IsNull() || !uv.Type().IsObjectType() {
		return
	}
	attrs := uv.AsValueMap()
	names := sortedNames(attrs)
	width := 0
	for _, n := range names {
		width = max(width, len(n))
	}
	for _, n := range names {
		a := attrs[n]
		if ua, _ := a.Unmark(); ua.IsNull() {
			continue
		}
		text := strings.ReplaceAll(render.Value(a), "\n", "\n"+indent)
		fmt.Fprintf(b, "%s%-*s = %s\n", indent, width, n, text)
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
