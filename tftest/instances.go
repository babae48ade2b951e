package tftest

import (
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/tfeval/tfeval/config"
	"github.com/tfeval/tfeval/internal/address"
	"github.com/tfeval/tfeval/lang"
	"github.com/tfeval/tfeval/marks"
	"github.com/tfeval/tfeval/typeexpr"
)

// phase says which evaluation of a run an instance is planned in: the
// plan, or the apply that follows it in an apply run.
type phase int

const (
	planPhase phase = iota
	applyPhase
)

// instances decides the values of the resource instances of one
// evaluation of a run (lang.InstanceHook): from the prior state, the
// test file's overrides and mocked providers, or terraform_data's
// built-in behaviour; an instance of a provider the test does not mock
// keeps the planned value, its unknowns marked as the provider's.
type instances struct {
	runInputs
	// notPlanned are the managed instances targets leave out.
	notPlanned map[string]bool

	mu sync.Mutex
	// applied are the managed instances' values after apply.
	applied map[string]cty.Value
	// needs are the instances an apply creates with a provider that is not
	// mocked.
	needs []need
	// planned says that an instance of a provider the test does not mock
	// (but hashicorp/random) was planned without its schema.
	planned bool
	// normalizing is set in the evaluation that asks what such a
	// provider's plan could change: see normalizingAgain.
	normalizing bool
	// drew says that a hashicorp/random object has drawn values in this
	// evaluation (drawnRandom).
	drew bool
	// tableTyped says, by configuration address and attribute
	// ("module.m.aws_thing.t.name"), which attributes of mocked objects
	// without schema the table of the provider's schema made of their
	// type in every instance (see tableValue): a comparison with one is
	// decided as Terraform decides it.
	tableTyped map[string]bool
	// tableVersions are, by provider source, the version of tfeval's
	// table of the provider's schema the configuration admits
	// (tableVersion), "" if none.
	tableVersions map[string]string
}

// tableVersion is tableVersion for the configuration cfg belongs to,
// kept for the evaluation.
func (in *instances) tableVersion(cfg *config.Config, source string) string {
	if len(lang.TableVersions(source)) == 0 {
		return ""
	}
	in.mu.Lock()
	defer in.mu.Unlock()
	v, seen := in.tableVersions[source]
	if !seen {
		v = tableVersion(cfg, source)
		if in.tableVersions == nil {
			in.tableVersions = map[string]string{}
		}
		in.tableVersions[source] = v
	}
	return v
}

// runInputs are what an evaluation of a run is given: the same for a
// second evaluation of it (normalizingAgain).
type runInputs struct {
	phase phase
	// mockAtPlan says that mocks and overrides give what the provider
	// computes for a managed resource already while planning, as
	// OpenTofu's do (it has no override_during); Terraform's give it at
	// apply unless override_during = plan says otherwise.
	mockAtPlan bool
	// tofu says the run is OpenTofu's, whose words its errors take.
	tofu bool
	gen  uint64 // the generator seed
	// draw tells apart two drawings of what hashicorp/random objects
	// hold (drawRandom).
	draw int
	// serial tells apart the objects created in different runs.
	serial int
	// prior is the state the run starts from, by instance address.
	prior map[string]cty.Value
	// replace are the addresses plan_options.replace names.
	replace     []string
	refreshOnly bool
	// overrides are the run's and the file's, in that order of precedence.
	overrides []*Override
	// mocks are the mocked provider configurations by the name the module
	// under test gives them (NAME or NAME.ALIAS).
	mocks map[string]*Provider
	// providersGiven are the module's provider configurations the test
	// file gives in place of its own blocks (lang.Options.ProvidersGiven).
	providersGiven map[string]bool
	// collections are what each module reads as collections (collections.go).
	collections *collectionCache
	// targets, when plan_options.target is set, are what the run plans.
	targets *targeting
	// reads are the run's assertions, whose reads of resources without
	// schema the plan fills in (lang.Options.Reads).
	reads []hcl.Expression
	// laterReads are what later runs read of its outputs
	// (lang.Options.OutputReads).
	laterReads *lang.OutputReads
}

// need is a provider a run needs and what needs it.
type need struct {
	source, addr string
	// why is the reason the run is skipped, when not that the apply
	// creates addr.
	why string
}

// hook is the lang.InstanceHook of the evaluation.
func (in *instances) hook(pi *lang.PlannedInstance) (cty.Value, hcl.Diagnostics) {
	if !in.targets.plans(pi) {
		// Outside the targets: what the state has stays, what it does
		// not have is not created.
		if pi.Resource.Mode != config.ManagedResourceMode {
			return pi.Planned, nil
		}
		in.mu.Lock()
		defer in.mu.Unlock()
		in.notPlanned[pi.Addr] = true
		if prior, ok := in.priorOf(pi.Addr); ok {
			if in.phase == applyPhase {
				in.applied[pi.Addr] = prior
			}
			return prior, nil
		}
		return pi.Planned, nil
	}
	v, diags := in.decide(pi)
	if in.phase == applyPhase && pi.Resource.Mode == config.ManagedResourceMode {
		in.mu.Lock()
		in.applied[pi.Addr] = v
		in.mu.Unlock()
	}
	return v, diags
}

