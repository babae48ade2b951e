package funcs

import (
	"errors"
	"fmt"
	"io"
	"math/big"
	"regexp"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"

	"github.com/tfeval/tfeval/internal/elements"
	"github.com/tfeval/tfeval/internal/fastexpr"
	"github.com/tfeval/tfeval/internal/limit"
	"github.com/tfeval/tfeval/internal/sandbox"
	"github.com/tfeval/tfeval/marks"
)

// Limits bounds what one function call may build or read, so that hostile
// configurations cannot exhaust memory or time. A zero field means its default.
type Limits struct {
	// MaxElements bounds the elements of a collection one call returns
	// (setproduct, flatten, ...) and one for expression in a template
	// builds, those of the for expressions nested in it included.
	MaxElements int
	// MaxStringLength bounds, in bytes, a string one call returns (format,
	// join, indent, replace, templates, ...).
	MaxStringLength int
	// MaxFileSize bounds, in bytes, what file, filebase64 and templatefile
	// read (the hash functions stream files of any size).
	MaxFileSize int64
	// MaxNesting bounds the nesting depth of templates and decoded JSON/YAML.
	MaxNesting int
	// MaxBcryptCost bounds bcrypt's cost argument: each step doubles its time.
	MaxBcryptCost int
	// MaxFilesetEntries bounds the directory entries one fileset call
	// visits, which bounds its time ("**" from "/" would walk the disk).
	MaxFilesetEntries int
}

// Default limits, chosen far above what real configurations use and low
// enough that a single evaluation stays within a few hundred MiB.
const (
	DefaultMaxElements       = 100_000
	DefaultMaxStringLength   = 32 << 20
	DefaultMaxFileSize       = 64 << 20
	DefaultMaxBcryptCost     = 14
	DefaultMaxFilesetEntries = 50_000
)

// withDefaults fills in the zero fields.
func (l Limits) withDefaults() Limits {
	if l.MaxElements <= 0 {
		l.MaxElements = DefaultMaxElements
	}
	if l.MaxStringLength <= 0 {
		l.MaxStringLength = DefaultMaxStringLength
	}
	if l.MaxFileSize <= 0 {
		l.MaxFileSize = DefaultMaxFileSize
	}
	if l.MaxNesting <= 0 {
		l.MaxNesting = limit.DefaultMaxNesting
	}
	if l.MaxFilesetEntries <= 0 {
		l.MaxFilesetEntries = DefaultMaxFilesetEntries
	}
	if l.MaxBcryptCost <= 0 {
		l.MaxBcryptCost = DefaultMaxBcryptCost
	}
	return l
}

// bytesPerStep is how many bytes of a string a function builds cost one
// step of the budget.
const bytesPerStep = 16

// chargeResult charges the evaluation budget for what a call built: a step
// for each element of a collection and for each bytesPerStep bytes of a
// string. A call is otherwise one step, whatever it builds, and the step
// budget is what bounds an evaluation's work and memory as a whole:
// count = 99999 over a function building 100,000 elements is ten billion
// elements in a hundred thousand calls.
func (e *env) chargeResult(v cty.Value) error {
	if e.opts.Charge == nil {
		return nil
	}
	v, _ = v.Unmark()
	if !v.IsKnown() || v.IsNull() {
		return nil
	}
	var n int64
	switch ty := v.Type(); {
	case ty == cty.String:
		n = int64(len(v.AsString()) / bytesPerStep)
	case ty.IsListType() || ty.IsSetType() || ty.IsTupleType() || ty.IsMapType():
		n = int64(v.LengthInt())
	}
	if n <= 1 {
		return nil
	}
	return e.opts.Charge(n)
}

// charge charges n units of the caller's evaluation budget, if it has one.
func (e *env) charge(n int64) error {
	if e.opts.Charge == nil || n <= 0 {
		return nil
	}
	return e.opts.Charge(n)
}

// step charges one unit of the caller's evaluation budget, if it has one.
func (e *env) step() error {
	if e.opts.Step == nil {
		return nil
	}
	return e.opts.Step()
}

