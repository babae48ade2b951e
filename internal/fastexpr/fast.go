package fastexpr

import (
	"fmt"
	"math/big"
	"math/bits"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/ext/customdecode"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
	"github.com/zclconf/go-cty/cty/function"

	"github.com/tfeval/tfeval/internal/attrmap"
	"github.com/tfeval/tfeval/internal/elements"
	"github.com/tfeval/tfeval/internal/limit"
	"github.com/tfeval/tfeval/internal/numtext"
	"github.com/tfeval/tfeval/marks"
	"github.com/tfeval/tfeval/typeexpr"
)

// The nodes in this file evaluate the common case of the hcl expressions
// that dominate real configurations (references, for expressions,
// templates, comparisons, conditionals, object constructors, indexing)
// without hcl's per-element contexts, function calls and diagnostics
// bookkeeping. Each handles only known, unmarked, non-null operands and
// results that produce no diagnostic; on anything else it evaluates its slow
// twin, hcl's own node, from the start. A fast node therefore gives exactly
// the value and diagnostics of its slow twin, which the differential tests
// and fuzz target in fast_test.go check.

// literal stands for an operand already evaluated without diagnostics,
// at the operand's range: where a fast node cannot compute its result
// from its operands' values (unknowns, marks, nulls, types it leaves to
// hcl), hcl's node over literals of those values computes it without
// evaluating the operands a second time, as its slow twin would. Only a
// result without diagnostics is taken: any diagnostic is the slow twin's
// to report, which names the operand expressions themselves.
func literal(v cty.Value, operand hclsyntax.Expression) *hclsyntax.LiteralValueExpr {
	return &hclsyntax.LiteralValueExpr{Val: v, SrcRange: operand.Range()}
}

// plain reports whether v is known, not null and not marked at its top level.
func plain(v cty.Value) bool {
	return v.IsKnown() && !v.IsNull() && !v.IsMarked()
}

// isTrue reports whether v is the known, unmarked true. cty's Value.True
// goes through Equals, which walks both values for marks and unknowns;
// comparing with cty.True is exact for a plain bool and false for
// anything else.
func isTrue(v cty.Value) bool {
	return v == cty.True
}

// fastTraversal is a reference such as var.a.b or local.list[0]. It is
// used by value: a struct of one pointer is stored in an interface as it
// is, so compiling the most common expression of all allocates nothing.
type fastTraversal struct {
	*hclsyntax.ScopeTraversalExpr
}

func (t fastTraversal) Value(ctx *hcl.EvalContext) (cty.Value, hcl.Diagnostics) {
	if v, ok := t.fast(ctx); ok {
		return v, nil
	}
	return t.ScopeTraversalExpr.Value(ctx)
}

func (t fastTraversal) fast(ctx *hcl.EvalContext) (cty.Value, bool) {
	root, ok := t.Traversal[0].(hcl.TraverseRoot)
	if !ok {
		return cty.NilVal, false
	}
	for c := ctx; c != nil; c = c.Parent() {
		val, ok := c.Variables[root.Name]
		if !ok {
			continue
		}
		steps := t.Traversal[1:]
		if len(steps) > 0 {
			// The first attribute as the context recorded it (Roots).
			if a, ok := steps[0].(hcl.TraverseAttr); ok {
				if v, ok := rootAttrIn(c, root.Name, a.Name); ok {
					return Traverse(v, steps[1:])
				}
			}
		}
		return Traverse(val, steps)
	}
	return cty.NilVal, false
}

// Traverse applies the attribute and index steps of a relative traversal
// to v as a reference does, in the common case only: every step reads a
// plain object attribute, map element or list, tuple or object element
// that exists. It reports false where hcl must take the traversal (and
// may report a diagnostic).
func Traverse(v cty.Value, steps hcl.Traversal) (cty.Value, bool) {
	var ok bool
	for _, step := range steps {
		switch s := step.(type) {
		case hcl.TraverseAttr:
			if v, ok = attr(v, s.Name); !ok {
				return cty.NilVal, false
			}
		case hcl.TraverseIndex:
			if v, ok = index(v, s.Key); !ok {
				return cty.NilVal, false
			}
		default:
			return cty.NilVal, false
		}
	}
	return v, true
}

// attr is v.name for an object with that attribute or a map with that key.
func attr(v cty.Value, name string) (cty.Value, bool) {
	if !plain(v) {
		return cty.NilVal, false
	}
	ty := v.Type()
	switch {
	case ty.IsObjectType():
		// A name not in NFC misses here and takes the slow path, which
		// normalizes it; HasAttribute would normalize every name.
		if _, ok := ty.AttributeTypes()[name]; ok {
			return v.GetAttr(name), true
		}
	case ty.IsMapType():
		return index(v, cty.StringVal(name))
	}
	return cty.NilVal, false
}

// index is coll[key] where the element exists: a list or tuple with a whole
// number in range, a map with a present string key, an object attribute.
func index(coll, key cty.Value) (cty.Value, bool) {
	if !plain(coll) || !plain(key) {
		return cty.NilVal, false
	}
	ty := coll.Type()
	switch {
	case ty.IsListType() || ty.IsTupleType():
		if key.Type() != cty.Number {
			return cty.NilVal, false
		}
	case ty.IsMapType():
		if key.Type() != cty.String {
			return cty.NilVal, false
		}
	case ty.IsObjectType():
		if key.Type() == cty.String && ty.HasAttribute(key.AsString()) {
			return coll.GetAttr(key.AsString()), true
		}
		return cty.NilVal, false
	default:
		return cty.NilVal, false
	}
	if has := coll.HasIndex(key); !isTrue(has) {
		return cty.NilVal, false
	}
	return coll.Index(key), true
}

// fastIndex is coll[key].
type fastIndex struct {
	*hclsyntax.IndexExpr
	coll, key hclsyntax.Expression
	slow      hclsyntax.Expression
}

func (x *fastIndex) Value(ctx *hcl.EvalContext) (cty.Value, hcl.Diagnostics) {
	coll, diags := x.coll.Value(ctx)
	if len(diags) == 0 {
		key, diags := x.key.Value(ctx)
		if len(diags) == 0 {
			if v, ok := index(coll, key); ok {
				return v, nil
			}
		}
	}
	return x.slow.Value(ctx)
}

// fastSplat is a splat that reads attributes of each element, as in
// aws_instance.web[*].id: the common case, an object per element of a
// known tuple or list, is read in place, where hcl evaluates the
// attribute traversal in a context for every element.
type fastSplat struct {
	*hclsyntax.SplatExpr
	src   hclsyntax.Expression
	attrs []string
	slow  hclsyntax.Expression
}