func (in *instances) decide(pi *lang.PlannedInstance) (cty.Value, hcl.Diagnostics) {
	res := pi.Resource
	if !pi.Planned.IsKnown() || pi.Planned.IsNull() {
		return pi.Planned, nil
	}
	managed := res.Mode == config.ManagedResourceMode
	prior, hasPrior := in.priorOf(pi.Addr)
	if managed && in.refreshOnly {
		// A refresh-only plan changes nothing: what exists keeps its state.
		if hasPrior {
			return prior, nil
		}
		return pi.Planned, nil
	}
	gen := generator{seed: in.gen, addr: pi.Addr, tofu: in.tofu}
	key, source := providerOf(pi.Config, res)
	mock := in.mocks[key]
	ov := in.overrideFor(pi, mock)
	if ov == nil && managed && builtin(res) {
		return in.terraformData(pi, gen, prior, hasPrior), nil
	}
	if ov == nil && mock == nil {
		if source == randomSource && managed {
			if v, ok := in.drawnRandom(pi, prior, hasPrior); ok {
				return v, nil
			}
		}
		return in.real(pi, source), nil
	}

	with, duringPlan := cty.NilVal, false
	var withRange hcl.Range
	if mock != nil {
		// The mocked provider fills a managed resource's computed values
		// while planning only by a mock_resource block of its type, whose
		// override_during the provider's sets by default (as it does an
		// override's, below): without either they stay unknown until the
		// apply, whatever the provider's says.
		set := mock.Resources
		if !managed {
			duringPlan = mock.DuringPlan
			set = mock.Data
		}
		if mv := set[res.Type]; mv != nil {
			with, withRange = mv.Defaults, mv.DefaultsRange
			duringPlan = mock.DuringPlan
			if mv.DuringSet {
				duringPlan = mv.DuringPlan
			}
		}
	}
	if ov != nil {
		with, withRange = ov.Values, ov.DeclRange
		if mock != nil {
			duringPlan = mock.DuringPlan
		}
		if ov.DuringSet {
			duringPlan = ov.DuringPlan
		}
	}
	mode := "resource"
	if !managed {
		mode = "data"
	}
	// The table of the provider's schema of a version the configuration
	// admits.
	tv := in.tableVersion(pi.Config, source)
	kind := func(name string) lang.Computed { return lang.ComputedAttribute(source, tv, mode, res.Type, name) }
	unread := marks.Unread{Cause: marks.NoSchema, Addr: configAddr(pi)}
	v := pi.Planned
	if managed && hasPrior && pi.Schema != nil && ov == nil && !in.tofu {
		// Terraform's mocked provider plans and applies an update as
		// proposed, filling nothing.
		return mockUpdate(pi.Schema, v, prior, pi.Arguments), nil
	}
	if managed && hasPrior {
		v = proposedNew(pi.Schema, pi.Arguments, v, prior, kind, unread)
	}
	// What the provider computes is known once applied, or during the
	// plan with override_during = plan (a managed resource's always in
	// OpenTofu); a data source is read while planning unless it is
	// deferred to apply.
	final := in.phase == applyPhase || duringPlan || managed && in.mockAtPlan
	if !managed {
		final = final || pi.Read == lang.DataReadPlan || pi.Read == lang.DataReadUnknown
	}
	// Terraform's mocked provider looks in the values given for those of
	// the computed attributes it fills: when an object is created or a
	// data source read, once final, and while planning already for an
	// override_resource (its values given whatever override_during
	// says, to fill with unknowns).
	walk := !(managed && hasPrior) && (final || managed && ov != nil)
	var diags hcl.Diagnostics
	var overrideRange *hcl.Range
	if ov != nil {
		overrideRange = ov.DeclRange.Ptr()
	}
	// An apply plans a created object again, and Terraform's mocks that
	// filled it while planning draw the strings they generate anew (see
	// inconsistentFinalPlan).
	replanned := in.phase == applyPhase && managed && !hasPrior && duringPlan && !in.tofu && !in.mockAtPlan
	again := generator{seed: in.gen, addr: pi.Addr + " planned again", tofu: in.tofu}
	provider := finalPlanProvider(res, source)
	if pi.Schema != nil {
		var ms []mockMismatch
		before := v
		run := fillRun{final: final, terraform: !in.tofu, walk: walk}
		v, ms = fill(pi.Schema, v, with, gen, "", nil, run, nil)
		diags = mockMismatchDiags(ms, !in.tofu, pi.Addr, res.Config, withRange, overrideRange)
		if replanned && !diags.HasErrors() {
			av, _ := fill(pi.Schema, before, with, again, "", nil, run, nil)
			diags = append(diags, inconsistentFinalPlan(pi.Schema, pi.Addr, provider, v, av)...)
		}
	} else {
		if tb := lang.TableSchema(source, tv, mode, res.Type); tb != nil && walk {
			// What the table knows the provider computes, the mocked
			// provider fills, and a value given that does not fit fails.
			ms := tableMismatches(tb, pi.Arguments, with, gen, final, walk)
			diags = mockMismatchDiags(ms, !in.tofu, pi.Addr, res.Config, withRange, overrideRange)
		}
		colls := in.collections.of(pi.Config.Module)
		isColl := func(name string) bool { return colls[res.Addr()+"."+name] }
		addr := configAddr(pi)
		typed := func(name string, ok bool) {
			in.mu.Lock()
			defer in.mu.Unlock()
			if in.tableTyped == nil {
				in.tableTyped = map[string]bool{}
			}
			key := addr + "." + name
			if prev, seen := in.tableTyped[key]; seen {
				ok = ok && prev
			}
			in.tableTyped[key] = ok
		}
		tb := lang.TableSchema(source, tv, mode, res.Type)
		if update := managed && hasPrior && ov == nil && !in.tofu && tb != nil; update {
			// Terraform's mocked provider fills nothing on update: the
			// object is shaped as the table says, what the provider
			// computes left unknown, and then proposed from the prior
			// state (mockUpdate).
			v = fillOpen(v, pi.Arguments, with, gen, "", false, openSchema{isColl, kind, tb, typed}, unread)
			v = mockUpdate(tb, v, prior, pi.Arguments)
			if final {
				v = fillOpen(v, pi.Arguments, with, gen, "", final, openSchema{isColl, kind, tb, typed}, unread)
			}
		} else {
			before := v
			v = fillOpen(v, pi.Arguments, with, gen, "", final, openSchema{isColl, kind, tb, typed}, unread)
			if replanned && !diags.HasErrors() {
				// Which strings the mocks drew, the provider's schema says:
				// the table's where it has the type.
				var pv, av cty.Value
				ok := tb != nil
				if ok {
					pv, ok = tableReplanned(tb, before, pi.Arguments, with, gen)
				}
				if ok {
					av, ok = tableReplanned(tb, before, pi.Arguments, with, again)
				}
				if ok {
					diags = append(diags, inconsistentFinalPlan(tb, pi.Addr, provider, pv, av)...)
				} else {
					in.mu.Lock()
					in.needs = append(in.needs, need{source: source, addr: pi.Addr, why: "the apply plans " + pi.Addr + " again, and which of the values its mocks filled while planning are drawn again only the provider's schema says"})
					in.mu.Unlock()
				}
			}
		}
		// What is still unknown is what tfeval cannot tell the provider's
		// schema would give; once final, the mocked provider has given it
		// and Terraform knows it.
		v = remarkUnread(v, marks.Unread{Cause: marks.NoSchema, Addr: configAddr(pi), Applied: final})
		// The values the mocks gave are as sensitive as the schema
		// makes them, as the table has it.
		v = lang.MarkSensitive(lang.SensitiveTableSchema(source, tv, mode, res.Type), v)
		if managed {
			// A write-only argument is null in what the mock plans.
			v = lang.NullWriteOnly(lang.TableSchema(source, tv, mode, res.Type), v)
		}
	}
	return v, diags
}