// guard is the template guard for this table's limits.
func (e *env) guard() *fastexpr.Guard {
	return &fastexpr.Guard{MaxElements: e.limits.MaxElements, MaxStringLength: e.limits.MaxStringLength, Step: e.opts.Step, Charge: e.opts.Charge}
}

// checkTemplateSource checks a template's nesting and numbers before hcl parses it.
func (e *env) checkTemplateSource(src []byte, filename string) hcl.Diagnostics {
	return limit.CheckSource(src, filename, hcl.InitialPos, limit.Template, e.limits.MaxNesting)
}

// dynamicReturnType is the return type function of every wrapper that
// limited makes: one function value for all of them.
var dynamicReturnType = function.StaticReturnType(cty.DynamicPseudoType)

// limited wraps fn so that every call charges a step, is refused when its
// arguments would build something over the limits, and fails when its
// result is over them anyway. The wrapper accepts every argument as it is
// and lets fn apply its own parameter rules, marks and refinements. short,
// when not nil, answers the common case without fn's cty call.
func (e *env) limited(name string, fn function.Function, short shortcut) function.Function {
	open := func(p function.Parameter) function.Parameter {
		p.AllowUnknown, p.AllowNull, p.AllowMarked, p.AllowDynamicType = true, true, true, true
		return p
	}
	params := fn.Params()
	// unmarks says, by argument, which ones fn's call unmarks deeply,
	// marking its result with what it found (the last for every variadic
	// argument): the shortcut may see those unmarked.
	unmarks := make([]bool, len(params), len(params)+1)
	for i := range params {
		unmarks[i] = !params[i].AllowMarked
		params[i] = open(params[i])
	}
	var varParam *function.Parameter
	if vp := fn.VarParam(); vp != nil {
		unmarks = append(unmarks, !vp.AllowMarked)
		p := open(*vp)
		varParam = &p
	}
	pre := e.preCheck(name)
	cost := e.costOf(name)
	call := func(args []cty.Value) (cty.Value, error) {
		if err := e.step(); err != nil {
			return cty.NilVal, err
		}
		if cost != nil {
			if err := e.charge(cost(args)); err != nil {
				return cty.NilVal, err
			}
		}
		if pre != nil {
			if err := pre(args); err != nil {
				return cty.NilVal, err
			}
		}
		v, ok := cty.NilVal, false
		if short != nil {
			v, ok = short(args)
			if !ok {
				v, ok = shortUnmarked(short, args, unmarks, varParam != nil)
			}
		}
		if !ok {
			if err := e.charge(argumentsCost(args)); err != nil {
				return cty.NilVal, err
			}
			var err error
			if v, err = fn.Call(args); err != nil {
				return v, cleanPanic(err)
			}
		}
		if err := e.postCheck(v); err != nil {
			return v, err
		}
		return v, e.chargeResult(v)
	}
	desc, ok := descriptions[name]
	if !ok {
		desc = fn.Description()
	}
	wrapped := function.New(&function.Spec{
		Description: desc,
		Params:      params,
		VarParam:    varParam,
		// fn.Call below checks the arguments and works out the result type;
		// doing it here too would type-check every call twice.
		Type: dynamicReturnType,
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			return call(args)
		},
	})
	e.opts.Direct.store(wrapped, call)
	if fn == jsonEncodeFunc && cost == nil {
		e.opts.Direct.storeObject(wrapped, e.jsonEncodeObject)
	}
	return wrapped
}

