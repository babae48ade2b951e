package lang

import (
	"context"
	"sync/atomic"

	"sync"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"

	"github.com/tfeval/tfeval/config"
	"github.com/tfeval/tfeval/dialect"
	"github.com/tfeval/tfeval/funcs"
	"github.com/tfeval/tfeval/marks"
	"github.com/tfeval/tfeval/tfvars"
)

// Options controls one evaluation.
type Options struct {
	Dialect dialect.Dialect
	// RootVariables are the raw root module variable values tfvars.Collect
	// returned; Evaluate prepares them.
	RootVariables map[string]*tfvars.Value
	// Workspace is terraform.workspace; "" means "default".
	Workspace string
	// Functions is the base of the function table options; Dialect,
	// ConsoleMode, PureOnly and ProviderFunctions are filled in per module.
	Functions funcs.Options
	// Schemas are provider schemas; nil evaluates without any.
	Schemas *ProviderSchemas
	// Console evaluates as terraform console does (impure functions real,
	// type() present, plantimestamp() absent); otherwise as plan.
	Console bool
	// RootEphemeralOutputs admits ephemeral outputs in the root module, as
	// Terraform's test command (1.14 on) plans, applies and validates the
	// module under test (AllowRootEphemeralOutputs); otherwise such an
	// output is the error "Ephemeral output not allowed".
	RootEphemeralOutputs bool
	// Lazy evaluates nothing but the root module's variables at first:
	// each object is evaluated when an expression given to the Result
	// (EvalExpr, EvalExprInModule) first needs it, as a console session
	// does. Module instances, resources and outputs not yet needed are
	// missing from the Result, and so are their diagnostics.
	Lazy bool
	// Cwd is path.cwd; "" means the process working directory.
	Cwd string
	// Context, when set, cancels the evaluation: it stops within
	// milliseconds with an "Evaluation cancelled" error.
	Context context.Context
	// Step, when not nil, is called by the graph walk before it evaluates
	// each configuration object, on the goroutine that is to evaluate it,
	// holding nothing of the evaluation, with the number of resource
	// instances (managed and data, as Limits.MaxInstances counts them) the
	// walk's expansions have made so far. It may block: a scan pauses
	// there a root that has grown large while an earlier root runs
	// (scan.EachHeld). The count is what lets the caller decide cheaply
	// and early: it is one atomic load, known as soon as a count or
	// for_each is expanded, where the live heap is known only once a
	// collection has measured it, after the memory is held.
	Step func(instances int)
	// Limits bounds the evaluation's work and memory (limits.go); zero
	// fields mean the defaults.
	Limits Limits
	// DataSources are results of data source instances to use as though
	// read, by address: an instance's (`data.aws_ami.a["k"]`,
	// `module.net[0].data.aws_vpc.v`), or without instance keys, every
	// instance's. Each is an object of the data source's attributes.
	DataSources map[string]cty.Value
	// DataSourceRanges, when set, says where each address of DataSources
	// was written, for the diagnostics about it.
	DataSourceRanges map[string]hcl.Range
	// Validate evaluates as terraform validate does: every input variable
	// is unknown (of its type, marked as declared), a count or for_each is
	// checked but not expanded (each block is evaluated once, with
	// count.index and each unknown), and a resource's value is unknown.
	// RootVariables are not used.
	Validate bool
	// Instances, when not nil, decides the value of every managed and
	// data resource instance after tfeval has planned it (see
	// InstanceHook): a test runner's prior state, mocks and applied values.
	Instances InstanceHook
	// ValidateUnexpanded, for a plan, also evaluates as terraform
	// validate does (see Validate) what the plan expanded to no instance:
	// the resources whose count or for_each gave none in every instance of
	// their module, every object of the modules whose calls gave none,
	// and the resources with a dynamic block (whose for_each, unknown to
	// validate, may have given the plan no block to check), with what
	// they depend on. Terraform's plan validates the whole
	// configuration first, every block whatever its count, so an error
	// there (a function called with the wrong arguments, an attribute of a
	// string, an index out of a constant tuple) fails the plan though no
	// instance has it. The errors it finds that the plan's diagnostics do
	// not have are Result.UnexpandedErrors, not among the evaluation's
	// diagnostics: where there are some, the caller validates the whole
	// configuration, as Terraform reports that validation's diagnostics
	// alone. It costs the evaluation of those objects, and about nothing
	// when every object has an instance.
	ValidateUnexpanded bool
	// Reads are expressions to be evaluated in the root module once the
	// evaluation is done (a test run's assertions): without a provider's
	// schema, what they read from a resource, directly or through outputs
	// and other named values (output.NAME included), is planned as the
	// configuration's own reads are, unknown where the configuration does
	// not set it, so that reading an attribute through an output holding
	// the whole object is no error.
	Reads []hcl.Expression
	// OutputReads, when not nil, are expressions evaluated after this
	// evaluation and outside it (a later test run's) that read the root
	// module's outputs as one object: what they read of resources without
	// schema through it is planned as Reads' is.
	OutputReads *OutputReads
	// Applied evaluates the values an apply gives, with Instances giving
	// the applied objects: impure functions (uuid, timestamp, bcrypt)
	// return real values, as they do once Terraform applies.
	Applied bool
	// PlannedOutputs, in an Applied evaluation, gives each output value
	// (by module instance address, "" for the root, and name) as the plan
	// had it. Terraform and OpenTofu do not evaluate again in the apply an
	// output whose planned value was wholly known: it keeps that value
	// (after its preconditions), even where the apply would now compute
	// another (uuid() == "" ? "x" : null was unknown, so a comparison
	// with it may have been known). An ephemeral output is evaluated
	// again.
	PlannedOutputs func(module, name string) (cty.Value, bool)
	// PlannedUnknown, when set, says of a value tfeval did not read (its
	// marks.Unread) that Terraform's plan has it unknown too: what the
	// provider computes of an object a test run creates, where the
	// provider's schema is known. A count or for_each that only such values
	// leave unknown is then the error Terraform's plan reports, rather
	// than a placeholder for instances tfeval cannot count.
	PlannedUnknown func(marks.Unread) bool
	// ProvidersGiven names the root module's provider configurations
	// (NAME or NAME.ALIAS) that the caller gives in place of the module's
	// own provider blocks, as a test file's provider and mock_provider
	// blocks do: those blocks are not evaluated.
	ProvidersGiven map[string]bool
	// PlanAsWritten plans every managed resource's configured values as
	// they are written, as Terraform's mocked providers do, without the
	// older plugin SDK's conventions a real provider built on it follows
	// (Block.LegacySDK): what a test file's runs plan.
	PlanAsWritten bool
}

