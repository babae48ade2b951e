package marks

import (
	"cmp"
	"slices"

	"github.com/zclconf/go-cty/cty"

	"github.com/tfeval/tfeval/internal/elements"
)

// Unread marks an unknown value that Terraform would know, or know more
// of, when planning, but that tfeval cannot: the result of a data source
// it does not read, an attribute of a resource whose provider schema it was
// not given, an output of a module that is not installed, or a required
// root variable given no value when asked to go on without one.
//
// Operations carry the mark from their operands to their results, and the
// evaluator puts it back where go-cty or hcl drop marks on unknown results,
// so a value derived from an unread one keeps it. Where such a value
// decides how many instances an object has, or whether a condition holds,
// tfeval answers with a placeholder or an undecided check instead of the
// error Terraform reports for values it cannot know either.
type Unread struct {
	// Cause says what tfeval lacked.
	Cause Cause
	// Addr is the configuration address of what is missing, with its module
	// path and without instance keys: "data.aws_ami.ubuntu",
	// "module.net.aws_subnet.a", or "module.vpc" for a module call.
	Addr string
	// Applied says that Terraform knows the value: a mocked provider has
	// applied (or read) the object it belongs to, filling in all it
	// computes, and only tfeval, without the schema, cannot tell what.
	// UnreadMarks leaves it out; Settled reads it.
	Applied bool
}

// Cause is what tfeval lacked for an Unread value.
type Cause uint8

const (
	// DataNotRead is a data source Terraform would read while planning.
	DataNotRead Cause = iota + 1
	// NoSchema is an attribute of a resource or data source whose provider
	// schema was not given: the configuration does not set it, so the
	// provider may compute it.
	NoSchema
	// ModuleNotInstalled is an output of a module call whose source is not
	// installed.
	ModuleNotInstalled
	// Errored is the stand-in value of an object whose evaluation failed
	// with an error. Terraform stops at such an error, so nothing derived
	// from the stand-in is reported as a further error.
	Errored
	// NoValue is a required root variable given no value, evaluated as
	// unknown (tfeval's -missing-variables=unknown) where Terraform
	// would stop.
	NoValue
	// ProviderNotRun is a value a provider computes (an attribute of a
	// resource it plans or applies, the result of a data source it reads)
	// where the provider would run but tfeval does not run it: in a test
	// run, a provider that the test file does not mock.
	ProviderNotRun
	// ProviderPlans is an attribute a provider computes while planning
	// (its own plan customisation, which its schema does not describe:
	// aws's tags_all, an aws_acm_certificate's domain_validation_options)
	// and tfeval leaves unknown: Terraform's plan has a value there.
	ProviderPlans
)

// GoString names the mark in %#v output, as the other marks do.
func (u Unread) GoString() string {
	if u.Applied {
		return "marks.Unread{" + u.Cause.String() + ", " + u.Addr + ", applied}"
	}
	return "marks.Unread{" + u.Cause.String() + ", " + u.Addr + "}"
}

func (c Cause) String() string {
	switch c {
	case DataNotRead:
		return "DataNotRead"
	case NoSchema:
		return "NoSchema"
	case ModuleNotInstalled:
		return "ModuleNotInstalled"
	case Errored:
		return "Errored"
	case NoValue:
		return "NoValue"
	case ProviderNotRun:
		return "ProviderNotRun"
	case ProviderPlans:
		return "ProviderPlans"
	}
	return "Cause(?)"
}

// Describe is the cause and address as a diagnostic names them, e.g.
// `data source data.aws_ami.ubuntu (not read)`.
func (u Unread) Describe() string {
	switch u.Cause {
	case DataNotRead:
		return "data source " + u.Addr + " (not read)"
	case NoSchema:
		return u.Addr + " (no provider schema)"
	case ModuleNotInstalled:
		return u.Addr + " (module not installed)"
	case Errored:
		return u.Addr + " (failed)"
	case NoValue:
		return u.Addr + " (no value given)"
	case ProviderNotRun:
		return u.Addr + " (provider not run)"
	case ProviderPlans:
		return u.Addr + " (planned by its provider)"
	}
	return u.Addr
}

