package lang

import (
	"fmt"
	"math/big"
	"strconv"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"

	"github.com/tfeval/tfeval/internal/attrmap"
	"github.com/tfeval/tfeval/internal/elements"
	"github.com/tfeval/tfeval/internal/numtext"
	"github.com/tfeval/tfeval/marks"
)

// expand evaluates the count or for_each of a block; addr names the block
// in OpenTofu's -exclude hint.
func (s *scope) expand(countExpr, forEachExpr hcl.Expression, addr string) (expansion, hcl.Diagnostics) {
	exp, diags := s.expandAny(countExpr, forEachExpr, addr)
	return s.ev.limits.boundExpansion(exp, diags, countExpr, forEachExpr, addr)
}

func (s *scope) expandAny(countExpr, forEachExpr hcl.Expression, addr string) (expansion, hcl.Diagnostics) {
	switch {
	case countExpr != nil:
		return s.expandCount(countExpr, addr)
	case forEachExpr != nil:
		return s.expandForEach(forEachExpr, addr)
	}
	return expansion{mode: expandSingle, keys: []cty.Value{cty.NilVal}, values: []cty.Value{cty.NilVal}}, nil
}

// expandEnabled evaluates OpenTofu's lifecycle enabled of a block without
// count or for_each: true gives its single instance, false none. A value
// that is sensitive, ephemeral, null, unknown or not a bool is an error,
// in OpenTofu's words, but for an unknown that tfeval alone does not know
// (it reads what OpenTofu would know): the block's instances are then
// unknown. tofu validate evaluates the block once, whatever the value.
func (s *scope) expandEnabled(expr hcl.Expression) (expansion, hcl.Diagnostics) {
	unknown := expansion{mode: expandUnknown}
	v, ctx, diags := s.evalExprIn(expr, cty.DynamicPseudoType)
	if diags.HasErrors() {
		return unknown, diags
	}
	one := expansion{mode: expandSingle, keys: []cty.Value{cty.NilVal}, values: []cty.Value{cty.NilVal}}
	if s.ev.opts.Validate {
		return one, diags
	}
	var cause *ValueCause
	bad := func(detail string) (expansion, hcl.Diagnostics) {
		d := &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid enabled argument", Detail: detail, Subject: expr.Range().Ptr()}
		if cause != nil {
			d.Extra = *cause
		}
		return unknown, append(diags, withExpression(d, expr, ctx))
	}
	switch {
	case v.HasMark(marks.Sensitive):
		// OpenTofu 1.12 says this error is caused by unknown values (not
		// sensitive ones): under it, the values shown are those.
		cause = &ValueCause{Unknown: true}
		return bad(`Sensitive values, or values derived from sensitive values, cannot be used in "enabled" arguments. If used, the sensitive value would be exposed by whether an instance is present.`)
	case v.HasMark(marks.Ephemeral):
		return bad(`The given "enabled" argument value is unsuitable: the given value is ephemeral.`)
	}
	marked := v
	v, _ = v.UnmarkDeep()
	if v.IsNull() {
		return bad(`The given "enabled" argument value is unsuitable: the given value is null.`)
	}
	if !v.IsKnown() {
		if len(marks.UnreadMarks(marked)) > 0 {
			return unknown, diags
		}
		cause = &ValueCause{Unknown: true}
		return bad(`The given "enabled" argument value is derived from a value that won't be known until the apply phase, so OpenTofu cannot determine whether an instance of this object is declared or not.`)
	}
	bv, err := convert.Convert(v, cty.Bool)
	if err != nil {
		return bad(fmt.Sprintf(`The given "enabled" argument value is unsuitable: %s.`, err))
	}
	if !bv.IsKnown() || bv.IsNull() {
		return unknown, diags
	}
	if bv.False() {
		return expansion{mode: expandSingle}, diags
	}
	return one, diags
}

