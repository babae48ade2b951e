package format

import (
	"encoding/json"
	"errors"
	"sort"
	"strings"
	"time"

	"github.com/zclconf/go-cty/cty"

	"github.com/tfeval/tfeval/config"
	"github.com/tfeval/tfeval/dialect"
	"github.com/tfeval/tfeval/internal/address"
	"github.com/tfeval/tfeval/lang"
	"github.com/tfeval/tfeval/marks"
	"github.com/tfeval/tfeval/tfvars"
)

// PlanFormatVersion is the version of terraform show -json's plan format
// that Plan writes.
const PlanFormatVersion = "1.2"

// Plan is the document `terraform show -json PLANFILE` writes for a plan
// made from an empty state: every managed resource instance is created,
// every data source the dialect's binary would read during apply is read.
// Its fields are in the order the binary writes them; fields that the
// binary leaves out in a case are left out in the same case.
type Plan struct {
	FormatVersion    string `json:"format_version"`
	TerraformVersion string `json:"terraform_version"`
	// Variables are the root module's variable values as given (before
	// conversion to their types), or their defaults, by name.
	Variables       map[string]PlanVariable `json:"variables,omitempty"`
	PlannedValues   Values                  `json:"planned_values"`
	ResourceChanges []ResourceChange        `json:"resource_changes,omitempty"`
	// DeferredChanges are the placeholders of resources tfeval cannot count
	// (lang.ResourceInstance.Placeholder): the count or for_each of the
	// resource, or of a module call around it, depends on something tfeval
	// did not read. Terraform reports instances it defers the same way.
	DeferredChanges []DeferredChange  `json:"deferred_changes,omitempty"`
	OutputChanges   map[string]Change `json:"output_changes,omitempty"`
	PriorState      *State            `json:"prior_state,omitempty"`
	Configuration   Configuration     `json:"configuration"`
	RelevantAttrs   []ResourceAttr    `json:"relevant_attributes,omitempty"`
	Checks          []Check           `json:"checks,omitempty"`
	// Timestamp is when the plan was made (PlanOptions.Timestamp).
	Timestamp string `json:"timestamp,omitempty"`
	// Applyable says something changes; Complete that the plan covers
	// every instance (no DeferredChanges). OpenTofu writes neither: they
	// are nil in its dialect.
	Applyable *bool `json:"applyable,omitempty"`
	Complete  *bool `json:"complete,omitempty"`
	// Errored is always false: a configuration with errors has no plan.
	Errored bool `json:"errored"`
}

// PlanVariable is one root module variable's value.
type PlanVariable struct {
	Value json.RawMessage `json:"value"`
}

// Values are the planned (or, in State, prior) values of the outputs and
// resource instances.
type Values struct {
	Outputs    map[string]Output `json:"outputs,omitempty"`
	RootModule Module            `json:"root_module"`
}

// Output is one root module output's value: Type and Value are present
// when it is wholly known.
type Output struct {
	Sensitive bool            `json:"sensitive"`
	Type      json.RawMessage `json:"type,omitempty"`
	Value     json.RawMessage `json:"value,omitempty"`
}

// Module is the resource instances of one module instance, and the module
// instances it calls that have some.
type Module struct {
	Resources    []Resource `json:"resources,omitempty"`
	Address      string     `json:"address,omitempty"`
	ChildModules []*Module  `json:"child_modules,omitempty"`
}

// Resource is one resource instance's planned values.
type Resource struct {
	Address string `json:"address"`
	Mode    string `json:"mode"`
	Type    string `json:"type"`
	Name    string `json:"name"`
	// Index is the instance key, a number or a string; absent without
	// count or for_each.
	Index         any    `json:"index,omitempty"`
	ProviderName  string `json:"provider_name"`
	SchemaVersion int64  `json:"schema_version"`
	// Values are the known attributes; unknown ones are left out.
	Values          map[string]any `json:"values,omitempty"`
	SensitiveValues any            `json:"sensitive_values"`
}