// shortUnmarked is short's answer for arguments carrying marks where the
// full call would unmark them: go-cty's call unmarks deeply each argument
// whose parameter does not accept marks, calls the function with the
// unmarked values and marks the result with every mark it removed, so the
// shortcut's result of the unmarked arguments, marked the same way, is
// the call's. A test run marks what it draws for hashicorp/random's
// results, and everything derived from one, so without this every call
// that touched a drawn name took the full call. The arguments are walked
// only when the shortcut declined them and one of them may carry a mark:
// marks.Any looks without copying, where the full call would walk each
// argument twice.
func shortUnmarked(short shortcut, args []cty.Value, unmarks []bool, variadic bool) (cty.Value, bool) {
	if len(unmarks) == 0 || !variadic && len(args) != len(unmarks) {
		return cty.NilVal, false // the full call's error
	}
	var unmarked []cty.Value
	var found cty.ValueMarks
	for i, a := range args {
		if !unmarks[min(i, len(unmarks)-1)] {
			continue
		}
		if !a.IsMarked() && (a.Type().IsPrimitiveType() || !marks.Any(a)) {
			continue
		}
		if unmarked == nil {
			unmarked = slices.Clone(args)
			found = make(cty.ValueMarks)
		}
		var u cty.Value
		var ms cty.ValueMarks
		if a.Type().IsPrimitiveType() && a.IsKnown() {
			u, ms = a.Unmark() // nothing nested: its own marks are all
		} else {
			u, ms = a.UnmarkDeep()
		}
		unmarked[i] = u
		for m := range ms {
			found[m] = struct{}{}
		}
	}
	if unmarked == nil {
		return cty.NilVal, false
	}
	v, ok := short(unmarked)
	if !ok {
		return cty.NilVal, false
	}
	return v.WithMarks(found), true
}

// ObjectCall is a call of a function of one object argument, given the
// object's attribute names, sorted, and their values in that order, made
// without building the object. handled is false where the call needs the
// object itself; the caller then makes it and calls the direct form.
// vals is lent for the call, which must not keep it.
type ObjectCall func(names []string, vals []cty.Value) (v cty.Value, handled bool, err error)

// jsonSlack is what jsonEncodeObject's buffer has beyond the size the walk
// counts, for the digits of numbers and the letters of bools it counts as
// two bytes.
const jsonSlack = 16

// jsonEncodeObject is the direct form of jsonencode of an object written
// as a constructor, jsonencode({...}): the object would be made only to be
// walked for its size and then encoded. It answers as the direct form does
// when its shortcut encodes the object, which it does without the object,
// and leaves every other case (a size over the bound, an attribute of a
// dynamic type, something marked or unknown) to the direct form. The
// checks come before the step, which is charged as the direct form
// charges it: they have no effect of their own.
func (e *env) jsonEncodeObject(names []string, vals []cty.Value) (cty.Value, bool, error) {
	// encodedSize of the object: its own two bytes, each name, each value.
	sw := sizeWalk{max: int64(e.limits.MaxStringLength), visits: 1, total: 2}
	for i, name := range names {
		sw.total += int64(len(name)) + 3
		if !sw.walk(vals[i]) {
			return cty.NilVal, false, nil
		}
		if vals[i].Type().HasDynamicTypes() {
			return cty.NilVal, false, nil // the shortcut leaves the object to go-cty
		}
	}
	if sw.total > sw.max {
		return cty.NilVal, false, nil
	}
	// The walk's total is about the document's length (a number or a bool
	// counts its least): a buffer of that and a little more is seldom
	// grown, where one of 256 bytes was mostly empty.
	buf, ok := appendJSONObject(make([]byte, 0, sw.total+jsonSlack), names, func(i int) cty.Value { return vals[i] })
	if !ok {
		return cty.NilVal, false, nil
	}
	if err := e.step(); err != nil {
		return cty.NilVal, true, err
	}
	v := cty.StringVal(string(buf))
	if err := e.postCheck(v); err != nil {
		return v, true, err
	}
	return v, true, e.chargeResult(v)
}

// DirectCalls records, for each function a table wraps with its limits,
// the wrapper's logic as a plain Go function. cty checks and unmarks the
// arguments on every Function.Call, so calling the wrapper costs that work
// twice; an evaluator that has already converted the arguments to the
// parameter types can call the wrapper's logic directly and get the same
// result. The zero value is ready to use, and it is safe for concurrent use.
type DirectCalls struct {
	mu      sync.RWMutex
	m       map[function.Function]func([]cty.Value) (cty.Value, error)
	objects map[function.Function]ObjectCall
}