// keepUntargeted is the state after the apply: the instances applied,
// and with plan_options.target, the prior state's others as they were.
func (in *instances) keepUntargeted() map[string]cty.Value {
	if in.targets == nil {
		return in.applied
	}
	out := make(map[string]cty.Value, len(in.prior)+len(in.applied))
	for addr, v := range in.prior {
		if !in.targets.covers(addr) {
			out[addr] = v
		}
	}
	for addr, v := range in.applied {
		out[addr] = v
	}
	return out
}

// real is the value of an instance of a provider the test does not mock:
// the plan tfeval makes, where what the provider would compute is marked
// as unknown for want of the provider. An apply would create the object,
// which the run cannot do without the provider, but for hashicorp/random's
// (randomSource): created, it keeps the plan's unknowns.
func (in *instances) real(pi *lang.PlannedInstance, source string) cty.Value {
	if source != randomSource && pi.Schema == nil {
		if in.normalizing {
			return cty.UnknownVal(pi.Planned.Type()).WithMarks(marks.UnreadSet([]marks.Unread{{Cause: marks.ProviderNotRun, Addr: configAddr(pi)}}))
		}
		in.mu.Lock()
		in.planned = true
		in.mu.Unlock()
	}
	if pi.Resource.Mode == config.ManagedResourceMode && in.phase == applyPhase && !(source == randomSource && randomAppliesOffline(pi)) {
		in.mu.Lock()
		in.needs = append(in.needs, need{source: source, addr: pi.Addr})
		in.mu.Unlock()
	}
	if pi.Resource.Mode != config.ManagedResourceMode {
		return pi.Planned // lang marked what it did not read
	}
	return marks.MarkUnknowns(pi.Planned, marks.UnreadSet([]marks.Unread{{Cause: marks.ProviderNotRun, Addr: configAddr(pi)}}))
}

