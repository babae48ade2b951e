package lang

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/hashicorp/hcl/v2"

	"github.com/tfeval/tfeval/config"
	"github.com/tfeval/tfeval/funcs"
	"github.com/tfeval/tfeval/internal/fastexpr"
	"github.com/tfeval/tfeval/internal/gcpace"
	"github.com/tfeval/tfeval/internal/limit"
)

// Limits bounds the work and memory one evaluation may use, so that a
// hostile configuration gets diagnostics rather than exhausting the
// machine. A zero field means its default; the defaults are far above what
// real configurations need. One bound is fixed rather than set here:
// numbers must lie within 1e-9864 to 1e9864 in magnitude
// (limit.MaxNumberExponent), since writing out larger ones takes hours.
type Limits struct {
	// MaxElements bounds the elements one for expression (counting those of
	// for expressions nested in it), setproduct, flatten or other collection
	// function builds. Default 100,000.
	MaxElements int
	// MaxStringLength bounds, in bytes, a string one template, format,
	// join, indent or replace builds. Default 32 MiB.
	MaxStringLength int
	// MaxNesting bounds how deeply source text nests brackets, templates and
	// operators (configuration files, variables files, templates). Default 500.
	MaxNesting int
	// MaxModuleDepth bounds module call nesting (config.Options.MaxDepth). Default 64.
	MaxModuleDepth int
	// MaxFileSize bounds, in bytes, what file functions read into memory. Default 64 MiB.
	MaxFileSize int64
	// MaxFilesetEntries bounds the files and directories one fileset call
	// visits. Default 50,000.
	MaxFilesetEntries int
	// MaxSteps bounds the total evaluation steps: expressions evaluated,
	// function calls, for-expression elements, and what functions build (an
	// element of a collection, or 16 bytes of a string, a step), so that it
	// bounds an evaluation's time and memory as a whole. Default 3,000,000.
	MaxSteps int64
	// MaxValueSize bounds the size of the result of one expression,
	// counting each value in it every time it appears and once more for
	// each level it is nested (limit.ExpandedSize): values that repeat
	// others, {a = local.x, b = local.x} chained, double at each step while
	// their memory barely grows, and every walk over them (marks,
	// conversions) and their printed form with them. Default 1,000,000.
	MaxValueSize int
	// MaxOutputSize bounds, in bytes, the document format.WriteEval writes
	// (eval -json) and the text the command line prints. Default
	// 256 MiB.
	MaxOutputSize int64
	// MaxInstances bounds the resource instances (managed and data) of one
	// evaluation, all modules together. Default 200,000.
	MaxInstances int
	// MaxModules bounds the modules of one evaluation: module calls in the
	// loaded tree (config.Options.MaxModules) and module instances once
	// count and for_each are expanded. Default 10,000.
	MaxModules int
	// MaxMemory bounds, in bytes, the live heap while evaluating, as the
	// garbage collector last measured it (it is the process's heap, so
	// evaluations running at once share it). Default: half of the memory
	// the process may use (the machine's, or less under a cgroup or
	// ulimit limit); no bound when that is unknown.
	MaxMemory int64
}

// Defaults of the instance and module limits.
const (
	DefaultMaxInstances = 200_000
	DefaultMaxModules   = config.DefaultMaxModules
)

// DefaultMaxMemory is the memory bound when Limits.MaxMemory is 0: half of
// what the process may use, or 0 (none) when that is unknown.
func DefaultMaxMemory() int64 {
	return int64(gcpace.MemoryBound() / 2)
}

// DefaultMaxOutputSize is the output bound when Limits.MaxOutputSize is 0:
// far above the tens of megabytes a tree of 100,000 resource instances
// writes.
const DefaultMaxOutputSize = 256 << 20

// OutputTooLarge is the error of writing more than max bytes of output.
type OutputTooLarge struct{ Max int64 }

func (e *OutputTooLarge) Error() string {
	return fmt.Sprintf("the output would be larger than %d bytes, the limit (Limits.MaxOutputSize)", e.Max)
}