// UnreadMarks returns the Unread marks on v and on every value nested in
// it, in address order, each once and without Applied: what they name is
// missing wherever a value derived from them goes.
func UnreadMarks(v cty.Value) []Unread {
	var found []Unread
	elements.Find(v, func(e cty.Value) bool {
		if e.IsMarked() {
			for m := range e.Marks() {
				if u, ok := m.(Unread); ok {
					u.Applied = false
					if !slices.Contains(found, u) {
						found = append(found, u)
					}
				}
			}
		}
		return false
	})
	slices.SortFunc(found, func(a, b Unread) int {
		return cmp.Or(cmp.Compare(a.Addr, b.Addr), cmp.Compare(a.Cause, b.Cause))
	})
	return found
}

// Settled reports whether Terraform would know all of v: v itself is
// known, and every unknown nested in it carries Unread marks that are all
// Applied. Terraform has no unknowns there, so where it decides on the
// value being wholly known (try, can), it decides as for a known one.
func Settled(v cty.Value) bool {
	if !v.IsKnown() {
		return false
	}
	return !elements.Find(v, func(e cty.Value) bool {
		if e.IsKnown() {
			return false
		}
		applied := false
		for m := range e.Marks() {
			if u, ok := m.(Unread); ok {
				if !u.Applied {
					return true
				}
				applied = true
			}
		}
		return !applied
	})
}

// HasUnread reports whether v or a value nested in it carries an Unread mark.
func HasUnread(v cty.Value) bool {
	return elements.Find(v, hasUnreadMark)
}

// hasUnreadMark reports whether v itself carries an Unread mark.
func hasUnreadMark(v cty.Value) bool {
	if !v.IsMarked() {
		return false
	}
	for m := range v.Marks() {
		if _, ok := m.(Unread); ok {
			return true
		}
	}
	return false
}

// UnreadSet is a set of Unread marks, in the form cty's WithMarks takes.
func UnreadSet(us []Unread) cty.ValueMarks {
	if len(us) == 0 {
		return nil
	}
	ms := make(cty.ValueMarks, len(us))
	for _, u := range us {
		ms[u] = struct{}{}
	}
	return ms
}

// HasUnmarkedUnknown reports whether v has an unknown part that carries
// no Unread mark.
func HasUnmarkedUnknown(v cty.Value) bool {
	return elements.Find(v, func(e cty.Value) bool {
		return !e.IsKnown() && !hasUnreadMark(e)
	})
}

// MarkUnknowns returns v with the marks ms on every unknown part of it that
// carries no Unread mark yet: the unknowns of a result derived from unread
// values, where an operation dropped their marks. Known parts are left as
// they are, so a value without unknowns comes back unchanged.
func MarkUnknowns(v cty.Value, ms cty.ValueMarks) cty.Value {
	if len(ms) == 0 || !HasUnmarkedUnknown(v) {
		return v
	}
	return markUnknowns(v, ms)
}

func markUnknowns(v cty.Value, ms cty.ValueMarks) cty.Value {
	if !v.IsKnown() {
		if hasUnreadMark(v) {
			return v
		}
		return v.WithMarks(ms)
	}
	if v.IsNull() || v.IsWhollyKnown() {
		return v
	}
	inner, vm := v.Unmark()
	ty := inner.Type()
	switch {
	case ty.IsObjectType():
		attrs := inner.AsValueMap()
		for name, a := range attrs {
			attrs[name] = markUnknowns(a, ms)
		}
		return cty.ObjectVal(attrs).WithMarks(vm)
	case ty.IsMapType():
		return cty.MapVal(markedElements(inner.AsValueMap(), ms)).WithMarks(vm)
	case ty.IsTupleType():
		return cty.TupleVal(markedSlice(inner.AsValueSlice(), ms)).WithMarks(vm)
	case ty.IsListType():
		return cty.ListVal(markedSlice(inner.AsValueSlice(), ms)).WithMarks(vm)
	case ty.IsSetType():
		// A set keeps its elements' marks on itself.
		if hasUnreadMark(v) {
			return v
		}
		return v.WithMarks(ms)
	}
	return v
}

func markedSlice(vals []cty.Value, ms cty.ValueMarks) []cty.Value {
	for i, e := range vals {
		vals[i] = markUnknowns(e, ms)
	}
	return vals
}

func markedElements(vals map[string]cty.Value, ms cty.ValueMarks) map[string]cty.Value {
	for k, e := range vals {
		vals[k] = markUnknowns(e, ms)
	}
	return vals
}
