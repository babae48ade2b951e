package lang

import (
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/tfeval/tfeval/config"
	"github.com/tfeval/tfeval/marks"
	"github.com/tfeval/tfeval/typeexpr"
)

// This file decides what a data source's planned result is. Terraform
// reads a data source while planning when its configuration is wholly
// known and nothing it depends on (depends_on, its module's depends_on)
// has a pending change; otherwise it defers the read to apply, and the
// result is unknown then too. tfeval reads nothing: a result given in
// Options.DataSources is used as the read result; without one, every
// attribute the configuration does not set is unknown and marked as
// unread. A data source Terraform defers keeps Terraform's plain unknowns,
// unless what defers it is itself unread (then Terraform might have read
// it, and its unknowns carry that mark and its own).

// dataResults are the data source results an evaluation was given, by
// canonical address, with the record of which were used.
type dataResults struct {
	entries map[string]*dataEntry
	// order lists the canonical addresses in the order given (sorted).
	order []string
}

type dataEntry struct {
	value cty.Value
	given string    // the address as written
	rng   hcl.Range // where it was written, when known
	mu    sync.Mutex
	used  bool
	// deferred is set when an instance the address names is one Terraform
	// reads only during apply, which keeps its result unknown.
	deferred bool
}

// newDataResults indexes the given results by canonical address; an
// address that is not one of a data resource's instances is an error.
func newDataResults(values map[string]cty.Value, ranges map[string]hcl.Range) (*dataResults, hcl.Diagnostics) {
	if len(values) == 0 {
		return nil, nil
	}
	var diags hcl.Diagnostics
	dr := &dataResults{entries: map[string]*dataEntry{}}
	given := make([]string, 0, len(values))
	for k := range values {
		given = append(given, k)
	}
	sort.Strings(given)
	for _, k := range given {
		rng, hasRange := ranges[k]
		canon, err := canonicalDataAddr(k)
		if err != "" {
			d := &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid data source address", Detail: fmt.Sprintf("%q is not the address of a data resource or of one of its instances: %s.", k, err)}
			if hasRange {
				d.Subject = rng.Ptr()
			}
			diags = append(diags, d)
			continue
		}
		v := values[k]
		if v == cty.NilVal || v.IsNull() || !v.IsWhollyKnown() || !(v.Type().IsObjectType() || v.Type().IsMapType()) {
			d := &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid data source result", Detail: fmt.Sprintf("The result given for %s must be a known object of the data source's attributes.", k)}
			if hasRange {
				d.Subject = rng.Ptr()
			}
			diags = append(diags, d)
			continue
		}
		if _, dup := dr.entries[canon]; dup {
			d := &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Duplicate data source result", Detail: fmt.Sprintf("%q names the same data source instance as another address given.", k)}
			if hasRange {
				d.Subject = rng.Ptr()
			}
			diags = append(diags, d)
			continue
		}
		dr.entries[canon] = &dataEntry{value: v, given: k, rng: rng}
		dr.order = append(dr.order, canon)
	}
	sort.Strings(dr.order)
	return dr, diags
}

// canonicalDataAddr parses a data resource address, with or without module
// path and instance keys, and writes it as tfeval writes addresses.
func canonicalDataAddr(addr string) (string, string) {
	trav, diags := hclsyntax.ParseTraversalAbs([]byte(addr), "", hcl.InitialPos)
	if diags.HasErrors() {
		return "", "it does not parse as an address"
	}
	var b strings.Builder
	i := 0
	name := func() (string, bool) {
		if i >= len(trav) {
			return "", false
		}
		n := traversalName(trav[i])
		i++
		return n, n != ""
	}
	key := func() string {
		if i < len(trav) {
			if idx, ok := trav[i].(hcl.TraverseIndex); ok {
				i++
				if k, err := instanceKey(idx.Key); err == nil {
					return keyString(k)
				}
				return "\x00"
			}
		}
		return ""
	}
	for {
		n, ok := name()
		if !ok {
			return "", "it names no data resource"
		}
		if n != "module" {
			if n != "data" {
				return "", `a data resource address starts with "data."`
			}
			break
		}
		call, ok := name()
		if !ok {
			return "", "a module call name must follow module"
		}
		k := key()
		if k == "\x00" {
			return "", "an instance key must be a string or a whole number"
		}
		b.WriteString("module." + call + k + ".")
	}
	typ, ok1 := name()
	nm, ok2 := name()
	if !ok1 || !ok2 {
		return "", "data must be followed by the data source type and name"
	}
	b.WriteString("data." + typ + "." + nm)
	k := key()
	if k == "\x00" {
		return "", "an instance key must be a string or a whole number"
	}
	b.WriteString(k)
	if i != len(trav) {
		return "", "it goes on after the instance"
	}
	return b.String(), ""
}

