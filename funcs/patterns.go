package funcs

import (
	"regexp"
	"regexp/syntax"
	"strings"
	"sync"

	"github.com/zclconf/go-cty/cty"
)

// A call of regex() or regexall() compiled its pattern up to four times:
// for its cost (regexCost), for regexall's bound on the matches
// (preCheck), and twice in go-cty's function, once for the result type and
// once for the match. A module that tests a pattern per element of a
// large map (can(regex(def.regex, name)) for 500 resource kinds) spent
// more on compiling than on matching. A table now compiles each pattern
// once and keeps it for its later calls.

// maxCachedPatterns bounds the patterns a table keeps: far above what a
// configuration writes, so that one generating patterns without end
// compiles the ones past the bound on every call, as before, instead of
// growing the table.
const maxCachedPatterns = 512

// maxCachedPatternLength bounds, in bytes, a pattern a table keeps: a
// compiled program is a few times its pattern's size.
const maxCachedPatternLength = 4096

// pattern is what a table knows of one regular expression.
type pattern struct {
	re  *regexp.Regexp // nil when the pattern does not compile
	err error          // regexp.Compile's error
	// insts is the instruction count of the compiled program regexCost
	// reads, -1 when the pattern does not compile.
	insts int
	// ty is the type of the result of regex() of a match: a string
	// without capture groups, a tuple of strings for unnamed groups, an
	// object of strings for named ones; cty.NilType when the pattern
	// does not compile or mixes named and unnamed groups (go-cty's error).
	ty cty.Type
	// names are the groups' names, "" for an unnamed one, in order.
	names []string
}

// patterns are the compiled patterns of one table, by source.
type patterns struct {
	mu sync.Mutex
	m  map[string]*pattern
}

// get returns what the table knows of src, compiling it on first use.
func (ps *patterns) get(src string) *pattern {
	ps.mu.Lock()
	p := ps.m[src]
	ps.mu.Unlock()
	if p != nil {
		return p
	}
	p = compilePattern(src)
	if len(src) > maxCachedPatternLength {
		return p
	}
	ps.mu.Lock()
	defer ps.mu.Unlock()
	if ps.m == nil {
		ps.m = make(map[string]*pattern)
	}
	if q := ps.m[src]; q != nil {
		return q // compiled by another call meanwhile
	}
	if len(ps.m) < maxCachedPatterns {
		ps.m[src] = p
	}
	return p
}

// compiled is regexp.Compile of src, kept as get keeps it.
func (ps *patterns) compiled(src string) (*regexp.Regexp, error) {
	p := ps.get(src)
	return p.re, p.err
}

// compilePattern compiles src for regexp's matching and for regexCost's
// estimate, which reads the simplified program's length.
func compilePattern(src string) *pattern {
	p := &pattern{insts: -1}
	p.re, p.err = regexp.Compile(src)
	if p.err != nil {
		return p
	}
	if re, err := syntax.Parse(src, syntax.Perl); err == nil {
		if prog, err := syntax.Compile(re.Simplify()); err == nil {
			p.insts = len(prog.Inst)
		}
	}
	p.names = p.re.SubexpNames()[1:]
	named, unnamed := 0, 0
	for _, n := range p.names {
		if n == "" {
			unnamed++
		} else {
			named++
		}
	}
	switch {
	case named == 0 && unnamed == 0:
		p.ty = cty.String
	case named > 0 && unnamed > 0:
		p.ty = cty.NilType
	case unnamed > 0:
		etys := make([]cty.Type, unnamed)
		for i := range etys {
			etys[i] = cty.String
		}
		p.ty = cty.Tuple(etys)
	default:
		atys := make(map[string]cty.Type, named)
		for _, n := range p.names {
			atys[n] = cty.String
		}
		p.ty = cty.Object(atys)
	}
	return p
}

// result is regex()'s value of the match of s at idx, the submatch
// indexes regexp gives: the matched text, or the groups' texts (null for
// a group that took no part in the match) as a tuple or an object.
func (p *pattern) result(s string, idx []int) cty.Value {
	if p.ty == cty.String {
		return cty.StringVal(s[idx[0]:idx[1]])
	}
	group := func(i int) cty.Value {
		start, end := idx[2+2*i], idx[3+2*i]
		if start < 0 || end < 0 {
			return cty.NullVal(cty.String)
		}
		return cty.StringVal(s[start:end])
	}
	if p.ty.IsTupleType() {
		vals := make([]cty.Value, len(p.names))
		for i := range vals {
			vals[i] = group(i)
		}
		return cty.TupleVal(vals)
	}
	attrs := make(map[string]cty.Value, len(p.names))
	for i, n := range p.names {
		attrs[n] = group(i) // a repeated name keeps its last group, as in go-cty
	}
	return cty.ObjectVal(attrs)
}

// regexShortcut is regex() of a known pattern and string that match: the
// table's compiled pattern, where go-cty compiles it twice a call. A
// pattern that does not compile or mixes named and unnamed groups, and a
// string it does not match, are go-cty's errors.
func (e *env) regexShortcut(args []cty.Value) (cty.Value, bool) {
	p, s, ok := e.patternArgs(args)
	if !ok {
		return cty.NilVal, false
	}
	idx := p.re.FindStringSubmatchIndex(s)
	if idx == nil {
		return cty.NilVal, false
	}
	return p.result(s, idx), true
}

// regexAllShortcut is regexall() of a known pattern and string: every
// match, as regexShortcut makes one.
func (e *env) regexAllShortcut(args []cty.Value) (cty.Value, bool) {
	p, s, ok := e.patternArgs(args)
	if !ok {
		return cty.NilVal, false
	}
	all := p.re.FindAllStringSubmatchIndex(s, -1)
	if len(all) == 0 {
		return cty.ListValEmpty(p.ty), true
	}
	vals := make([]cty.Value, len(all))
	for i, idx := range all {
		vals[i] = p.result(s, idx)
	}
	return cty.ListVal(vals), true
}

// replaceShortcut is replace() of known strings: a /regexp/ by the
// table's compiled pattern (one that does not compile is the full call's
// error), anything else as the function replaces it.
func (e *env) replaceShortcut(args []cty.Value) (cty.Value, bool) {
	if len(args) != 3 {
		return cty.NilVal, false
	}
	for _, a := range args {
		if !plain(a) || a.Type() != cty.String {
			return cty.NilVal, false
		}
	}
	s, substr, repl := args[0].AsString(), args[1].AsString(), args[2].AsString()
	if len(substr) > 1 && substr[0] == '/' && substr[len(substr)-1] == '/' {
		re := e.patterns.get(substr[1 : len(substr)-1]).re
		if re == nil {
			return cty.NilVal, false
		}
		return cty.StringVal(re.ReplaceAllString(s, repl)), true
	}
	return cty.StringVal(strings.ReplaceAll(s, substr, repl)), true
}

// patternArgs reads the pattern and string of regex() and regexall() when
// both are known, unmarked strings and the pattern has a result type.
func (e *env) patternArgs(args []cty.Value) (*pattern, string, bool) {
	if len(args) != 2 || !plain(args[0]) || !plain(args[1]) || args[0].Type() != cty.String || args[1].Type() != cty.String {
		return nil, "", false
	}
	p := e.patterns.get(args[0].AsString())
	if p.re == nil || p.ty == cty.NilType {
		return nil, "", false
	}
	return p, args[1].AsString(), true
}
