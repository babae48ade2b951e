package format

import (
	"encoding/json"

	"github.com/zclconf/go-cty/cty"

	"github.com/tfeval/tfeval/config"
	"github.com/tfeval/tfeval/tftest"
)

// The plan and the state a run prints with -json -verbose, as the binaries
// write them in their test_plan and test_state events: the parts of
// terraform show -json's plan and state documents that describe what the
// run planned or applied. The provider schemas the binaries add beside
// them are left out: tfeval runs no provider to ask for one.

// verboseEvent is the test_plan (after a plan run) or test_state (after
// an apply run) event of a run that got as far as planning.
func (e *eventWriter) verboseEvent(fr *tftest.FileResult, rr *tftest.RunResult) {
	if rr.Result == nil {
		return
	}
	p, err := NewPlan(rr.Result, PlanOptions{})
	if err != nil {
		return
	}
	ev := map[string]any{"@level": "info", "@testfile": fr.Path, "@testrun": rr.Name}
	if rr.Command == tftest.Plan {
		ev["@message"] = "-verbose flag enabled, printing plan"
		ev["type"] = "test_plan"
		ev["test_plan"] = testPlan(p, rr)
	} else {
		ev["@message"] = "-verbose flag enabled, printing state"
		ev["type"] = "test_state"
		ev["test_state"] = orderedObject{
			{"state_format_version", "1.0"},
			{"root_module", p.PlannedValues.RootModule},
			{"outputs", p.PlannedValues.Outputs},
			{"provider_format_version", "1.0"},
		}
	}
	e.emit(ev)
}

// testPlan is a plan run's plan: its changes to the state the run started
// from (a managed instance already there is updated, or unchanged), and
// what the configuration reads of the resources.
func testPlan(p *Plan, rr *tftest.RunResult) orderedObject {
	planned := map[string]cty.Value{}
	for _, ri := range rr.Result.Resources {
		if ri.Mode == config.ManagedResourceMode {
			planned[ri.Addr] = ri.Value
		}
	}
	changes := make([]ResourceChange, 0, len(p.ResourceChanges))
	for _, rc := range p.ResourceChanges {
		old, ok := rr.Prior[rc.Address]
		cur, managed := planned[rc.Address]
		if ok && managed {
			rc.Change.Before, _ = json.Marshal(knownJSON(old))
			rc.Change.BeforeSensitive = sensitiveAsBool(old)
			rc.Change.Actions = []string{"update"}
			if old.RawEquals(cur) {
				rc.Change.Actions = []string{"no-op"}
			}
		}
		changes = append(changes, rc)
	}
	changed := false
	for _, rc := range changes {
		changed = changed || rc.Change.Actions[0] != "no-op"
	}
	var outputs map[string]Change
	if root := rr.Result.Root(); root != nil {
		for name, ch := range p.OutputChanges {
			if old, ok := rr.PriorOutputs[name]; ok {
				ch.Before, _ = json.Marshal(knownJSON(old))
				ch.Actions = []string{"update"}
				if old.RawEquals(root.Outputs[name]) {
					ch.Actions = []string{"no-op"}
				}
			}
			changed = changed || ch.Actions[0] != "no-op"
			if outputs == nil {
				outputs = map[string]Change{}
			}
			outputs[name] = ch
		}
	}
	out := orderedObject{{"plan_format_version", PlanFormatVersion}}
	if len(outputs) > 0 {
		out = append(out, member{"output_changes", outputs})
	}
	if len(changes) > 0 {
		out = append(out, member{"resource_changes", changes})
	}
	if len(p.RelevantAttrs) > 0 && changed {
		// The binaries list what the changes refer to: nothing when
		// nothing changes.
		out = append(out, member{"relevant_attributes", p.RelevantAttrs})
	}
	return append(out, member{"provider_format_version", "1.0"})
}