// store records the direct form of a wrapper; a nil d records nothing.
func (d *DirectCalls) store(f function.Function, call func([]cty.Value) (cty.Value, error)) {
	if d == nil {
		return
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.m == nil {
		d.m = map[function.Function]func([]cty.Value) (cty.Value, error){}
	}
	d.m[f] = call
}

// storeObject records the object form of a wrapper (ObjectCall); a nil d
// records nothing.
func (d *DirectCalls) storeObject(f function.Function, call ObjectCall) {
	if d == nil {
		return
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.objects == nil {
		d.objects = map[function.Function]ObjectCall{}
	}
	d.objects[f] = call
}

// LookupObject returns the object form of f (ObjectCall), which only
// jsonencode has, as a function of the type fastexpr takes.
func (d *DirectCalls) LookupObject(f function.Function) (func(names []string, vals []cty.Value) (cty.Value, bool, error), bool) {
	if d == nil {
		return nil, false
	}
	d.mu.RLock()
	defer d.mu.RUnlock()
	call, ok := d.objects[f]
	return call, ok
}

// Lookup returns the direct form of f, a function of a table built with
// Options.Direct set to d.
func (d *DirectCalls) Lookup(f function.Function) (func(args []cty.Value) (cty.Value, error), bool) {
	if d == nil {
		return nil, false
	}
	d.mu.RLock()
	defer d.mu.RUnlock()
	call, ok := d.m[f]
	return call, ok
}

// postCheck refuses results over the element and string limits.
func (e *env) postCheck(v cty.Value) error {
	v, _ = v.Unmark()
	if !v.IsKnown() || v.IsNull() {
		return nil
	}
	switch ty := v.Type(); {
	case ty == cty.String:
		if n := len(v.AsString()); n > e.limits.MaxStringLength {
			return e.stringTooLong(n)
		}
	case ty.IsListType() || ty.IsSetType() || ty.IsTupleType() || ty.IsMapType():
		if n := v.LengthInt(); n > e.limits.MaxElements {
			return e.tooManyElements(n)
		}
	}
	if limit.HugeNumber(v) {
		return fmt.Errorf("the result would hold a number outside 1e-9864 to 1e9864 in magnitude, which tfeval refuses because writing it out could take hours")
	}
	return nil
}

func (e *env) stringTooLong(n int) error {
	return fmt.Errorf("the result would be a string of %d bytes, more than the limit of %d (Limits.MaxStringLength)", n, e.limits.MaxStringLength)
}

func (e *env) tooManyElements(n int) error {
	return fmt.Errorf("the result would have %d elements, more than the limit of %d (Limits.MaxElements)", n, e.limits.MaxElements)
}

// known returns the unmarked value and whether it is known and not null.
func known(v cty.Value) (cty.Value, bool) {
	switch {
	case v.Type().IsPrimitiveType():
		// Nothing is nested in a known primitive value: its own marks are
		// all it has (an unknown one is not known either way).
		v, _ = v.Unmark()
	case marks.Any(v):
		v, _ = v.UnmarkDeep()
	}
	return v, v.IsWhollyKnown() && !v.IsNull()
}

// strLen is the length of a known string value, 0 otherwise.
func strLen(v cty.Value) int {
	if v, ok := known(v); ok && v.Type() == cty.String {
		return len(v.AsString())
	}
	return 0
}

// preCheck returns, for functions whose result can be far larger than their
// arguments, a check of the result's size made before it is built.
func (e *env) preCheck(name string) func(args []cty.Value) error {
	maxStr := e.limits.MaxStringLength
	switch name {
	case "format", "formatlist":
		return func(args []cty.Value) error {
			if len(args) == 0 {
				return nil
			}
			if f, ok := known(args[0]); ok && f.Type() == cty.String {
				if w := largestFormatWidth(f.AsString()); w > maxStr {
					return function.NewArgErrorf(0, "a width or precision of %d would build a string longer than the limit of %d bytes (Limits.MaxStringLength)", w, maxStr)
				}
			}
			return nil
		}
	case "join":
		return func(args []cty.Value) error {
			if len(args) < 1 {
				return nil
			}
			sep := strLen(args[0])
			total, count := 0, 0
			for _, l := range args[1:] {
				l, ok := known(l)
				if !ok || !l.CanIterateElements() {
					continue
				}
				for it := elements.Of(l); it.Next(); {
					_, v := it.Element()
					total += strLen(v)
					count++
				}
			}
			if count > 1 {
				total += sep * (count - 1)
			}
			if total > maxStr {
				return e.stringTooLong(total)
			}
			return nil
		}
	case "indent":
		return func(args []cty.Value) error {
			if len(args) != 2 {
				return nil
			}
			n, ok := known(args[0])
			s, ok2 := known(args[1])
			if !ok || !ok2 || n.Type() != cty.Number || s.Type() != cty.String {
				return nil
			}
			spaces, _ := n.AsBigFloat().Int64()
			lines := int64(strings.Count(s.AsString(), "\n"))
			if total := int64(len(s.AsString())) + spaces*lines; spaces > int64(maxStr) || total > int64(maxStr) {
				return e.stringTooLong(int(min(total, 1<<62)))
			}
			return nil
		}
	case "replace":
		return func(args []cty.Value) error {
			if len(args) != 3 {
				return nil
			}
			s, ok := knownString(args[0])
			pattern, ok2 := knownString(args[1])
			repl, ok3 := knownString(args[2])
			if !ok || !ok2 || !ok3 {
				return nil
			}
			if total := replacedLength(s, pattern, repl, e.patterns.compiled); total > int64(maxStr) {
				return e.stringTooLong(int(min(total, 1<<62)))
			}
			return nil
		}
	case "split":
		return func(args []cty.Value) error {
			if n := splitCount(args); n > e.limits.MaxElements {
				return e.tooManyElements(n)
			}
			return nil
		}
	case "regexall":
		return func(args []cty.Value) error {
			if len(args) != 2 {
				return nil
			}
			pattern, ok := knownString(args[0])
			s, ok2 := knownString(args[1])
			if !ok || !ok2 {
				return nil
			}
			re := e.patterns.get(pattern).re
			if re == nil {
				return nil // regexall reports it
			}
			// Finding one match more than a result may hold is enough, and
			// holds no more than that in memory.
			if n := len(re.FindAllStringIndex(s, e.limits.MaxElements+1)); n > e.limits.MaxElements {
				return fmt.Errorf("the result would have more than %d elements, the limit (Limits.MaxElements)", e.limits.MaxElements)
			}
			return nil
		}
	case "setproduct":
		return func(args []cty.Value) error {
			total := big.NewInt(1)
			for _, a := range args {
				a, ok := known(a)
				if !ok || !a.CanIterateElements() {
					return nil
				}
				total.Mul(total, big.NewInt(int64(a.LengthInt())))
			}
			if len(args) > 0 && total.Cmp(big.NewInt(int64(e.limits.MaxElements))) > 0 {
				return fmt.Errorf("the result would have %s elements, more than the limit of %d (Limits.MaxElements)", total, e.limits.MaxElements)
			}
			return nil
		}
	case "tonumber":
		return func(args []cty.Value) error {
			if len(args) == 1 {
				if s, ok := known(args[0]); ok && s.Type() == cty.String && limit.LongNumberText(s.AsString()) {
					return function.NewArgErrorf(0, "a number written with more than %d characters is refused, because reading it could take hours", limit.MaxNumberText)
				}
			}
			return nil
		}
	case "jsonencode", "yamlencode":
		return func(args []cty.Value) error {
			if len(args) == 1 {
				return e.encodedSize(args[0])
			}
			return nil
		}
	case "urlencode", "base64encode", "textencodebase64", "base64gzip":
		// What each writes, at most, for n bytes of input.
		return func(args []cty.Value) error {
			if len(args) == 0 {
				return nil
			}
			sv, ok := known(args[0])
			if !ok || sv.Type() != cty.String {
				return nil
			}
			n := int64(len(sv.AsString()))
			var out int64
			switch name {
			case "urlencode":
				out = urlEncodedLen(sv.AsString())
			case "base64encode":
				out = (n + 2) / 3 * 4
			case "base64gzip":
				out = (n + n/1000 + 64 + 2) / 3 * 4 // gzip grows what it cannot shrink by a little
			default:
				out = (4*n + 2) / 3 * 4 // an encoding of up to four bytes a character
			}
			if out > int64(maxStr) {
				return e.stringTooLong(int(min(out, 1<<62)))
			}
			return nil
		}
	case "bcrypt":
		return func(args []cty.Value) error {
			if len(args) < 2 {
				return nil
			}
			if c, ok := known(args[1]); ok && c.Type() == cty.Number {
				if cost, _ := c.AsBigFloat().Int64(); cost > int64(e.limits.MaxBcryptCost) && cost <= 31 { // beyond 31 bcrypt itself refuses
					return function.NewArgErrorf(1, "a cost of %d would take too long; the limit is %d (Limits.MaxBcryptCost)", cost, e.limits.MaxBcryptCost)
				}
			}
			return nil
		}
	}
	return nil
}

// urlEncodedLen is the length of urlencode's result: three bytes for every
// byte but letters, digits, "-", "_", ".", "~" and the space.
func urlEncodedLen(s string) int64 {
	n := int64(len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.' || c == '~' || c == ' ') {
			n += 2
		}
	}
	return n
}

// encodedSize refuses a value whose JSON or YAML text would be longer than
// MaxStringLength, before it is written: a value whose parts repeat one
// another writes far more text than it takes memory. It adds up the least
// each part writes (its string or key and a separator), visiting at most
// limit.DefaultMaxValueSize parts.
func (e *env) encodedSize(v cty.Value) error {
	sw := sizeWalk{max: int64(e.limits.MaxStringLength)}
	if !sw.walk(v) {
		if sw.total > sw.max {
			return e.stringTooLong(int(min(sw.total, 1<<62)))
		}
		return fmt.Errorf("the value holds more than %d values counting each every time it appears, more than the encoded text of one value may hold", limit.DefaultMaxValueSize)
	}
	return nil
}

// sizeWalk is encodedSize's walk: total bounds the encoded size of the
// values walked so far, visits counts them.
type sizeWalk struct {
	max, total int64
	visits     int
}

// walk adds v to the count, and reports false once the count is past
// either bound.
func (sw *sizeWalk) walk(v cty.Value) bool {
	if sw.visits++; sw.visits > limit.DefaultMaxValueSize || sw.total > sw.max {
		return false
	}
	v, _ = v.Unmark()
	sw.total += 2 // the least a value and its separator take
	if !v.IsKnown() || v.IsNull() {
		return true
	}
	ty := v.Type()
	switch {
	case ty == cty.String:
		sw.total += int64(len(v.AsString()))
	case ty.IsObjectType():
		for name := range ty.AttributeTypes() {
			sw.total += int64(len(name)) + 3
			if !sw.walk(v.GetAttr(name)) {
				return false
			}
		}
	case ty.IsMapType() || ty.IsSetType() || ty.IsListType() || ty.IsTupleType():
		for it := elements.Of(v); it.Next(); {
			k, el := it.Element()
			if ty.IsMapType() {
				sw.total += int64(len(k.AsString())) + 3
			}
			if !sw.walk(el) {
				return false
			}
		}
	}
	return sw.total <= sw.max
}

// largestFormatWidth is the largest width or precision number in a format
// string's verbs, which fmt pads the result to.
func largestFormatWidth(f string) int {
	largest := 0
	for i := 0; i < len(f); i++ {
		if f[i] != '%' {
			continue
		}
		for i++; i < len(f); i++ {
			c := f[i]
			if c >= '0' && c <= '9' {
				n := 0
				for ; i < len(f) && f[i] >= '0' && f[i] <= '9'; i++ {
					if n < 1<<40 {
						n = n*10 + int(f[i]-'0')
					}
				}
				largest = max(largest, n)
				i--
				continue
			}
			if strings.IndexByte("+-# .[]*", c) < 0 {
				break
			}
		}
	}
	return largest
}

// yamlNesting estimates, never under, how deeply a YAML document nests:
// brackets, and on each line its indentation and the block indicators
// ("- ", "? ", ": ") outside brackets, each of which can open a level.
// Spaces elsewhere (between the elements of a flow list) open none.
// Quotes and comments are not followed: whether a quote opens a string
// depends on what YAML's grammar makes of the text before it (a block
// scalar, a plain scalar), and a scan that misjudged one would miss the
// brackets after it, where counting brackets inside strings only
// overestimates.
func yamlNesting(s string) int {
	depth, deepest := 0, 0
	lineDepth, indenting := 0, true
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '\n' {
			lineDepth, indenting = 0, true
			continue
		}
		if c == ' ' && indenting {
			lineDepth++
			continue
		}
		indenting = false
		switch c {
		case '[', '{':
			depth++
		case ']', '}':
			if depth > 0 {
				depth--
			}
		case '-', '?', ':':
			if depth == 0 && (i+1 == len(s) || s[i+1] == ' ' || s[i+1] == '\n') {
				lineDepth++
			}
		}
		deepest = max(deepest, depth+lineDepth)
	}
	return deepest
}