// ResourceChange is the change planned for one resource instance.
type ResourceChange struct {
	Address       string `json:"address"`
	ModuleAddress string `json:"module_address,omitempty"`
	Mode          string `json:"mode"`
	Type          string `json:"type"`
	Name          string `json:"name"`
	Index         any    `json:"index,omitempty"`
	ProviderName  string `json:"provider_name"`
	Change        Change `json:"change"`
	// ActionReason says why a data source is read during apply
	// ("read_because_config_unknown", "read_because_dependency_pending"),
	// or why an imported object is replaced
	// ("replace_because_cannot_update").
	ActionReason string `json:"action_reason,omitempty"`
}

// Change is a planned change of a resource instance or an output: from
// nothing (Before is null) to After, whose unknown parts are left out and
// described by AfterUnknown, whose sensitive parts AfterSensitive describes.
type Change struct {
	Actions []string        `json:"actions"`
	Before  json.RawMessage `json:"before"`
	// After is absent when the value is wholly unknown.
	After           json.RawMessage `json:"after,omitempty"`
	AfterUnknown    any             `json:"after_unknown"`
	BeforeSensitive any             `json:"before_sensitive"`
	AfterSensitive  any             `json:"after_sensitive"`
	// ReplacePaths are the attributes whose change replaces the object.
	ReplacePaths [][]any `json:"replace_paths,omitempty"`
	// Importing is set for an object an import block brings under
	// management (lang.ResourceInstance.Import).
	Importing *Importing `json:"importing,omitempty"`
}

// Importing is the import of a resource instance: the id it reads.
type Importing struct {
	ID string `json:"id"`
}

// DeferredChange is a change the plan cannot make yet, with the reason.
type DeferredChange struct {
	// Reason is "instance_count_unknown" for a placeholder.
	Reason         string         `json:"reason"`
	ResourceChange ResourceChange `json:"resource_change"`
}

// State is the prior state: what a plan from an empty state starts with,
// the outputs whose values are known and the data sources read while
// planning.
type State struct {
	FormatVersion    string  `json:"format_version"`
	TerraformVersion string  `json:"terraform_version"`
	Values           *Values `json:"values,omitempty"`
}

// ResourceAttr is one attribute of a resource instance that the
// configuration refers to (relevant_attributes).
type ResourceAttr struct {
	Resource string `json:"resource"`
	// Attribute is the path into the resource's object: attribute and
	// nested block names and the indexes of nested blocks.
	Attribute []any `json:"attribute"`
}

// PlanOptions adjust what NewPlan writes.
type PlanOptions struct {
	// Timestamp is the plan's time, as plantimestamp() saw it; the zero
	// time leaves the field out.
	Timestamp time.Time
}

