package lang

import (
	"fmt"
	"runtime"
	"slices"
	"sync"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hcldec"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/tfeval/tfeval/config"
	"github.com/tfeval/tfeval/internal/attrmap"
	"github.com/tfeval/tfeval/internal/elements"
	"github.com/tfeval/tfeval/marks"
)

// evalResource plans every instance of a resource block in a module instance.
func (ev *evaluator) evalResource(mi *ModuleInstance, n *node) {
	res := findResource(mi.Config.Module, n.name)
	if n.selfRef {
		ev.addDiag(&hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Self-referential block", Detail: fmt.Sprintf("Configuration for %s may not refer to itself.", res.Addr()), Subject: res.DeclRange.Ptr()})
		mi.setResource(n.name, &resourceState{cfg: res, expansion: expansion{mode: expandUnknown}, whole: ev.errorStandIn(mi.Config, res.Addr(), cty.DynamicPseudoType)})
		return
	}
	if ev.unconfigured[n] {
		// Reported before the walk (checkProviderConfigs).
		mi.setResource(n.name, &resourceState{cfg: res, expansion: expansion{mode: expandUnknown}, whole: ev.errorStandIn(mi.Config, res.Addr(), cty.DynamicPseudoType)})
		n.failed.Store(true)
		return
	}
	// A type the provider's schema lacks is reported with the walk's
	// diagnostics (reportResourceTypes); what depends on the resource is
	// not evaluated, as after any failed object.
	unsupported := ev.unsupportedType(mi.Config.Module, res) != nil
	mi.setResource(n.name, ev.planResource(mi, res, ev.scope(mi), unsupported))
	if unsupported {
		n.failed.Store(true)
	}
}

// planResource expands a resource and plans each instance; of a resource
// whose type its provider does not support (unsupported), Terraform
// evaluates the count or for_each and nothing more.
func (ev *evaluator) planResource(mi *ModuleInstance, res *config.Resource, s *scope, unsupported bool) *resourceState {
	info := ev.resourceInfo(mi.Config, res)
	rs := &resourceState{cfg: res, schema: info.schema}
	if ev.opts.Console && !(res.Mode == config.DataResourceMode && ev.data != nil) {
		// The console evaluates against an empty state: no resource has a
		// value yet, but for data sources whose results were given.
		rs.expansion = expansion{mode: expandUnknown}
		rs.whole = cty.DynamicVal
		return rs
	}
	var exp expansion
	var diags hcl.Diagnostics
	switch {
	case ev.countsChecked[res]:
		// The plan evaluated the count or for_each, to no instance:
		// validate's one instance is all it can give.
		exp = s.placeholder(nil, "", nil, res.Count != nil)
	case res.Count == nil && res.ForEach == nil && res.Enabled != nil:
		exp, diags = s.expandEnabled(res.Enabled)
	default:
		exp, diags = s.expand(res.Count, res.ForEach, res.Addr())
	}
	ev.addDiags(diags)
	if unsupported {
		ev.validateUnsupportedRules(mi, res, s)
		exp = expansion{mode: expandUnknown}
	}
	rs.expansion = exp
	if exp.mode == expandUnknown {
		rs.whole = ev.errorStandIn(mi.Config, res.Addr(), cty.DynamicPseudoType)
		return rs
	}
	vals := make([]cty.Value, len(exp.keys))
	rs.instances = make([]*ResourceInstance, len(exp.keys))
	ictx := &instanceContext{}
	// Every instance's address is this prefix and its key.
	prefix := res.Addr()
	if mi.Addr != "" {
		prefix = mi.Addr + "." + prefix
	}
	var imported map[string]string
	if res.Mode == config.ManagedResourceMode && isBuiltinType(res.Type) && len(ev.cfg.Module.Import) > 0 {
		imported = ev.importIDs(mi.Config, res)
	}
	// The instances' scopes and results, each made in one allocation
	// rather than one per instance.
	scopes := make([]scope, len(exp.keys))
	insts := make([]ResourceInstance, len(exp.keys))
	plan := func(ev *evaluator, i int) {
		var read DataRead
		addr := instanceAddr(prefix, exp.keys[i])
		var imp *Import
		if id, ok := imported[addr]; ok {
			imp = &Import{ID: id}
		}
		if ev.limits.stopped() == nil {
			scopes[i] = s.keyed(exp, i)
			vals[i], read = ev.planKey(rs, info, &scopes[i], exp.keys[i], ictx, imp)
		} else {
			vals[i], imp = cty.DynamicVal, nil // stopped at a limit, reported once
		}
		insts[i] = ResourceInstance{Addr: addr, Module: mi.Addr, Mode: res.Mode, Type: res.Type, Name: res.Name, Key: exp.keys[i], Value: vals[i], DeclRange: res.DeclRange, Config: res, Placeholder: mi.Placeholder || exp.mode == expandPlaceholder, Read: read, Import: imp}
		rs.instances[i] = &insts[i]
	}
	if len(exp.keys) > 0 {
		// The first instance resolves the references the others share.
		start := len(ev.diags)
		plan(ev, 0)
		if exp.mode == expandPlaceholder {
			markPlaceholder(ev.diags[start:], exp.unread)
		}
	}
	ev.inParallel(1, len(exp.keys), ictx.ready(), plan)
	if info.schema == nil {
		alignInstances(vals, func() cty.ValueMarks { return ev.unreadMarks(mi.Config, res, unreadCause(res)) })
	}
	rs.whole = wholeValue(exp, vals)
	if exp.mode == expandSingle && len(vals) == 0 && info.schema != nil {
		rs.whole = cty.NullVal(info.schema.ImpliedType())
	}
	if ev.opts.Validate && exp.mode == expandSingle {
		rs.whole = ev.unplannedValue(res, info)
	}
	return rs
}

// resourceTypeReport is a resource whose type its provider's schema lacks,
// with Terraform's error for it (checkResourceTypes).
type resourceTypeReport struct {
	n *node
	d *hcl.Diagnostic
}

// checkResourceTypes finds every resource of the graph whose type its
// provider's schema, given, does not have, for reportResourceTypes to
// report once the walk is done.
func (ev *evaluator) checkResourceTypes(g *graph) []resourceTypeReport {
	if ev.opts.Schemas == nil {
		return nil
	}
	var found []resourceTypeReport
	for _, n := range g.nodes {
		if n.kind != nodeResource {
			continue
		}
		if d := ev.unsupportedType(n.cfg.Module, findResource(n.cfg.Module, n.name)); d != nil {
			found = append(found, resourceTypeReport{n, d})
		}
	}
	return found
}

// reportResourceTypes reports the resources checkResourceTypes found, at
// position at of the diagnostics, before those of the walk. Terraform
// reports such a type in its graph walk, where without a schema it knows
// only the references of the block's meta-arguments (count, for_each,
// depends_on, conditions, provisioners), not of its body: a resource is
// reported unless one of those names an object that failed, whatever its
// body refers to.
func (ev *evaluator) reportResourceTypes(g *graph, found []resourceTypeReport, at int) {
	var kept hcl.Diagnostics
	var buf []*node
	for _, r := range found {
		res := findResource(r.n.cfg.Module, r.n.name)
		failed := false
		for _, pr := range ev.metaRefs(r.n.cfg.Module, res) {
			if pr.ref == nil {
				continue
			}
			buf = g.targets(buf[:0], r.n.cfg, pr.ref)
			for _, t := range buf {
				failed = failed || t != nil && t != r.n && t.failed.Load()
			}
		}
		if !failed {
			kept = append(kept, r.d)
		}
	}
	if len(kept) > 0 {
		ev.diags = slices.Insert(ev.diags, at, kept...)
	}
}

// metaRefs are the references of a resource block of m that need no
// schema: its count, for_each, enabled, depends_on, conditions and
// provisioner and connection blocks.
func (ev *evaluator) metaRefs(m *config.Module, res *config.Resource) []parsedRef {
	refs := parseRefs(res.DependsOn, ev.opts.Dialect)
	for _, e := range []hcl.Expression{res.Count, res.ForEach, res.Enabled} {
		if e != nil {
			refs = append(refs, ev.exprRefs(m, e)...)
		}
	}
	for _, rule := range slices.Concat(res.Preconditions, res.Postconditions) {
		for _, e := range []hcl.Expression{rule.Condition, rule.ErrorMessage} {
			if e != nil {
				refs = append(refs, ev.exprRefs(m, e)...)
			}
		}
	}
	for _, body := range provisionerBodies(res) {
		refs = append(refs, parseRefs(config.BodyTraversals(body), ev.opts.Dialect)...)
	}
	return refs
}

// unsupportedType is Terraform's error for a managed or data resource whose
// type its provider's schema, given, does not have ("aws_s3_bukcet"); nil
// without that provider's schema.
func (ev *evaluator) unsupportedType(m *config.Module, res *config.Resource) *hcl.Diagnostic {
	if res.Mode == config.ManagedResourceMode && isBuiltinType(res.Type) {
		return nil
	}
	local := resourceProviderName(res)
	ps := ev.opts.Schemas.provider(m, local)
	if ps == nil || ps.Partial {
		return nil
	}
	provider := providerKey(providerSource(m, local))
	switch res.Mode {
	case config.ManagedResourceMode:
		if ps.Resources[res.Type] == nil {
			return &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid resource type", Detail: fmt.Sprintf("The provider %s does not support resource type %q.", provider, res.Type), Subject: res.TypeRange.Ptr()}
		}
	case config.DataResourceMode:
		if ps.DataSources[res.Type] == nil {
			return &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid data source", Detail: fmt.Sprintf("The provider %s does not support data source %q.", provider, res.Type), Subject: res.TypeRange.Ptr()}
		}
	case config.EphemeralResourceMode:
		if ps.EphemeralResources[res.Type] == nil {
			return &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid ephemeral resource", Detail: fmt.Sprintf("The provider %s does not support ephemeral resource %q.", provider, res.Type), Subject: res.TypeRange.Ptr()}
		}
	}
	return nil
}

// validateUnsupportedRules checks the preconditions and postconditions of a
// resource whose type its provider does not support, as Terraform still
// does for such a block: with unknown count.index and each, and without
// self, whose schema is missing. A reference to self is then an error
// found before any value is resolved, like a reference to an undeclared
// resource, and Terraform evaluates such a condition with no named value
// at all: each of its references is an "Unknown variable".
func (ev *evaluator) validateUnsupportedRules(mi *ModuleInstance, res *config.Resource, s *scope) {
	if len(res.Preconditions)+len(res.Postconditions) == 0 {
		return
	}
	ks := *s
	if res.Count != nil || res.ForEach != nil {
		ks = s.keyed(s.placeholder(nil, "", nil, res.Count != nil), 0)
	}
	for _, rule := range res.Preconditions {
		ev.validateRule(&ks, rule, false)
	}
	if len(res.Postconditions) == 0 {
		return
	}
	kind := map[config.ResourceMode]string{config.ManagedResourceMode: "A managed resource", config.DataResourceMode: "A data resource", config.EphemeralResourceMode: "An ephemeral resource"}[res.Mode]
	detail := fmt.Sprintf("%s type %q is not supported by provider %q.", kind, res.Type, providerAddress(mi.Config.Module, resourceProviderName(res), ev.opts.Dialect))
	ks.setRare(func(r *scopeRare) { r.selfUnsupported = detail })
	for _, rule := range res.Postconditions {
		ev.validateRule(&ks, rule, false)
	}
}

// unplannedValue is what a single resource evaluates to in terraform
// validate, which plans nothing: unknown.
func (ev *evaluator) unplannedValue(res *config.Resource, info *resourceInfo) cty.Value {
	v := cty.DynamicVal
	if info.schema != nil {
		v = cty.UnknownVal(info.schema.ImpliedType())
		if ev.texts().tofu() {
			// OpenTofu's validate keeps the schema's sensitive
			// attributes marked in the unknown object.
			v = unknownObject(info.schema)
		}
	}
	if res.Mode == config.EphemeralResourceMode {
		ev.madeEphemeral()
		v = v.Mark(marks.Ephemeral)
	}
	return v
}

// unplannedState is the state terraform validate gives a resource, as
// what refers to it sees it, without evaluating its configuration: a
// multi-instance resource's one placeholder instance has an unknown key,
// so its whole value is unknown too.
func (ev *evaluator) unplannedState(mi *ModuleInstance, res *config.Resource) *resourceState {
	info := ev.resourceInfo(mi.Config, res)
	rs := &resourceState{cfg: res, schema: info.schema}
	if res.Count != nil || res.ForEach != nil {
		rs.expansion = expansion{mode: expandPlaceholder, counted: res.Count != nil}
		rs.whole = cty.DynamicVal
		return rs
	}
	rs.expansion = expansion{mode: expandSingle, keys: []cty.Value{cty.NilVal}, values: []cty.Value{cty.NilVal}}
	rs.whole = ev.unplannedValue(res, info)
	return rs
}

// minParallelInstances is the expansion size from which the instances of
// one resource are planned on several goroutines: below it, a node's
// instances cost less than handing them out.
const minParallelInstances = 256

// inParallel calls plan for each index in [from, to): on GOMAXPROCS
// goroutines when the range is large and ok is set, each with its own
// buffered copy of the evaluator, whose diagnostics are then added in index
// order, so the outcome is the same as calling plan in turn.
func (ev *evaluator) inParallel(from, to int, ok bool, plan func(*evaluator, int)) {
	workers := min(runtime.GOMAXPROCS(0), (to-from)/(minParallelInstances/2))
	if !ok || to-from < minParallelInstances || workers < 2 {
		for i := from; i < to; i++ {
			plan(ev, i)
		}
		return
	}
	chunk := (to - from + workers - 1) / workers
	tasks := make([]*evaluator, workers)
	var wg sync.WaitGroup
	for w := range workers {
		lo, hi := from+w*chunk, min(from+(w+1)*chunk, to)
		task := ev.buffer()
		tasks[w] = task
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() {
				// As evalNodeIn does for the node: a panic is an error.
				if r := recover(); r != nil {
					task.diags = append(task.diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Evaluation failed", Detail: fmt.Sprintf("tfeval could not plan an instance: %v. This is a bug in tfeval: please report it with the configuration that caused it.", r)})
				}
			}()
			for i := lo; i < hi; i++ {
				plan(task, i)
			}
		}()
	}
	wg.Wait()
	for _, task := range tasks {
		ev.merge(task)
	}
}

// planKey checks the preconditions of one instance, plans it (as the
// import imp brings it under management, when not nil), and checks its
// postconditions and provisioners.
func (ev *evaluator) planKey(rs *resourceState, info *resourceInfo, is *scope, key cty.Value, ictx *instanceContext, imp *Import) (cty.Value, DataRead) {
	res := rs.cfg
	ok := true
	for _, rule := range res.Preconditions {
		if ev.opts.Validate {
			ev.validateRule(is, rule, false)
		} else if !ev.checkRule(is, rule, res.Addr(), hcl.DiagError, "Resource precondition failed") {
			ok = false
		}
	}
	if !ok {
		// Terraform's validate walk, before the plan, has found what is
		// wrong with the postconditions' references too.
		ps := *is
		ps.setRare(func(r *scopeRare) { r.self = cty.DynamicVal })
		for _, rule := range res.Postconditions {
			ev.addDiags(ps.refProblems(rule.Condition, true))
			ev.checkMessageRefs(&ps, rule, true)
		}
		return ev.errorStandIn(is.mod.Config, res.Addr(), cty.DynamicPseudoType), DataReadNone
	}
	v, read := ev.planInstance(is, rs, info, key, ictx, imp)
	if len(res.Postconditions) > 0 {
		ps := *is
		ps.setRare(func(r *scopeRare) { r.self = v })
		for _, rule := range res.Postconditions {
			if ev.opts.Validate {
				ev.validateRule(&ps, rule, false)
			} else {
				ev.checkRule(&ps, rule, res.Addr(), hcl.DiagError, "Resource postcondition failed")
			}
		}
	}
	ev.checkProvisioners(is, res, v)
	ev.checkReplaceTriggers(is, res)
	return v, read
}

// planInstance evaluates one instance's configuration and turns it into the
// planned value: what the configuration sets is known, what the provider
// computes is unknown. For a data source it also says when Terraform reads it.
// An imported terraform_data instance (imp not nil) is planned from the
// object the import reads.
func (ev *evaluator) planInstance(s *scope, rs *resourceState, info *resourceInfo, key cty.Value, ictx *instanceContext, imp *Import) (cty.Value, DataRead) {
	res := rs.cfg
	if res.Config == nil {
		return cty.DynamicVal, DataReadNone
	}
	schema := info.schema
	errorsOnly := ev.valueUnread(res)
	d, diags := s.evalResourceBody(res.Config, info, ictx, errorsOnly)
	ev.addDiags(diags)
	if diags.HasErrors() {
		ty := cty.DynamicPseudoType
		if schema != nil {
			ty = schema.ImpliedType()
		}
		return ev.errorStandIn(s.mod.Config, res.Addr(), ty), DataReadNone
	}
	if errorsOnly {
		if schema != nil {
			ev.checkReadOnly(res, info, d)
		}
		attrmap.Release(d.attrs, len(d.attrs))
		return cty.DynamicVal, DataReadNone
	}
	configKnown := true
	if res.Mode == config.EphemeralResourceMode {
		ucfg, _ := d.value().UnmarkDeep()
		configKnown = ucfg.IsWhollyKnown()
	}
	var read dataReadState
	if res.Mode == config.DataResourceMode {
		read = ev.dataRead(s.mod, res, d.value())
		if read.deferred {
			rs.deferred.Store(true)
		}
	}
	var args cty.Value
	if ev.opts.Instances != nil {
		args = d.value() // planning may change the decoded attributes in place
	}
	var v cty.Value
	// Only a managed resource has write-only arguments, and only a
	// configuration with an ephemeral value can set one.
	writeOnly := res.Mode == config.ManagedResourceMode && ev.share().ephemeral.Load()
	switch {
	case schema == nil && d.attrs != nil:
		v = openAttributes(d.attrs, info.spec, s.ev.reads().tree(res), s.ev.plannedUnknowns(s.mod.Config, res, info, writeOnly))
	case schema == nil:
		v = openObject(d.v, info.spec, s.ev.reads().tree(res), s.ev.plannedUnknowns(s.mod.Config, res, info, writeOnly))
	case res.Mode == config.ManagedResourceMode && isBuiltinType(res.Type):
		ev.checkReadOnly(res, info, d)
		finish := planTerraformData
		if imp != nil {
			finish = importTerraformData(imp)
		}
		v = planObjectWith(schema, d, finish, false)
	default:
		ev.checkReadOnly(res, info, d)
		// Terraform validates without planning: the provider's
		// conventions apply to a plan only.
		sdk := res.Mode == config.ManagedResourceMode && !ev.opts.Validate && !ev.opts.PlanAsWritten
		v = planObjectWith(schema, d, nil, sdk)
		if sdk {
			v = ev.markProviderPlanned(s.mod.Config, res, schema, v)
		}
	}
	// The decoded attributes are in v now, copied by cty.ObjectVal.
	attrmap.Release(d.attrs, len(d.attrs))
	when := DataReadNone
	if res.Mode == config.DataResourceMode {
		v, when, diags = ev.planData(s.mod, res, key, schema, v, read)
		ev.addDiags(diags)
	}
	if info.sensitive != nil {
		// Without the schema, its sensitive attributes as the
		// provider's table has them.
		v = MarkSensitive(info.sensitive, v)
	}
	if info.writeOnly != nil {
		// Without the schema, its write-only arguments as the
		// provider's table has them: null, never planned.
		v = NullWriteOnly(info.writeOnly, v)
	}
	v = ev.hookInstance(s, rs, key, args, v, when)
	if res.Mode == config.EphemeralResourceMode {
		if !configKnown {
			// Not opened during plan: nothing is known about its result.
			// (Terraform does not mark this stand-in ephemeral: what it
			// gives ephemeralasnull stays unknown.)
			if schema != nil {
				return cty.UnknownVal(schema.ImpliedType()), DataReadNone
			}
			return cty.DynamicVal, DataReadNone
		}
		ev.madeEphemeral()
		return v.Mark(marks.Ephemeral), DataReadNone
	}
	if schema != nil || res.Mode != config.ManagedResourceMode {
		// Without a schema an argument may be write-only, which takes
		// ephemeral values.
		ev.checkEphemeral(res, v)
	}
	return v, when
}

// valueUnread reports whether, in an evaluation for errors only, the
// planned value of an instance of res is read by nothing: not by a
// postcondition, a provisioner or connection block (their self), the
// check for ephemeral values in its attributes (which only a
// configuration with an ephemeral value can fail), nor an ephemeral
// resource's marking. The body's errors, its decoding's and the
// read-only attributes', are all the instance has to give then.
func (ev *evaluator) valueUnread(res *config.Resource) bool {
	return ev.errorsOnly && res.Mode != config.EphemeralResourceMode && len(res.Postconditions) == 0 && len(provisionerBodies(res)) == 0 && !ev.share().ephemeral.Load()
}

// checkReadOnly reports computed-only attributes set in configuration.
func (ev *evaluator) checkReadOnly(res *config.Resource, info *resourceInfo, d decodedBody) {
	if len(info.readOnly) == 0 || !d.known() {
		return
	}
	for _, name := range info.readOnly {
		if av, ok := d.get(name); ok && !av.IsNull() {
			ev.addDiag(&hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid Configuration for Read-Only Attribute", Detail: fmt.Sprintf("Cannot set value for this attribute as the provider has marked it as read-only. Remove the configuration line setting the value.\n\nRefer to the provider documentation or contact the provider developers for additional information about configurable and read-only attributes that are supported.\nAttribute: %s", name), Subject: res.DeclRange.Ptr()})
		}
	}
}

// madeEphemeral records that a value has been marked ephemeral. Every
// place that marks one calls it first, and whatever derives a value from
// it is evaluated after it.
func (ev *evaluator) madeEphemeral() {
	ev.share().ephemeral.Store(true)
}

// checkEphemeral reports ephemeral values in a resource's attributes.
func (ev *evaluator) checkEphemeral(res *config.Resource, v cty.Value) {
	if !ev.share().ephemeral.Load() {
		// Searching every instance's value deeply costs more than a few
		// percent of an evaluation, and a configuration without an
		// ephemeral value cannot fail the check.
		return
	}
	if v.HasMark(marks.Ephemeral) {
		sum, det := ev.texts().ephemeralAttr("")
		ev.addDiag(&hcl.Diagnostic{Severity: hcl.DiagError, Summary: sum, Detail: det, Subject: res.DeclRange.Ptr()})
		return
	}
	if !marks.Contains(v, marks.Ephemeral) {
		return
	}
	_, pvms := v.UnmarkDeepWithPaths()
	for _, pvm := range pvms {
		if _, ok := pvm.Marks[marks.Ephemeral]; !ok || len(pvm.Path) == 0 {
			continue
		}
		name := ""
		if ga, ok := pvm.Path[0].(cty.GetAttrStep); ok {
			name = ga.Name
		}
		rng := res.DeclRange
		if sb, ok := res.Config.(*hclsyntax.Body); ok {
			if a, ok := sb.Attributes[name]; ok {
				rng = a.Expr.Range()
			}
		}
		sum, det := ev.texts().ephemeralAttr(name)
		ev.addDiag(&hcl.Diagnostic{Severity: hcl.DiagError, Summary: sum, Detail: det, Subject: rng.Ptr()})
		return
	}
}

// planObject fills in what a provider would plan for a new object: unset
// computed attributes become unknown, sensitive attributes are marked;
// with sdk, configured values are planned by the older plugin SDK's
// conventions where the block says the provider uses it (Block.LegacySDK).
func planObject(b *Block, v cty.Value, sdk bool) cty.Value {
	return planObjectWith(b, decodedBody{v: v}, nil, sdk)
}

// planObjectWith is planObject of a decoded body, with finish, when not
// nil, given the planned attributes to change before they become the
// object. The decoded attributes, when d has them, become the planned
// ones in place: d is not to be read afterwards.
func planObjectWith(b *Block, d decodedBody, finish func(attrs map[string]cty.Value), sdk bool) cty.Value {
	if !d.known() {
		return d.v
	}
	var vm cty.ValueMarks
	attrs := d.attrs
	if attrs == nil {
		_, vm = d.v.Unmark()
		attrs = make(map[string]cty.Value, len(b.Attributes)+len(b.BlockTypes))
	}
	for name, a := range b.Attributes {
		av, ok := d.get(name)
		if !ok || a.WriteOnly {
			// A write-only argument goes to the provider and is never
			// planned or stored: whatever the configuration gives (an
			// ephemeral value too), the object has null there.
			av = cty.NullVal(a.Type)
		}
		if sdk && b.LegacySDK && !a.Required && a.NestedType == nil && !a.WriteOnly {
			if dv, ok := sdkUnsetAttribute(b, name, a, av); ok {
				av = dv
			} else {
				av = legacyPlanned(a, av)
			}
		}
		if av.IsNull() && a.Computed {
			av = cty.UnknownVal(a.Type)
			switch {
			case name == "id" && a.Type == cty.String:
				av = unknownID
			case name == "id":
				av = av.RefineNotNull()
			}
		}
		if a.NestedType != nil {
			av = planNested(&NestedBlock{Nesting: a.NestedType.Nesting, Block: &Block{Attributes: a.NestedType.Attributes}}, av, sdk)
		}
		if a.Sensitive {
			av = av.Mark(marks.Sensitive)
		}
		attrs[name] = av
	}
	for name, nb := range b.BlockTypes {
		bv, ok := d.get(name)
		if !ok {
			bv = cty.NullVal(cty.DynamicPseudoType)
		}
		if sdk && b.LegacySDK && legacyAbsentBlock(nb, bv) {
			// The older plugin SDK declares a block the provider may
			// fill in itself as computed, which the schema document
			// does not say: without blocks it may be unknown, unless
			// the table of defaults says it is not computed.
			if ev, ok := sdkDefault(b, name, nb.impliedType()); ok && ev.IsKnown() && !ev.IsNull() {
				bv = ev.WithMarks(bv.Marks())
			} else {
				bv = cty.UnknownVal(nb.impliedType()).WithMarks(bv.Marks())
			}
		}
		attrs[name] = planNested(nb, bv, sdk)
	}
	if finish != nil {
		finish(attrs)
	}
	return cty.ObjectVal(attrs).WithMarks(vm)
}

// sdkUnsetAttribute is the value the older plugin SDK plans for optional
// attribute name of b, which the provider does not compute, where the
// configuration leaves it unset (or null), if the table of defaults has
// it (sdkDefault).
func sdkUnsetAttribute(b *Block, name string, a *Attribute, v cty.Value) (cty.Value, bool) {
	if a.Computed || !v.IsKnown() || !v.IsNull() {
		return cty.NilVal, false
	}
	dv, ok := sdkDefault(b, name, a.Type)
	if !ok {
		return cty.NilVal, false
	}
	return dv.WithMarks(v.Marks()), true
}

// legacyPlanned is the value the older plugin SDK (v2) plans for an
// optional attribute configured as v. That SDK keeps a resource's values
// as flat strings, where an empty collection cannot be told from an
// absent one, nor, for a computed attribute, an empty string from one the
// provider is to compute: it plans an empty set or map as null (an empty
// list stays), and an empty string or collection in a computed attribute
// as unknown (a value the provider computes, or for some types the empty
// value again: which, is the provider's code, not its schema). An unset
// attribute of a primitive type is unknown: the SDK plans its default,
// which the schema document does not carry. Other values are planned as
// they are.
func legacyPlanned(a *Attribute, v cty.Value) cty.Value {
	if v.IsNull() && !a.Computed && a.Type.IsPrimitiveType() {
		// That SDK's schemas may give an attribute a default, which
		// it plans where the configuration sets none; the schema
		// document does not carry defaults.
		return cty.UnknownVal(a.Type).WithMarks(v.Marks())
	}
	if !v.IsKnown() || v.IsNull() {
		return v
	}
	uv, vm := v.Unmark()
	if ty := uv.Type(); ty.IsSetType() && !uv.IsWhollyKnown() {
		// It hashes the elements of a set: with one unknown, the
		// whole set is.
		return cty.UnknownVal(a.Type).WithMarks(vm)
	}
	if ety := uv.Type(); (ety.IsListType() || ety.IsSetType()) && ety.ElementType().IsObjectType() && uv.LengthInt() > 0 {
		// Objects of a collection attribute (often written as blocks)
		// have every attribute: an unset collection is empty, an
		// unset value of a primitive type the zero value or a default.
		elems := make([]cty.Value, 0, uv.LengthInt())
		for it := uv.ElementIterator(); it.Next(); {
			_, e := it.Element()
			elems = append(elems, legacyObject(e))
		}
		if ety.IsSetType() {
			return cty.SetVal(elems).WithMarks(vm)
		}
		return cty.ListVal(elems).WithMarks(vm)
	}
	empty := false
	switch ty := uv.Type(); {
	case ty.IsCollectionType():
		empty = uv.LengthInt() == 0
	case ty == cty.String:
		empty = a.Computed && uv.AsString() == ""
	}
	switch {
	case !empty:
		return v
	case a.Computed:
		return cty.UnknownVal(a.Type).WithMarks(vm)
	case a.Type.IsSetType() || a.Type.IsMapType():
		return cty.NullVal(a.Type).WithMarks(vm)
	default:
		// An empty list stays as it is.
		return v
	}
}

// legacyObject is an object of a collection attribute as the older plugin
// SDK plans it (see legacyPlanned).
func legacyObject(e cty.Value) cty.Value {
	ue, em := e.Unmark()
	if !ue.IsKnown() || ue.IsNull() {
		return e
	}
	attrs := ue.AsValueMap()
	for name, av := range attrs {
		if !av.IsNull() {
			continue
		}
		switch ty := av.Type(); {
		case ty.IsListType():
			attrs[name] = cty.ListValEmpty(ty.ElementType()).WithMarks(av.Marks())
		case ty.IsSetType():
			attrs[name] = cty.SetValEmpty(ty.ElementType()).WithMarks(av.Marks())
		case ty.IsMapType():
			attrs[name] = cty.MapValEmpty(ty.ElementType()).WithMarks(av.Marks())
		case ty.IsPrimitiveType():
			attrs[name] = cty.UnknownVal(ty).WithMarks(av.Marks())
		}
	}
	if len(attrs) == 0 {
		return e
	}
	return cty.ObjectVal(attrs).WithMarks(em)
}

// providerPlanned are the computed attributes of hashicorp/aws's resource
// types that the provider itself fills in while planning a new object
// (its plan customisation, which the schema document does not
// describe): tags_all of every type that has it (the provider's
// default_tags merged with the resource's tags), and, by type, the others
// (an aws_acm_certificate's domain_validation_options, one object per
// domain name). Each was seen known in `terraform plan` with the aws
// provider v5.100.0 (tags_all of a type of the older plugin SDK and of one
// of the plugin framework).
var providerPlanned = map[string][]string{
	"aws_acm_certificate": {"domain_validation_options"},
}

// markProviderPlanned marks the unknowns v, the planned object of managed
// resource res with schema b, has where its provider plans a value
// (providerPlanned) as marks.Unread (ProviderPlans): Terraform's plan
// knows them, so nothing they decide (a for_each's keys) is an error.
func (ev *evaluator) markProviderPlanned(c *config.Config, res *config.Resource, b *Block, v cty.Value) cty.Value {
	if !v.IsKnown() || v.IsNull() || providerKey(providerSource(c.Module, resourceProviderName(res))) != "hashicorp/aws" {
		return v
	}
	names := providerPlanned[res.Type]
	if len(names) == 0 && b.Attributes["tags_all"] == nil {
		return v
	}
	uv, vm := v.Unmark()
	var attrs map[string]cty.Value
	var ms cty.ValueMarks
	for i := -1; i < len(names); i++ {
		name := "tags_all"
		if i >= 0 {
			name = names[i]
		}
		if a := b.Attributes[name]; a == nil || !a.Computed || !uv.Type().HasAttribute(name) {
			continue
		}
		av := uv.GetAttr(name)
		if av.IsKnown() {
			continue
		}
		if attrs == nil {
			attrs = uv.AsValueMap()
			ms = ev.unreadMarks(c, res, marks.ProviderPlans)
		}
		attrs[name] = av.WithMarks(ms)
	}
	if attrs == nil {
		return v
	}
	return cty.ObjectVal(attrs).WithMarks(vm)
}

// legacySetElement is an object of a set of blocks as the older plugin
// SDK plans it: a computed attribute set to its type's zero value (0,
// false, "") is unknown, as though not set, which the provider may compute.
func legacySetElement(b *Block, e cty.Value) cty.Value {
	if !e.IsKnown() || e.IsNull() || !e.Type().IsObjectType() {
		return e
	}
	ue, em := e.Unmark()
	var attrs map[string]cty.Value
	for name, a := range b.Attributes {
		if !a.Computed || !a.Type.IsPrimitiveType() || !ue.Type().HasAttribute(name) {
			continue
		}
		av := ue.GetAttr(name)
		uv, vm := av.Unmark()
		if !uv.IsKnown() || uv.IsNull() || !uv.RawEquals(cty.Zero) && !uv.RawEquals(cty.False) && !uv.RawEquals(cty.StringVal("")) {
			continue
		}
		if attrs == nil {
			attrs = ue.AsValueMap()
		}
		attrs[name] = cty.UnknownVal(a.Type).WithMarks(vm)
	}
	if attrs == nil {
		return e
	}
	return cty.ObjectVal(attrs).WithMarks(em)
}

// legacyAbsentBlock reports whether v, a nested block type's decoded
// value, has no blocks, where the older plugin SDK may plan the blocks the
// provider computes.
func legacyAbsentBlock(nb *NestedBlock, v cty.Value) bool {
	if nb.Nesting != NestingList && nb.Nesting != NestingSet {
		return false
	}
	if v.IsNull() {
		return true
	}
	if !v.IsKnown() {
		return false
	}
	uv, _ := v.Unmark()
	return (uv.Type().IsCollectionType() || uv.Type().IsTupleType()) && uv.LengthInt() == 0
}

// planNested plans the value of a nested block type or nested attribute,
// decoded from configuration, so that it has every attribute of its schema.
func planNested(nb *NestedBlock, v cty.Value, sdk bool) cty.Value {
	if !v.IsKnown() || v.IsNull() || nb.Block.plannedAsIs(sdk) {
		return v
	}
	return replanNested(nb, v, sdk)
}

// plannedAsIs reports whether planning leaves the decoded objects of a
// block as they are: no attribute is computed, sensitive or nested, here
// or in a nested block, so rebuilding them (and rehashing a set of them)
// would give the same value.
func (b *Block) plannedAsIs(sdk bool) bool {
	if sdk && b.LegacySDK {
		return false
	}
	for _, a := range b.Attributes {
		if a.Computed || a.Sensitive || a.NestedType != nil {
			return false
		}
	}
	for _, nb := range b.BlockTypes {
		if !nb.Block.plannedAsIs(sdk) {
			return false
		}
	}
	return true
}

// replanNested is planNested by planning every object of the value.
func replanNested(nb *NestedBlock, v cty.Value, sdk bool) cty.Value {
	if !v.IsKnown() || v.IsNull() {
		return v
	}
	v, vm := v.Unmark()
	switch nb.Nesting {
	case NestingSingle, NestingGroup:
		return planObject(nb.Block, v, sdk).WithMarks(vm)
	}
	var out cty.Value
	ty := v.Type()
	switch {
	case ty.IsListType() || ty.IsTupleType() || ty.IsSetType():
		var elems []cty.Value
		for it := elements.Of(v); it.Next(); {
			_, e := it.Element()
			if sdk && nb.Block.LegacySDK && ty.IsSetType() {
				e = legacySetElement(nb.Block, e)
			}
			elems = append(elems, planObject(nb.Block, e, sdk))
		}
		switch {
		case len(elems) == 0:
			out = v
		case ty.IsSetType():
			out = elements.Set(elems)
		case ty.IsListType():
			out = cty.ListVal(elems)
		default:
			out = cty.TupleVal(elems)
		}
	case ty.IsMapType() || ty.IsObjectType():
		m := map[string]cty.Value{}
		for it := elements.Of(v); it.Next(); {
			k, e := it.Element()
			m[k.AsString()] = planObject(nb.Block, e, sdk)
		}
		switch {
		case len(m) == 0:
			out = v
		case ty.IsMapType():
			out = cty.MapVal(m)
		default:
			out = cty.ObjectVal(m)
		}
	default:
		out = v
	}
	return out.WithMarks(vm)
}

// planTerraformData plans the built-in terraform_data resource, given its
// planned attributes: output follows input's type and is unknown until
// apply.
func planTerraformData(attrs map[string]cty.Value) {
	input := attrs["input"]
	if input.IsNull() {
		attrs["output"] = input
	} else {
		// Marks do not change a value's type, so there is nothing to unmark.
		attrs["output"] = cty.UnknownVal(input.Type())
	}
	attrs["id"] = unknownID
}

// unknownObject is an object of a schema whose every attribute is unknown,
// the sensitive ones marked.
func unknownObject(b *Block) cty.Value {
	attrs := make(map[string]cty.Value, len(b.Attributes)+len(b.BlockTypes))
	ty := b.ImpliedType()
	for name, a := range b.Attributes {
		attrs[name] = cty.UnknownVal(ty.AttributeType(name))
		if a.Sensitive {
			attrs[name] = attrs[name].Mark(marks.Sensitive)
		}
	}
	for name := range b.BlockTypes {
		attrs[name] = cty.UnknownVal(ty.AttributeType(name))
	}
	return cty.ObjectVal(attrs)
}

// unknownID is the planned id of a new object: unknown, and never null.
// Refining allocates, so every instance shares this one value.
var unknownID = cty.UnknownVal(cty.String).RefineNotNull()

// schemaFor finds a resource's schema.
func (ev *evaluator) schemaFor(c *config.Config, res *config.Resource) *Block {
	return ev.opts.Schemas.resourceSchema(c.Module, res)
}

// decoderSpec builds the hcldec spec of a schema block.
func (b *Block) decoderSpec() hcldec.ObjectSpec { return b.decoderSpecFor(nil) }

// decoderSpecFor is decoderSpec for the bodies given (those of a resource,
// or of one nested block type's blocks), with Terraform's "attributes as
// blocks": an attribute whose type is a list or set of objects (a legacy
// SDK provider's, not a nested attribute) may be written as blocks of its
// name, each one element whose unset attributes are null. Where the bodies
// write such blocks (or dynamic blocks of that name), the attribute is
// decoded from them.
func (b *Block) decoderSpecFor(bodies []*hclsyntax.Body) hcldec.ObjectSpec {
	spec := hcldec.ObjectSpec{}
	for name, a := range b.Attributes {
		spec[name] = &hcldec.AttrSpec{Name: name, Type: a.configType(), Required: a.Required}
		if a.NestedType == nil {
			if bs := attrAsBlocksSpec(name, a.Type, bodies); bs != nil {
				spec[name] = bs
			}
		}
	}
	for name, nb := range b.BlockTypes {
		nested := nb.Block.decoderSpecFor(blockBodies(bodies, name))
		dyn := nb.Block.ImpliedType().HasDynamicTypes()
		switch nb.Nesting {
		case NestingSingle:
			spec[name] = &hcldec.BlockSpec{TypeName: name, Nested: nested, Required: nb.MinItems > 0}
		case NestingGroup:
			spec[name] = &hcldec.DefaultSpec{
				Primary: &hcldec.BlockSpec{TypeName: name, Nested: nested},
				Default: &hcldec.LiteralSpec{Value: emptyBlockValue(nb.Block)},
			}
		case NestingList:
			if dyn {
				spec[name] = &hcldec.BlockTupleSpec{TypeName: name, Nested: nested, MinItems: nb.MinItems, MaxItems: nb.MaxItems}
			} else {
				spec[name] = &hcldec.BlockListSpec{TypeName: name, Nested: nested, MinItems: nb.MinItems, MaxItems: nb.MaxItems}
			}
		case NestingSet:
			spec[name] = &hcldec.BlockSetSpec{TypeName: name, Nested: nested, MinItems: nb.MinItems, MaxItems: nb.MaxItems}
		case NestingMap:
			if dyn {
				spec[name] = &hcldec.BlockObjectSpec{TypeName: name, Nested: nested, LabelNames: []string{"key"}}
			} else {
				spec[name] = &hcldec.BlockMapSpec{TypeName: name, Nested: nested, LabelNames: []string{"key"}}
			}
		}
	}
	return spec
}

// attrAsBlocksSpec is the block spec of an attribute of type ty written as
// blocks of its name in bodies, or nil: when ty is not a list or set of
// objects, or no body writes such a block.
func attrAsBlocksSpec(name string, ty cty.Type, bodies []*hclsyntax.Body) hcldec.Spec {
	if !(ty.IsListType() || ty.IsSetType()) || !ty.ElementType().IsObjectType() {
		return nil
	}
	inner := blockBodies(bodies, name)
	if len(inner) == 0 {
		return nil
	}
	nested := hcldec.ObjectSpec{}
	for an, at := range ty.ElementType().AttributeTypes() {
		nested[an] = &hcldec.AttrSpec{Name: an, Type: at}
		if bs := attrAsBlocksSpec(an, at, inner); bs != nil {
			nested[an] = bs
		}
	}
	if ty.IsSetType() {
		return &hcldec.BlockSetSpec{TypeName: name, Nested: nested}
	}
	return &hcldec.BlockListSpec{TypeName: name, Nested: nested}
}

// blockBodies are the bodies of the blocks of type name in bodies, and of
// the content of their dynamic blocks labelled name.
func blockBodies(bodies []*hclsyntax.Body, name string) []*hclsyntax.Body {
	var out []*hclsyntax.Body
	for _, body := range bodies {
		for _, blk := range body.Blocks {
			switch {
			case blk.Type == name:
				out = append(out, blk.Body)
			case blk.Type == "dynamic" && len(blk.Labels) == 1 && blk.Labels[0] == name:
				for _, c := range blk.Body.Blocks {
					if c.Type == "content" {
						out = append(out, c.Body)
					}
				}
			}
		}
	}
	return out
}

// emptyBlockValue is a group block's value when it is absent: every attribute null.
func emptyBlockValue(b *Block) cty.Value {
	attrs := map[string]cty.Value{}
	for name, at := range b.ImpliedType().AttributeTypes() {
		attrs[name] = cty.NullVal(at)
	}
	return cty.ObjectVal(attrs)
}

// impliedSpec decodes a body without schema: every attribute as written,
// every block type (also dynamic ones) as a tuple of objects.
func impliedSpec(body hcl.Body) hcldec.ObjectSpec {
	// The visible content leaves out the meta-arguments (count, lifecycle,
	// provisioner, ...) the config decoder took out of a resource body.
	content := config.VisibleContent(body)
	spec := make(hcldec.ObjectSpec, len(content.Attributes))
	for name := range content.Attributes {
		spec[name] = &hcldec.AttrSpec{Name: name, Type: cty.DynamicPseudoType}
	}
	var blocks impliedBlocks
	for _, b := range content.Blocks {
		blocks.add(b.Type, b.Labels, b.Body)
	}
	return blocks.specs(spec)
}

// resourceImpliedSpec is impliedSpec of a resource's body. While the body
// is the one its block was decoded to, it is read from the block's syntax
// without the meta-arguments config took out (config.Resource.VisibleSyntax),
// rather than through VisibleContent's schema and hcl's copies.
func resourceImpliedSpec(res *config.Resource) hcldec.ObjectSpec {
	body, meta, ok := res.VisibleSyntax()
	if !ok {
		return impliedSpec(res.Config)
	}
	return syntaxImpliedSpec(body, meta)
}

// syntaxImpliedSpec is impliedSpec of a native-syntax body, leaving out
// the attributes and block types hidden names (nil for a body nested in
// another, which hides nothing): its content is read as VisibleContent
// would return it (every attribute; every block whose label count is that
// of the first block of its type) without the copies hcl makes of each.
func syntaxImpliedSpec(body *hclsyntax.Body, hidden *hcl.BodySchema) hcldec.ObjectSpec {
	spec := make(hcldec.ObjectSpec, len(body.Attributes))
	// The attributes' specs are made in one allocation rather than one
	// each: they live as long as the spec.
	attrs := make([]hcldec.AttrSpec, 0, len(body.Attributes))
	for name := range body.Attributes {
		if !hiddenAttribute(hidden, name) {
			attrs = append(attrs, hcldec.AttrSpec{Name: name, Type: cty.DynamicPseudoType})
			spec[name] = &attrs[len(attrs)-1]
		}
	}
	var blocks impliedBlocks
	var labels map[string]int // by block type, the first block's label count
	for _, b := range body.Blocks {
		if hiddenBlock(hidden, b.Type) {
			continue
		}
		if labels == nil {
			labels = map[string]int{}
		}
		n, seen := labels[b.Type]
		if !seen {
			n = len(b.Labels)
			labels[b.Type] = n
		}
		if n == len(b.Labels) {
			blocks.add(b.Type, b.Labels, b.Body)
		}
	}
	return blocks.specs(spec)
}

// hiddenAttribute reports whether schema (nil for none) names attribute name.
func hiddenAttribute(schema *hcl.BodySchema, name string) bool {
	return schema != nil && slices.ContainsFunc(schema.Attributes, func(a hcl.AttributeSchema) bool { return a.Name == name })
}

// hiddenBlock reports whether schema (nil for none) names block type typ.
func hiddenBlock(schema *hcl.BodySchema, typ string) bool {
	return schema != nil && slices.ContainsFunc(schema.Blocks, func(b hcl.BlockHeaderSchema) bool { return b.Type == typ })
}

// impliedBlocks gathers the nested bodies of a body's blocks by the block
// type they give, dynamic blocks' contents included, in the order the
// types first appear.
type impliedBlocks struct {
	order  []string
	bodies map[string][]*hclsyntax.Body
	// keyed holds the block types whose first block has one label: a
	// provider's schema can only mean a block type nested as a map, whose
	// label is the key (block "key" {}).
	keyed map[string]bool
}

func (ib *impliedBlocks) add(typ string, labels []string, body hcl.Body) {
	nested, ok := body.(*hclsyntax.Body)
	if !ok {
		return
	}
	labelCount := len(labels)
	if typ == "dynamic" {
		if len(labels) == 0 {
			return
		}
		blk := nested
		typ, nested = labels[0], nil
		for _, inner := range blk.Blocks {
			if inner.Type == "content" {
				nested = inner.Body
			}
		}
		if nested == nil {
			return
		}
		// A dynamic block gives its blocks labels only through its
		// labels argument.
		labelCount = 0
		if _, ok := blk.Attributes["labels"]; ok {
			labelCount = 1
		}
	}
	if ib.bodies == nil {
		ib.bodies = map[string][]*hclsyntax.Body{}
	}
	if _, seen := ib.bodies[typ]; !seen {
		ib.order = append(ib.order, typ)
		if labelCount == 1 {
			if ib.keyed == nil {
				ib.keyed = map[string]bool{}
			}
			ib.keyed[typ] = true
		}
	}
	ib.bodies[typ] = append(ib.bodies[typ], nested)
}

// specs adds a block spec to spec for each type gathered, merging what
// the bodies of one type imply. A block type without labels is a tuple of
// objects; one with a label an object of them by label, as a provider's
// map nesting of a block whose content may hold values of any type is.
func (ib *impliedBlocks) specs(spec hcldec.ObjectSpec) hcldec.ObjectSpec {
	for _, typ := range ib.order {
		nested := hcldec.ObjectSpec{}
		for _, b := range ib.bodies[typ] {
			mergeImpliedSpec(nested, syntaxImpliedSpec(b, nil))
		}
		if ib.keyed[typ] {
			spec[typ] = &hcldec.BlockObjectSpec{TypeName: typ, Nested: nested, LabelNames: []string{"key"}}
			continue
		}
		spec[typ] = &hcldec.BlockTupleSpec{TypeName: typ, Nested: nested}
	}
	return spec
}

// mergeImpliedSpec adds to dst what the implied spec of another block of
// the same type has: blocks of one type may set different arguments and
// nested blocks, at every depth, which the provider's schema all allows.
func mergeImpliedSpec(dst, src hcldec.ObjectSpec) {
	for k, v := range src {
		switch prev := dst[k].(type) {
		case *hcldec.BlockTupleSpec:
			if next, ok := v.(*hcldec.BlockTupleSpec); ok {
				dst[k] = &hcldec.BlockTupleSpec{TypeName: k, Nested: mergedSpecs(prev.Nested, next.Nested)}
				continue
			}
		case *hcldec.BlockObjectSpec:
			if next, ok := v.(*hcldec.BlockObjectSpec); ok {
				dst[k] = &hcldec.BlockObjectSpec{TypeName: k, Nested: mergedSpecs(prev.Nested, next.Nested), LabelNames: prev.LabelNames}
				continue
			}
		}
		dst[k] = v
	}
}

// mergedSpecs is a new object spec with what the implied specs a and b have.
func mergedSpecs(a, b hcldec.Spec) hcldec.ObjectSpec {
	merged := hcldec.ObjectSpec{}
	mergeImpliedSpec(merged, a.(hcldec.ObjectSpec))
	mergeImpliedSpec(merged, b.(hcldec.ObjectSpec))
	return merged
}

// provisionerBodies lists the connection and provisioner bodies of a managed
// resource: the resource's own connection, then each provisioner and its
// connection.
func provisionerBodies(res *config.Resource) []hcl.Body {
	if res.Managed == nil {
		return nil
	}
	var bodies []hcl.Body
	if c := res.Managed.Connection; c != nil {
		bodies = append(bodies, c.Config)
	}
	for _, p := range res.Managed.Provisioners {
		bodies = append(bodies, p.Config)
		if p.Connection != nil {
			bodies = append(bodies, p.Connection.Config)
		}
	}
	return bodies
}

// checkProvisioners evaluates one instance's connection and provisioner
// blocks as Terraform's validation walk does, the only time it evaluates
// them before they run (no provisioner runs during plan): a bad reference
// or an operation that fails whatever the values is an error all the same,
// but self is unknown, of the planned instance's type, and so in a plan is
// every value but path and terraform; what holds only for the values the
// plan knows (a null in a template) is not an error until they run.
func (ev *evaluator) checkProvisioners(is *scope, res *config.Resource, self cty.Value) {
	bodies := provisionerBodies(res)
	if len(bodies) == 0 {
		return
	}
	ps := *is
	ps.setRare(func(r *scopeRare) {
		r.self = cty.UnknownVal(self.Type()).WithMarks(self.Marks())
		r.validating = !ev.opts.Validate
	})
	for _, body := range bodies {
		_, diags := ps.evalBody(body, impliedSpec(body))
		ev.addDiags(diags)
	}
}

// checkReplaceTriggers reports, as terraform plan does for each instance,
// a replace_triggered_by entry whose resource the module does not declare.
// (Loading has checked what the entries may refer to.)
func (ev *evaluator) checkReplaceTriggers(is *scope, res *config.Resource) {
	if res.Managed == nil || ev.opts.Validate || ev.opts.Console {
		return
	}
	m := is.mod.Config.Module
	for _, e := range res.Managed.ReplaceTriggeredBy {
		x, ok := e.(hclsyntax.Expression)
		if !ok {
			continue
		}
		addr, key, ok := is.triggerResource(x)
		if !ok || m.ManagedResources[addr] != nil || m.DataResources[addr] != nil {
			continue
		}
		where := "the root module"
		if is.mod.Addr != "" {
			where = is.mod.Addr
		}
		ev.addDiag(&hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Reference to undeclared resource",
			Detail:   fmt.Sprintf("A resource %s has not been declared in %s", instanceAddr(addr, key), where),
			Subject:  e.Range().Ptr(),
		})
	}
}

// triggerResource finds the resource a replace_triggered_by entry names:
// its address in the module and, when the entry indexes it, the key for
// this instance (count.index and each.key evaluated); ok is false for an
// entry that names none.
func (s *scope) triggerResource(x hclsyntax.Expression) (addr string, key cty.Value, ok bool) {
	switch x := x.(type) {
	case *hclsyntax.RelativeTraversalExpr:
		return s.triggerResource(x.Source)
	case *hclsyntax.IndexExpr:
		addr, key, ok = s.triggerResource(x.Collection)
		if ok && key == cty.NilVal {
			if k, diags := s.evalExpr(x.Key, cty.DynamicPseudoType); !diags.HasErrors() && k.IsKnown() && !k.IsNull() {
				key, _ = k.Unmark()
			}
		}
		return addr, key, ok
	case *hclsyntax.ScopeTraversalExpr:
		var names []string
		key = cty.NilVal
		for _, st := range x.Traversal {
			switch st := st.(type) {
			case hcl.TraverseRoot:
				names = append(names, st.Name)
			case hcl.TraverseAttr:
				names = append(names, st.Name)
			case hcl.TraverseIndex:
				if key == cty.NilVal && (len(names) == 2 || len(names) == 3 && (names[0] == "data" || names[0] == "resource")) {
					key = st.Key
				}
			}
			if key != cty.NilVal {
				break
			}
		}
		switch {
		case len(names) >= 3 && names[0] == "data":
			return "data." + names[1] + "." + names[2], key, true
		case len(names) >= 3 && names[0] == "resource":
			return names[1] + "." + names[2], key, true
		case len(names) >= 2 && names[0] != "ephemeral" && names[0] != "count" && names[0] != "each":
			return names[0] + "." + names[1], key, true
		}
	}
	return "", cty.NilVal, false
}
