package tftest

import (
	"fmt"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/tfeval/tfeval/config"
	"github.com/tfeval/tfeval/dialect"
	"github.com/tfeval/tfeval/internal/sandbox"
	"github.com/tfeval/tfeval/marks"
	"github.com/tfeval/tfeval/tfvars"
)

// The values of a run's root variables come from, lowest precedence
// first: the environment (TF_VAR_), the module directory's
// terraform.tfvars and *.auto.tfvars, those of the test directory (for
// the files in it), -var and -var-file in order, the file's variables
// block, and the run's.

// testDirVarFiles lists the variables files Terraform loads without being
// asked from the directory of a test file that is not in the module's
// own directory, as -var-file arguments in Terraform's order.
func testDirVarFiles(box sandbox.Dir, workDir, fileDir string) []tfvars.Arg {
	if fileDir == "." || fileDir == "" {
		return nil
	}
	dir := filepath.Join(workDir, filepath.FromSlash(fileDir))
	entries, err := box.ReadDir(dir)
	if err != nil {
		return nil
	}
	var auto []string
	var args []tfvars.Arg
	for _, name := range []string{tfvars.DefaultVarsFile, tfvars.DefaultVarsFileJSON} {
		if _, err := box.Stat(filepath.Join(dir, name)); err == nil {
			args = append(args, tfvars.Arg{Kind: tfvars.VarFileFlag, Text: path.Join(fileDir, name)})
		}
	}
	for _, e := range entries {
		if !e.IsDir() && tfvars.IsAutoVarsFile(e.Name()) {
			auto = append(auto, e.Name())
		}
	}
	sort.Strings(auto)
	for _, name := range auto {
		args = append(args, tfvars.Arg{Kind: tfvars.VarFileFlag, Text: path.Join(fileDir, name)})
	}
	return args
}

// globals are the values every run of a file gets before its own: from
// the environment, variables files and the command line, for the
// variables a module declares.
func (r *runner) globals(f *File, decls map[string]*config.Variable) (map[string]*tfvars.Value, hcl.Diagnostics) {
	args := append(testDirVarFiles(r.box, r.opts.WorkDir, path.Dir(f.Path)), r.opts.VarArgs...)
	raw, diags := tfvars.Collect(tfvars.Inputs{
		Dir:     r.opts.WorkDir,
		Env:     r.opts.Env,
		Args:    args,
		Dialect: r.opts.Dialect,
		Sandbox: r.opts.Sandbox,
		FS:      r.opts.FS,
	}, decls)
	// A value for a variable this module does not declare may be for
	// another module a run tests, or for the test file's own references.
	var kept hcl.Diagnostics
	for _, d := range diags {
		if !strings.HasPrefix(d.Summary, "Value for undeclared variable") && d.Summary != "Values for undeclared variables" {
			kept = append(kept, d)
		}
	}
	return raw, kept
}

// globalObject is the var object test-file expressions see of the
// globals: each value parsed as its declaration says, or where deprecated
// says so (nil: nowhere) as undeclaredGlobal parses it.
func globalObject(raw map[string]*tfvars.Value, decls map[string]*config.Variable, deprecated func(string) bool) map[string]cty.Value {
	out := map[string]cty.Value{}
	for name, v := range raw {
		if deprecated != nil && deprecated(name) {
			out[name], _ = undeclaredGlobal(name, v)
			continue
		}
		if v.Value != cty.NilVal && !v.Unparsed {
			out[name] = v.Value
			continue
		}
		decl := decls[name]
		mode := config.VariableParseLiteral
		if decl != nil {
			mode = decl.ParsingMode
		}
		pv, diags := tfvars.ParseString(name, v.Raw, mode)
		if diags.HasErrors() {
			continue
		}
		out[name] = pv
	}
	return out
}

