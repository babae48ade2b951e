package tfvars

import (
	"fmt"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/tfeval/tfeval/config"
	"github.com/tfeval/tfeval/dialect"
	"github.com/tfeval/tfeval/internal/sandbox"
)

// EnvPrefix starts the names of environment variables that set root module variables.
const EnvPrefix = "TF_VAR_"

// ArgKind tells -var and -var-file options apart.
type ArgKind int

const (
	// VarFlag is -var NAME=VALUE; Text is "NAME=VALUE".
	VarFlag ArgKind = iota
	// VarFileFlag is -var-file FILE; Text is the file name as given.
	VarFileFlag
)

// Arg is one -var or -var-file option.
type Arg struct {
	Kind ArgKind
	Text string
}

// Inputs are the places root module variable values come from.
type Inputs struct {
	// Dir is the working directory: where terraform.tfvars and *.auto.tfvars
	// are looked for and relative -var-file names are resolved. "" means ".".
	Dir string
	// Env is the environment in os.Environ form; only TF_VAR_ entries matter.
	Env []string
	// Args are the -var and -var-file options in command-line order.
	Args []Arg
	// Values are Go API overrides; they win over every other source.
	Values map[string]cty.Value
	// Dialect selects OpenTofu's small differences (JSON sniffing of -var-file content).
	Dialect dialect.Dialect
	// Sandbox, when not empty, is the directory outside which the files
	// loaded without being asked (terraform.tfvars, *.auto.tfvars) are not
	// read; a relative path is resolved against Dir. Files named by
	// -var-file are the user's choice and are read wherever they are.
	Sandbox string
}

// Collect gathers the raw values for the root module's variables from every
// source, later sources overriding earlier ones, and parses the winners with
// each declaration's parsing mode, as terraform plan does before evaluation.
//
// The result holds only declared variables that were given a value that
// parsed; values for undeclared variables give Terraform's warnings (files)
// or errors (-var, Go API) and are otherwise dropped (environment). Because
// only the winning value of each variable is parsed, a bad value that a
// later source overrides reports nothing, as in Terraform. Missing required
// variables are not reported here: Prepare and Resolve do that.
func Collect(in Inputs, decls map[string]*config.Variable) (map[string]*Value, hcl.Diagnostics) {
	raw, diags := gather(in)

	names := make([]string, 0, len(raw))
	for name := range raw {
		names = append(names, name)
	}
	sort.Strings(names)

	out := make(map[string]*Value, len(decls))
	for _, name := range names {
		decl, ok := decls[name]
		if !ok {
			continue
		}
		v := raw[name]
		moreDiags := v.parse(name, decl.ParsingMode)
		diags = append(diags, moreDiags...)
		if moreDiags.HasErrors() {
			continue
		}
		out[name] = v
	}

	seenInFiles := 0
	for _, name := range names {
		if _, ok := decls[name]; ok {
			continue
		}
		v := raw[name]
		// Undeclared values are parsed literally and dropped quietly if that fails.
		if v.parse(name, config.VariableParseLiteral).HasErrors() {
			continue
		}
		switch v.Source.Kind {
		case SourceAutoFile, SourceVarFile:
			if seenInFiles < 2 {
				rng := v.Source.Range
				diags = append(diags, &hcl.Diagnostic{
					Severity: hcl.DiagWarning,
					Summary:  "Value for undeclared variable",
					Detail: fmt.Sprintf("The root module does not declare a variable named %q but a value was found in file %q. If you meant to use this value, add a \"variable\" block to the configuration.\n\nTo silence these warnings, use TF_VAR_... environment variables to provide certain \"global\" settings to all configurations in your organization. To reduce the verbosity of these warnings, use the -compact-warnings option.",
						name, v.Source.File),
					Subject: &rng,
				})
			}
			seenInFiles++
		case SourceEnv:
			// Environment variables are often set globally for many
			// configurations, so undeclared ones are ignored.
		case SourceVarFlag:
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Value for undeclared variable",
				Detail:   fmt.Sprintf("A variable named %q was assigned on the command line, but the root module does not declare a variable of that name. To use this value, add a \"variable\" block to the configuration.", name),
			})
		default:
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Value for undeclared variable",
				Detail:   fmt.Sprintf("A variable named %q was assigned a value, but the root module does not declare a variable of that name. To use this value, add a \"variable\" block to the configuration.", name),
			})
		}
	}
	if seenInFiles > 2 {
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagWarning,
			Summary:  "Values for undeclared variables",
			Detail:   fmt.Sprintf("In addition to the other similar warnings shown, %d other variable(s) defined without being declared.", seenInFiles-2),
		})
	}
	return out, diags
}