// drawnRandom is what an unmocked hashicorp/random object holds once
// created: drawn when the apply creates it, and the state's while the
// arguments the configuration sets are unchanged (every one of them
// replaces the object; a moved block keeps it). Terraform's own mocks draw
// their values at random too. What tfeval does not draw stays unknown. A
// plan that creates or replaces the object holds it as planRandom does.
func (in *instances) drawnRandom(pi *lang.PlannedInstance, prior cty.Value, hasPrior bool) (cty.Value, bool) {
	v := prior
	if !hasPrior || !sameArguments(pi.Arguments, prior) {
		if in.phase != applyPhase {
			return planRandom(pi)
		}
		drawn, ok := drawRandom(pi, in.gen, in.draw)
		if !ok {
			return cty.NilVal, false
		}
		v = marks.MarkUnknowns(drawn, marks.UnreadSet([]marks.Unread{{Cause: marks.ProviderNotRun, Addr: configAddr(pi)}}))
	}
	in.mu.Lock()
	in.drew = true
	in.mu.Unlock()
	return v, true
}

// normalizingAgain is a fresh plan of the same run in which every object
// of a provider the test does not mock, planned without its schema, is
// wholly unknown, marked as the provider's. tfeval plans such an object
// as the configuration sets it, but the provider may plan its arguments
// otherwise (an SDKv2 provider normalizes them: azurerm plans location
// "UK South" as "uksouth"), and a data source's result may differ too.
// What this plan leaves unknown depends on such a provider.
// hashicorp/random plans its arguments as given. With the schema, tfeval
// plans arguments as given, as recorded for Terraform's own test
// provider.
func (in *instances) normalizingAgain() *instances {
	return &instances{
		runInputs:   in.runInputs,
		notPlanned:  map[string]bool{},
		applied:     map[string]cty.Value{},
		normalizing: true,
	}
}

// terraformData plans or applies the built-in terraform_data resource:
// output follows input, id is new when the object is created or
// replaced (triggers_replace changed), kept when it is updated.
func (in *instances) terraformData(pi *lang.PlannedInstance, gen generator, prior cty.Value, hasPrior bool) cty.Value {
	planned, pm := pi.Planned.Unmark()
	attrs := planned.AsValueMap()
	input := attrs["input"]
	var id, output cty.Value
	if hasPrior {
		p, _ := prior.Unmark()
		replaced := !sameValue(attrs["triggers_replace"], p.GetAttr("triggers_replace"))
		if !replaced {
			id = p.GetAttr("id")
			if sameValue(input, p.GetAttr("input")) {
				output = p.GetAttr("output")
			}
		}
	}
	if in.phase == applyPhase {
		if id == cty.NilVal {
			id = gen.uuid(fmt.Sprintf("id#%d", in.serial))
		}
		if output == cty.NilVal {
			output = input
		}
	}
	if id != cty.NilVal {
		attrs["id"] = id
	}
	if output != cty.NilVal {
		attrs["output"] = output
	}
	return cty.ObjectVal(attrs).WithMarks(pm)
}

// sameValue reports whether two values are known and equal, marks aside.
func sameValue(a, b cty.Value) bool {
	a, _ = a.UnmarkDeep()
	b, _ = b.UnmarkDeep()
	if !a.IsWhollyKnown() || !b.IsWhollyKnown() {
		return false
	}
	if a.IsNull() || b.IsNull() {
		return a.IsNull() && b.IsNull()
	}
	return a.Equals(b).True()
}

// priorOf is an instance's value in the prior state, unless the run
// replaces it.
func (in *instances) priorOf(addr string) (cty.Value, bool) {
	v, ok := in.prior[addr]
	if !ok {
		return cty.NilVal, false
	}
	for _, r := range in.replace {
		if addr == r || strings.HasPrefix(addr, r+"[") {
			return cty.NilVal, false
		}
	}
	return v, true
}

// overrideFor finds the override of an instance: the run's, the file's,
// then the mocked provider's own.
func (in *instances) overrideFor(pi *lang.PlannedInstance, mock *Provider) *Override {
	kind := OverrideResource
	if pi.Resource.Mode == config.DataResourceMode {
		kind = OverrideData
	}
	names := instanceNames(pi)
	find := func(os []*Override) *Override {
		for _, o := range os {
			if o.Kind != kind {
				continue
			}
			t := formatTarget(o.Target)
			for _, n := range names {
				if t == n {
					return o
				}
			}
		}
		return nil
	}
	if o := find(in.overrides); o != nil {
		return o
	}
	if mock != nil {
		return find(mock.Overrides)
	}
	return nil
}

// instanceNames are the addresses an override may give an instance by:
// with or without its key and its module instance keys.
func instanceNames(pi *lang.PlannedInstance) []string {
	inModule := pi.Resource.Addr()
	if pi.Module != "" {
		inModule = pi.Module + "." + inModule
	}
	cfg := configAddr(pi)
	key := strings.TrimPrefix(pi.Addr, inModule)
	return []string{pi.Addr, inModule, cfg + key, cfg}
}

// configAddr is an instance's resource address in the configuration:
// module path without keys, no instance key.
func configAddr(pi *lang.PlannedInstance) string {
	return address.ModulePrefix(pi.Config.Path) + pi.Resource.Addr()
}