// undeclaredGlobal is the value Terraform (1.13 on) gives a test file's
// expression (its variables block's, a run's, a provider block's) that
// reads a global value of a variable the file does not declare with a
// variable block, whatever the module declares: text from the command line or the environment is parsed
// as an expression, and where that fails taken as the literal string,
// with the errors of the first attempt, which Terraform keeps
// ("Variables not allowed" for eu-west-1); a variables file's value is
// its expression's.
func undeclaredGlobal(name string, v *tfvars.Value) (cty.Value, hcl.Diagnostics) {
	if v.Source.Kind != tfvars.SourceEnv && v.Source.Kind != tfvars.SourceVarFlag {
		if v.Value == cty.NilVal {
			return cty.DynamicVal, nil
		}
		return v.Value, nil
	}
	pv, diags := tfvars.ParseString(name, v.Raw, config.VariableParseHCL)
	if diags.HasErrors() {
		return cty.StringVal(v.Raw), diags
	}
	return pv, diags
}

// evalVariables evaluates a variables block's values in ctx, in name
// order; a value that fails is left out.
func evalVariables(attrs hcl.Attributes, ctx *hcl.EvalContext) (map[string]cty.Value, map[string]hcl.Range, hcl.Diagnostics) {
	vals := map[string]cty.Value{}
	ranges := map[string]hcl.Range{}
	var diags hcl.Diagnostics
	for _, name := range sortedKeys(attrs) {
		a := attrs[name]
		v, d := a.Expr.Value(ctx)
		diags = append(diags, d...)
		if d.HasErrors() {
			continue
		}
		vals[name] = withReferencedUnread(v, a.Expr, ctx)
		ranges[name] = a.Expr.Range()
	}
	return vals, ranges, diags
}

// definedValues are the values of the variables the file declares (its
// variable blocks, Terraform 1.13 on) that a run takes, as Terraform works
// them out once for the file: the global value (parsed as the block says)
// or else the default, converted to the block's type. A variable the block
// marks sensitive is not marked in the test file's own expressions. The
// run takes those its module declares and its own variables block does not
// set, those it refers to, and those the file's values it takes refer to.
func definedValues(f *File, run *RunBlock, decls map[string]*config.Variable, globals map[string]*tfvars.Value) (map[string]cty.Value, hcl.Diagnostics) {
	taken := map[string]bool{}
	for name := range decls {
		if _, own := run.Variables[name]; !own {
			taken[name] = true
		}
	}
	for _, name := range referredVars(run) {
		taken[name] = true
	}
	for name := range fileVarsTaken(f, run, decls) {
		for _, t := range f.Variables[name].Expr.Variables() {
			if t.RootName() != "var" || len(t) < 2 {
				continue
			}
			if a, ok := t[1].(hcl.TraverseAttr); ok {
				taken[a.Name] = true
			}
		}
	}
	out := map[string]cty.Value{}
	var diags hcl.Diagnostics
	for _, name := range sortedKeys(f.VariableDefs) {
		if !taken[name] {
			continue
		}
		def := f.VariableDefs[name]
		v, d := tfvars.Prepare(def, globals[name], "var."+name)
		diags = append(diags, d...)
		if d.HasErrors() {
			continue
		}
		if def.Sensitive {
			uv, ms := v.Unmark()
			delete(ms, marks.Sensitive)
			v = uv.WithMarks(ms)
		}
		out[name] = v
	}
	return out, diags
}

// fileVarsTaken are the names of the file's variables a run takes, as
// Terraform (1.13 on) links them to it: those its module declares that its
// own variables block does not set, those its variables and assertions
// refer to, and the file's values these refer to in turn.
func fileVarsTaken(f *File, run *RunBlock, decls map[string]*config.Variable) map[string]bool {
	taken := map[string]bool{}
	var add func(name string)
	add = func(name string) {
		a, ok := f.Variables[name]
		if !ok || taken[name] {
			return
		}
		taken[name] = true
		for _, ref := range fileVarRefs(f, a.Expr) {
			add(ref)
		}
	}
	for name := range decls {
		if _, own := run.Variables[name]; !own {
			add(name)
		}
	}
	for _, name := range referredVars(run) {
		add(name)
	}
	return taken
}

// fileVarRefs are the names of the file's variables expr refers to as
// var.NAME.
func fileVarRefs(f *File, expr hcl.Expression) []string {
	var out []string
	for _, t := range expr.Variables() {
		if t.RootName() != "var" || len(t) < 2 {
			continue
		}
		if a, ok := t[1].(hcl.TraverseAttr); ok {
			if _, file := f.Variables[a.Name]; file && !slices.Contains(out, a.Name) {
				out = append(out, a.Name)
			}
		}
	}
	return out
}