// splatAttrs returns the attribute names a splat reads of each element
// (id in x[*].id, a and b in x[*].a.b), or nil when it does anything else.
func splatAttrs(e *hclsyntax.SplatExpr) []string {
	rel, ok := e.Each.(*hclsyntax.RelativeTraversalExpr)
	if !ok || rel.Source != hclsyntax.Expression(e.Item) || len(rel.Traversal) == 0 {
		return nil
	}
	names := make([]string, len(rel.Traversal))
	for i, step := range rel.Traversal {
		a, ok := step.(hcl.TraverseAttr)
		if !ok {
			return nil
		}
		names[i] = a.Name
	}
	return names
}

func (x *fastSplat) Value(ctx *hcl.EvalContext) (cty.Value, hcl.Diagnostics) {
	if v, ok := x.fast(ctx); ok {
		return v, nil
	}
	return x.slow.Value(ctx)
}

func (x *fastSplat) fast(ctx *hcl.EvalContext) (cty.Value, bool) {
	coll, diags := x.src.Value(ctx)
	if len(diags) != 0 || !plain(coll) {
		return cty.NilVal, false
	}
	ty := coll.Type()
	n := 0
	if ty.IsTupleType() || ty.IsListType() {
		n = coll.LengthInt()
	}
	// An empty list's result type comes from the traversal, not from
	// values: that is hcl's to work out.
	if n == 0 {
		return cty.NilVal, false
	}
	vals := make([]cty.Value, 0, n)
	for it := elements.Of(coll); it.Next(); {
		_, v := it.Element()
		for _, name := range x.attrs {
			if !plain(v) || !v.Type().IsObjectType() || !v.Type().HasAttribute(name) {
				return cty.NilVal, false
			}
			v = v.GetAttr(name)
		}
		vals = append(vals, v)
	}
	if ty.IsTupleType() {
		return cty.TupleVal(vals), true
	}
	for _, v := range vals[1:] {
		if !v.Type().Equals(vals[0].Type()) {
			return cty.NilVal, false
		}
	}
	return cty.ListVal(vals), true
}

// fastOps are the binary operators fastBinary computes itself.
var fastOps = map[*hclsyntax.Operation]bool{
	hclsyntax.OpEqual: true, hclsyntax.OpNotEqual: true,
	hclsyntax.OpLogicalAnd: true, hclsyntax.OpLogicalOr: true,
	hclsyntax.OpGreaterThan: true, hclsyntax.OpGreaterThanOrEqual: true,
	hclsyntax.OpLessThan: true, hclsyntax.OpLessThanOrEqual: true,
	hclsyntax.OpAdd: true, hclsyntax.OpSubtract: true, hclsyntax.OpMultiply: true,
	hclsyntax.OpDivide: true, hclsyntax.OpModulo: true,
}

// fastBinary is a comparison, logical or arithmetic operator on two
// primitive values of one type; arithmetic only on finite numbers, where
// cty's operator functions cannot fail.
type fastBinary struct {
	*hclsyntax.BinaryOpExpr
	lhs, rhs hclsyntax.Expression
	slow     hclsyntax.Expression
	// intLiteral is set when one operand is a whole-number literal, which
	// makes equality of two numbers the same as neither being less than
	// the other (see numberCompare).
	intLiteral bool
	// nullOther is the other operand of == or != when one is the literal
	// null (see nullCompare).
	nullOther hclsyntax.Expression
	// rhsNumber is the right operand's number when it is a number literal,
	// read once: intModulo reads its operands as big.Floats, and reading
	// one from a value copies it.
	rhsNumber *big.Float
}

// isNullLiteral reports whether e is the literal null.
func isNullLiteral(e hclsyntax.Expression) bool {
	lit, ok := e.(*hclsyntax.LiteralValueExpr)
	return ok && lit.Val.IsKnown() && !lit.Val.IsMarked() && lit.Val.IsNull()
}

// nullCompare is `x == null` or `x != null` for a known x with no mark
// anywhere in it, as `var.upstream == null ? ... : ...` asks of an object
// in every module instance. Equality with null only asks whether x is
// null; cty's function call would first copy x to take its marks off.
func (b *fastBinary) nullCompare(ctx *hcl.EvalContext) (cty.Value, bool) {
	x, diags := b.nullOther.Value(ctx)
	if len(diags) != 0 || !x.IsKnown() || marks.Any(x) {
		return cty.NilVal, false
	}
	return cty.BoolVal(x.IsNull() == (b.Op == hclsyntax.OpEqual)), true
}

// isIntLiteral reports whether e is a literal whole number.
func isIntLiteral(e hclsyntax.Expression) bool {
	lit, ok := e.(*hclsyntax.LiteralValueExpr)
	if !ok || lit.Val.Type() != cty.Number || !plain(lit.Val) {
		return false
	}
	return lit.Val.AsBigFloat().IsInt()
}

// numberCompare is ==, !=, >= or <= of two known, unmarked numbers, one of
// them a whole number, without cty's Equals: cty's number equality turns
// both operands into big integers, allocating, and its >= and <= are > or
// < combined with it. Against a whole number, cty's equality (exact for
// whole numbers, false between a whole and a fractional one) is the same as
// comparing, which allocates nothing.
func numberCompare(op *hclsyntax.Operation, l, r cty.Value) (cty.Value, bool) {
	less, greater := isTrue(l.LessThan(r)), isTrue(l.GreaterThan(r))
	switch op {
	case hclsyntax.OpEqual:
		return cty.BoolVal(!less && !greater), true
	case hclsyntax.OpNotEqual:
		return cty.BoolVal(less || greater), true
	case hclsyntax.OpGreaterThanOrEqual:
		return cty.BoolVal(!less), true
	case hclsyntax.OpLessThanOrEqual:
		return cty.BoolVal(!greater), true
	}
	return cty.NilVal, false
}

func (b *fastBinary) Value(ctx *hcl.EvalContext) (cty.Value, hcl.Diagnostics) {
	if v, ok := b.fast(ctx); ok {
		if arithmeticOps[b.Op] && limit.HugePlainNumber(v) {
			return cty.UnknownVal(cty.Number), hcl.Diagnostics{limit.NumberTooLarge(b.SrcRange)}
		}
		return v, nil
	}
	return b.slow.Value(ctx)
}

// operands evaluates both operands as hcl does; ok false when either has
// diagnostics.
func (b *fastBinary) operands(ctx *hcl.EvalContext) (l, r cty.Value, ok bool) {
	l, diags := b.lhs.Value(ctx)
	if len(diags) != 0 {
		return l, r, false
	}
	r, diags = b.rhs.Value(ctx)
	return l, r, len(diags) == 0
}