// NewPlan builds the plan document of an evaluation made as terraform plan
// does (not as the console). A configuration with errors has no plan:
// check the evaluation's diagnostics first, as the binaries stop there.
func NewPlan(res *lang.Result, opts PlanOptions) (*Plan, error) {
	if res == nil || res.Root() == nil {
		return nil, errors.New("format: no evaluated configuration to make a plan of")
	}
	lo := res.Options()
	d := lo.Dialect
	p := &Plan{
		FormatVersion:    PlanFormatVersion,
		TerraformVersion: d.Version(),
	}
	root := res.Root()
	p.Variables = planVariables(root, lo.RootVariables)
	p.Configuration = newConfiguration(res, d, lo.Schemas)

	// Resource instances, in address order.
	instances := append([]*lang.ResourceInstance(nil), res.Resources...)
	// The root module's first, then each module instance's in turn.
	sort.SliceStable(instances, func(i, j int) bool {
		a, b := instances[i], instances[j]
		if a.Module != b.Module {
			return a.Module < b.Module
		}
		return a.Addr < b.Addr
	})
	modules := map[string]*Module{"": &p.PlannedValues.RootModule}
	var prior map[string]*Module
	changed := false
	// The document holds each value's JSON once more than the evaluation
	// holds the value (a string shared by many resources is one string
	// there): their total is bounded by what the document may write.
	var held int64
	maxHeld := lo.Limits.WithDefaults().MaxOutputSize
	for _, ri := range instances {
		mi := res.Module(ri.Module)
		pr := resourceValues(ri, mi, lo.Schemas, d)
		rc := resourceChange(ri, pr)
		if held += int64(len(rc.Change.After)); held > maxHeld {
			return nil, &lang.OutputTooLarge{Max: maxHeld}
		}
		if d == dialect.Tofu && ri.Mode == config.DataResourceMode {
			// OpenTofu's planned values of a data source leave out the
			// attributes its schema alone makes sensitive.
			pr.SensitiveValues = sensitiveAsBool(withoutSchemaSensitivity(ri.Value, lo.Schemas, mi, ri))
		}
		if ri.Placeholder {
			p.DeferredChanges = append(p.DeferredChanges, DeferredChange{Reason: "instance_count_unknown", ResourceChange: rc})
			continue
		}
		moduleFor(modules, ri.Module).Resources = append(moduleFor(modules, ri.Module).Resources, pr)
		if ri.Read == lang.DataReadPlan || ri.Import != nil {
			// Read while planning (a data source, an imported object):
			// part of the prior state.
			if prior == nil {
				prior = map[string]*Module{"": {}}
			}
			read := pr
			if ri.Import != nil {
				read.Values, _ = knownJSON(ri.Import.Prior).(map[string]any)
				read.SensitiveValues = sensitiveAsBool(ri.Import.Prior)
			}
			moduleFor(prior, ri.Module).Resources = append(moduleFor(prior, ri.Module).Resources, read)
			if ri.Import == nil {
				continue
			}
		}
		p.ResourceChanges = append(p.ResourceChanges, rc)
		changed = true
	}
	sortModules(&p.PlannedValues.RootModule)

	// Outputs of the root module.
	var priorOutputs map[string]Output
	decls := root.Config.Module.Outputs
	for _, name := range sortedKeys(root.Outputs) {
		v := root.Outputs[name]
		sensitive := decls[name] != nil && decls[name].Sensitive
		if decls[name] != nil && decls[name].Ephemeral {
			continue
		}
		out := Output{Sensitive: sensitive}
		if tj, vj, ok := typedJSON(v); ok {
			out.Type, out.Value = tj, vj
			if uv, _ := v.UnmarkDeep(); !uv.IsNull() {
				if priorOutputs == nil {
					priorOutputs = map[string]Output{}
				}
				priorOutputs[name] = out
			}
		}
		if p.PlannedValues.Outputs == nil {
			p.PlannedValues.Outputs = map[string]Output{}
			p.OutputChanges = map[string]Change{}
		}
		p.PlannedValues.Outputs[name] = out
		ch := valueChange(v, sensitive)
		if held += int64(len(out.Value) + len(ch.After)); held > maxHeld {
			return nil, &lang.OutputTooLarge{Max: maxHeld}
		}
		if ch.Actions[0] != "no-op" {
			changed = true
		}
		p.OutputChanges[name] = ch
	}
	if priorOutputs != nil || prior != nil {
		p.PriorState = &State{FormatVersion: "1.0", TerraformVersion: d.Version(), Values: &Values{Outputs: priorOutputs}}
		if prior != nil {
			p.PriorState.Values.RootModule = *prior[""]
			sortModules(&p.PriorState.Values.RootModule)
		}
	}

	p.RelevantAttrs = relevantAttributes(res, lo.Schemas, d)
	p.Checks = planChecks(res.Checks())
	if !opts.Timestamp.IsZero() {
		p.Timestamp = opts.Timestamp.UTC().Format(time.RFC3339)
	}
	if d != dialect.Tofu {
		// OpenTofu's document has neither field.
		complete := len(p.DeferredChanges) == 0
		p.Applyable, p.Complete = &changed, &complete
	}
	return p, nil
}

// planVariables are the root variables' values as the plan records them:
// the value given, as parsed but not converted, or the default converted
// to the variable's type.
func planVariables(root *lang.ModuleInstance, raw map[string]*tfvars.Value) map[string]PlanVariable {
	decls := root.Config.Module.Variables
	if len(decls) == 0 {
		return nil
	}
	out := make(map[string]PlanVariable, len(decls))
	for name, decl := range decls {
		v := cty.NilVal
		if given := raw[name]; given != nil {
			v = given.Value
			if given.Unparsed || v == cty.NilVal {
				parsed, diags := tfvars.ParseString(name, given.Raw, decl.ParsingMode)
				if !diags.HasErrors() {
					v = parsed
				}
			}
		}
		if v == cty.NilVal {
			v = root.Variables[name]
		}
		if v == cty.NilVal {
			continue
		}
		vj, ok := plainJSON(v)
		if !ok {
			vj = json.RawMessage("null")
		}
		out[name] = PlanVariable{Value: vj}
	}
	return out
}