// OutputReads are expressions outside a configuration that refer to its
// root module's outputs as one object, by the reference Ref, and to
// nothing else of it: a later test run's assertions and the values its
// variables block gives, which name a run's outputs run.NAME.
type OutputReads struct {
	Ref   hcl.Traversal
	Exprs []hcl.Expression
}

// Result is everything an evaluation produced.
type Result struct {
	// Modules lists every module instance, root first, then in address order.
	Modules []*ModuleInstance
	// Resources lists every managed and data resource instance in address order.
	Resources []*ResourceInstance

	ev *evaluator
	// byAddr indexes Modules by address.
	byAddr map[string]*ModuleInstance

	// unexpandedErrors are those Options.ValidateUnexpanded found.
	unexpandedErrors hcl.Diagnostics

	// checks is what Checks computes on its first call.
	checksOnce sync.Once
	checks     []CheckResult

	// wholeNames is what wholeObjectAddrs identifies objects by, kept
	// once it no longer changes: a test file's assertion asks for every
	// element of a for expression.
	wholeNames atomic.Pointer[map[string]string]
}

// Root is the root module instance.
func (r *Result) Root() *ModuleInstance {
	if r == nil || len(r.Modules) == 0 {
		return nil
	}
	return r.Modules[0]
}

// Options are the options the evaluation was made with: its dialect,
// provider schemas, root variable values as given, and the functions'
// plan timestamp, which the output formats report.
func (r *Result) Options() Options {
	if r == nil || r.ev == nil {
		return Options{}
	}
	return r.ev.opts
}