// ofLiterals is the slow twin's operator (hcl's, bounded or charged as
// the guard made it) over the operands' values (see literal).
func (b *fastBinary) ofLiterals(ctx *hcl.EvalContext, l, r cty.Value) (cty.Value, bool) {
	var c hclsyntax.BinaryOpExpr
	checked := false
	switch slow := b.slow.(type) {
	case *hclsyntax.BinaryOpExpr:
		c = *slow
	case *checkedArithmetic:
		c, checked = *slow.BinaryOpExpr, true
	default:
		return cty.NilVal, false
	}
	c.LHS, c.RHS = literal(l, b.BinaryOpExpr.LHS), literal(r, b.BinaryOpExpr.RHS)
	v, diags := c.Value(ctx)
	if len(diags) != 0 || checked && limit.HugeNumber(v) {
		return cty.NilVal, false
	}
	return v, true
}

// arithmeticOps are the operators whose results checkedArithmetic bounds.
var arithmeticOps = map[*hclsyntax.Operation]bool{
	hclsyntax.OpAdd: true, hclsyntax.OpSubtract: true, hclsyntax.OpMultiply: true,
	hclsyntax.OpDivide: true, hclsyntax.OpModulo: true,
}

// checkedArithmetic is hcl's arithmetic operator with its result bounded by
// MaxNumberExponent: repeated multiplication reaches 1e99999999 in a few
// steps, and writing that out would never finish.
type checkedArithmetic struct {
	*hclsyntax.BinaryOpExpr
}

func (c *checkedArithmetic) Value(ctx *hcl.EvalContext) (cty.Value, hcl.Diagnostics) {
	v, diags := c.BinaryOpExpr.Value(ctx)
	if !diags.HasErrors() && limit.HugeNumber(v) {
		return cty.UnknownVal(cty.Number), append(diags, limit.NumberTooLarge(c.SrcRange))
	}
	return v, diags
}

func (b *fastBinary) fast(ctx *hcl.EvalContext) (cty.Value, bool) {
	if b.nullOther != nil {
		return b.nullCompare(ctx)
	}
	l, r, ok := b.operands(ctx)
	if !ok {
		return cty.NilVal, false
	}
	if (l.IsMarked() || r.IsMarked()) && !arithmeticOps[b.Op] {
		if v, ok := b.markedPrimitives(l, r); ok {
			return v, true
		}
	}
	if !plain(l) || !plain(r) || !l.Type().IsPrimitiveType() || !l.Type().Equals(r.Type()) {
		return b.ofLiterals(ctx, l, r)
	}
	return b.ofPlain(l, r)
}

// markedPrimitives is a comparison or a logical operator of known
// primitive operands, one or both marked: hcl's operator takes the
// operands' own marks off (a primitive value has nothing nested to carry
// others), applies the operator and marks its result with both sets, so
// the unmarked operands' result, so marked, is hcl's. A test run marks
// every value derived from what it draws (length(name) <= max_length of a
// drawn name). Arithmetic stays with hcl, whose result is bounded by its
// checked twin.
func (b *fastBinary) markedPrimitives(l, r cty.Value) (cty.Value, bool) {
	lu, lm := l.Unmark()
	ru, rm := r.Unmark()
	if !plain(lu) || !plain(ru) || !lu.Type().IsPrimitiveType() || !lu.Type().Equals(ru.Type()) {
		return cty.NilVal, false
	}
	v, ok := b.ofPlain(lu, ru)
	if !ok {
		return cty.NilVal, false
	}
	return v.WithMarks(lm, rm), true
}

// ofPlain is the operator of two known, unmarked values of one primitive
// type, or false where hcl's operator must decide.
func (b *fastBinary) ofPlain(l, r cty.Value) (cty.Value, bool) {
	if b.intLiteral && l.Type() == cty.Number {
		if v, ok := numberCompare(b.Op, l, r); ok {
			return v, true
		}
	}
	switch b.Op {
	case hclsyntax.OpEqual, hclsyntax.OpNotEqual:
		var eq bool
		switch l.Type() {
		case cty.String:
			// cty.Equals walks both values for marks first; these have none.
			eq = l.AsString() == r.AsString()
		case cty.Bool:
			eq = isTrue(l) == isTrue(r)
		default:
			eq = isTrue(l.Equals(r))
		}
		return cty.BoolVal(eq == (b.Op == hclsyntax.OpEqual)), true
	case hclsyntax.OpLogicalAnd, hclsyntax.OpLogicalOr:
		if l.Type() != cty.Bool {
			return cty.NilVal, false
		}
		if b.Op == hclsyntax.OpLogicalAnd {
			return l.And(r), true
		}
		return l.Or(r), true
	}
	if l.Type() != cty.Number {
		return cty.NilVal, false
	}
	switch b.Op {
	case hclsyntax.OpAdd, hclsyntax.OpSubtract, hclsyntax.OpMultiply, hclsyntax.OpDivide, hclsyntax.OpModulo:
		return arithmetic(b.Op, l, r, b.rhsNumber)
	case hclsyntax.OpGreaterThan:
		return l.GreaterThan(r), true
	case hclsyntax.OpGreaterThanOrEqual:
		return l.GreaterThanOrEqualTo(r), true
	case hclsyntax.OpLessThan:
		return l.LessThan(r), true
	default:
		return l.LessThanOrEqualTo(r), true
	}
}

// arithmetic applies a number operator to two finite numbers, as hcl's
// operator functions do; dividing by zero is left to them. rf, when not
// nil, is r's number.
func arithmetic(op *hclsyntax.Operation, l, r cty.Value, rf *big.Float) (cty.Value, bool) {
	// Comparing in place: AsBigFloat would copy both operands.
	if !finite(l) || !finite(r) {
		return cty.NilVal, false
	}
	switch op {
	case hclsyntax.OpAdd:
		return l.Add(r), true
	case hclsyntax.OpSubtract:
		return l.Subtract(r), true
	case hclsyntax.OpMultiply:
		return l.Multiply(r), true
	}
	if !isTrue(r.LessThan(cty.Zero)) && !isTrue(cty.Zero.LessThan(r)) {
		return cty.NilVal, false // dividing by zero is left to hcl
	}
	if op == hclsyntax.OpDivide {
		return l.Divide(r), true
	}
	if rf == nil {
		rf = elements.BigFloat(r)
	}
	if m, ok := intModulo(elements.BigFloat(l), rf); ok {
		return m, true
	}
	return l.Modulo(r), true
}

// finite reports whether a known, unmarked number is neither infinity.
func finite(v cty.Value) bool {
	return isTrue(v.LessThan(cty.PositiveInfinity)) && isTrue(cty.NegativeInfinity.LessThan(v))
}