// lookup finds the result given for one data resource instance: by its
// instance address, by the resource's address in its module instance, by
// its address in the configuration with the instance key, or without it.
func (dr *dataResults) lookup(mi *ModuleInstance, res *config.Resource, key cty.Value) *dataEntry {
	return dr.find(mi, res, key, false)
}

// find is lookup; with deferred set it records that the instance is read
// only during apply instead of taking the result.
func (dr *dataResults) find(mi *ModuleInstance, res *config.Resource, key cty.Value, deferred bool) *dataEntry {
	if dr == nil {
		return nil
	}
	prefix := ""
	if mi.Addr != "" {
		prefix = mi.Addr + "."
	}
	cfgAddr := configAddr(mi.Config, res.Addr())
	for _, addr := range []string{prefix + res.Addr() + keyString(key), prefix + res.Addr(), cfgAddr + keyString(key), cfgAddr} {
		if e := dr.entries[addr]; e != nil {
			e.mu.Lock()
			if deferred {
				e.deferred = true
			} else {
				e.used = true
			}
			e.mu.Unlock()
			return e
		}
	}
	return nil
}

// unusedWarnings warns of every given result that no data source instance took.
func (dr *dataResults) unusedWarnings() hcl.Diagnostics {
	if dr == nil {
		return nil
	}
	var diags hcl.Diagnostics
	for _, addr := range dr.order {
		e := dr.entries[addr]
		if e.used {
			continue
		}
		detail := fmt.Sprintf("The result given for %s was not used: no data source instance of the configuration has that address, or each one it names was given a result of its own.", e.given)
		if e.deferred {
			detail = fmt.Sprintf("The result given for %s was not used: Terraform reads that data source only during apply, because its configuration depends on values known only then or its depends_on names a pending change, so its result is unknown in the plan.", e.given)
		}
		d := &hcl.Diagnostic{Severity: hcl.DiagWarning, Summary: "Data source result not used", Detail: detail}
		if e.rng.Filename != "" {
			d.Subject = e.rng.Ptr()
		}
		diags = append(diags, d)
	}
	return diags
}

// dataReadState is what planning a data source instance decided.
type dataReadState struct {
	// deferred says Terraform would read the data source only during
	// apply (its own plan shows the result unknown too).
	deferred bool
	// unread are the Unread marks of what makes it deferred, when that is
	// something tfeval did not read: Terraform might have read it then.
	unread []marks.Unread
	// pending says it is deferred because depends_on names an object with
	// a pending change, not because its configuration is unknown.
	pending bool
}

// dataRead decides whether Terraform reads a data source instance while
// planning, given its decoded configuration.
func (ev *evaluator) dataRead(mi *ModuleInstance, res *config.Resource, config cty.Value) dataReadState {
	if !config.IsWhollyKnown() {
		if marks.HasUnmarkedUnknown(config) {
			return dataReadState{deferred: true}
		}
		return dataReadState{deferred: true, unread: marks.UnreadMarks(config)}
	}
	if ev.dependsOnChanges(mi, res.DependsOn) {
		return dataReadState{deferred: true, pending: true}
	}
	for c := mi; c.parent != nil; c = c.parent {
		call := c.parent.Config.Module.ModuleCalls[c.Path[len(c.Path)-1]]
		if call != nil && ev.dependsOnChanges(c.parent, call.DependsOn) {
			return dataReadState{deferred: true, pending: true}
		}
	}
	return dataReadState{}
}

