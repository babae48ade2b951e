package tftest

import (
	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/tfeval/tfeval/config"
	"github.com/tfeval/tfeval/lang"
)

// blockIndexed finds, in a reference, a nested block of a resource or data
// source whose provider schema tfeval does not have read by a number index
// (aws_thing.t.rule[0]) where the provider declares that block a set
// (lang.SetBlock): Terraform reports an error, a set cannot be indexed,
// where tfeval, building every block as a list without the schema, reads an
// element. The condition's answer is not tfeval's to give. It returns the
// resource's address. Blocks tfeval does not know to be sets are read as
// lists, as before.
func (r *runner) blockIndexed(t hcl.Traversal, cfg *config.Config) string {
	if cfg == nil || cfg.Module == nil || len(t) < 4 {
		return ""
	}
	root, ok := t[0].(hcl.TraverseRoot)
	if !ok {
		return ""
	}
	steps := t[1:]
	var addr string
	switch root.Name {
	case "data":
		typ, ok1 := step(steps, 0)
		name, ok2 := step(steps, 1)
		if !ok1 || !ok2 {
			return ""
		}
		addr, steps = "data."+typ+"."+name, steps[2:]
	case "resource":
		typ, ok1 := step(steps, 0)
		name, ok2 := step(steps, 1)
		if !ok1 || !ok2 {
			return ""
		}
		addr, steps = typ+"."+name, steps[2:]
	case "var", "local", "module", "output", "run", "each", "count", "path", "terraform", "self":
		return ""
	default:
		name, ok := step(steps, 0)
		if !ok {
			return ""
		}
		addr, steps = root.Name+"."+name, steps[1:]
	}
	res, c := findConfigResource(cfg, addr)
	if res == nil || res.Config == nil || (res.Mode == config.ManagedResourceMode && builtin(res)) {
		return ""
	}
	if r.opts.Schemas.ResourceSchema(c.Module, res) != nil {
		return ""
	}
	if len(steps) > 0 && (res.Count != nil || res.ForEach != nil) {
		if _, ok := steps[0].(hcl.TraverseIndex); ok {
			steps = steps[1:] // the instance key
		}
	}
	block, ok := step(steps, 0)
	if !ok || len(steps) < 2 {
		return ""
	}
	idx, ok := steps[1].(hcl.TraverseIndex)
	if !ok || !idx.Key.Type().Equals(cty.Number) {
		return ""
	}
	if !lang.SetBlock(c.Module, res, block) || !hasBlock(res.Config, block) {
		return ""
	}
	return addr
}

// step is the name of an attribute step at i of steps.
func step(steps hcl.Traversal, i int) (string, bool) {
	if i >= len(steps) {
		return "", false
	}
	a, ok := steps[i].(hcl.TraverseAttr)
	if !ok {
		return "", false
	}
	return a.Name, true
}

// hasBlock reports whether body writes a block of type name, or a dynamic
// block of that name.
func hasBlock(body hcl.Body, name string) bool {
	content, _, _ := body.PartialContent(&hcl.BodySchema{Blocks: []hcl.BlockHeaderSchema{
		{Type: name},
		{Type: "dynamic", LabelNames: []string{"name"}},
	}})
	if content == nil {
		return false
	}
	for _, b := range content.Blocks {
		if b.Type == name || (b.Type == "dynamic" && len(b.Labels) == 1 && b.Labels[0] == name) {
			return true
		}
	}
	return false
}