// readLimited reads a regular file of the given size, failing beyond limit
// bytes.
func readLimited(r io.Reader, size, limit int64, path string) ([]byte, error) {
	if size > limit {
		return nil, tooLargeFile(path, limit)
	}
	src, err := sandbox.ReadLimited(r, path, limit, make([]byte, 0, size+1))
	if errors.Is(err, sandbox.ErrTooLarge) {
		return nil, tooLargeFile(path, limit)
	}
	if err != nil {
		return nil, fmt.Errorf("failed to read file: %w", err)
	}
	return src, nil
}

func tooLargeFile(path string, limit int64) error {
	return fmt.Errorf("%s is larger than %d bytes, the limit on what file functions read (Limits.MaxFileSize)", path, limit)
}

// hashFile streams a regular file into h in chunks, each charged by its
// bytes (hashBytesPerStep), so files of any size need no memory and a
// large one stops at the step limit or a cancelled context mid-file.
func (e *env) hashFile(f io.Reader, h io.Writer) error {
	buf := make([]byte, 256<<10)
	for {
		n, err := f.Read(buf)
		h.Write(buf[:n])
		if err := e.charge(int64(n / hashBytesPerStep)); err != nil {
			return err
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return fmt.Errorf("failed to read file: %w", err)
		}
	}
}