// Module finds a module instance by address ("" is the root, e.g. `module.a[0].module.b`).
func (r *Result) Module(addr string) *ModuleInstance {
	if r == nil {
		return nil
	}
	if r.byAddr != nil {
		return r.byAddr[addr]
	}
	for _, m := range r.Modules {
		if m.Addr == addr {
			return m
		}
	}
	return nil
}

// ModuleInstance holds the final values of one instance of a module.
type ModuleInstance struct {
	// Addr is the instance address, "" for the root, e.g. `module.net["a"]`.
	Addr string
	// Path is the module's path in the configuration tree (call names).
	Path   []string
	Config *config.Config
	// Call is the module block that made the instance; nil for the root.
	// VariableRange finds its arguments.
	Call *config.ModuleCall

	Variables map[string]cty.Value
	Locals    map[string]cty.Value
	Outputs   map[string]cty.Value

	// Placeholder says the instance stands for the instances of a module
	// call whose count or for_each depends on a value tfeval did not read
	// (or is inside such an instance); its key is unknown, written [*].
	Placeholder bool

	parent    *ModuleInstance
	callKey   cty.Value // instance key in the parent's call; NilVal without count/for_each
	callEach  cty.Value // each.value for for_each instances
	resources map[string]*resourceState
	scoped    map[string]*resourceState // data resources of check blocks, by address
	calls     map[string]*callState

	// mu guards the maps above while nodes are evaluated in parallel.
	mu sync.RWMutex
	// wholeVar and wholeLocal are the var and local objects once
	// evaluation has finished, built on first use (see scope.final).
	wholeVar, wholeLocal cty.Value
	// finalCtx defines var and local once evaluation has finished; it is
	// only read, so expressions evaluated concurrently can share it.
	finalCtx *hcl.EvalContext
	// unread keeps the Unread marks found in named values (unreadOf).
	unread map[string][]marks.Unread
	// invalid names the variables whose validation failed.
	invalid map[string]bool
	// placeholderUnread, for a placeholder instance, is what the count or
	// for_each of the calls it stands in depends on.
	placeholderUnread []marks.Unread
	// readOutputs are the outputs whose value in Outputs is not the one
	// read from: an output holding a whole object of a resource without
	// schema, which Outputs has unknown (observedOutput), keeps the object
	// here for the attributes the caller reads of it.
	readOutputs map[string]cty.Value
}

// failValidation records that a variable's validation failed.
func (mi *ModuleInstance) failValidation(name string) {
	mi.mu.Lock()
	defer mi.mu.Unlock()
	if mi.invalid == nil {
		mi.invalid = map[string]bool{}
	}
	mi.invalid[name] = true
}

// validationFailed reports whether a variable's validation failed.
func (mi *ModuleInstance) validationFailed(name string) bool {
	mi.mu.RLock()
	defer mi.mu.RUnlock()
	return mi.invalid[name]
}

// finalContext returns the shared context with the whole var and local
// objects of a finished module instance.
func (mi *ModuleInstance) finalContext(fns map[string]function.Function) *hcl.EvalContext {
	vars, locals := mi.wholeObject("var"), mi.wholeObject("local")
	mi.mu.Lock()
	defer mi.mu.Unlock()
	if mi.finalCtx == nil {
		mi.finalCtx = &hcl.EvalContext{Functions: fns, Variables: map[string]cty.Value{"var": vars, "local": locals}}
	}
	return mi.finalCtx
}

// variableOrUnknown is a variable's value, unknown of its type while it has none.
func (mi *ModuleInstance) variableOrUnknown(name string, decl *config.Variable) cty.Value {
	if v, ok := mi.variable(name); ok {
		return v
	}
	if decl.Type == cty.NilType {
		return cty.DynamicVal
	}
	return cty.UnknownVal(decl.Type)
}