func (s *scope) expandCount(expr hcl.Expression, addr string) (expansion, hcl.Diagnostics) {
	unknown := expansion{mode: expandUnknown}
	v, diags := s.evalExpr(expr, cty.DynamicPseudoType)
	if diags.HasErrors() {
		return unknown, diags
	}
	bad := func(detail string) (expansion, hcl.Diagnostics) {
		return unknown, append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid count argument", Detail: detail, Subject: expr.Range().Ptr()})
	}
	// Both tools unmark count: unlike for_each, a sensitive count never
	// becomes an instance key.
	marked := v
	v, _ = v.UnmarkDeep()
	if v.IsNull() {
		return bad(`The given "count" argument value is null. An integer is required.`)
	}
	cv, err := convert.Convert(v, cty.Number)
	if err != nil {
		return bad(fmt.Sprintf(`The given "count" argument value is unsuitable: %s.`, err))
	}
	if !cv.IsKnown() && s.ev.opts.Validate {
		// terraform validate evaluates the block once, whatever the count.
		return s.placeholder(expr, "", nil, true), diags
	}
	if !cv.IsKnown() {
		us := s.ev.unreadOfPlan(marks.UnreadMarks(marked))
		if erroredUpstream(us) {
			return unknown, diags
		}
		if len(us) > 0 {
			return s.placeholder(expr, addr, us, true), append(diags, placeholderWarning(s.mod, expr, addr, us, true))
		}
		unknownCount, d := bad(s.ev.texts().countUnknown(addr))
		d[len(d)-1].Extra = ValueCause{Unknown: true}
		return unknownCount, d
	}
	bf := cv.AsBigFloat()
	if !bf.IsInt() {
		return bad(`The given "count" argument value is unsuitable: value must be a whole number.`)
	}
	n, acc := bf.Int64()
	if acc != big.Exact || n > 1<<20 {
		return bad(`The given "count" argument value is unsuitable: value is too large.`)
	}
	if n < 0 {
		return bad(`The given "count" argument value is unsuitable: must be greater than or equal to zero.`)
	}
	if s.ev.opts.Validate {
		return s.checkedOnly(expr, expansion{mode: expandCount}), diags
	}
	// Made at their size; the values of a counted block are all NilVal.
	exp := expansion{mode: expandCount, keys: make([]cty.Value, n), values: make([]cty.Value, n)}
	for i := range exp.keys {
		exp.keys[i] = elements.Index(i)
	}
	return exp, diags
}