// intModulo is cty's a % b for whole numbers small enough for its result
// to be Go's: cty takes a - b*trunc(a/b), dividing at the larger operand
// precision and multiplying at a's, and when the two operands together
// have at most that precision less two bits, neither step rounds. The
// result is held at a's precision, as cty's is.
func intModulo(a, b *big.Float) (cty.Value, bool) {
	if !a.IsInt() || !b.IsInt() || a.Sign() == 0 || b.Sign() == 0 {
		return cty.NilVal, false
	}
	ai, aacc := a.Int64()
	bi, bacc := b.Int64()
	if aacc != big.Exact || bacc != big.Exact {
		return cty.NilVal, false
	}
	if bitLen(ai)+bitLen(bi) > int(min(a.Prec(), b.Prec()))-2 {
		return cty.NilVal, false
	}
	if m := ai % bi; m >= 0 && a.Prec() == 64 && a.Mode() == big.ToNearestEven {
		// The number cty.NumberIntVal(m) holds, which elements.Number
		// shares when small: count.index % 2, or i % 5 for i of range().
		return elements.Number(m), true
	}
	return cty.NumberVal(new(big.Float).SetPrec(a.Prec()).SetMode(a.Mode()).SetInt64(ai % bi)), true
}

// bitLen is the number of bits of |i|.
func bitLen(i int64) int {
	if i < 0 {
		i = -i
	}
	return bits.Len64(uint64(i))
}

// fastConditional is cond ? a : b where both results have the same type.
type fastConditional struct {
	*hclsyntax.ConditionalExpr
	cond, t, f hclsyntax.Expression
	slow       hclsyntax.Expression
}

func (c *fastConditional) Value(ctx *hcl.EvalContext) (cty.Value, hcl.Diagnostics) {
	if v, ok := c.fast(ctx); ok {
		return v, nil
	}
	return c.slow.Value(ctx)
}

func (c *fastConditional) fast(ctx *hcl.EvalContext) (cty.Value, bool) {
	// hcl evaluates both results (for their type and diagnostics) before
	// the condition; so does this.
	t, diags := c.t.Value(ctx)
	if len(diags) != 0 {
		return cty.NilVal, false
	}
	f, diags := c.f.Value(ctx)
	if len(diags) != 0 {
		return cty.NilVal, false
	}
	cond, diags := c.cond.Value(ctx)
	if len(diags) != 0 {
		return cty.NilVal, false
	}
	if !plain(cond) || cond.Type() != cty.Bool || t.IsMarked() || f.IsMarked() {
		return c.ofLiterals(ctx, t, f, cond)
	}
	// `cond ? x : null`: hcl gives the literal null the other result's
	// type, and returns the other result as it is.
	if tNull, fNull := dynamicNull(t), dynamicNull(f); tNull != fNull {
		switch {
		case isTrue(cond) && tNull:
			return cty.NullVal(f.Type()), true
		case isTrue(cond):
			return t, true
		case fNull:
			return cty.NullVal(t.Type()), true
		default:
			return f, true
		}
	}
	if t.IsNull() || f.IsNull() {
		return c.ofLiterals(ctx, t, f, cond)
	}
	// Results of one type are returned as they are; of two, both are
	// unified as hcl does, and the chosen one converted.
	var convs []convert.Conversion
	if tt, ft := t.Type(), f.Type(); !tt.Equals(ft) || tt.HasDynamicTypes() {
		if tt.HasDynamicTypes() || ft.HasDynamicTypes() {
			return c.ofLiterals(ctx, t, f, cond) // hcl's own cases, and unification's
		}
		var ty cty.Type
		if ty, convs = convert.UnifyUnsafe([]cty.Type{tt, ft}); ty == cty.NilType {
			return cty.NilVal, false
		}
	}
	v, i := f, 1
	if isTrue(cond) {
		v, i = t, 0
	}
	if convs != nil && convs[i] != nil {
		var err error
		if v, err = convs[i](v); err != nil {
			return cty.NilVal, false
		}
	}
	return v, true
}

// dynamicNull reports whether an unmarked v is the null of no type that the
// literal null evaluates to.
func dynamicNull(v cty.Value) bool {
	return v.Type() == cty.DynamicPseudoType && v.IsKnown() && v.IsNull()
}

// ofLiterals is hcl's conditional over the values of its operands (see
// literal).
func (c *fastConditional) ofLiterals(ctx *hcl.EvalContext, t, f, cond cty.Value) (cty.Value, bool) {
	e := *c.ConditionalExpr
	e.TrueResult, e.FalseResult, e.Condition = literal(t, c.ConditionalExpr.TrueResult), literal(f, c.ConditionalExpr.FalseResult), literal(cond, c.ConditionalExpr.Condition)
	v, diags := e.Value(ctx)
	if len(diags) != 0 {
		return cty.NilVal, false
	}
	return v, true
}

// fastTemplate is a string template whose parts are all known, unmarked
// strings, numbers or bools.
type fastTemplate struct {
	*hclsyntax.TemplateExpr
	parts []hclsyntax.Expression
	slow  hclsyntax.Expression
	g     *Guard
}

func (t *fastTemplate) Value(ctx *hcl.EvalContext) (cty.Value, hcl.Diagnostics) {
	if v, ok := t.fast(ctx); ok {
		return v, nil
	}
	return t.slow.Value(ctx)
}

func (t *fastTemplate) fast(ctx *hcl.EvalContext) (cty.Value, bool) {
	// Most results fit a buffer on the stack; the string is copied out.
	var stack [128]byte
	buf := stack[:0]
	// The parts' values, kept for ofLiterals (the first few: beyond them
	// it evaluates the earlier parts again).
	var seen [8]cty.Value
	for i, p := range t.parts {
		v, diags := p.Value(ctx)
		if len(diags) != 0 {
			return cty.NilVal, false
		}
		if i < len(seen) {
			seen[i] = v
		}
		if !plain(v) {
			return t.ofLiterals(ctx, seen, i)
		}
		// Numbers and bools are written as their conversion to string
		// would write them.
		switch v.Type() {
		case cty.String:
			buf = append(buf, v.AsString()...)
		case cty.Number:
			buf = numtext.Append(buf, elements.BigFloat(v))
		case cty.Bool:
			buf = strconv.AppendBool(buf, isTrue(v))
		default:
			return cty.NilVal, false
		}
		if t.g.MaxStringLength > 0 && len(buf) > t.g.MaxStringLength {
			return cty.NilVal, false
		}
	}
	return cty.StringVal(string(buf)), true
}