// gather reads every source in precedence order into unparsed values, the
// last one for each name winning.
func gather(in Inputs) (map[string]*Value, hcl.Diagnostics) {
	var diags hcl.Diagnostics
	dir := in.Dir
	if dir == "" {
		dir = "."
	}
	ret := map[string]*Value{}
	box, err := sandbox.New(in.Sandbox, dir)
	if err != nil {
		return ret, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Invalid sandbox directory", Detail: fmt.Sprintf("The directory given as the sandbox cannot be used: %s.", err)}}
	}

	for _, entry := range in.Env {
		rest, ok := strings.CutPrefix(entry, EnvPrefix)
		if !ok {
			continue
		}
		name, val, ok := strings.Cut(rest, "=")
		if !ok {
			continue
		}
		ret[name] = &Value{Source: Source{Kind: SourceEnv, Name: name}, Raw: val, Unparsed: true}
	}

	addFile := func(filename string, src Source, box sandbox.Dir) {
		named := src.Kind == SourceVarFile
		attrs, moreDiags := readVarsFile(box, named, dir, filename, in.Dialect)
		diags = append(diags, moreDiags...)
		for _, a := range attrs {
			s := src
			s.Name = a.name
			s.File = filename
			s.Range = a.expr.Range()
			ret[a.name] = &Value{Source: s, Expr: a.expr}
		}
	}

	for _, name := range autoVarsFiles(dir) {
		addFile(name, Source{Kind: SourceAutoFile}, box)
	}

	for i, arg := range in.Args {
		switch arg.Kind {
		case VarFlag:
			name, val, moreDiags := ParseVarFlag(arg.Text)
			diags = append(diags, moreDiags...)
			if moreDiags.HasErrors() {
				continue
			}
			ret[name] = &Value{Source: Source{Kind: SourceVarFlag, Name: name, Index: i}, Raw: val, Unparsed: true}
		case VarFileFlag:
			addFile(arg.Text, Source{Kind: SourceVarFile, Index: i}, sandbox.Dir{})
		default:
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Invalid variable option",
				Detail:   fmt.Sprintf("Argument %d has unknown kind %d; only -var and -var-file set variables.", i, arg.Kind),
			})
		}
	}

	for name, v := range in.Values {
		if v == cty.NilVal {
			continue // cty.NilVal means "not set", as everywhere in Terraform
		}
		ret[name] = &Value{Value: v, Source: Source{Kind: SourceGo, Name: name}}
	}
	return ret, diags
}

// parse fills in v.Value from Raw or Expr; a value that is already parsed is left alone.
func (v *Value) parse(name string, mode config.VariableParsingMode) hcl.Diagnostics {
	switch {
	case v.Unparsed:
		val, diags := ParseString(name, v.Raw, mode)
		if diags.HasErrors() {
			return diags
		}
		v.Value, v.Unparsed = val, false
		return diags
	case v.Value == cty.NilVal && v.Expr != nil:
		// No variables and no functions are available in variables files.
		val, diags := v.Expr.Value(nil)
		if diags.HasErrors() {
			return diags
		}
		v.Value = val
		return diags
	}
	return nil
}
