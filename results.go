package tfeval

import (
	"errors"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/tfeval/tfeval/internal/limit"
	"github.com/tfeval/tfeval/lang"
	"github.com/tfeval/tfeval/marks"
	"github.com/tfeval/tfeval/tfvars"
)

// HasErrors reports whether loading or evaluating produced an error
// diagnostic; values may then be incomplete.
func (e *Evaluation) HasErrors() bool {
	return e != nil && e.Diagnostics.HasErrors()
}

// Modules lists every module instance, the root first (address ""), then
// the others in address order, e.g. `module.network`, `module.app["eu"]`.
func (e *Evaluation) Modules() []*lang.ModuleInstance {
	if e == nil || e.Result == nil {
		return nil
	}
	return e.Result.Modules
}

// Module finds a module instance by address ("" for the root, e.g.
// `module.app["eu"].module.db`); nil when there is none.
func (e *Evaluation) Module(addr string) *lang.ModuleInstance {
	if e == nil || e.Result == nil {
		return nil
	}
	return e.Result.Module(addr)
}

// Output is one output value of the root module.
type Output struct {
	Name        string
	Description string
	// Value is the final value; unknown (wholly or in part) when it depends
	// on values known only after apply, and marked marks.Sensitive when the
	// output is declared sensitive. render.Value shows it as Terraform does.
	Value cty.Value
	// Sensitive is true when the output is declared sensitive = true.
	Sensitive bool
	// Range is the output block's range.
	Range hcl.Range

	// module is the root module instance, for AttrRange.
	module *lang.ModuleInstance
}

// AttrRange is the range of the expression that produced the value at
// path inside the output's value (see ParsePath for the syntax; "" is the
// whole value): the output's value argument, or the item of an object or
// tuple constructor in it that writes the place path names, as far as the
// syntax goes. A path that does not parse gives the value argument's
// range.
func (o Output) AttrRange(path string) hcl.Range {
	p, err := ParsePath(path)
	if err != nil {
		p = nil
	}
	if rng := o.module.OutputRange(o.Name, p); rng.Filename != "" {
		return rng
	}
	return o.Range
}

// Outputs lists the root module's outputs sorted by name.
func (e *Evaluation) Outputs() []Output {
	root := e.Module("")
	if root == nil {
		return nil
	}
	decls := root.Config.Module.Outputs
	out := make([]Output, 0, len(root.Outputs))
	for _, name := range sortedNames(root.Outputs) {
		o := Output{Name: name, Value: root.Outputs[name], module: root}
		if d := decls[name]; d != nil {
			o.Description, o.Sensitive, o.Range = d.Description, d.Sensitive, d.DeclRange
			if d.Sensitive && !o.Value.HasMark(marks.Sensitive) {
				o.Value = o.Value.Mark(marks.Sensitive)
			}
		}
		out = append(out, o)
	}
	return out
}

// Output finds a root module output by name.
func (e *Evaluation) Output(name string) (Output, bool) {
	for _, o := range e.Outputs() {
		if o.Name == name {
			return o, true
		}
	}
	return Output{}, false
}

// Resource is one planned managed or data resource instance: its address,
// mode, type, name, instance key and Value, the object of its evaluated
// arguments as terraform plan would propose it (attributes the provider
// computes are unknown, sensitive ones marked). Config is the block it was
// made from, Schema its type's schema, AttrRange where each of its values
// was written.
//
// The zero Resource (what Evaluation.Resource returns for an address it
// does not have) has no instance: its methods return nothing, or an error.
type Resource struct {
	*lang.ResourceInstance

	// result is the evaluation the instance belongs to.
	result *lang.Result
}

// Attr returns the value at a path inside the resource's object, written
// as in the configuration: `tags.Name`, `ingress[0].cidr_blocks`,
// `tags["kubernetes.io/role"]` (see ParsePath). Walking into an unknown
// value gives an unknown value; an attribute the object does not have is
// an error, and the value is then cty.NilVal.
func (r Resource) Attr(path string) (cty.Value, error) {
	if r.ResourceInstance == nil {
		return cty.NilVal, errNoInstance
	}
	return Lookup(r.Value, path)
}

// errNoInstance is the error of reading from the zero Resource.
var errNoInstance = errors.New("no resource instance")