// dependsOnChanges reports whether a depends_on list names an object with
// a pending change. The plan starts from an empty state, so every managed
// resource instance is to be created: a managed resource has a change
// unless it has no instances, a data source when it is deferred, a module
// when it has a managed resource.
func (ev *evaluator) dependsOnChanges(mi *ModuleInstance, deps []hcl.Traversal) bool {
	for _, t := range deps {
		ref, diags := parseRef(t, ev.opts.Dialect)
		if ref == nil || diags.HasErrors() {
			continue
		}
		switch ref.kind {
		case refResource:
			rs := mi.resource(ref.addr())
			if rs == nil {
				continue
			}
			switch ref.mode {
			case config.ManagedResourceMode:
				if rs.expansion.mode != expandCount && rs.expansion.mode != expandForEach || len(rs.instances) > 0 {
					return true
				}
			case config.DataResourceMode:
				if rs.deferred.Load() {
					return true
				}
			}
		case refModule:
			if child := mi.Config.Children[ref.name]; child != nil && hasManagedResources(child) {
				return true
			}
		}
	}
	return false
}

// hasManagedResources reports whether a module or one it calls declares a
// managed resource.
func hasManagedResources(c *config.Config) bool {
	if c.Module == nil {
		return false
	}
	if len(c.Module.ManagedResources) > 0 {
		return true
	}
	for _, child := range c.Children {
		if hasManagedResources(child) {
			return true
		}
	}
	return false
}

// planData turns the planned object of a data source instance (what its
// configuration sets, with every other attribute unknown) into its result:
// the given one, or the planned object with Unread marks where Terraform
// would have read it; it also says when Terraform reads the instance.
func (ev *evaluator) planData(mi *ModuleInstance, res *config.Resource, key cty.Value, schema *Block, planned cty.Value, st dataReadState) (cty.Value, DataRead, hcl.Diagnostics) {
	own := ev.unreadMarks(mi.Config, res, marks.DataNotRead)
	if st.deferred {
		ev.data.find(mi, res, key, true)
		if st.unread == nil {
			when := DataReadApplyConfigUnknown
			if st.pending {
				when = DataReadApplyDependency
			}
			if schema == nil {
				// Without a schema the unknowns stand for attributes that
				// may not exist: they stay marked.
				return marks.MarkUnknowns(planned, own), when, nil
			}
			return planned, when, nil
		}
		ms := marks.UnreadSet(st.unread)
		for m := range own {
			ms[m] = struct{}{}
		}
		return marks.MarkUnknowns(planned, ms), DataReadUnknown, nil
	}
	e := ev.data.lookup(mi, res, key)
	if e == nil {
		return marks.MarkUnknowns(planned, own), DataReadUnknown, nil
	}
	v, diags := overlayResult(planned, e, schema)
	return marks.MarkUnknowns(v, own), DataReadPlan, diags
}

// overlayResult puts the attributes of a given result over a planned data
// source object, converted to the schema's types when there is one.
func overlayResult(planned cty.Value, e *dataEntry, schema *Block) (cty.Value, hcl.Diagnostics) {
	var diags hcl.Diagnostics
	base, vm := planned.Unmark()
	attrs := map[string]cty.Value{}
	// go-cty gives a nil map for an object without attributes (a data
	// block with no arguments and no schema), which cannot be added to.
	if base.IsKnown() && !base.IsNull() && base.Type().IsObjectType() && base.LengthInt() > 0 {
		attrs = base.AsValueMap()
	}
	subject := func() *hcl.Range {
		if e.rng.Filename == "" {
			return nil
		}
		return e.rng.Ptr()
	}
	for it := e.value.ElementIterator(); it.Next(); {
		k, v := it.Element()
		name := k.AsString()
		if schema == nil {
			attrs[name] = v
			continue
		}
		ty, sensitive, ok := schema.attributeType(name)
		if !ok {
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid data source result", Detail: fmt.Sprintf("The result given for %s has an attribute %q, which the data source's schema does not have.", e.given, name), Subject: subject()})
			continue
		}
		cv, err := typeexpr.ConvertValue(v, ty)
		if err != nil {
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid data source result", Detail: fmt.Sprintf("The result given for %s has an unsuitable value for %q: %s.", e.given, name, err), Subject: subject()})
			continue
		}
		if sensitive {
			cv = cv.Mark(marks.Sensitive)
		}
		attrs[name] = cv
	}
	return cty.ObjectVal(attrs).WithMarks(vm), diags
}

// attributeType is the type of an attribute or nested block type of a
// schema block, and whether it is sensitive.
func (b *Block) attributeType(name string) (cty.Type, bool, bool) {
	if a, ok := b.Attributes[name]; ok {
		return a.Type, a.Sensitive, true
	}
	if nb, ok := b.BlockTypes[name]; ok {
		return b.ImpliedType().AttributeType(name), false, nb != nil
	}
	return cty.NilType, false, false
}