// formatTarget writes a traversal as an address: names joined by dots,
// keys in brackets.
func formatTarget(t hcl.Traversal) string {
	var b strings.Builder
	for i, step := range t {
		switch s := step.(type) {
		case hcl.TraverseRoot:
			b.WriteString(s.Name)
		case hcl.TraverseAttr:
			if i > 0 {
				b.WriteByte('.')
			}
			b.WriteString(s.Name)
		case hcl.TraverseIndex:
			k, _ := s.Key.Unmark()
			switch {
			case k.Type() == cty.String:
				fmt.Fprintf(&b, "[%q]", k.AsString())
			case k.Type() == cty.Number:
				b.WriteString("[" + k.AsBigFloat().Text('f', -1) + "]")
			}
		}
	}
	return b.String()
}

// proposedNew is the object an update plans from the prior state and the
// configuration: what the configuration does not set keeps its prior
// value where the provider computes it. Without a schema, kind says which
// attributes the provider computes: an argument the configuration writes
// and leaves null keeps its prior value if computed and stays null if not;
// where kind cannot tell, its value is unknown, marked unread (Terraform
// knows which). What the configuration does not write at all is what the
// provider gave: it keeps its prior value.
func proposedNew(b *lang.Block, args, planned, prior cty.Value, kind func(string) lang.Computed, unread marks.Unread) cty.Value {
	pv, pm := planned.Unmark()
	ov, _ := prior.Unmark()
	if !pv.Type().IsObjectType() || !ov.IsKnown() || ov.IsNull() || !ov.Type().IsObjectType() {
		return planned
	}
	attrs := pv.AsValueMap()
	unset := func(name string) bool {
		if !args.IsKnown() || args.IsNull() || !args.Type().IsObjectType() || !args.Type().HasAttribute(name) {
			return true
		}
		return args.GetAttr(name).IsNull()
	}
	for name, old := range ov.AsValueMap() {
		if !unset(name) {
			continue
		}
		if b != nil {
			if a, ok := b.Attributes[name]; !ok || !a.Computed {
				continue
			}
		} else if written(args, name) {
			switch k := kind(name); {
			case k == lang.NotComputed:
				continue
			case !k.IsComputed():
				if ou, _ := old.Unmark(); !ou.IsNull() {
					attrs[name] = openValue(unread)
				}
				continue
			}
		}
		attrs[name] = old
	}
	return cty.ObjectVal(attrs).WithMarks(pm)
}

// fillRun is how fill fills: final, whether what the provider computes
// is known (else it stays unknown); terraform, whether in Terraform's
// ways (else OpenTofu's); walk, whether Terraform looks in the values
// given for those of the computed attributes (mockMismatch notObject).
type fillRun struct {
	final, terraform, walk bool
}

// fill gives the computed attributes of an object of schema b: with
// final set, those still unknown take the mocked or overridden value
// with gives them, else a generated one; without, they stay unknown.
// Nested blocks are filled the same way, every element with the same
// values (with's attribute of the block's name). path is the object's
// path as tfeval writes it, at as Terraform has it. In Terraform's ways,
// the values given for a nested object must be an object: if not, or if
// not for an object above it (bad), each computed attribute Terraform
// fills in it is an error, and generated.
func fill(b *lang.Block, v, with cty.Value, gen generator, path string, at cty.Path, run fillRun, bad *mockMismatch) (cty.Value, []mockMismatch) {
	inner, vm := v.Unmark()
	if !inner.IsKnown() || inner.IsNull() || !inner.Type().IsObjectType() {
		return v, nil
	}
	if run.terraform && bad == nil && len(at) > 0 {
		bad = notAnObject(with, at)
	}
	if bad != nil {
		with = cty.NilVal
	}
	var diags []mockMismatch
	attrs := inner.AsValueMap()
	// In the order of the names, attributes and blocks together, as
	// Terraform walks the object.
	for _, name := range sortedKeys(attrs) {
		if _, ok := b.BlockTypes[name]; ok {
			av := attrs[name]
			if !av.IsKnown() || av.IsNull() {
				continue
			}
			nv, d := fillEach(b.BlockTypes[name].Block, av, attrOf(with, name), gen, path+"."+name, extend(at, cty.GetAttrStep{Name: name}), run, bad)
			diags = append(diags, d...)
			attrs[name] = nv
			continue
		}
		a, ok := b.Attributes[name]
		if !ok {
			continue
		}
		av := attrs[name]
		wv := attrOf(with, name)
		if a.Computed && !av.IsKnown() {
			if bad != nil && run.walk {
				diags = append(diags, *bad)
			}
			if !run.final {
				continue
			}
			nv := gen.value(a.Type, path+"."+name)
			if wv != cty.NilVal {
				var cv cty.Value
				var err error
				if run.terraform {
					cv, err = mockConvert(wv, a.Type, gen, path+"."+name, nil)
				} else {
					cv, err = typeexpr.ConvertValue(wv, a.Type)
				}
				if err != nil {
					diags = append(diags, mockMismatch{path: path + "." + name, at: extend(at, cty.GetAttrStep{Name: name}), ty: a.Type, err: err})
					continue
				}
				nv = cv
			}
			if a.Sensitive {
				nv = nv.Mark(marks.Sensitive)
			}
			attrs[name] = nv
			continue
		}
		if a.NestedType != nil && av.IsKnown() && !av.IsNull() {
			nb := &lang.Block{Attributes: a.NestedType.Attributes}
			nv, d := fillEach(nb, av, wv, gen, path+"."+name, extend(at, cty.GetAttrStep{Name: name}), run, bad)
			diags = append(diags, d...)
			attrs[name] = nv
		}
	}
	return cty.ObjectVal(attrs).WithMarks(vm), diags
}