// fileVariables evaluates the file's variables block for a run as
// Terraform does from 1.13 on: a value may refer to the outputs of the
// file's runs and to the block's other values, each seen as var.NAME in
// place of the global value of that name (a value's reference to its own
// name is the global one, as before 1.13). Terraform works out such a
// value once the runs it refers to have run, and gives it to the runs that
// take it (fileVarsTaken): a value that refers to a run, itself or through
// another value, is worked out here only for the runs that take it, and a
// value that refers to a value that failed is left out without a second
// error.
func (r *runner) fileVariables(f *File, taken map[string]bool, gobj map[string]cty.Value, fs *fileState) (map[string]cty.Value, map[string]hcl.Range, hcl.Diagnostics) {
	runs := map[string]bool{}
	for _, rb := range f.Runs {
		runs[rb.Name] = true
	}
	touching := map[string]int{} // 1 working out, 2 refers to a run, 3 does not
	var touches func(name string) bool
	touches = func(name string) bool {
		switch touching[name] {
		case 1, 3:
			return false
		case 2:
			return true
		}
		touching[name] = 1
		expr := f.Variables[name].Expr
		found := slices.ContainsFunc(expr.Variables(), func(t hcl.Traversal) bool { return t.RootName() == "run" })
		for _, ref := range fileVarRefs(f, expr) {
			if ref != name && touches(ref) {
				found = true
			}
		}
		touching[name] = 3
		if found {
			touching[name] = 2
		}
		return found
	}

	vals := map[string]cty.Value{}
	ranges := map[string]hcl.Range{}
	var diags hcl.Diagnostics
	state := map[string]int{} // 1 being evaluated, 2 done
	var eval func(name string)
	eval = func(name string) {
		if state[name] != 0 {
			return
		}
		state[name] = 1
		defer func() { state[name] = 2 }()
		if fs.fileValuesDone == nil {
			fs.fileValuesDone = map[string]bool{}
		}
		fs.fileValuesDone[name] = true
		a := f.Variables[name]
		vars := gobj
		for _, ref := range fileVarRefs(f, a.Expr) {
			if ref == name {
				continue
			}
			eval(ref)
			v, ok := vals[ref]
			if !ok {
				return // the value it refers to failed, or refers back to it
			}
			vars = merged(vars, map[string]cty.Value{ref: v})
		}
		for _, t := range a.Expr.Variables() {
			if t.RootName() != "run" || len(t) < 2 {
				continue
			}
			if at, ok := t[1].(hcl.TraverseAttr); ok && !runs[at.Name] {
				return // reported as a reference to an unknown run block
			}
		}
		missing := false
		for _, t := range a.Expr.Variables() {
			ref, ok := varName(t)
			if !ok {
				continue
			}
			if _, file := f.Variables[ref]; file && ref != name {
				continue
			}
			if _, given := vars[ref]; given {
				continue
			}
			missing = true
			if _, def := f.VariableDefs[ref]; !def {
				// Neither the file nor a global value gives it, as
				// Terraform's graph of the file finds.
				diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Reference to unavailable variable", Detail: fmt.Sprintf("The input variable %q does not exist within this test file.", ref), Subject: t.SourceRange().Ptr()})
			}
		}
		if missing {
			// (A variable block no run took is not worked out here.)
			return
		}
		if d := unknownRunValues(a.Expr, fs.outputs); d.HasErrors() {
			diags = append(diags, d...)
			return
		}
		ctx := r.evalContext(map[string]cty.Value{"var": objectOf(vars), "run": objectOf(fs.outputs)})
		v, d := a.Expr.Value(ctx)
		diags = append(diags, d...)
		if d.HasErrors() {
			return
		}
		vals[name] = withReferencedUnread(v, a.Expr, ctx)
		ranges[name] = a.Expr.Range()
	}
	for _, name := range sortedKeys(f.Variables) {
		if !taken[name] && touches(name) {
			continue
		}
		eval(name)
	}
	return vals, ranges, diags
}