// AttrRange is the range of the expression in the configuration that
// produced the value at path inside the resource's object (see ParsePath
// for the syntax): the argument's expression, the item of an object or
// tuple constructor inside it, the argument of a nested block, or of the
// content of the dynamic block that made the nested block; in native
// syntax and JSON alike. Where the configuration does not write the place
// (an argument left unset, a value the provider computes, a part of a
// value a function built) it is the range of the nearest expression or
// block around it, the resource block's at worst; a path that does not
// parse gives the resource block's range too. A linter reports a finding
// about an attribute at AttrRange(path).Start.
func (r Resource) AttrRange(path string) hcl.Range {
	if r.ResourceInstance == nil {
		return hcl.Range{}
	}
	p, err := ParsePath(path)
	if err != nil {
		return r.DeclRange
	}
	return r.result.AttrRange(r.ResourceInstance, p)
}

// Schema is the schema of the instance's resource type: its provider's,
// from the schema document the evaluation was given (Options.Schemas,
// Options.ProviderSchemas or the module's SchemaFile), or the built-in
// terraform_data's; nil without one.
func (r Resource) Schema() *lang.Block {
	if r.ResourceInstance == nil {
		return nil
	}
	return r.result.ResourceSchema(r.ResourceInstance)
}

// UnknownPaths lists the paths of the resource's value known only after apply.
func (r Resource) UnknownPaths() []string {
	if r.ResourceInstance == nil {
		return nil
	}
	return UnknownPaths(r.Value)
}

// SensitivePaths lists the paths of the resource's value that are sensitive.
func (r Resource) SensitivePaths() []string {
	if r.ResourceInstance == nil {
		return nil
	}
	return SensitivePaths(r.Value)
}

// Resources lists every managed and data resource instance of every module
// instance in address order (ephemeral resources are not planned objects
// and are left out).
func (e *Evaluation) Resources() []Resource {
	if e == nil || e.Result == nil {
		return nil
	}
	out := make([]Resource, 0, len(e.Result.Resources))
	for _, ri := range e.Result.Resources {
		out = append(out, Resource{ri, e.Result})
	}
	return out
}

// Resource finds a resource instance by its full address, e.g.
// `terraform_data.server["web"]` or `module.network.terraform_data.subnet[0]`.
func (e *Evaluation) Resource(addr string) (Resource, bool) {
	if e == nil || e.Result == nil {
		return Resource{}, false
	}
	for _, ri := range e.Result.Resources {
		if ri.Addr == addr {
			return Resource{ri, e.Result}, true
		}
	}
	return Resource{}, false
}

// Variable describes one root module variable: its declaration, its final
// value (marked sensitive or ephemeral as declared) and Source, where the
// value came from (default, environment, tfvars file, -var, Go).
type Variable = tfvars.Entry

// Variables lists the root module's variables sorted by name with their
// final values and provenance (Source: a file and range, a -var option,
// the environment, the default, Go). When the evaluation stopped before
// evaluating anything because a required variable has no value, as
// terraform plan stops, the others still have their values (that one's
// Value is cty.NilVal); when the configuration did not load, there are
// none.
func (e *Evaluation) Variables() []Variable {
	if e == nil || e.Config == nil || e.Config.Module == nil || e.rawVariables == nil {
		return nil
	}
	decls := e.Config.Module.Variables
	if root := e.Module(""); root != nil {
		return tfvars.Describe(decls, root.Variables, e.rawVariables)
	}
	// Nothing was evaluated: each variable's value is prepared from what
	// was given, as evaluation would have.
	final := make(map[string]cty.Value, len(decls))
	for name, decl := range decls {
		raw := e.rawVariables[name]
		if raw == nil && decl.Required() {
			continue
		}
		if v, diags := tfvars.Prepare(decl, raw, "var."+name); !diags.HasErrors() {
			final[name] = v
		}
	}
	return tfvars.Describe(decls, final, e.rawVariables)
}

// Checks gives the status of every custom condition (check block
// assertions, variable validations, output and resource preconditions and
// resource postconditions) in every module instance, passing ones included.
// Failed ones are also among Diagnostics, with Terraform's wording.
func (e *Evaluation) Checks() []lang.CheckResult {
	if e == nil || e.Result == nil {
		return nil
	}
	return e.Result.Checks()
}

// Eval evaluates an expression in a module instance's scope, as terraform
// console does in the root module: moduleAddr "" is the root, otherwise an
// instance address such as `module.network` or `module.app["eu"]`. The
// expression's ranges are in a file named "<eval>".
func (e *Evaluation) Eval(expr string, moduleAddr string) (cty.Value, hcl.Diagnostics) {
	x, diags := limit.ParseExpression([]byte(expr), "<eval>")
	if diags.HasErrors() {
		return cty.DynamicVal, diags
	}
	if e == nil || e.Result == nil {
		return cty.DynamicVal, append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "No configuration", Detail: "The configuration did not load, so there is nothing to evaluate the expression in."})
	}
	v, more := e.Result.EvalExprInModule(x, moduleAddr)
	return v, append(diags, more...)
}