// ofLiterals is the template's value once part i is one the fast path
// does not write (see literal): the parts after it are evaluated, and all
// the parts' values (seen holds those of the first ones) handed to the
// slow twin's logic.
func (t *fastTemplate) ofLiterals(ctx *hcl.EvalContext, seen [8]cty.Value, i int) (cty.Value, bool) {
	vals := make([]cty.Value, len(t.parts))
	for j, p := range t.parts {
		if j <= i && j < len(seen) {
			vals[j] = seen[j]
			continue
		}
		v, diags := p.Value(ctx)
		if len(diags) != 0 {
			return cty.NilVal, false
		}
		vals[j] = v
	}
	var v2 cty.Value
	var diags hcl.Diagnostics
	switch slow := t.slow.(type) {
	case *templateGuard:
		v2, diags = slow.ofValues(ctx, vals)
	case *hclsyntax.TemplateExpr:
		c := *slow
		c.Parts = make([]hclsyntax.Expression, len(vals))
		for j, pv := range vals {
			c.Parts[j] = literal(pv, slow.Parts[j])
		}
		v2, diags = c.Value(ctx)
	default:
		return cty.NilVal, false
	}
	if len(diags) != 0 {
		return cty.NilVal, false
	}
	return v2, true
}

// constTemplate is a template of literal parts only, evaluated once.
type constTemplate struct {
	*hclsyntax.TemplateExpr
	v cty.Value
}

func (t *constTemplate) Value(*hcl.EvalContext) (cty.Value, hcl.Diagnostics) {
	return t.v, nil
}

// fastObject is an object constructor whose keys are all fixed names.
type fastObject struct {
	*hclsyntax.ObjectConsExpr
	keys []string
	vals []hclsyntax.Expression
	slow hclsyntax.Expression
	// order is the keys' name order, made for the first object form call.
	order atomic.Pointer[keyOrder]
}

// keyOrder is an object constructor's keys in name order (sorted) and the
// place of each key in it (rank).
type keyOrder struct {
	sorted []string
	rank   []int
}

// keyOrder returns the keys' name order.
func (o *fastObject) keyOrder() *keyOrder {
	if ko := o.order.Load(); ko != nil {
		return ko
	}
	ko := &keyOrder{sorted: slices.Clone(o.keys), rank: make([]int, len(o.keys))}
	slices.Sort(ko.sorted)
	for i, k := range o.keys {
		ko.rank[i], _ = slices.BinarySearch(ko.sorted, k)
	}
	o.order.Store(ko)
	return ko
}

// newFastObject returns a fastObject for e, or nil when one of its keys is
// computed or two keys are the same.
func newFastObject(e *hclsyntax.ObjectConsExpr, items []hclsyntax.ObjectConsItem, slow hclsyntax.Expression) *fastObject {
	o := &fastObject{ObjectConsExpr: e, slow: slow, keys: make([]string, 0, len(e.Items)), vals: make([]hclsyntax.Expression, 0, len(e.Items))}
	// Most constructors have a few keys, searched for a repeat in order;
	// a map serves the larger ones.
	var seen map[string]bool
	if len(e.Items) > 8 {
		seen = make(map[string]bool, len(e.Items))
	}
	for i, it := range e.Items {
		k, ok := staticKey(it.KeyExpr)
		if !ok || seen[k] || seen == nil && slices.Contains(o.keys, k) {
			return nil
		}
		if seen != nil {
			seen[k] = true
		}
		o.keys = append(o.keys, k)
		o.vals = append(o.vals, items[i].ValueExpr)
	}
	return o
}

// smallValues lends the arrays sortedValues gathers the values of small
// objects in: an object form only reads them during the call, and most
// objects passed to one have a few attributes.
var smallValues = sync.Pool{New: func() any { return new([8]cty.Value) }}

// sortedValues evaluates the attribute values, in the order they are
// written, into vals in the order of their names; false on a diagnostic,
// which the slow twin reports. lent, when not nil, holds vals, to be given
// back to smallValues.
func (o *fastObject) sortedValues(ctx *hcl.EvalContext, ko *keyOrder) (vals []cty.Value, lent *[8]cty.Value, ok bool) {
	if len(o.keys) <= len(lent) {
		lent = smallValues.Get().(*[8]cty.Value)
		vals = lent[:len(o.keys)]
	} else {
		vals = make([]cty.Value, len(o.keys))
	}
	for i, e := range o.vals {
		v, diags := e.Value(ctx)
		if len(diags) != 0 {
			giveBack(lent)
			return nil, nil, false
		}
		vals[ko.rank[i]] = v
	}
	return vals, lent, true
}

// giveBack returns an array sortedValues lent, cleared, to smallValues.
func giveBack(lent *[8]cty.Value) {
	if lent != nil {
		clear(lent[:])
		smallValues.Put(lent)
	}
}

// objectOf is the object of the values sortedValues gives.
func (ko *keyOrder) objectOf(vals []cty.Value) cty.Value {
	m := attrmap.New(len(vals))
	for i, name := range ko.sorted {
		m[name] = vals[i]
	}
	v := cty.ObjectVal(m)
	attrmap.Release(m, len(vals))
	return v
}

// staticKey is the name an object constructor key always evaluates to: a
// bare name or a quoted string without interpolation.
func staticKey(expr hclsyntax.Expression) (string, bool) {
	k, ok := expr.(*hclsyntax.ObjectConsKeyExpr)
	if !ok {
		return "", false
	}
	if !k.ForceNonLiteral {
		if name := hcl.ExprAsKeyword(k.Wrapped); name != "" {
			return cty.StringVal(name).AsString(), true
		}
	}
	t, ok := k.Wrapped.(*hclsyntax.TemplateExpr)
	if !ok || !t.IsStringLiteral() {
		return "", false
	}
	v, diags := t.Value(nil)
	if len(diags) != 0 || !plain(v) || v.Type() != cty.String {
		return "", false
	}
	return v.AsString(), true
}

func (o *fastObject) Value(ctx *hcl.EvalContext) (cty.Value, hcl.Diagnostics) {
	// cty.ObjectVal copies the attributes: the map they are gathered in is
	// lent, and given back once the object is made.
	vals := attrmap.New(len(o.keys))
	for i, e := range o.vals {
		v, diags := e.Value(ctx)
		if len(diags) != 0 {
			attrmap.Release(vals, len(o.keys))
			return o.slow.Value(ctx)
		}
		vals[o.keys[i]] = v
	}
	v := cty.ObjectVal(vals)
	attrmap.Release(vals, len(o.keys))
	return v, nil
}

// fastCall is a function call whose arguments evaluate without diagnostics
// and convert to the parameter types, made through the function's direct
// form (Guard.Direct) rather than through a second cty call.
type fastCall struct {
	*hclsyntax.FunctionCallExpr
	args []hclsyntax.Expression
	slow hclsyntax.Expression
	g    *Guard

	// resolved remembers what the last function called here takes, since
	// Params and VarParam copy on every call; instances of a resource
	// share this node across goroutines.
	resolved atomic.Pointer[resolvedCall]
}