// unknownRunValues are Terraform's errors (1.13 on, for a test file's
// expressions: a run's variables and the file's) where expr reads a value
// of an earlier run's outputs that is unknown, as the outputs of a plan
// run can be. An unknown tfeval could not work out (an Unread one) is not
// one: whether Terraform knows it is not known.
func unknownRunValues(expr hcl.Expression, outputs map[string]cty.Value) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, t := range expr.Variables() {
		if t.RootName() != "run" || len(t) < 2 {
			continue
		}
		a, ok := t[1].(hcl.TraverseAttr)
		if !ok {
			continue
		}
		out, ok := outputs[a.Name]
		if !ok {
			continue
		}
		v, d := t[2:].TraverseRel(out)
		if d.HasErrors() || !marks.HasUnmarkedUnknown(v) {
			continue
		}
		diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Reference to unknown value", Detail: fmt.Sprintf("The value for %s is unknown. Run block %q is executing a \"plan\" operation, and the specified output value is only known after apply.", formatTarget(t), a.Name), Subject: t.SourceRange().Ptr()})
	}
	return diags
}

// withReferencedUnread gives the unknowns of v, the value of expr, that
// carry no Unread mark the Unread marks of the values expr refers to. hcl
// makes some unknowns afresh, without the marks of what they derive from
// (a for over an unknown of no type, a function of one): the outputs of a
// run tfeval skipped, passed on as [for s in run.setup.subnets : s.id],
// would otherwise be an unknown the next run's plan cannot decide on, not
// a value tfeval could not know.
func withReferencedUnread(v cty.Value, expr hcl.Expression, ctx *hcl.EvalContext) cty.Value {
	if !marks.HasUnmarkedUnknown(v) {
		return v
	}
	var found []marks.Unread
	for _, tr := range expr.Variables() {
		ref, diags := tr.TraverseAbs(ctx)
		if diags.HasErrors() {
			continue
		}
		for _, u := range marks.UnreadMarks(ref) {
			if !slices.Contains(found, u) {
				found = append(found, u)
			}
		}
	}
	return marks.MarkUnknowns(v, marks.UnreadSet(found))
}

// checkTestRefs reports the references of a test file's variables that
// Terraform does not allow there: only var, and run where allowRun (a run
// block's variables; from 1.13 on the file's too).
func checkTestRefs(attrs hcl.Attributes, allowRun bool, d dialect.Dialect) hcl.Diagnostics {
	if d == dialect.Tofu {
		return nil // OpenTofu reports them as unknown variables
	}
	var diags hcl.Diagnostics
	for _, name := range sortedKeys(attrs) {
		for _, t := range attrs[name].Expr.Variables() {
			switch t.RootName() {
			case "var":
				continue
			case "run":
				if allowRun {
					continue
				}
			}
			detail := "You can only reference run blocks and variables from within Terraform Test files."
			if !allowRun {
				detail = "You can only reference global variables within the test file variables block."
			}
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid reference", Detail: detail, Subject: t.SourceRange().Ptr()})
		}
	}
	return diags
}

// objectOf is an object value of named values.
func objectOf(m map[string]cty.Value) cty.Value {
	if len(m) == 0 {
		return cty.EmptyObjectVal
	}
	return cty.ObjectVal(m)
}

// merged is base with over's values over it.
func merged(base, over map[string]cty.Value) map[string]cty.Value {
	out := make(map[string]cty.Value, len(base)+len(over))
	for k, v := range base {
		out[k] = v
	}
	for k, v := range over {
		out[k] = v
	}
	return out
}

// rawValues are the variable values for a run's module: the globals, with
// the test file's values over them, for the variables it declares.
func rawValues(globals map[string]*tfvars.Value, test map[string]cty.Value, ranges map[string]hcl.Range, decls map[string]*config.Variable) map[string]*tfvars.Value {
	out := make(map[string]*tfvars.Value, len(globals)+len(test))
	for k, v := range globals {
		out[k] = v
	}
	for name, v := range test {
		if _, ok := decls[name]; ok {
			out[name] = tfvars.FromModuleArg(v, ranges[name])
		}
	}
	return out
}

// undefinedRun is the error of a test file's variables (the file's, a
// run's) referring to a run block the file does not have.
func undefinedRun(name string, rng hcl.Range) *hcl.Diagnostic {
	return &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Reference to unknown run block", Detail: fmt.Sprintf("The run block %q does not exist within this test file.", name), Subject: rng.Ptr()}
}