// fillEach fills every object of a nested block or nested attribute value.
func fillEach(b *lang.Block, v, with cty.Value, gen generator, path string, at cty.Path, run fillRun, bad *mockMismatch) (cty.Value, []mockMismatch) {
	inner, vm := v.Unmark()
	ty := inner.Type()
	if ty.IsObjectType() && !isMapLike(b, inner) {
		return fill(b, v, with, gen, path, at, run, bad)
	}
	var diags []mockMismatch
	switch {
	case ty.IsListType() || ty.IsTupleType() || ty.IsSetType():
		elems := inner.AsValueSlice()
		if len(elems) == 0 {
			return v, nil
		}
		for i, e := range elems {
			key := cty.NumberIntVal(int64(i))
			if ty.IsSetType() {
				key = setKey
			}
			nv, d := fill(b, e, with, gen, fmt.Sprintf("%s[%d]", path, i), extend(at, cty.IndexStep{Key: key}), run, bad)
			diags = append(diags, d...)
			elems[i] = nv
		}
		switch {
		case ty.IsSetType():
			return cty.SetVal(elems).WithMarks(vm), diags
		case ty.IsListType():
			return cty.ListVal(elems).WithMarks(vm), diags
		}
		return cty.TupleVal(elems).WithMarks(vm), diags
	case ty.IsMapType() || ty.IsObjectType():
		m := inner.AsValueMap()
		if len(m) == 0 {
			return v, nil
		}
		for _, k := range sortedKeys(m) {
			nv, d := fill(b, m[k], with, gen, fmt.Sprintf("%s[%q]", path, k), extend(at, cty.IndexStep{Key: cty.StringVal(k)}), run, bad)
			diags = append(diags, d...)
			m[k] = nv
		}
		if ty.IsMapType() {
			return cty.MapVal(m).WithMarks(vm), diags
		}
		return cty.ObjectVal(m).WithMarks(vm), diags
	}
	return v, nil
}

// isMapLike reports whether an object value is a map of b's objects (a
// map-nested block of dynamic type) rather than one object of b.
func isMapLike(b *lang.Block, v cty.Value) bool {
	for name := range v.Type().AttributeTypes() {
		if _, ok := b.Attributes[name]; ok {
			return false
		}
		if _, ok := b.BlockTypes[name]; ok {
			return false
		}
	}
	return len(v.Type().AttributeTypes()) > 0
}

// openSchema is what tfeval knows of an object's schema without it: which
// top-level attributes the configuration reads as collections, and what
// a table of the provider's computed attributes says of one
// (lang.ComputedAttribute; ComputedUnknown for a provider or type it has
// no table of, and for a nested block's attributes).
type openSchema struct {
	collection func(string) bool
	computed   func(string) lang.Computed
	// table is what the table of the provider's schema knows of the
	// type (lang.TableSchema), nil without one; typed is told, for each
	// attribute or block the table has, whether it decided its value.
	table *lang.Block
	typed func(name string, ok bool)
}

// told tells typed whether the table decided the value of name, if the
// table has the name.
func (o openSchema) told(name string, ok bool) {
	if o.typed == nil || o.table == nil {
		return
	}
	_, attr := o.table.Attributes[name]
	_, block := o.table.BlockTypes[name]
	if attr || block {
		o.typed(name, ok)
	}
}