// resolvedCall is a function with its direct form and parameters, one per
// argument of the call, or ok false when the call cannot take the direct
// form at all.
type resolvedCall struct {
	f      function.Function
	call   func([]cty.Value) (cty.Value, error)
	params []*function.Parameter
	// closures marks the arguments passed as expression closures, nil
	// when there are none.
	closures []bool
	ok       bool
}

func (c *fastCall) Value(ctx *hcl.EvalContext) (cty.Value, hcl.Diagnostics) {
	if v, diags, ok := c.fast(ctx); ok {
		return v, diags
	}
	return c.slow.Value(ctx)
}

// resolve returns what calling f here takes, remembered for the next call.
func (c *fastCall) resolve(f function.Function) *resolvedCall {
	if r := c.resolved.Load(); r != nil && r.f == f {
		return r
	}
	r := &resolvedCall{f: f}
	defer c.resolved.Store(r)
	call, ok := c.g.Direct(f)
	if !ok {
		return r
	}
	params, varParam := f.Params(), f.VarParam()
	if len(c.args) < len(params) || (varParam == nil && len(c.args) > len(params)) {
		return r
	}
	r.params = make([]*function.Parameter, len(c.args))
	for i := range c.args {
		r.params[i] = varParam
		if i < len(params) {
			r.params[i] = &params[i]
		}
		if ty := r.params[i].Type; ty == customdecode.ExpressionClosureType {
			// try() and can() take their arguments unevaluated, as hcl
			// gives them: the expression (here the fast twin, which has
			// the same value and diagnostics) and its context.
			if r.closures == nil {
				r.closures = make([]bool, len(c.args))
			}
			r.closures[i] = true
		} else if customdecode.CustomExpressionDecoderForType(ty) != nil {
			return r
		}
	}
	r.call, r.ok = call, true
	return r
}

// fast calls the function directly; ok false when the slow twin must. An
// argument that does not convert to its parameter's type gets hcl's
// diagnostic, with the first offending element in name order
// (typeexpr.MismatchMessage) where hcl, through go-cty, names the first
// in Go's map order.
func (c *fastCall) fast(ctx *hcl.EvalContext) (cty.Value, hcl.Diagnostics, bool) {
	var f function.Function
	found := false
	for p := ctx; p != nil && !found; p = p.Parent() {
		f, found = p.Functions[c.Name]
	}
	if !found {
		return cty.NilVal, nil, false
	}
	r := c.resolve(f)
	if !r.ok {
		return cty.NilVal, nil, false
	}
	// An object constructor as the only argument of a function with an
	// object form (jsonencode({...})): the object is made only if the
	// object form leaves the call to the direct form.
	var first cty.Value
	if o, ok := c.objectArgument(r); ok {
		if call, ok := c.g.DirectObject(f); ok {
			ko := o.keyOrder()
			vals, lent, ok := o.sortedValues(ctx, ko)
			if !ok {
				return cty.NilVal, nil, false
			}
			v, handled, err := call(ko.sorted, vals)
			if !handled {
				first = ko.objectOf(vals)
			}
			giveBack(lent)
			if handled {
				// An error is the slow twin's to report, as the direct form's is.
				return v, nil, err == nil
			}
		}
	}
	args := make([]cty.Value, len(c.args))
	var argDiags hcl.Diagnostics
	for i, a := range c.args {
		if r.closures != nil && r.closures[i] {
			args[i] = customdecode.ExpressionClosureVal(&customdecode.ExpressionClosure{Expression: a, EvalContext: ctx})
			continue
		}
		v, diags := first, hcl.Diagnostics(nil)
		if i > 0 || first == cty.NilVal {
			v, diags = a.Value(ctx)
		}
		if len(diags) != 0 {
			return cty.NilVal, nil, false
		}
		if ty := r.params[i].Type; ty != cty.DynamicPseudoType {
			// Converting to any type returns the value as it is. typeexpr
			// converts a known, unmarked value in one pass (as go-cty
			// would: no defaults), where go-cty works the conversion out
			// again on every call.
			var err error
			if v, err = typeexpr.Convert(v, ty, nil); err != nil {
				// hcl reports every argument that does not convert and
				// then returns without calling the function.
				argDiags = append(argDiags, c.argDiagnostic(ctx, i, r.params[i], err))
				continue
			}
		}
		args[i] = v
	}
	if argDiags != nil {
		return cty.DynamicVal, argDiags, true
	}
	v, err := r.call(args)
	if err != nil {
		return cty.NilVal, nil, false
	}
	return v, nil, true
}

// objectArgument is the call's only argument when it is an object
// constructor passed as it is (no closure, no conversion) and the guard
// has object forms.
func (c *fastCall) objectArgument(r *resolvedCall) (*fastObject, bool) {
	if len(c.args) != 1 || r.closures != nil || r.params[0].Type != cty.DynamicPseudoType || c.g.DirectObject == nil {
		return nil, false
	}
	o, ok := c.args[0].(*fastObject)
	return o, ok
}

// argDiagnostic is hcl's diagnostic for argument i of the call, which
// does not convert to param's type.
func (c *fastCall) argDiagnostic(ctx *hcl.EvalContext, i int, param *function.Parameter, err error) *hcl.Diagnostic {
	// The expression hcl would name is the slow twin's argument.
	var expr hcl.Expression = c.Args[i]
	if slow, ok := c.slow.(*hclsyntax.FunctionCallExpr); ok && i < len(slow.Args) {
		expr = slow.Args[i]
	}
	return &hcl.Diagnostic{
		Severity:    hcl.DiagError,
		Summary:     "Invalid function argument",
		Detail:      fmt.Sprintf("Invalid value for %q parameter: %s.", param.Name, err),
		Subject:     expr.StartRange().Ptr(),
		Context:     c.Range().Ptr(),
		Expression:  expr,
		EvalContext: ctx,
		Extra:       callDiagExtra{name: c.Name},
	}
}

// callDiagExtra is what hcl attaches to a diagnostic about a function
// call (hclsyntax.FunctionCallDiagExtra): the function's name, and no
// error of the function's own.
type callDiagExtra struct{ name string }

func (e callDiagExtra) CalledFunctionName() string { return e.name }
func (e callDiagExtra) FunctionCallError() error   { return nil }

var _ hclsyntax.FunctionCallDiagExtra = callDiagExtra{}