// DefaultMaxSteps is the step budget when Limits.MaxSteps is 0. A generated
// monorepo of 1,000 modules and 100,000 resource instances takes about
// 1.9 million steps, so the default leaves room for trees half as large
// again (larger ones must raise it), and stops hostile input (count = 99999
// over a 1,000-element for expression is two hundred million) within about
// a second and a few hundred megabytes; a service should also set a
// Context deadline.
const DefaultMaxSteps = 3_000_000

// WithDefaults returns l with every zero field set to its default.
func (l Limits) WithDefaults() Limits {
	f := l.Funcs()
	l.MaxElements, l.MaxStringLength, l.MaxNesting, l.MaxFileSize, l.MaxFilesetEntries = f.MaxElements, f.MaxStringLength, f.MaxNesting, f.MaxFileSize, f.MaxFilesetEntries
	if l.MaxModuleDepth <= 0 {
		l.MaxModuleDepth = 64
	}
	if l.MaxSteps <= 0 {
		l.MaxSteps = DefaultMaxSteps
	}
	if l.MaxValueSize <= 0 {
		l.MaxValueSize = limit.DefaultMaxValueSize
	}
	if l.MaxOutputSize <= 0 {
		l.MaxOutputSize = DefaultMaxOutputSize
	}
	if l.MaxInstances <= 0 {
		l.MaxInstances = DefaultMaxInstances
	}
	if l.MaxModules <= 0 {
		l.MaxModules = DefaultMaxModules
	}
	if l.MaxMemory <= 0 {
		l.MaxMemory = DefaultMaxMemory()
	}
	return l
}

// Funcs is the part of the limits the function library enforces, defaults filled in.
func (l Limits) Funcs() funcs.Limits {
	f := funcs.Limits{MaxElements: l.MaxElements, MaxStringLength: l.MaxStringLength, MaxFileSize: l.MaxFileSize, MaxNesting: l.MaxNesting, MaxFilesetEntries: l.MaxFilesetEntries}
	if f.MaxElements <= 0 {
		f.MaxElements = funcs.DefaultMaxElements
	}
	if f.MaxStringLength <= 0 {
		f.MaxStringLength = funcs.DefaultMaxStringLength
	}
	if f.MaxFileSize <= 0 {
		f.MaxFileSize = funcs.DefaultMaxFileSize
	}
	if f.MaxNesting <= 0 {
		f.MaxNesting = limit.DefaultMaxNesting
	}
	if f.MaxFilesetEntries <= 0 {
		f.MaxFilesetEntries = funcs.DefaultMaxFilesetEntries
	}
	return f
}

// limiter enforces one evaluation's limits and context; the per-node copies
// of an evaluator share it, so its counters are atomic.
type limiter struct {
	limits Limits
	done   <-chan struct{}
	steps  atomic.Int64
	// instances and modules count what expansions have made so far.
	instances, modules atomic.Int64
	// overMemory is set once the live heap was found past MaxMemory.
	overMemory atomic.Bool
	guard      *fastexpr.Guard
	// direct holds the direct forms of the functions of this evaluation's tables.
	direct *funcs.DirectCalls
	// guarded caches each expression's guarded copy (an hcl.Expression to hcl.Expression map).
	guarded sync.Map
	// frozen is set once evaluation is over; from then on only adHocLeft
	// more expressions are cached (see maxAdHocCached).
	frozen    atomic.Bool
	adHocLeft atomic.Int64
}

// maxAdHocCached bounds how many expressions evaluated after Evaluate (console
// lines, API calls) each cache keeps: a tool that evaluates a few rule
// expressions against every module keeps the speed of caching, while an IDE
// sending a new expression with every hover cannot grow a Result without end.
const maxAdHocCached = 1024

// cacheable reports whether one more entry may be cached.
func cacheable(frozen bool, left *atomic.Int64) bool {
	return !frozen || left.Add(-1) >= 0
}