// wholeObject returns the whole "var" or "local" object of a finished
// module instance, with the same stand-ins refContext uses for missing values.
func (mi *ModuleInstance) wholeObject(root string) cty.Value {
	mi.mu.Lock()
	defer mi.mu.Unlock()
	mod := mi.Config.Module
	switch root {
	case "var":
		if mi.wholeVar == cty.NilVal {
			attrs := make(map[string]cty.Value, len(mod.Variables))
			for name, decl := range mod.Variables {
				v, ok := mi.Variables[name]
				if !ok {
					v = cty.UnknownVal(decl.Type)
					if decl.Type == cty.NilType {
						v = cty.DynamicVal
					}
				}
				attrs[name] = v
			}
			mi.wholeVar = cty.ObjectVal(attrs)
		}
		return mi.wholeVar
	default:
		if mi.wholeLocal == cty.NilVal {
			attrs := make(map[string]cty.Value, len(mod.Locals))
			for name := range mod.Locals {
				v, ok := mi.Locals[name]
				if !ok {
					v = cty.DynamicVal
				}
				attrs[name] = v
			}
			mi.wholeLocal = cty.ObjectVal(attrs)
		}
		return mi.wholeLocal
	}
}

// put and get are the locked accesses to one of the instance's value maps.
func (mi *ModuleInstance) put(m map[string]cty.Value, name string, v cty.Value) {
	mi.mu.Lock()
	m[name] = v
	mi.mu.Unlock()
}

func (mi *ModuleInstance) get(m map[string]cty.Value, name string) (cty.Value, bool) {
	mi.mu.RLock()
	defer mi.mu.RUnlock()
	v, ok := m[name]
	return v, ok
}

func (mi *ModuleInstance) setVariable(name string, v cty.Value) { mi.put(mi.Variables, name, v) }
func (mi *ModuleInstance) variable(name string) (cty.Value, bool) {
	return mi.get(mi.Variables, name)
}
func (mi *ModuleInstance) setLocal(name string, v cty.Value)   { mi.put(mi.Locals, name, v) }
func (mi *ModuleInstance) local(name string) (cty.Value, bool) { return mi.get(mi.Locals, name) }
func (mi *ModuleInstance) setOutput(name string, v cty.Value)  { mi.put(mi.Outputs, name, v) }

// output is the value of an output as it is read from: by the module's
// caller, by expressions evaluated in the module later.
func (mi *ModuleInstance) output(name string) (cty.Value, bool) {
	mi.mu.RLock()
	defer mi.mu.RUnlock()
	if v, ok := mi.readOutputs[name]; ok {
		return v, true
	}
	v, ok := mi.Outputs[name]
	return v, ok
}

// setReadOutput sets an output whose value as read from (read) differs
// from the one reported (observed).
func (mi *ModuleInstance) setReadOutput(name string, observed, read cty.Value) {
	mi.mu.Lock()
	defer mi.mu.Unlock()
	mi.Outputs[name] = observed
	if mi.readOutputs == nil {
		mi.readOutputs = map[string]cty.Value{}
	}
	mi.readOutputs[name] = read
}

// ReadOutputs are the module instance's outputs as expressions evaluated
// after the evaluation read attributes from them (a test run's
// assertions, a later run's run.NAME): Outputs, except that an output
// holding a whole object of a resource without schema, which Outputs has
// unknown because tfeval does not know every attribute of that object,
// holds the object as tfeval knows it, with the attributes the
// configuration and those expressions read. The map is Outputs itself
// when they are the same; it is not to be changed.
func (mi *ModuleInstance) ReadOutputs() map[string]cty.Value {
	mi.mu.RLock()
	defer mi.mu.RUnlock()
	if len(mi.readOutputs) == 0 {
		return mi.Outputs
	}
	out := make(map[string]cty.Value, len(mi.Outputs))
	for name, v := range mi.Outputs {
		out[name] = v
	}
	for name, v := range mi.readOutputs {
		out[name] = v
	}
	return out
}

func (mi *ModuleInstance) setResource(addr string, rs *resourceState) {
	mi.mu.Lock()
	mi.resources[addr] = rs
	mi.mu.Unlock()
}

func (mi *ModuleInstance) resource(addr string) *resourceState {
	mi.mu.RLock()
	defer mi.mu.RUnlock()
	return mi.resources[addr]
}

func (mi *ModuleInstance) setScoped(addr string, rs *resourceState) {
	mi.mu.Lock()
	mi.scoped[addr] = rs
	mi.mu.Unlock()
}

func (mi *ModuleInstance) scopedResource(addr string) *resourceState {
	mi.mu.RLock()
	defer mi.mu.RUnlock()
	return mi.scoped[addr]
}