// fastFor is a for expression over a known, unmarked collection whose
// conditions and keys are known, unmarked values of their own types.
type fastFor struct {
	*hclsyntax.ForExpr
	coll, key, val, cond hclsyntax.Expression
	slow                 hclsyntax.Expression
	g                    *Guard
	// hoisted are the references in the body that name neither loop
	// variable: the same for every element of one evaluation.
	hoisted []fastTraversal
	// match is set when the condition compares an attribute of the element
	// with a value that is the same for every element.
	match *attrMatch
	// indexes are filterIndex's, by the context holding the collection.
	indexMu sync.Mutex
	indexes map[*hcl.EvalContext]*filterIndex
}

// attrMatch is a for expression's condition of the form `x.name == other`
// or `x.name != other` (either way round), x being the element and other
// a literal or a hoisted reference: the filter that picks one key's
// entries out of a flattened list, run in every instance of a resource.
// The fast path reads other once and compares each element's attribute
// with it directly; elements it cannot decide that way (not an object,
// attribute missing or not a known string, other not a string) go through
// the condition as before.
type attrMatch struct {
	name  string
	other hclsyntax.Expression
	equal bool
}

// attrMatchOf recognizes an attrMatch in the compiled condition cond.
func attrMatchOf(f *fastFor, cond hclsyntax.Expression) *attrMatch {
	b, ok := cond.(*fastBinary)
	if !ok || b.Op != hclsyntax.OpEqual && b.Op != hclsyntax.OpNotEqual {
		return nil
	}
	for _, side := range [2]struct{ elem, other hclsyntax.Expression }{{b.LHS, b.rhs}, {b.RHS, b.lhs}} {
		t, ok := side.elem.(*hclsyntax.ScopeTraversalExpr)
		if !ok || len(t.Traversal) != 2 || t.Traversal.RootName() != f.ValVar || f.KeyVar == f.ValVar {
			continue
		}
		step, ok := t.Traversal[1].(hcl.TraverseAttr)
		if !ok {
			continue
		}
		switch o := side.other.(type) {
		case *hclsyntax.LiteralValueExpr, *constTemplate:
		case *hoistedTraversal:
			if o.owner != f {
				continue
			}
		default:
			continue
		}
		return &attrMatch{name: step.Name, other: side.other, equal: b.Op == hclsyntax.OpEqual}
	}
	return nil
}

// test compares v's attribute with want, ok false when v is not a plain
// object whose attribute is a plain string.
func (m *attrMatch) test(v cty.Value, want string) (hit, ok bool) {
	a, ok := m.attr(v)
	return ok && (a == want) == m.equal, ok
}

// attr is v's attribute, ok false unless v is a plain object whose
// attribute is a plain string.
func (m *attrMatch) attr(v cty.Value) (string, bool) {
	if !plain(v) || !v.Type().IsObjectType() {
		return "", false
	}
	if _, has := v.Type().AttributeTypes()[m.name]; !has {
		return "", false
	}
	a := v.GetAttr(m.name)
	if !plain(a) || a.Type() != cty.String {
		return "", false
	}
	return a.AsString(), true
}

// filterIndex groups a collection's elements by the attribute an == filter
// compares, so that the filter run in every instance of a resource over
// the same list reads only the elements it keeps: without it, n instances
// each filtering an n-element list cost n squared.
type filterIndex struct {
	n      int // elements in the collection, all charged as if visited
	groups map[string][]indexedElement
}

// indexedElement is an element of an indexed collection with its key.
type indexedElement struct{ k, v cty.Value }

// maxFilterIndexes bounds the indexes one for expression keeps: about one
// per module instance evaluating it at the same time is ever in use.
const maxFilterIndexes = 64

// filterIndex returns the index of coll, the value of the for expression's
// collection in ctx, building it on first use; nil when there is none.
// Indexes are kept per context the collection's root variable is found in.
// The contexts the evaluator builds never change once made, so the same
// one gives the same collection; a for expression's own context changes
// for every element and is never used as a key.
func (f *fastFor) filterIndex(ctx *hcl.EvalContext, coll cty.Value) *filterIndex {
	var t fastTraversal
	switch c := f.coll.(type) {
	case fastTraversal:
		t = c
	case *hoistedTraversal:
		// A collection in an outer for expression's body names no outer
		// loop variable, so it is found past the outer loop's context, as
		// from ctx: a module's list filtered by each outer element is
		// indexed once, not once per element.
		t = c.fastTraversal
	default:
		return nil
	}
	root := t.Traversal.RootName()
	var home *hcl.EvalContext
	for c := ctx; c != nil && home == nil; c = c.Parent() {
		if _, ok := c.Variables[root]; ok {
			home = c
		}
	}
	if home == nil {
		return nil
	}
	if _, changing := home.Variables[counterKey]; changing {
		return nil
	}
	f.indexMu.Lock()
	idx, ok := f.indexes[home]
	f.indexMu.Unlock()
	if ok {
		return idx
	}
	idx = &filterIndex{groups: map[string][]indexedElement{}}
	for it := elements.Of(coll); it.Next(); idx.n++ {
		k, v := it.Element()
		a, ok := f.match.attr(v)
		if !ok {
			idx = nil // some element needs the condition itself
			break
		}
		idx.groups[a] = append(idx.groups[a], indexedElement{k, v})
	}
	f.indexMu.Lock()
	if f.indexes == nil || len(f.indexes) >= maxFilterIndexes {
		f.indexes = map[*hcl.EvalContext]*filterIndex{}
	}
	f.indexes[home] = idx
	f.indexMu.Unlock()
	return idx
}

// loopVar reports whether name is one of the for expression's variables.
func (f *fastFor) loopVar(name string) bool {
	return name == f.ValVar || f.KeyVar != "" && name == f.KeyVar
}

// hoist makes t, a reference in the body naming no loop variable, one the
// for expression looks up once per evaluation rather than per element.
func (f *fastFor) hoist(t fastTraversal) hclsyntax.Expression {
	f.hoisted = append(f.hoisted, t)
	return &hoistedTraversal{fastTraversal: t, owner: f, slot: len(f.hoisted) - 1}
}

// hoistedTraversal is a reference in a for expression's body that names
// neither loop variable. Every element sees the same value (only the loop
// variables differ between them), so an evaluation of the for expression
// looks it up once, in the context the for expression is evaluated in, on
// first use. A lookup the fast path cannot do takes hcl's, per element.
type hoistedTraversal struct {
	fastTraversal
	owner *fastFor
	slot  int
}

// hoistedSlot is a hoisted reference's value in one evaluation.
type hoistedSlot struct {
	v     cty.Value
	state uint8 // 0 not looked up yet, 1 found, 2 not found by the fast path
}

