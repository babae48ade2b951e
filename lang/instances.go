package lang

import (
	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/tfeval/tfeval/config"
	"github.com/tfeval/tfeval/marks"
)

// InstanceHook, set in Options.Instances, decides the value of every
// managed and data resource instance once tfeval has planned it from its
// configuration. It is how a caller that knows more than the configuration
// says (a test runner with a prior state, mocked providers, overrides, or
// the values an apply produces) gives its values to the evaluation: what
// refers to the instance sees the returned value, and its postconditions
// are checked against it. It is called from several goroutines at once
// and must return the same value for the same input.
type InstanceHook func(*PlannedInstance) (cty.Value, hcl.Diagnostics)

// PlannedInstance is what InstanceHook is given about one instance.
type PlannedInstance struct {
	// Addr is the instance's full address, e.g. `module.a[0].aws_s3_bucket.b["k"]`.
	Addr string
	// Module is the address of the module instance it is in, "" for the root.
	Module string
	// Config is the module (in the configuration tree) it is declared in.
	Config   *config.Config
	Resource *config.Resource
	// Key is the instance key: a number (count), a string (for_each) or cty.NilVal.
	Key cty.Value
	// Schema is the resource type's schema; nil when tfeval has none.
	Schema *Block
	// Arguments is what the block's arguments and nested blocks evaluated
	// to, before planning: null where the configuration sets nothing.
	Arguments cty.Value
	// Planned is the value tfeval planned: what the configuration sets
	// is known, what the provider would compute is unknown (marked
	// marks.Unread where tfeval cannot tell whether the provider computes
	// it, as for a resource without schema).
	Planned cty.Value
	// Read says when Terraform reads a data source instance (DataReadNone
	// for a managed one).
	Read DataRead
}

// hookInstance gives a planned instance to Options.Instances, when set,
// and returns the value it decides.
func (ev *evaluator) hookInstance(s *scope, rs *resourceState, key cty.Value, args, planned cty.Value, read DataRead) cty.Value {
	hook := ev.opts.Instances
	if hook == nil || rs.cfg.Mode == config.EphemeralResourceMode {
		return planned
	}
	mi := s.mod
	addr := rs.cfg.Addr()
	if mi.Addr != "" {
		addr = mi.Addr + "." + addr
	}
	v, diags := hook(&PlannedInstance{
		Addr:      instanceAddr(addr, key),
		Module:    mi.Addr,
		Config:    mi.Config,
		Resource:  rs.cfg,
		Key:       key,
		Schema:    rs.schema,
		Arguments: args,
		Planned:   planned,
		Read:      read,
	})
	ev.addDiags(diags)
	if v == cty.NilVal {
		return planned
	}
	if marks.HasUnread(v) {
		ev.madeUnread()
	}
	if marks.Contains(v, marks.Ephemeral) {
		ev.madeEphemeral()
	}
	return v
}