// moduleFor finds or makes the planned values of a module instance and of
// the instances above it.
func moduleFor(modules map[string]*Module, addr string) *Module {
	if m := modules[addr]; m != nil {
		return m
	}
	parent := moduleFor(modules, parentModule(addr))
	m := &Module{Address: addr}
	parent.ChildModules = append(parent.ChildModules, m)
	modules[addr] = m
	return m
}

// parentModule is the address of the module instance that calls addr.
func parentModule(addr string) string {
	steps := splitModuleAddr(addr)
	if len(steps) <= 1 {
		return ""
	}
	return strings.Join(steps[:len(steps)-1], ".")
}

// splitModuleAddr splits a module instance address into its calls:
// `module.a["x.y"].module.b` into `module.a["x.y"]` and `module.b`.
func splitModuleAddr(addr string) []string {
	parts := address.Steps(addr)
	var out []string
	for i := 0; i+1 < len(parts); i += 2 {
		out = append(out, parts[i]+"."+parts[i+1])
	}
	return out
}

// sortModules puts child modules in address order, all the way down.
func sortModules(m *Module) {
	sort.Slice(m.ChildModules, func(i, j int) bool { return m.ChildModules[i].Address < m.ChildModules[j].Address })
	for _, c := range m.ChildModules {
		sortModules(c)
	}
}

// resourceValues is one instance's planned values.
func resourceValues(ri *lang.ResourceInstance, mi *lang.ModuleInstance, schemas *lang.ProviderSchemas, d dialect.Dialect) Resource {
	r := Resource{
		Address: ri.Addr, Mode: modeName(ri.Mode), Type: ri.Type, Name: ri.Name,
		Index:           instanceKey(ri.Key),
		SensitiveValues: sensitiveAsBool(ri.Value),
	}
	if mi != nil {
		if res := findResource(mi.Config.Module, ri); res != nil {
			r.ProviderName = providerFullName(mi.Config, lang.ResourceProviderName(res), d)
			if s := schemas.ResourceSchema(mi.Config.Module, res); s != nil {
				r.SchemaVersion = s.Version
			}
		}
	}
	if m, ok := knownJSON(ri.Value).(map[string]any); ok && len(m) > 0 {
		r.Values = m
	}
	return r
}

// resourceChange is the change planned for one instance.
func resourceChange(ri *lang.ResourceInstance, pr Resource) ResourceChange {
	rc := ResourceChange{
		Address: ri.Addr, ModuleAddress: ri.Module, Mode: pr.Mode, Type: ri.Type, Name: ri.Name,
		Index: pr.Index, ProviderName: pr.ProviderName,
	}
	after, _ := json.Marshal(knownJSON(ri.Value))
	if string(after) == "null" {
		after = []byte("{}")
	}
	rc.Change = Change{
		Actions:         []string{"create"},
		Before:          json.RawMessage("null"),
		After:           after,
		AfterUnknown:    unknownAsBool(ri.Value),
		BeforeSensitive: false,
		AfterSensitive:  pr.SensitiveValues,
	}
	if imp := ri.Import; imp != nil {
		rc.Change.Before, _ = json.Marshal(knownJSON(imp.Prior))
		rc.Change.BeforeSensitive = sensitiveAsBool(imp.Prior)
		rc.Change.Importing = &Importing{ID: imp.ID}
		switch {
		case len(imp.ReplacePaths) > 0:
			rc.Change.Actions = []string{"delete", "create"}
			for _, p := range imp.ReplacePaths {
				rc.Change.ReplacePaths = append(rc.Change.ReplacePaths, pathSteps(p))
			}
			rc.ActionReason = "replace_because_cannot_update"
		case ri.Value.IsWhollyKnown() && string(after) == string(rc.Change.Before):
			rc.Change.Actions = []string{"no-op"}
		default:
			rc.Change.Actions = []string{"update"}
		}
	}
	if ri.Mode == config.DataResourceMode {
		rc.Change.Actions = []string{"read"}
		switch ri.Read {
		case lang.DataReadApplyConfigUnknown:
			rc.ActionReason = "read_because_config_unknown"
		case lang.DataReadApplyDependency:
			rc.ActionReason = "read_because_dependency_pending"
		}
	}
	return rc
}

