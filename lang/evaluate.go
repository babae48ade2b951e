package lang

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"

	"github.com/tfeval/tfeval/config"
	"github.com/tfeval/tfeval/funcs"
	"github.com/tfeval/tfeval/internal/address"
	"github.com/tfeval/tfeval/internal/diagsort"
)

// evaluator is what evaluates: the state of the whole evaluation, shared,
// plus what one evaluation task keeps of its own. Parallel evaluation
// makes one evaluator per graph node (buffer), so that part stays small.
type evaluator struct {
	*evaluation
	diags hcl.Diagnostics
	// once, in a buffered copy, are the diagnostics of diags to drop when
	// the same was recorded before, with what else tells them apart
	// (addDiagOnce): merge applies it.
	once map[*hcl.Diagnostic]string
	// node is the configuration object being evaluated, nil outside one.
	node *node
	// buffered is set on the per-node copies of the evaluator that parallel
	// evaluation uses: diagnostics are collected, and merged in graph order later.
	buffered bool
}

// evaluation holds the state of one evaluation, which every evaluator of
// it shares.
type evaluation struct {
	opts Options
	cfg  *config.Config
	cwd  string
	// seen are the keys of the diagnostics recorded once (addDiagOnce),
	// by the evaluator that is not buffered.
	seen map[string]bool

	// instances lists the module instances of each module config path (by modulePrefix).
	instances map[string][]*ModuleInstance
	// root is the root module's instance.
	root *ModuleInstance
	// funcs caches function tables by providerFunctionsKey: modules that
	// see the same provider functions share one table.
	funcs map[string]map[string]function.Function

	// limits enforces Options.Limits and Options.Context (limits.go).
	limits *limiter
	// lazy, with Options.Lazy, holds the graph whose nodes are evaluated
	// when expressions first need them (lazy.go).
	lazy *lazyRun
	// data are the data source results given (Options.DataSources).
	data *dataResults

	// shared is what the concurrent node evaluations of one Evaluate share.
	shared *evalShared
	// done is set when evaluation has finished; scopes made later see final values.
	done bool
	// countsChecked, in the validation of what a plan expanded to no
	// instance (validateUnexpanded), are the resources whose count or
	// for_each the plan evaluated.
	countsChecked map[*config.Resource]bool
	// unconfigured are the resource nodes whose aliased provider
	// configuration no provider block gives (checkProviderConfigs): they
	// are not evaluated.
	unconfigured map[*node]bool
	// errorsOnly, in that validation, is set: only its errors are
	// wanted. A resource instance's planned value, which nothing there
	// reads (what refers to a resource sees validate's unknown), is not
	// made where no check of the instance reads it (valueUnread), and
	// a body without schema is walked for its expressions' errors
	// rather than decoded where decoding can add none
	// (evalResourceBody).
	errorsOnly bool
}

// evalShared guards the evaluator state that nodes evaluated in parallel share.
type evalShared struct {
	mu sync.Mutex // guards evaluator.instances, evaluator.funcs and conditionMarks

	// conditionMarks are the marks the rules' conditions carried
	// (Result.ConditionMarks).
	conditionMarks cty.ValueMarks

	// caches of per-configuration-object data that does not depend on the
	// module instance, filled on first use.
	cacheMu   sync.RWMutex
	resources map[*config.Resource]*resourceInfo
	nsCalls   map[hcl.Expression]bool
	exprRefs  map[hcl.Expression][]parsedRef
	// adHocLeft counts down the entries still allowed once evaluation is
	// done (see maxAdHocCached).
	adHocLeft atomic.Int64
	// ephemeral is set once a value is marked ephemeral: until then no
	// value can carry the mark, and resources need not be searched for it.
	ephemeral atomic.Bool
	// unread is set once a value is marked unread (marks.Unread): until
	// then results need not be searched for unknowns that lost the mark.
	unread atomic.Bool
	// countVars are the variables of the contexts of counted instances
	// that read count alone, by index (countVariables).
	countMu   sync.Mutex
	countVars []map[string]cty.Value
	// moduleFuncs is the function table of each module, from evaluator.funcs.
	moduleFuncs map[*config.Module]map[string]function.Function

	// readPaths is what the configuration reads from resources (reads.go),
	// worked out when the first resource without a schema is planned.
	readsOnce sync.Once
	readPaths *readAnalysis
	// open says that a managed resource of the configuration has no
	// schema (anyOpen), found once.
	openOnce sync.Once
	open     bool
	// sensitiveTables says that a resource or data source of the
	// configuration without schema has a type whose table has
	// sensitive attributes (anySensitiveTable), found once.
	sensitiveOnce   sync.Once
	sensitiveTables bool
	// tableVersions are the versions of the tables of providers'
	// schemas the configuration admits (TableVersion), by source.
	tableVersions sync.Map

	// shapeKey is the moduleShapeKey of this evaluation's options, made an
	// interface once: moduleShape is asked for every expression evaluated,
	// and boxing the key each time was an allocation each.
	shapeKey any
}