func (s *scope) expandForEach(expr hcl.Expression, addr string) (expansion, hcl.Diagnostics) {
	unknown := expansion{mode: expandUnknown}
	v, ctx, diags := s.evalExprIn(expr, cty.DynamicPseudoType)
	if diags.HasErrors() {
		return unknown, diags
	}
	// Terraform shows the values the for_each expression refers to under
	// each of its errors; those the error is about it names as such.
	var cause *ValueCause
	bad := func(summary, detail string) (expansion, hcl.Diagnostics) {
		d := &hcl.Diagnostic{Severity: hcl.DiagError, Summary: summary, Detail: detail, Subject: expr.Range().Ptr()}
		if cause != nil {
			d.Extra = *cause
		}
		return unknown, append(diags, withExpression(d, expr, ctx))
	}
	const summary = "Invalid for_each argument"
	if v.HasMark(marks.Sensitive) {
		cause = &ValueCause{Sensitive: true}
		return bad(summary, "Sensitive values, or values derived from sensitive values, cannot be used as for_each arguments. If used, the sensitive value could be exposed as a resource instance key.")
	}
	if v.HasMark(marks.Ephemeral) {
		cause = &ValueCause{Ephemeral: true}
		return bad(summary, "Ephemeral values, or values derived from ephemeral values, cannot be used as for_each arguments. If used, the ephemeral value could be exposed as a resource instance key.")
	}
	marked := v
	v, _ = v.Unmark()
	ty := v.Type()
	// A set's elements are walked once: cty sorts them anew for every walk,
	// which costs more than all else for a set of many thousands.
	var setElems []cty.Value
	setKnown := true
	if ty.IsSetType() && v.IsKnown() && !v.IsNull() {
		setElems = make([]cty.Value, 0, v.LengthInt())
		for it := elements.Of(v); it.Next(); {
			_, e := it.Element()
			setElems = append(setElems, e)
			setKnown = setKnown && e.IsWhollyKnown()
		}
	}
	// Unknown keys: the whole value, or an element of a set. (Walking a
	// known map for unknowns would cost every for_each.)
	if !v.IsNull() && (!v.IsKnown() || ty.IsSetType() && !setKnown) {
		if s.ev.opts.Validate {
			return s.placeholder(expr, "", nil, false), diags
		}
		us := s.ev.unreadOfPlan(marks.UnreadMarks(marked))
		if len(us) > 0 && (ty == cty.DynamicPseudoType || ty.IsMapType() || ty.IsObjectType() || ty.IsSetType()) {
			if erroredUpstream(us) {
				return unknown, diags
			}
			return s.placeholder(expr, addr, us, false), append(diags, placeholderWarning(s.mod, expr, addr, us, false))
		}
	}
	switch {
	case v.IsNull():
		return bad(summary, `The given "for_each" argument value is unsuitable: the given "for_each" argument value is null. A map, or set of strings is allowed.`)
	case ty == cty.DynamicPseudoType || !v.IsKnown() && (ty.IsMapType() || ty.IsObjectType()):
		cause = &ValueCause{Unknown: true}
		return bad(summary, s.ev.texts().forEachUnknown(addr, true))
	case !(ty.IsMapType() || ty.IsObjectType() || ty.IsSetType()):
		return bad(summary, fmt.Sprintf(`The given "for_each" argument value is unsuitable: the "for_each" argument must be a map, or set of strings, and you have provided a value of type %s.`, ty.FriendlyName()))
	case !v.IsKnown():
		cause = &ValueCause{Unknown: true}
		return bad(summary, s.ev.texts().forEachUnknown(addr, false))
	}
	exp := expansion{mode: expandForEach}
	if ty.IsSetType() {
		if et := ty.ElementType(); et != cty.String && et != cty.DynamicPseudoType {
			if s.ev.texts().tofu() {
				return bad(summary, fmt.Sprintf(`The given "for_each" argument value is unsuitable: "for_each" supports sets of strings, but you have provided a set containing type %s.`, et.FriendlyName()))
			}
			return bad("Invalid for_each set argument", fmt.Sprintf(`The given "for_each" argument value is unsuitable: "for_each" supports maps and sets of strings, but you have provided a set containing type %s.`, et.FriendlyName()))
		}
		if !setKnown {
			cause = &ValueCause{Unknown: true}
			return bad(summary, s.ev.texts().forEachUnknown(addr, false))
		}
		exp.keys = make([]cty.Value, 0, len(setElems))
		for _, e := range setElems {
			if e.HasMark(marks.Sensitive) {
				cause = &ValueCause{Sensitive: true}
				return bad(summary, "Sensitive values, or values derived from sensitive values, cannot be used as for_each arguments. If used, the sensitive value could be exposed as a resource instance key.")
			}
			e, _ = e.Unmark()
			if e.IsNull() {
				setSummary := summary
				if !s.ev.texts().tofu() {
					setSummary = "Invalid for_each set argument"
				}
				return bad(setSummary, `The given "for_each" argument value is unsuitable: "for_each" sets must not contain null values.`)
			}
			exp.keys = append(exp.keys, e)
		}
		// A set's each.value is its each.key.
		exp.values = exp.keys
		return s.checkedOnly(expr, exp), diags
	}
	n := v.LengthInt()
	exp.keys, exp.values = make([]cty.Value, 0, n), make([]cty.Value, 0, n)
	for it := elements.Of(v); it.Next(); {
		k, e := it.Element()
		exp.keys = append(exp.keys, k)
		exp.values = append(exp.values, e)
	}
	return s.checkedOnly(expr, exp), diags
}

// checkedOnly is exp, but for terraform validate, which checks a count or
// for_each and evaluates the block once, with unknown keys.
func (s *scope) checkedOnly(expr hcl.Expression, exp expansion) expansion {
	if !s.ev.opts.Validate {
		return exp
	}
	return s.placeholder(expr, "", nil, exp.mode == expandCount)
}

// placeholder is the expansion of an object whose count (counted) or
// for_each depends on the unread values us: one instance, with an unknown
// key and each.value.
func (s *scope) placeholder(expr hcl.Expression, addr string, us []marks.Unread, counted bool) expansion {
	ms := marks.UnreadSet(us)
	exp := expansion{mode: expandPlaceholder, counted: counted, unread: us}
	if counted {
		exp.keys = []cty.Value{cty.UnknownVal(cty.Number).WithMarks(ms)}
		exp.values = []cty.Value{cty.NilVal}
	} else {
		exp.keys = []cty.Value{cty.UnknownVal(cty.String).WithMarks(ms)}
		exp.values = []cty.Value{cty.DynamicVal.WithMarks(ms)}
	}
	return exp
}