// fillOpen is fill for an object without schema. Terraform's mocks give
// values only to the attributes the provider computes; one the
// configuration does not set and the schema does not make computed is
// null, whatever a mock or override names. Where the table of the
// provider's schema has the type (known.table, at the top level), it
// decides each attribute and nested block it has (tableValue: types,
// nested blocks, arguments converted). Otherwise every attribute the
// configuration does not set and that is still unknown is decided by the
// table of computed attributes where it has one (known.computed): null if
// not computed; if computed, what with gives or, a string, number or bool,
// generated, once final, and unknown before (as Terraform plans it). Where
// the table cannot tell (another provider's type, an attribute the table's
// schema lacks, a value that does not convert), the attribute is unknown
// marked unread for want of the schema (unread), given or not: Terraform
// would hold the value given only if the schema makes it computed.
// Regardless of the table: id (which every resource and data source has,
// computed) is given or generated once final and an unknown string before,
// and an attribute the configuration reads as a collection (known
// .collection, at the top level) is generated empty once final. The
// attributes with gives that the object lacks are added the same way.
func fillOpen(v, args, with cty.Value, gen generator, path string, final bool, known openSchema, unread marks.Unread) cty.Value {
	inner, vm := v.Unmark()
	if !inner.IsKnown() || inner.IsNull() || !inner.Type().IsObjectType() {
		return v
	}
	attrs := inner.AsValueMap()
	if attrs == nil {
		attrs = map[string]cty.Value{}
	}
	set := func(name string) bool {
		a := attrOf(args, name)
		return a != cty.NilVal && !a.IsNull()
	}
	kind := func(name string) lang.Computed {
		if path != "" || known.computed == nil {
			return lang.ComputedUnknown
		}
		return known.computed(name)
	}
	// given is the value an attribute not set takes once final, and why.
	given := func(name string, k lang.Computed) (cty.Value, givenBy) {
		if wv := attrOf(with, name); wv != cty.NilVal {
			return wv, byMock
		}
		if path == "" && name == "id" {
			return gen.str(".id"), byMock
		}
		if known.collection != nil && known.collection(name) {
			return cty.EmptyTupleVal, byCollection
		}
		switch k {
		case lang.ComputedString:
			return gen.str(path + "." + name), byMock
		case lang.ComputedNumber:
			return cty.Zero, byMock
		case lang.ComputedBool:
			return cty.False, byMock
		}
		return cty.NilVal, byNothing
	}
	open := func(name string, wv cty.Value, by givenBy, k lang.Computed) cty.Value {
		switch {
		case path == "" && name == "id":
			if !final {
				return cty.UnknownVal(cty.String)
			}
			return wv
		case k.IsComputed():
			if !final {
				return k.Unknown()
			}
			return wv
		case by == byCollection && final:
			return wv
		}
		return openValue(unread)
	}
	tb := known.table
	if path != "" {
		tb = nil
	}
	for name, av := range attrs {
		if tb != nil {
			pv := av
			if set(name) {
				pv = keptEmpty(av, attrOf(args, name))
			}
			nv, ok := tableValue(tb, name, pv, attrOf(args, name), set(name), attrOf(with, name), gen, "."+name, final)
			known.told(name, ok)
			if ok {
				attrs[name] = nv
				continue
			}
		}
		if set(name) {
			av = keptEmpty(av, attrOf(args, name))
			attrs[name] = av
			if av.IsKnown() && !av.IsNull() && attrOf(with, name) != cty.NilVal {
				// A nested block: fill its objects with with's values.
				attrs[name] = fillOpenEach(av, attrOf(args, name), attrOf(with, name), gen, path+"."+name, final, unread)
			}
			continue
		}
		if av.IsKnown() {
			continue
		}
		k := kind(name)
		if k == lang.NotComputed && name != "id" {
			attrs[name] = cty.NullVal(av.Type())
			continue
		}
		wv, by := given(name, k)
		if by == byNothing {
			continue
		}
		attrs[name] = open(name, wv, by, k)
	}
	if with != cty.NilVal && with.Type().IsObjectType() || with != cty.NilVal && with.Type().IsMapType() {
		for it := with.ElementIterator(); it.Next(); {
			k, wv := it.Element()
			name := k.AsString()
			if _, ok := attrs[name]; ok {
				continue
			}
			if tb != nil {
				nv, ok := tableValue(tb, name, cty.DynamicVal, cty.NilVal, false, wv, gen, "."+name, final)
				known.told(name, ok)
				if ok {
					attrs[name] = nv
					continue
				}
			}
			kd := kind(name)
			if kd == lang.NotComputed && name != "id" {
				attrs[name] = cty.NullVal(cty.DynamicPseudoType)
				continue
			}
			attrs[name] = open(name, wv, byMock, kd)
		}
	}
	if _, ok := attrs["id"]; !ok && path == "" {
		wv, by := given("id", lang.ComputedString)
		attrs["id"] = open("id", wv, by, lang.ComputedString)
	}
	return cty.ObjectVal(attrs).WithMarks(vm)
}

// keptEmpty is planned, an argument without schema as tfeval planned it,
// with every "" the configuration gives (arg) in place of the unknown
// planning made of it. Planning leaves "" unknown because a provider on
// the legacy SDK cannot tell "" from null and may compute the attribute;
// a mocked provider plans what the configuration sets as it is written,
// "" too. An ephemeral value (a write-only argument's) stays unknown.
func keptEmpty(planned, arg cty.Value) cty.Value {
	if arg == cty.NilVal || planned.IsWhollyKnown() || marks.Contains(arg, marks.Ephemeral) {
		return planned
	}
	a, am := arg.Unmark()
	if !a.IsKnown() || a.IsNull() {
		return planned
	}
	if !planned.IsKnown() {
		if a.Type() == cty.String && a.AsString() == "" {
			return arg
		}
		return planned
	}
	p, pm := planned.Unmark()
	if p.IsNull() {
		return planned
	}
	pt, at := p.Type(), a.Type()
	switch {
	case pt.IsObjectType() && (at.IsTupleType() || at.IsListType()) && a.LengthInt() == 1:
		// A block written once and read directly is planned as its object.
		return keptEmpty(planned, a.Index(cty.Zero).WithMarks(am))
	case pt.IsObjectType() && at.IsObjectType():
		vals := p.AsValueMap()
		for name, v := range vals {
			if at.HasAttribute(name) {
				vals[name] = keptEmpty(v, a.GetAttr(name))
			}
		}
		return cty.ObjectVal(vals).WithMarks(pm)
	case pt.IsTupleType() && (at.IsTupleType() || at.IsListType()) && p.LengthInt() == a.LengthInt():
		vals := p.AsValueSlice()
		for i := range vals {
			vals[i] = keptEmpty(vals[i], a.Index(cty.NumberIntVal(int64(i))))
		}
		return cty.TupleVal(vals).WithMarks(pm)
	}
	return planned
}