// cleanPanic turns go-cty's report of a panic inside a function (with a
// Go stack trace in its text) into the panic's own message: a user's
// input reached it, and deserves an error, not a program dump. go-cty
// v1.20 panics, for one, on an object whose attribute names are the same
// in Unicode normal form C, which jsondecode can be given.
func cleanPanic(err error) error {
	var pe function.PanicError
	if !errors.As(err, &pe) {
		return err
	}
	return fmt.Errorf("%v", pe.Value)
}

// replacedLength is, at most, the length of replace(s, pattern, repl),
// worked out without building it: the text around the matches, and repl
// for each match with each $ in it standing for up to the whole match.
// Finding the matches of a /regexp/ keeps none of them (a result of
// millions would take gigabytes), only the text between them.
func replacedLength(s, pattern, repl string, compile func(string) (*regexp.Regexp, error)) int64 {
	if len(pattern) > 1 && pattern[0] == '/' && pattern[len(pattern)-1] == '/' {
		re, err := compile(pattern[1 : len(pattern)-1])
		if err != nil {
			return 0 // replace reports it
		}
		dollars := int64(strings.Count(repl, "$"))
		if dollars == 0 && len(repl) == 0 {
			return int64(len(s))
		}
		total := int64(len(s))
		re.ReplaceAllStringFunc(s, func(m string) string {
			total += int64(len(repl)) + dollars*int64(len(m)) - int64(len(m))
			return ""
		})
		return total
	}
	if pattern == "" {
		// strings.Replace puts repl before every character and at the end.
		return int64(len(s)) + int64(utf8.RuneCountInString(s)+1)*int64(len(repl))
	}
	return int64(len(s)) + int64(strings.Count(s, pattern))*(int64(len(repl))-int64(len(pattern)))
}
