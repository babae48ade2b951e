package cli

import (
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/tfeval/tfeval/internal/limit"
	"github.com/tfeval/tfeval/lang"
	"github.com/tfeval/tfeval/marks"
	"github.com/tfeval/tfeval/render"
)

const consoleHelp = `The Terraform console allows you to experiment with Terraform interpolations.
You may access resources in the state (if you have one) just as you would
from a configuration. For example: "aws_instance.foo.id" would evaluate
to the ID of "aws_instance.foo" if it exists in your state.

Type in the interpolation to test and hit <enter> to see the result.

To exit the console, type "exit" and hit <enter>, or use Control-C or
Control-D.
`

// runConsole evaluates expressions from standard input as `terraform
// console` does: one a line, or several lines while brackets or a heredoc
// are open. On a terminal it prompts, and with Env.MakeRaw it edits lines
// and keeps a history.
func runConsole(c *common, env Env) int {
	dp := newDiagPrinter(env.Stderr, c, env)
	ev, err := evaluate(c, env, true)
	if err != nil {
		fmt.Fprintf(env.Stderr, "tfeval: %s\n", err)
		return exitError
	}
	dp.Sources().UseConfig(ev.Config)
	dp.Print(ev.Diagnostics)
	if ev.Diagnostics.HasErrors() || ev.Result == nil {
		return exitError
	}

	status := exitOK
	var src lineSource = newScannedLines(env.Stdin, nil)
	switch {
	case env.Terminal && env.MakeRaw != nil:
		src = newEditedLines(env.Stdin, env.Stderr, env.MakeRaw)
	case env.Terminal:
		src = newScannedLines(env.Stdin, env.Stderr)
	}
	for {
		text, err := readExpression(src, c.dialect)
		if err != nil {
			break
		}
		line := strings.TrimSpace(text)
		switch line {
		case "":
			continue
		case "exit":
			return status
		case "help":
			fmt.Fprint(env.Stdout, consoleHelp)
			continue
		}
		dp.SetSource("<console-input>", []byte(line))
		out, diags := consoleEval(ev.Result, line)
		dp.Print(diags)
		if diags.HasErrors() {
			status = exitError
			continue
		}
		fmt.Fprintln(env.Stdout, out)
	}
	return status
}

// consoleEval evaluates one console line in the root module and renders it.
func consoleEval(res interface {
	EvalExpr(hcl.Expression, []string) (cty.Value, hcl.Diagnostics)
}, line string) (string, hcl.Diagnostics) {
	expr, diags := limit.ParseExpression([]byte(line), "<console-input>")
	if diags.HasErrors() {
		return "", diags
	}
	val, more := res.EvalExpr(expr, nil)
	diags = append(diags, more...)
	if diags.HasErrors() {
		return "", diags
	}
	// type() gives a marked capsule that only the console may print, and only on its own.
	if val.HasMark(marks.TypeType) {
		return render.Value(val), diags
	}
	out, ok := render.ValueWithin(val, int(maxOutput))
	if !ok {
		return "", append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Value too large to print",
			Detail:   (&lang.OutputTooLarge{Max: maxOutput}).Error() + ".",
			Subject:  expr.Range().Ptr(),
		})
	}
	if marks.Contains(val, marks.TypeType) {
		return "", append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Invalid use of type function",
			Detail:   `The console-only "type" function cannot be used as part of an expression.`,
			Subject:  expr.Range().Ptr(),
		})
	}
	return out, diags
}