// valueChange is an output's change from nothing to v.
func valueChange(v cty.Value, sensitive bool) Change {
	ch := Change{
		Actions:         []string{"create"},
		Before:          json.RawMessage("null"),
		AfterUnknown:    false,
		BeforeSensitive: false,
		AfterSensitive:  false,
	}
	// Unlike a resource's, an output's value is described as a whole
	// (false) unless some part of it is unknown or sensitive.
	if !v.IsWhollyKnown() {
		ch.AfterUnknown = unknownAsBool(v)
	}
	if marks.Contains(v, marks.Sensitive) {
		ch.AfterSensitive = sensitiveAsBool(v)
	}
	if sensitive {
		ch.BeforeSensitive, ch.AfterSensitive = true, true
	}
	if uv, _ := v.Unmark(); uv.IsKnown() {
		ch.After, _ = json.Marshal(knownJSON(v))
		if uv.IsNull() {
			ch.Actions = []string{"no-op"}
		}
	}
	return ch
}

// instanceKey is an instance key as show -json writes it: a number, a
// string, or nil without one.
func instanceKey(k cty.Value) any {
	if k == cty.NilVal || !k.IsKnown() || k.IsNull() {
		return nil
	}
	switch k.Type() {
	case cty.Number:
		if i, acc := k.AsBigFloat().Int64(); acc == 0 {
			return i
		}
		return knownJSON(k)
	case cty.String:
		return k.AsString()
	}
	return nil
}

// modeName is how show -json names a resource mode.
func modeName(m config.ResourceMode) string {
	switch m {
	case config.DataResourceMode:
		return "data"
	case config.EphemeralResourceMode:
		return "ephemeral"
	}
	return "managed"
}

// findResource is the block of a resource instance in its module.
func findResource(m *config.Module, ri *lang.ResourceInstance) *config.Resource {
	switch ri.Mode {
	case config.DataResourceMode:
		return m.DataResources["data."+ri.Type+"."+ri.Name]
	case config.EphemeralResourceMode:
		return m.EphemeralResources["ephemeral."+ri.Type+"."+ri.Name]
	}
	return m.ManagedResources[ri.Type+"."+ri.Name]
}

// withoutSchemaSensitivity is a resource instance's value without the
// sensitive marks of the attributes its schema declares sensitive (or,
// without the schema, the table of it).
func withoutSchemaSensitivity(v cty.Value, schemas *lang.ProviderSchemas, mi *lang.ModuleInstance, ri *lang.ResourceInstance) cty.Value {
	if mi == nil {
		return v
	}
	res := findResource(mi.Config.Module, ri)
	if res == nil {
		return v
	}
	s := schemas.ResourceSchema(mi.Config.Module, res)
	if s == nil {
		// Without it, the table of the provider's schema marked them.
		s = lang.TableSensitiveOf(mi.Config, res)
	}
	uv, vm := v.Unmark()
	if s == nil || !uv.IsKnown() || uv.IsNull() || !uv.Type().IsObjectType() {
		return v
	}
	attrs := uv.AsValueMap()
	for name, a := range s.Attributes {
		if av, ok := attrs[name]; ok && a.Sensitive {
			inner, am := av.Unmark()
			delete(am, marks.Sensitive)
			attrs[name] = inner.WithMarks(am)
		}
	}
	return cty.ObjectVal(attrs).WithMarks(vm)
}

// pathSteps writes a path as show -json writes one: attribute names and
// indexes (numbers or strings).
func pathSteps(p cty.Path) []any {
	out := make([]any, 0, len(p))
	for _, step := range p {
		switch s := step.(type) {
		case cty.GetAttrStep:
			out = append(out, s.Name)
		case cty.IndexStep:
			out = append(out, instanceKey(s.Key))
		}
	}
	return out
}