func newLimiter(ctx context.Context, l Limits) *limiter {
	lim := &limiter{limits: l.WithDefaults(), direct: &funcs.DirectCalls{}}
	if ctx != nil {
		lim.done = ctx.Done()
	}
	lim.guard = &fastexpr.Guard{MaxElements: lim.limits.MaxElements, MaxStringLength: lim.limits.MaxStringLength, Step: lim.step, Charge: lim.charge, Direct: lim.direct.Lookup, DirectObject: lim.direct.LookupObject, MaxValueSize: lim.limits.MaxValueSize}
	return lim
}

// stopError says why evaluation stopped; it carries its diagnostic.
type stopError struct{ diag hcl.Diagnostic }

func (e *stopError) Error() string               { return e.diag.Detail }
func (e *stopError) Diagnostic() *hcl.Diagnostic { d := e.diag; return &d }

// step charges one step, failing once the budget is spent, the context is
// done or the heap has grown past MaxMemory (looked at every
// memoryCheckSteps steps).
func (l *limiter) step() error {
	return l.charge(1)
}

// charge charges n steps at once (what a function call built), failing as
// step does.
func (l *limiter) charge(n int64) error {
	if l == nil {
		return nil
	}
	before := l.steps.Add(n) - n
	if before+n > l.limits.MaxSteps {
		return &stopError{hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Evaluation step limit reached",
			Detail:   fmt.Sprintf("evaluation stopped after %d steps (expressions, function calls and for-expression elements), the limit for one evaluation (Limits.MaxSteps)", l.limits.MaxSteps),
		}}
	}
	if before/memoryCheckSteps != (before+n)/memoryCheckSteps {
		l.checkMemory()
	}
	if l.overMemory.Load() {
		return &stopError{l.memoryDiag()}
	}
	if l.done != nil {
		select {
		case <-l.done:
			return &stopError{hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Evaluation cancelled", Detail: "evaluation was cancelled before it finished (its context is done)"}}
		default:
		}
	}
	return nil
}

// memoryCheckSteps is how often step looks at the heap: reading it costs
// about as much as a few hundred steps.
const memoryCheckSteps = 1024

// checkMemory sets overMemory when the live heap is past MaxMemory.
func (l *limiter) checkMemory() {
	if l.limits.MaxMemory > 0 && limit.LiveHeap() > uint64(l.limits.MaxMemory) {
		l.overMemory.Store(true)
	}
}

func (l *limiter) memoryDiag() hcl.Diagnostic {
	return hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  "Evaluation memory limit reached",
		Detail:   fmt.Sprintf("evaluation stopped when the memory in use passed %d bytes, the limit for one evaluation (Limits.MaxMemory); the values not evaluated are unknown", l.limits.MaxMemory),
	}
}

// boundExpansion charges the instances exp makes against MaxInstances, or
// for a module call (addr module.NAME) against MaxModules, and replaces
// an expansion past the limit by an unknown one with an error at the
// count or for_each expression that made it. Blocks without count or
// for_each count but are not refused: their number is bounded by the
// source itself (and for modules by the loaded tree).
func (l *limiter) boundExpansion(exp expansion, diags hcl.Diagnostics, countExpr, forEachExpr hcl.Expression, addr string) (expansion, hcl.Diagnostics) {
	if l == nil || exp.mode == expandUnknown {
		return exp, diags
	}
	module := strings.HasPrefix(addr, "module.")
	counter, max, what, field := &l.instances, l.limits.MaxInstances, "resource instances", "Limits.MaxInstances"
	if module {
		counter, max, what, field = &l.modules, l.limits.MaxModules, "module instances", "Limits.MaxModules"
	}
	total := counter.Add(int64(len(exp.keys)))
	expr := countExpr
	if expr == nil {
		expr = forEachExpr
	}
	if l.limits.MaxMemory > 0 && len(exp.keys) > 1 {
		l.checkMemory()
	}
	switch {
	case expr == nil:
		return exp, diags
	case total > int64(max):
		return expansion{mode: expandUnknown}, append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Too many instances",
			Detail:   fmt.Sprintf("Expanding %s would make the evaluation's %s more than %d, the limit (%s).", addr, what, max, field),
			Subject:  expr.Range().Ptr(),
		})
	case l.overMemory.Load():
		d := l.memoryDiag()
		d.Subject = expr.Range().Ptr()
		return expansion{mode: expandUnknown}, append(diags, &d)
	}
	return exp, diags
}

