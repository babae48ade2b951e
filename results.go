package tfeval

import (
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
	return e.Diagnostics.HasErrors()
}

// Modules lists every module instance, the root first (address ""), then
// the others in address order, e.g. `module.network`, `module.app["eu"]`.
func (e *Evaluation) Modules() []*lang.ModuleInstance {
	if e.Result == nil {
		return nil
	}
	return e.Result.Modules
}

// Module finds a module instance by address ("" for the root, e.g.
// `module.app["eu"].module.db`); nil when there is none.
func (e *Evaluation) Module(addr string) *lang.ModuleInstance {
	if e.Result == nil {
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
		o := Output{Name: name, Value: root.Outputs[name]}
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
// computes are unknown, sensitive ones marked).
type Resource struct {
	*lang.ResourceInstance
}

// Attr returns the value at a path inside the resource's object, written
// as in the configuration: `tags.Name`, `ingress[0].cidr_blocks`,
// `tags["kubernetes.io/role"]`. Walking into an unknown value gives an
// unknown value; an attribute the object does not have is an error.
func (r Resource) Attr(path string) (cty.Value, error) {
	return Lookup(r.Value, path)
}

// UnknownPaths lists the paths of the resource's value known only after apply.
func (r Resource) UnknownPaths() []string {
	return UnknownPaths(r.Value)
}

// SensitivePaths lists the paths of the resource's value that are sensitive.
func (r Resource) SensitivePaths() []string {
	return SensitivePaths(r.Value)
}

// Resources lists every managed and data resource instance of every module
// instance in address order (ephemeral resources are not planned objects
// and are left out).
func (e *Evaluation) Resources() []Resource {
	if e.Result == nil {
		return nil
	}
	out := make([]Resource, 0, len(e.Result.Resources))
	for _, ri := range e.Result.Resources {
		out = append(out, Resource{ri})
	}
	return out
}

// Resource finds a resource instance by its full address, e.g.
// `terraform_data.server["web"]` or `module.network.terraform_data.subnet[0]`.
func (e *Evaluation) Resource(addr string) (Resource, bool) {
	if e.Result == nil {
		return Resource{}, false
	}
	for _, ri := range e.Result.Resources {
		if ri.Addr == addr {
			return Resource{ri}, true
		}
	}
	return Resource{}, false
}

// Variable describes one root module variable: its declaration, its final
// value (marked sensitive or ephemeral as declared) and Source, where the
// value came from (default, environment, tfvars file, -var, Go).
type Variable = tfvars.Entry

// Variables lists the root module's variables sorted by name with their
// final values and provenance.
func (e *Evaluation) Variables() []Variable {
	root := e.Module("")
	if root == nil {
		return nil
	}
	return tfvars.Describe(root.Config.Module.Variables, root.Variables, e.rawVariables)
}

// Checks gives the status of every custom condition (check block
// assertions, variable validations, output and resource preconditions and
// resource postconditions) in every module instance, passing ones included.
// Failed ones are also among Diagnostics, with Terraform's wording.
func (e *Evaluation) Checks() []lang.CheckResult {
	if e.Result == nil {
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
	if e.Result == nil {
		return cty.DynamicVal, append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "No configuration", Detail: "The configuration did not load, so there is nothing to evaluate the expression in."})
	}
	v, more := e.Result.EvalExprInModule(x, moduleAddr)
	return v, append(diags, more...)
}