func newEvalShared(opts Options) *evalShared {
	return &evalShared{
		shapeKey:  moduleShapeKey{opts.Schemas, opts.Dialect},
		resources: map[*config.Resource]*resourceInfo{},
		nsCalls:   map[hcl.Expression]bool{},
		exprRefs:  map[hcl.Expression][]parsedRef{},

		moduleFuncs: map[*config.Module]map[string]function.Function{},
	}
}

// share returns the shared state, creating it for evaluators built
// without newEvaluator.
func (ev *evaluator) share() *evalShared {
	if ev.shared == nil {
		ev.shared = newEvalShared(ev.opts)
	}
	return ev.shared
}

// Evaluate evaluates the whole configuration tree as terraform plan does (or
// terraform console, with opts.Console).
func Evaluate(cfg *config.Config, opts Options) (*Result, hcl.Diagnostics) {
	ev, res := newEvaluation(cfg, opts, nil)
	if cfg == nil || cfg.Module == nil {
		return res, nil
	}
	root := ev.root
	if !opts.Console && !opts.Validate && !opts.Lazy {
		ev.checkRemoved(cfg)
	}
	g := ev.buildGraph()
	order, cycles := g.order()
	if len(cycles) > 0 {
		for _, c := range cycles {
			names := make([]string, len(c))
			for i, n := range c {
				switch {
				case n.kind == nodeProvider:
					names[i] = providerNodeName(n, opts.Dialect)
				case n.kind == nodeResource && opts.Validate:
					// terraform validate's resource nodes are named by
					// their address alone.
					names[i] = n.id()
				default:
					names[i] = n.id() + " (expand)"
				}
			}
			ev.addDiag(&hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Cycle: " + strings.Join(names, ", ")})
		}
	} else if opts.Lazy {
		ev.startLazy(g, order)
	} else if ev.checkProviderConfigs(g) {
		types, at := ev.checkResourceTypes(g), len(ev.diags)
		ev.run(order)
		ev.reportResourceTypes(g, types, at)
		if !opts.Console && !opts.Validate {
			ev.checkImports(root)
			if opts.ValidateUnexpanded {
				res.unexpandedErrors = ev.validateUnexpanded(g, order)
			}
		}
	}
	ev.finish(res)
	return res, ev.diags
}

// newEvaluation makes the evaluator of an evaluation and its Result, with
// the root module's instance (when cfg has a module) and the data source
// results; nothing is evaluated yet. With base, the evaluation shares
// base's caches and limits rather than have its own.
func newEvaluation(cfg *config.Config, opts Options, base *evaluation) (*evaluator, *Result) {
	if opts.Workspace == "" {
		opts.Workspace = "default"
	}
	ev := &evaluator{evaluation: &evaluation{
		opts:      opts,
		cfg:       cfg,
		seen:      map[string]bool{},
		instances: map[string][]*ModuleInstance{},
	}}
	if base != nil {
		ev.funcs, ev.shared, ev.limits = base.funcs, base.shared, base.limits
	} else {
		ev.funcs = map[string]map[string]function.Function{}
		ev.shared = newEvalShared(opts)
		ev.limits = newLimiter(opts.Context, opts.Limits)
		ev.limits.guard.Observe = ev.observe
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
		return ev, res
	}
	var dataDiags hcl.Diagnostics
	ev.data, dataDiags = newDataResults(opts.DataSources, opts.DataSourceRanges)
	ev.addDiags(dataDiags)
	root := ev.newInstance(cfg, nil, "", cty.NilVal, cty.NilVal)
	ev.instances[""] = []*ModuleInstance{root}
	ev.root = root
	return ev, res
}

// finish fills the Result once the evaluation has run: later scopes see
// final values.
func (ev *evaluator) finish(res *Result) {
	ev.addDiags(ev.data.unusedWarnings())
	ev.collect(res)
	ev.done = true
	ev.share().adHocLeft.Store(2 * maxAdHocCached) // references and namespaced calls
	if ev.limits != nil {
		ev.limits.adHocLeft.Store(maxAdHocCached)
		ev.limits.frozen.Store(true)
	}
}

// newInstance creates the state of one module instance.
func (ev *evaluator) newInstance(c *config.Config, parent *ModuleInstance, addr string, key, each cty.Value) *ModuleInstance {
	// The value maps are made for the module's declarations, which fill
	// them, rather than grown one doubling at a time.
	var nv, nl, no int
	if m := c.Module; m != nil {
		nv, nl, no = len(m.Variables), len(m.Locals), len(m.Outputs)
	}
	return &ModuleInstance{
		Addr:      addr,
		Path:      c.Path,
		Config:    c,
		Variables: make(map[string]cty.Value, nv),
		Locals:    make(map[string]cty.Value, nl),
		Outputs:   make(map[string]cty.Value, no),
		parent:    parent,
		callKey:   key,
		callEach:  each,
		resources: map[string]*resourceState{},
		scoped:    map[string]*resourceState{},
		calls:     map[string]*callState{},
	}
}

// addDiags records diagnostics (see addDiag).
func (ev *evaluator) addDiags(diags hcl.Diagnostics) {
	for _, d := range diags {
		ev.addDiag(d)
	}
}

// addDiag records a diagnostic. An error about a place in the
// configuration is recorded each time it is made, as Terraform's plan
// reports one for every instance that makes it (a module called twice, a
// resource with count = 2). What is not about one instance is recorded
// once: warnings, diagnostics without a place, the stop of an evaluation
// at a limit (which every evaluation still running reports), and what
// Terraform finds once per block in the walk that validates the
// configuration before it expands any: a reference to what the module
// does not declare, an error of an expression it could evaluate then
// (validatePhase).
func (ev *evaluator) addDiag(d *hcl.Diagnostic) {
	// The suggestion is chosen from the whole function table, which
	// the detached context no longer has.
	d = detached(orderedSuggestion(d))
	if d.Severity == hcl.DiagError && d.Subject != nil && !stopSummaries[d.Summary] && !referenceSummaries[d.Summary] {
		cfg, ok := ev.validatePhase(d)
		if !ok {
			ev.diags = append(ev.diags, orderedSuggestion(d))
			return
		}
		// Once per module call, as the validate walk goes through each.
		ev.addDiagOnce(d, address.ModulePrefix(cfg.Path))
		return
	}
	ev.addDiagOnce(d, "")
}

// addDiagOnce records a diagnostic unless the same one (severity,
// summary, detail and place, and what else tells it apart) was recorded
// before.
func (ev *evaluator) addDiagOnce(d *hcl.Diagnostic, apart string) {
	d = orderedSuggestion(d)
	if ev.buffered {
		// Repeats are dropped when the buffer is merged.
		if ev.once == nil {
			ev.once = map[*hcl.Diagnostic]string{}
		}
		ev.once[d] = apart
		ev.diags = append(ev.diags, d)
		return
	}
	key := fmt.Sprintf("%d|%s|%s", d.Severity, d.Summary, d.Detail)
	if d.Subject != nil {
		key += "|" + d.Subject.String()
	}
	key += "|" + apart
	if ev.seen[key] {
		return
	}
	ev.seen[key] = true
	ev.diags = append(ev.diags, d)
}

// buffer is an evaluator of the same evaluation that keeps its
// diagnostics for merge, to evaluate on another goroutine.
func (ev *evaluator) buffer() *evaluator {
	b := ev.bufferValue()
	return &b
}

// bufferValue is buffer as a value, for callers that place many copies in
// one allocation.
func (ev *evaluator) bufferValue() evaluator {
	return evaluator{evaluation: ev.evaluation, node: ev.node, buffered: true}
}

// merge records the diagnostics a buffered copy kept, in their order.
func (ev *evaluator) merge(task *evaluator) {
	for _, d := range task.diags {
		if apart, ok := task.once[d]; ok {
			ev.addDiagOnce(d, apart)
		} else {
			ev.diags = append(ev.diags, d)
		}
	}
}

// referenceSummaries are the summaries of the errors in a reference
// itself, whatever the instance it is evaluated in.
var referenceSummaries = map[string]bool{
	"Invalid reference":                      true,
	"Invalid index key":                      true,
	"Reserved symbol name":                   true,
	"Reference to undeclared input variable": true,
	"Reference to undeclared local value":    true,
	"Reference to undeclared module":         true,
	"Reference to undeclared resource":       true,
	"Reference to scoped resource":           true,
	"Missing resource instance key":          true,
	"Unexpected resource instance key":       true,
}

// stopSummaries are the summaries of the diagnostics that stop an
// evaluation at one of its limits.
var stopSummaries = map[string]bool{
	"Evaluation step limit reached":   true,
	"Evaluation memory limit reached": true,
	"Evaluation cancelled":            true,
}

// functions is the function table for a module. Tables are built once per
// distinct set of provider functions, so most modules share one.
func (ev *evaluator) functions(c *config.Config) map[string]function.Function {
	sh := ev.share()
	sh.cacheMu.RLock()
	f, ok := sh.moduleFuncs[c.Module]
	sh.cacheMu.RUnlock()
	if ok {
		return f
	}
	f = ev.functionsFor(c.Module)
	sh.cacheMu.Lock()
	sh.moduleFuncs[c.Module] = f
	sh.cacheMu.Unlock()
	return f
}

// functionsFor builds, or finds among those built, the table for a module.
func (ev *evaluator) functionsFor(m *config.Module) map[string]function.Function {
	key := ev.providerFunctionsKey(m)
	sh := ev.share()
	sh.mu.Lock()
	defer sh.mu.Unlock()
	if ev.funcs == nil {
		ev.funcs = map[string]map[string]function.Function{}
	}
	if f, ok := ev.funcs[key]; ok {
		return f
	}
	o := ev.opts.Functions
	o.Dialect = ev.opts.Dialect
	o.ConsoleMode = ev.opts.Console
	o.PureOnly = !ev.opts.Console && !ev.opts.Applied
	o.ProviderFunctions = ev.providerFunctions(m)
	o.Limits, o.Step, o.Charge, o.Direct = ev.limits.funcOptions()
	f := funcs.Functions(o)
	if ev.opts.Applied {
		can := appliedCan(f["can"], ev.opts.Dialect)
		f["can"], f[funcs.CoreNamespace+"can"] = can, can
	}
	ev.funcs[key] = f
	return f
}

// run evaluates the nodes, which are in dependency order: one by one on a
// single CPU, otherwise on a pool of GOMAXPROCS workers that each take a
// node whose dependencies are done. Each node's diagnostics are buffered
// and merged in the given order, so the outcome is the same either way.
func (ev *evaluator) run(order []*node) {
	workers := runtime.GOMAXPROCS(0)
	if workers < 2 || len(order) < 2 {
		for _, n := range order {
			ev.evalNode(n)
		}
		return
	}
	pos := make(map[*node]int, len(order))
	for i, n := range order {
		pos[n] = i
	}
	// The dependents of node j are edges[start[j]:start[j+1]]: counted
	// first, then placed, so that all of them take one allocation rather
	// than a growing slice each.
	pending := make([]int, len(order))
	start := make([]int, len(order)+1)
	for i, n := range order {
		for _, d := range n.deps {
			if j, ok := pos[d]; ok {
				pending[i]++
				start[j+1]++
			}
		}
	}
	for j := range order {
		start[j+1] += start[j]
	}
	edges := make([]int, start[len(order)])
	placed := make([]int, len(order))
	for i, n := range order {
		for _, d := range n.deps {
			if j, ok := pos[d]; ok {
				edges[start[j]+placed[j]] = i
				placed[j]++
			}
		}
	}
	// Every node's buffered evaluator, made in one allocation.
	tasks := make([]evaluator, len(order))
	ready := make(chan int, len(order))
	for i := range order {
		if pending[i] == 0 {
			ready <- i
		}
	}
	var mu sync.Mutex // guards pending and left
	left := len(order)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range ready {
				tasks[i] = ev.bufferValue()
				tasks[i].evalNode(order[i])
				mu.Lock()
				for _, j := range edges[start[i]:start[i+1]] {
					pending[j]--
					if pending[j] == 0 {
						ready <- j
					}
				}
				left--
				if left == 0 {
					close(ready)
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	for i := range tasks {
		ev.merge(&tasks[i])
	}
}

// evalNode evaluates one configuration object in every instance of its
// module. Terraform does not evaluate an object when one it depends on
// failed, so reports nothing of it: such an object is evaluated for its
// values (what depends on an error is an error stand-in) without its
// diagnostics, and counts as failed in turn.
func (ev *evaluator) evalNode(n *node) {
	if ev.opts.Step != nil {
		ev.opts.Step(ev.limits.expanded())
	}
	if d := ev.limits.stopped(); d != nil {
		ev.addDiag(d)
		return
	}
	if n.upstreamFailed() {
		ev.buffer().evalNodeInstances(n)
		n.failed.Store(true)
		return
	}
	outer := ev.node
	ev.node = n
	defer func() { ev.node = outer }()
	start := len(ev.diags)
	ev.evalNodeInstances(n)
	if ev.diags[start:].HasErrors() {
		n.failed.Store(true)
	}
}

// evalNodeInstances evaluates one configuration object in every instance
// of its module.
func (ev *evaluator) evalNodeInstances(n *node) {
	for _, mi := range ev.moduleInstances(n.cfg) {
		// hcl reports some diagnostics in map order; each instance's are
		// put in source order (in parallel runs, the buffer is the node's).
		start := len(ev.diags)
		ev.evalNodeIn(mi, n)
		diagsort.ByPosition(ev.diags[start:])
		if mi.Placeholder {
			markPlaceholder(ev.diags[start:], mi.placeholderUnread)
		}
	}
}

// evalNodeIn evaluates one object in one module instance. A panic on the
// way (a bug, or an input a library below refuses by panicking) is an
// error of that object, not the end of the process.
func (ev *evaluator) evalNodeIn(mi *ModuleInstance, n *node) {
	defer func() {
		if r := recover(); r != nil {
			ev.addDiag(&hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Evaluation failed",
				Detail:   fmt.Sprintf("tfeval could not evaluate %s: %v. This is a bug in tfeval: please report it with the configuration that caused it.", n.id(), r),
			})
		}
	}()
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
	case nodeProvider:
		ev.evalProvider(mi, n)
	}
}

// moduleInstances lists the instances of a module expanded so far.
func (ev *evaluator) moduleInstances(c *config.Config) []*ModuleInstance {
	sh := ev.share()
	sh.mu.Lock()
	defer sh.mu.Unlock()
	// Looked up by the bytes of the prefix, which Go does without making a string.
	var buf [128]byte
	return ev.instances[string(address.AppendModulePrefix(buf[:0], c.Path))]
}

// addModuleInstance records a new instance of a module.
func (ev *evaluator) addModuleInstance(mi *ModuleInstance) {
	key := address.ModulePrefix(mi.Path)
	sh := ev.share()
	sh.mu.Lock()
	defer sh.mu.Unlock()
	ev.instances[key] = append(ev.instances[key], mi)
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
	res.byAddr = make(map[string]*ModuleInstance, len(res.Modules))
	for _, mi := range res.Modules {
		res.byAddr[mi.Addr] = mi
	}
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