// givenBy says where the value of an attribute fillOpen gives comes from:
// a mock, override or generated value of what the provider computes, or
// the empty collection of one the configuration reads as a collection.
type givenBy uint8

const (
	byNothing givenBy = iota
	byMock
	byCollection
)

// openValue is what an attribute without schema that a mock or override
// gives and the configuration does not set holds when tfeval cannot tell
// whether the provider computes it: unknown of no type, marked unread for
// want of the schema. Terraform's mocks give only what the provider
// computes, so if the schema does not make the attribute computed,
// Terraform plans it null and keeps it null after the apply; if it does,
// it is unknown in the plan and the value given once applied.
func openValue(unread marks.Unread) cty.Value {
	return cty.DynamicVal.Mark(unread)
}

// written reports whether args, a block's arguments without a schema,
// has an attribute name: one the configuration writes.
func written(args cty.Value, name string) bool {
	a, _ := args.Unmark()
	return a.IsKnown() && !a.IsNull() && a.Type().IsObjectType() && a.Type().HasAttribute(name)
}

// fillOpenEach fills the objects of a nested block value without schema.
func fillOpenEach(v, args, with cty.Value, gen generator, path string, final bool, unread marks.Unread) cty.Value {
	inner, vm := v.Unmark()
	ty := inner.Type()
	if !with.Type().IsObjectType() && !with.Type().IsMapType() {
		return v
	}
	switch {
	case ty.IsTupleType() || ty.IsListType():
		elems := inner.AsValueSlice()
		var argElems []cty.Value
		if a, _ := args.Unmark(); a.IsKnown() && !a.IsNull() && (a.Type().IsTupleType() || a.Type().IsListType()) {
			argElems = a.AsValueSlice()
		}
		for i, e := range elems {
			ae := cty.NilVal
			if i < len(argElems) {
				ae = argElems[i]
			}
			elems[i] = fillOpen(e, ae, with, gen, fmt.Sprintf("%s[%d]", path, i), final, openSchema{}, unread)
		}
		if ty.IsListType() {
			if sameTypes(elems) {
				return cty.ListVal(elems).WithMarks(vm)
			}
		}
		return cty.TupleVal(elems).WithMarks(vm)
	}
	return v
}

func sameTypes(vals []cty.Value) bool {
	for _, v := range vals[1:] {
		if !v.Type().Equals(vals[0].Type()) {
			return false
		}
	}
	return true
}

// attrOf is an attribute of an object or map value, cty.NilVal when it
// has none.
func attrOf(v cty.Value, name string) cty.Value {
	if v == cty.NilVal {
		return cty.NilVal
	}
	v, _ = v.Unmark()
	if !v.IsKnown() || v.IsNull() {
		return cty.NilVal
	}
	ty := v.Type()
	switch {
	case ty.IsObjectType():
		if ty.HasAttribute(name) {
			return v.GetAttr(name)
		}
	case ty.IsMapType():
		if k := cty.StringVal(name); v.HasIndex(k).True() {
			return v.Index(k)
		}
	}
	return cty.NilVal
}

// remarkUnread gives the unknowns of v that carry Unread marks about u's
// object (u.Addr) the mark u instead. Marks about other objects stay: an
// argument set from another object's unknown (an unmocked random result)
// waits on that object, not on this one's schema.
func remarkUnread(v cty.Value, u marks.Unread) cty.Value {
	if v.IsWhollyKnown() {
		return v
	}
	if !v.IsKnown() {
		inner, vm := v.Unmark()
		out := cty.ValueMarks{}
		changed := false
		for m := range vm {
			if um, ok := m.(marks.Unread); ok && um.Addr == u.Addr {
				changed = true
				continue
			}
			out[m] = struct{}{}
		}
		if !changed {
			return v
		}
		out[u] = struct{}{}
		return inner.WithMarks(out)
	}
	inner, vm := v.Unmark()
	ty := inner.Type()
	switch {
	case inner.IsNull():
		return v
	case ty.IsObjectType():
		attrs := inner.AsValueMap()
		for k, a := range attrs {
			attrs[k] = remarkUnread(a, u)
		}
		return cty.ObjectVal(attrs).WithMarks(vm)
	case ty.IsTupleType():
		elems := inner.AsValueSlice()
		for i, e := range elems {
			elems[i] = remarkUnread(e, u)
		}
		return cty.TupleVal(elems).WithMarks(vm)
	}
	return v
}

func sortedKeys[T any](m map[string]T) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
