package tftest

import (
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/tfeval/tfeval/config"
)

// moved applies the moved blocks of a module tree to a state, as
// Terraform does before it plans: an object recorded at a block's from
// address is at its to address from then on (a resource, one of its
// instances, or a module call and all it holds). A block in a called
// module moves within each of that module's instances. A move whose
// destination the state already has is not made; moves that chain are
// followed.
func moved(cfg *config.Config, state map[string]cty.Value) map[string]cty.Value {
	type move struct {
		module   []string
		from, to string
	}
	var moves []move
	var walk func(c *config.Config)
	walk = func(c *config.Config) {
		for _, m := range c.Module.Moved {
			from, ok1 := addressOf(m.From)
			to, ok2 := addressOf(m.To)
			if ok1 && ok2 {
				moves = append(moves, move{c.Path, from, to})
			}
		}
		for _, name := range sortedKeys(c.Children) {
			walk(c.Children[name])
		}
	}
	if cfg == nil || len(state) == 0 {
		return state
	}
	walk(cfg)
	if len(moves) == 0 {
		return state
	}
	out := make(map[string]cty.Value, len(state))
	for k, v := range state {
		out[k] = v
	}
	for range moves { // each pass follows one more link of a chain
		changed := false
		for _, mv := range moves {
			for _, prefix := range instancePrefixes(out, mv.module) {
				from, to := prefix+mv.from, prefix+mv.to
				for addr, v := range out {
					rest, ok := movedRest(addr, from)
					if !ok {
						continue
					}
					dst := to + rest
					if _, taken := out[dst]; taken {
						continue
					}
					delete(out, addr)
					out[dst] = v
					changed = true
				}
			}
		}
		if !changed {
			break
		}
	}
	return out
}

// movedRest is what follows from in addr when addr is what from names or
// inside it: the instance key of a resource named without one, what a
// module holds.
func movedRest(addr, from string) (string, bool) {
	rest, ok := strings.CutPrefix(addr, from)
	if !ok {
		return "", false
	}
	if rest == "" || strings.HasPrefix(rest, ".") || strings.HasPrefix(rest, "[") && !strings.HasSuffix(from, "]") {
		return rest, true
	}
	return "", false
}

// instancePrefixes are the address prefixes, "module.a[0]." and the like,
// of the instances in the state of the module at path ("" for the root).
func instancePrefixes(state map[string]cty.Value, path []string) []string {
	if len(path) == 0 {
		return []string{""}
	}
	seen := map[string]bool{}
	var out []string
	for addr := range state {
		prefix, rest := "", addr
		ok := true
		for _, name := range path {
			after, found := strings.CutPrefix(rest, "module."+name)
			if !found {
				ok = false
				break
			}
			key := ""
			if strings.HasPrefix(after, "[") {
				end := strings.Index(after, "].")
				if end < 0 {
					ok = false
					break
				}
				key, after = after[:end+1], after[end+1:]
			}
			if !strings.HasPrefix(after, ".") {
				ok = false
				break
			}
			prefix += "module." + name + key + "."
			rest = after[1:]
		}
		if ok && !seen[prefix] {
			seen[prefix] = true
			out = append(out, prefix)
		}
	}
	return out
}

// addressOf is the address a moved block's from or to expression names.
func addressOf(e hcl.Expression) (string, bool) {
	if e == nil {
		return "", false
	}
	t, diags := hcl.AbsTraversalForExpr(e)
	if diags.HasErrors() {
		return "", false
	}
	return formatTarget(t), true
}