func (mi *ModuleInstance) setCall(name string, cs *callState) {
	mi.mu.Lock()
	mi.calls[name] = cs
	mi.mu.Unlock()
}

func (mi *ModuleInstance) call(name string) *callState {
	mi.mu.RLock()
	defer mi.mu.RUnlock()
	return mi.calls[name]
}

// ResourceInstance is one planned managed or data resource instance.
type ResourceInstance struct {
	// Addr is the full address, e.g. `module.a[0].terraform_data.x["k"]`.
	Addr   string
	Module string // module instance address
	Mode   config.ResourceMode
	Type   string
	Name   string
	// Key is the instance key: a number (count), a string (for_each) or cty.NilVal.
	Key cty.Value
	// Value is the planned object, with unknowns and marks.
	Value cty.Value
	// DeclRange is the resource block's range.
	DeclRange hcl.Range
	// Config is the resource (or data) block the instance was made from;
	// Result.AttrRange finds where in it each attribute was written, and
	// Result.ResourceSchema finds its schema.
	Config *config.Resource
	// Placeholder says the instance stands for instances tfeval cannot
	// count: the count or for_each of its resource, or of a module call
	// around it, depends on a value tfeval did not read (see
	// marks.Unread). Its key is unknown and its address has [*] for it.
	Placeholder bool
	// Read says when Terraform reads a data source instance, and whether
	// tfeval had its result; DataReadNone for managed resources.
	Read DataRead
	// Import is set for an instance an import block brings under
	// management (terraform_data only): Value is then planned from the
	// object the import reads, not created.
	Import *Import
}

// DataRead says when Terraform reads a data source instance and what tfeval
// knows of the result.
type DataRead int

const (
	// DataReadNone is a managed resource instance's: nothing is read.
	DataReadNone DataRead = iota
	// DataReadPlan: Terraform reads it while planning, and its result was
	// given (Options.DataSources): Value holds it.
	DataReadPlan
	// DataReadUnknown: Terraform would read it while planning (or might,
	// when its configuration depends on something tfeval did not read),
	// but tfeval has no result: what it would read is unknown, marked
	// marks.Unread.
	DataReadUnknown
	// DataReadApplyConfigUnknown: Terraform reads it only during apply,
	// because its configuration has values known only after apply.
	DataReadApplyConfigUnknown
	// DataReadApplyDependency: Terraform reads it only during apply,
	// because depends_on (its own or a module call's) names an object with
	// a pending change.
	DataReadApplyDependency
)

// resourceState is the evaluated state of one resource block in one module instance.
type resourceState struct {
	cfg       *config.Resource
	schema    *Block
	expansion expansion
	instances []*ResourceInstance
	whole     cty.Value // what TYPE.NAME evaluates to
	resourceUnread
	// deferred is set on a data resource of which Terraform would read an
	// instance only during apply.
	deferred atomic.Bool
}

// callState is the expansion of one module call in one module instance.
type callState struct {
	cfg       *config.ModuleCall
	expansion expansion
	children  []*ModuleInstance
	// value is module.NAME once every output of every instance is set
	// (callValue).
	value atomic.Pointer[cty.Value]
}

// expansionMode says how many instances an object has.
type expansionMode int

const (
	expandSingle expansionMode = iota
	expandCount
	expandForEach
	expandUnknown // count or for_each unknown or invalid: the whole value is unknown
	// expandPlaceholder: count or for_each unknown because it depends on a
	// value tfeval did not read (marks.Unread). One placeholder instance,
	// whose key is unknown, stands for the instances.
	expandPlaceholder
)

// expansion is the evaluated count or for_each of a block.
type expansion struct {
	mode   expansionMode
	keys   []cty.Value // instance keys in order
	values []cty.Value // each.value per key (for_each)
	// counted says a placeholder stands for the instances of count (its
	// key is a number), not of for_each.
	counted bool
	// unread are the marks of what a placeholder's count or for_each
	// depends on.
	unread []marks.Unread
}

// multi reports whether the expansion's instances have keys.
func (e expansion) multi() bool {
	return e.mode == expandCount || e.mode == expandForEach || e.mode == expandPlaceholder
}
