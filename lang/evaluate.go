package lang

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"

	"github.com/tfeval/tfeval/config"
	"github.com/tfeval/tfeval/funcs"
)

// evaluator holds the state of one evaluation.
type evaluator struct {
	opts  Options
	cfg   *config.Config
	cwd   string
	diags hcl.Diagnostics
	seen  map[string]bool

	// instances lists the module instances of each module config path (by modulePrefix).
	instances map[string][]*ModuleInstance
	funcs     map[string]map[string]function.Function // by module prefix
}

// Evaluate evaluates the whole configuration tree as terraform plan does (or
// terraform console, with opts.Console).
func Evaluate(cfg *config.Config, opts Options) (*Result, hcl.Diagnostics) {
	if opts.Workspace == "" {
		opts.Workspace = "default"
	}
	ev := &evaluator{
		opts:      opts,
		cfg:       cfg,
		seen:      map[string]bool{},
		instances: map[string][]*ModuleInstance{},
		funcs:     map[string]map[string]function.Function{},
	}
	ev.cwd = opts.Cwd
	if ev.cwd == "" {
		if wd, err := os.Getwd(); err == nil {
			ev.cwd = wd
		}
	}
	if abs, err := filepath.Abs(ev.cwd); err == nil {
		ev.cwd = abs
	}
	ev.cwd = filepath.ToSlash(ev.cwd)

	res := &Result{ev: ev}
	if cfg == nil || cfg.Module == nil {
		return res, nil
	}
	root := ev.newInstance(cfg, nil, "", cty.NilVal, cty.NilVal)
	ev.instances[""] = []*ModuleInstance{root}

	g := ev.buildGraph()
	order, cycles := g.order()
	if len(cycles) > 0 {
		for _, c := range cycles {
			names := make([]string, len(c))
			for i, n := range c {
				names[i] = n.id + " (expand)"
			}
			ev.addDiag(&hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Cycle: " + strings.Join(names, ", ")})
		}
	} else {
		for _, n := range order {
			ev.evalNode(n)
		}
	}
	ev.collect(res)
	return res, ev.diags
}

// newInstance creates the state of one module instance.
func (ev *evaluator) newInstance(c *config.Config, parent *ModuleInstance, addr string, key, each cty.Value) *ModuleInstance {
	return &ModuleInstance{
		Addr:      addr,
		Path:      c.Path,
		Config:    c,
		Variables: map[string]cty.Value{},
		Locals:    map[string]cty.Value{},
		Outputs:   map[string]cty.Value{},
		parent:    parent,
		callKey:   key,
		callEach:  each,
		resources: map[string]*resourceState{},
		scoped:    map[string]*resourceState{},
		calls:     map[string]*callState{},
	}
}

// addDiag records diagnostics, dropping exact repeats: the same problem in
// every instance of a block is reported once, as Terraform's validate walk does.
func (ev *evaluator) addDiags(diags hcl.Diagnostics) {
	for _, d := range diags {
		ev.addDiag(d)
	}
}

func (ev *evaluator) addDiag(d *hcl.Diagnostic) {
	key := fmt.Sprintf("%d|%s|%s", d.Severity, d.Summary, d.Detail)
	if d.Subject != nil {
		key += "|" + d.Subject.String()
	}
	if ev.seen[key] {
		return
	}
	ev.seen[key] = true
	ev.diags = append(ev.diags, d)
}

// functions is the function table for a module.
func (ev *evaluator) functions(c *config.Config) map[string]function.Function {
	key := modulePrefix(c.Path)
	if f, ok := ev.funcs[key]; ok {
		return f
	}
	o := ev.opts.Functions
	o.Dialect = ev.opts.Dialect
	o.ConsoleMode = ev.opts.Console
	o.PureOnly = !ev.opts.Console
	o.ProviderFunctions = ev.providerFunctions(c.Module)
	f := funcs.Functions(o)
	ev.funcs[key] = f
	return f
}

// evalNode evaluates one configuration object in every instance of its module.
func (ev *evaluator) evalNode(n *node) {
	for _, mi := range ev.instances[modulePrefix(n.cfg.Path)] {
		switch n.kind {
		case nodeVar:
			ev.evalVariable(mi, n)
		case nodeLocal:
			ev.evalLocal(mi, n)
		case nodeCall:
			ev.evalCall(mi, n)
		case nodeResource:
			ev.evalResource(mi, n)
		case nodeOutput:
			ev.evalOutput(mi, n)
		case nodeCheck:
			ev.evalCheck(mi, n)
		}
	}
}

// collect fills the result's module and resource lists.
func (ev *evaluator) collect(res *Result) {
	var walk func(mi *ModuleInstance)
	walk = func(mi *ModuleInstance) {
		res.Modules = append(res.Modules, mi)
		for _, addr := range sortedKeys(mi.resources) {
			rs := mi.resources[addr]
			if rs.cfg.Mode == config.EphemeralResourceMode {
				continue
			}
			res.Resources = append(res.Resources, rs.instances...)
		}
		for _, addr := range sortedKeys(mi.scoped) {
			res.Resources = append(res.Resources, mi.scoped[addr].instances...)
		}
		for _, name := range sortedKeys(mi.calls) {
			for _, child := range mi.calls[name].children {
				walk(child)
			}
		}
	}
	walk(ev.instances[""][0])
	sort.SliceStable(res.Modules[1:], func(i, j int) bool { return res.Modules[1+i].Addr < res.Modules[1+j].Addr })
	sort.SliceStable(res.Resources, func(i, j int) bool { return res.Resources[i].Addr < res.Resources[j].Addr })
}

// moduleDesc names a module instance in messages: "the root module" or "module.a".
func moduleDesc(mi *ModuleInstance) string {
	if mi.Addr == "" {
		return "the root module"
	}
	return mi.Addr
}