// unreadOfPlan is us, or none when Terraform's plan has every one of them
// unknown too (Options.PlannedUnknown): the value is then as unknown to
// Terraform as to tfeval.
func (ev *evaluator) unreadOfPlan(us []marks.Unread) []marks.Unread {
	if len(us) == 0 || ev.opts.PlannedUnknown == nil {
		return us
	}
	for _, u := range us {
		if !ev.opts.PlannedUnknown(u) {
			return us
		}
	}
	return nil
}

// placeholderWarning says why an object has a placeholder instead of its
// instances, naming what tfeval did not read.
func placeholderWarning(mi *ModuleInstance, expr hcl.Expression, addr string, us []marks.Unread, counted bool) *hcl.Diagnostic {
	arg, key := "for_each", "each.key and each.value"
	if counted {
		arg, key = "count", "count.index"
	}
	what := configAddr(mi.Config, addr)
	names := make([]string, len(us))
	var hints []string
	hint := func(h string) {
		for _, x := range hints {
			if x == h {
				return
			}
		}
		hints = append(hints, h)
	}
	for i, u := range us {
		names[i] = u.Describe()
		switch u.Cause {
		case marks.DataNotRead:
			hint("give data source results with -data=FILE (Options.DataSources)")
		case marks.NoSchema:
			hint("give provider schemas with -schemas=FILE (Options.Schemas)")
		case marks.ModuleNotInstalled:
			hint("install the modules (terraform init)")
		case marks.NoValue:
			hint("give the variables values with -var or -var-file")
		case marks.ProviderNotRun:
			hint("mock its provider in the test file (mock_provider)")
		}
	}
	detail := fmt.Sprintf("The %q value of %s depends on %s, which tfeval does not know although Terraform would when planning, so the instances are not known. One placeholder, %s[*], stands for them, evaluated with %s unknown.", arg, what, joinNames(names), what, key)
	if len(hints) > 0 {
		detail += " To know them, " + strings.Join(hints, ", or ") + "."
	}
	return &hcl.Diagnostic{Severity: hcl.DiagWarning, Summary: "Instances not known", Detail: detail, Subject: expr.Range().Ptr(), Extra: unknownInstancesExtra(us)}
}

// joinNames lists names as a sentence does: "a", "a and b", "a, b and c".
func joinNames(names []string) string {
	switch len(names) {
	case 0:
		return ""
	case 1:
		return names[0]
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

// keyString renders an instance key as it appears in addresses: [0] or ["k"].
func keyString(k cty.Value) string {
	return instanceAddr("", k)
}

// instanceAddr is the address of the instance with key k of the object at
// prefix: prefix[0] or prefix["k"], built as one string.
func instanceAddr(prefix string, k cty.Value) string {
	if k == cty.NilVal {
		return prefix
	}
	if !k.IsKnown() {
		return prefix + "[*]"
	}
	if k.Type() == cty.Number {
		// The digits go through a stack buffer: the address is the one
		// string made.
		var buf [24]byte
		return prefix + "[" + string(numtext.Append(buf[:0], elements.BigFloat(k))) + "]"
	}
	s := k.AsString()
	if quotesAsIs(s) {
		return prefix + `["` + s + `"]`
	}
	return prefix + "[" + strconv.Quote(s) + "]"
}

// quotesAsIs reports whether strconv.Quote(s) is s between quotes: s is
// printable ASCII without quotes or backslashes.
func quotesAsIs(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c > 0x7e || c == '"' || c == '\\' {
			return false
		}
	}
	return true
}

// wholeValue assembles the value of a multi-instance object: the single
// instance, a tuple for count, an object for for_each.
func wholeValue(exp expansion, vals []cty.Value) cty.Value {
	switch exp.mode {
	case expandSingle:
		if len(vals) == 1 {
			return vals[0]
		}
		if len(vals) == 0 {
			// OpenTofu's lifecycle enabled = false.
			return cty.NullVal(cty.DynamicPseudoType)
		}
		return cty.DynamicVal
	case expandCount:
		return cty.TupleVal(vals)
	case expandForEach:
		// cty.ObjectVal copies the attributes: the map is lent (attrmap).
		m := attrmap.New(len(vals))
		for i, k := range exp.keys {
			m[k.AsString()] = vals[i]
		}
		v := cty.ObjectVal(m)
		attrmap.Release(m, len(vals))
		return v
	case expandPlaceholder:
		return cty.DynamicVal.WithMarks(marks.UnreadSet(exp.unread))
	}
	return cty.DynamicVal
}