func (h *hoistedTraversal) Value(ctx *hcl.EvalContext) (cty.Value, hcl.Diagnostics) {
	if v, ok := h.fast(ctx); ok {
		return v, nil
	}
	return h.ScopeTraversalExpr.Value(ctx)
}

func (h *hoistedTraversal) fast(ctx *hcl.EvalContext) (cty.Value, bool) {
	// The body is evaluated in the for expression's own child context,
	// which holds its counter; anywhere else, look the reference up.
	c, ok := ctx.Variables[counterKey]
	if !ok {
		return h.fastTraversal.fast(ctx)
	}
	fc := c.EncapsulatedValue().(*forCounter)
	if fc.owner != h.owner {
		return h.fastTraversal.fast(ctx)
	}
	s := &fc.slots[h.slot]
	if s.state == 0 {
		s.state = 2
		if v, ok := h.fastTraversal.fast(fc.ctx); ok {
			s.v, s.state = v, 1
		}
	}
	return s.v, s.state == 1
}

func (f *fastFor) Value(ctx *hcl.EvalContext) (cty.Value, hcl.Diagnostics) {
	if v, diags, ok := f.fast(ctx); ok {
		return v, diags
	}
	return f.slow.Value(ctx)
}

// fast evaluates the for expression, ok false when the slow twin must. At a
// limit it returns the limit's diagnostic with ok true: evaluating the slow
// twin would only spend the budget again.
func (f *fastFor) fast(ctx *hcl.EvalContext) (v cty.Value, limit hcl.Diagnostics, ok bool) {
	coll, diags := f.coll.Value(ctx)
	if len(diags) != 0 || !plain(coll) || !coll.CanIterateElements() {
		return cty.NilVal, nil, false
	}
	// One child context serves every element: nothing that outlives an
	// element's evaluation keeps it unless that evaluation produced a
	// diagnostic, and then the slow twin starts over.
	counter := &forCounter{rng: &f.SrcRange}
	if len(f.hoisted) > 0 {
		counter.owner, counter.ctx = f, ctx
		if len(f.hoisted) <= len(counter.inline) {
			counter.slots = counter.inline[:len(f.hoisted)]
		} else {
			counter.slots = make([]hoistedSlot, len(f.hoisted))
		}
	}
	// vars and object are lent (attrmap) and given back when the result is
	// made; on the other ways out a diagnostic may still hold the context.
	vars := attrmap.New(3)
	vars[counterKey] = cty.CapsuleVal(counterType, counter)
	counter.child = *ctx.NewChild()
	child := &counter.child
	child.Variables = vars
	// The condition's invariant side, read once (see attrMatch).
	var want string
	useMatch, checked := false, false
	if f.match != nil {
		o, diags := f.match.other.Value(child)
		// With unknown element values, x.name == other is an unknown bool
		// whatever other is, unless other has diagnostics of its own.
		checked = len(diags) == 0
		if checked && plain(o) && o.Type() == cty.String {
			want, useMatch = o.AsString(), true
		}
	}
	if f.cond != nil && !checked {
		// hcl first checks the condition with unknown element values.
		if f.KeyVar != "" {
			vars[f.KeyVar] = cty.DynamicVal
		}
		vars[f.ValVar] = cty.DynamicVal
		c, diags := f.cond.Value(child)
		if len(diags) != 0 || c.IsNull() {
			return cty.NilVal, nil, false
		}
		if _, err := convert.Convert(c, cty.Bool); err != nil {
			return cty.NilVal, nil, false
		}
	}
	var tuple []cty.Value
	var object map[string]cty.Value
	var groups map[string][]cty.Value
	switch {
	case f.key == nil && f.cond == nil:
		tuple = make([]cty.Value, 0, coll.LengthInt())
	case f.key == nil:
		// A filter usually keeps a few elements of many.
	case f.Group:
		groups = map[string][]cty.Value{}
	case f.cond == nil:
		object = attrmap.New(coll.LengthInt())
	default:
		object = attrmap.New(0)
	}
	// add evaluates the key and value of an element the condition keeps;
	// false means the slow twin must evaluate the whole expression.
	add := func(k, v cty.Value) bool {
		if f.KeyVar != "" {
			vars[f.KeyVar] = k
		}
		vars[f.ValVar] = v
		var key string
		if f.key != nil {
			kv, diags := f.key.Value(child)
			if len(diags) != 0 || !plain(kv) || kv.Type() != cty.String {
				return false
			}
			key = kv.AsString()
		}
		val, diags := f.val.Value(child)
		if len(diags) != 0 {
			return false
		}
		switch {
		case f.key == nil:
			tuple = append(tuple, val)
		case f.Group:
			groups[key] = append(groups[key], val)
		default:
			if _, dup := object[key]; dup {
				return false
			}
			object[key] = val
		}
		return true
	}
	indexed := false
	// A collection past the element limit is left to the loop, which stops
	// at the limit; the index would first read all of it.
	if useMatch && f.match.equal && (f.g.MaxElements <= 0 || coll.LengthInt() <= f.g.MaxElements) {
		if idx := f.filterIndex(ctx, coll); idx != nil {
			if d, charged := f.g.chargeElements(child, f.SrcRange, idx.n); charged {
				if d != nil {
					return cty.DynamicVal, hcl.Diagnostics{d}, true
				}
				for _, e := range idx.groups[want] {
					if !add(e.k, e.v) {
						return cty.NilVal, nil, false
					}
				}
				indexed = true
			}
		}
	}
	for it := elements.Of(coll); !indexed && it.Next(); {
		k, v := it.Element()
		if d := f.g.chargeElement(child, f.SrcRange); d != nil {
			return cty.DynamicVal, hcl.Diagnostics{d}, true
		}
		if useMatch {
			if hit, ok := f.match.test(v, want); ok {
				if !hit {
					continue
				}
				if !add(k, v) {
					return cty.NilVal, nil, false
				}
				continue
			}
		}
		if f.cond != nil {
			if f.KeyVar != "" {
				vars[f.KeyVar] = k
			}
			vars[f.ValVar] = v
			c, diags := f.cond.Value(child)
			if len(diags) != 0 || !plain(c) || c.Type() != cty.Bool {
				return cty.NilVal, nil, false
			}
			if !isTrue(c) {
				continue
			}
		}
		if !add(k, v) {
			return cty.NilVal, nil, false
		}
	}
	attrmap.Release(vars, 3)
	switch {
	case f.key == nil:
		return cty.TupleVal(tuple), nil, true
	case f.Group:
		object = attrmap.New(len(groups))
		for k, vs := range groups {
			object[k] = cty.TupleVal(vs)
		}
	}
	v = cty.ObjectVal(object)
	attrmap.Release(object, len(object))
	return v, nil, true
}