// expanded is how many resource instances the expansions have made so far
// (Options.Step is given it).
func (l *limiter) expanded() int {
	if l == nil {
		return 0
	}
	return int(l.instances.Load())
}

// stepDiags is step as diagnostics at rng.
func (l *limiter) stepDiags(rng hcl.Range) hcl.Diagnostics {
	return l.chargeDiags(1, rng)
}

// chargeDiags is charge as diagnostics at rng.
func (l *limiter) chargeDiags(n int64, rng hcl.Range) hcl.Diagnostics {
	err := l.charge(n)
	if err == nil {
		return nil
	}
	d := err.(*stopError).Diagnostic()
	d.Subject = rng.Ptr()
	return hcl.Diagnostics{d}
}

// stoppedDiags replaces the errors of an evaluation that ran out of steps
// or was cancelled with that one reason, at rng: the errors themselves
// (a function refusing to run, say) only follow from it.
func (l *limiter) stoppedDiags(diags hcl.Diagnostics, rng hcl.Range) hcl.Diagnostics {
	if !diags.HasErrors() || l.stopped() == nil {
		return diags
	}
	if stop := l.stepDiags(rng); stop != nil {
		return stop
	}
	return diags
}

// stopped reports whether evaluation must not go on.
func (l *limiter) stopped() *hcl.Diagnostic {
	if l == nil {
		return nil
	}
	if l.steps.Load() > l.limits.MaxSteps {
		return &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Evaluation step limit reached", Detail: fmt.Sprintf("evaluation stopped after %d steps, the limit for one evaluation (Limits.MaxSteps); the values not evaluated are unknown", l.limits.MaxSteps)}
	}
	if l.overMemory.Load() {
		d := l.memoryDiag()
		return &d
	}
	if l.done != nil {
		select {
		case <-l.done:
			return &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Evaluation cancelled", Detail: "evaluation was cancelled before it finished (its context is done); the values not evaluated are unknown"}
		default:
		}
	}
	return nil
}

// guardExpr is expr with its for expressions and templates bounded.
func (l *limiter) guardExpr(expr hcl.Expression) hcl.Expression {
	if l == nil {
		return expr
	}
	if g, ok := l.guarded.Load(expr); ok {
		return g.(hcl.Expression)
	}
	g := l.guard.Expr(expr)
	if cacheable(l.frozen.Load(), &l.adHocLeft) {
		l.guarded.Store(expr, g)
	}
	return g
}

// guardOnce is guardExpr for an expression evaluated once: the copy it
// makes is not kept.
func (l *limiter) guardOnce(expr hcl.Expression) hcl.Expression {
	if l == nil {
		return expr
	}
	if g, ok := l.guarded.Load(expr); ok {
		return g.(hcl.Expression)
	}
	return l.guard.Expr(expr)
}

// reset gives a new console expression the whole step budget.
func (l *limiter) reset() {
	if l != nil {
		l.steps.Store(0)
	}
}

// funcOptions are the funcs.Options fields that carry the limits.
func (l *limiter) funcOptions() (funcs.Limits, func() error, func(int64) error, *funcs.DirectCalls) {
	if l == nil {
		return Limits{}.Funcs(), nil, nil, nil
	}
	return l.limits.Funcs(), l.step, l.charge, l.direct
}

// Steps is how many steps of Limits.MaxSteps the evaluation has taken (the
// expressions a console session evaluates later reset it).
func (r *Result) Steps() int64 {
	if r == nil || r.ev == nil || r.ev.limits == nil {
		return 0
	}
	return r.ev.limits.steps.Load()
}

// Stopped reports whether evaluation stopped before it finished: at the
// step or memory limit, or because its context was done. Its values are
// then partly unknown, and a program printing them may prefer not to.
func (r *Result) Stopped() bool {
	return r != nil && r.ev != nil && r.ev.limits.stopped() != nil
}
