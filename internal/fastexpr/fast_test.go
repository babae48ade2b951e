package fastexpr

import (
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/ext/tryfunc"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
	"github.com/zclconf/go-cty/cty/function/stdlib"

	"github.com/tfeval/tfeval/internal/elements"
	"github.com/tfeval/tfeval/internal/limit"
	"github.com/tfeval/tfeval/internal/longtest"
)

// fastTestContext holds values of every shape the fast nodes treat
// specially: unknown, marked, null, big and small numbers, collections of
// each kind, and a few functions.
func fastTestContext() *hcl.EvalContext {
	big, _ := cty.ParseNumberVal("12345678901234567890.5")
	lit, _ := cty.ParseNumberVal("443")
	rules := []cty.Value{}
	for i := 0; i < 6; i++ {
		rules = append(rules, cty.ObjectVal(map[string]cty.Value{
			"item": cty.StringVal(fmt.Sprintf("item-%d", i/2)), "port": cty.NumberIntVal(int64(80 + i)), "on": cty.BoolVal(i%3 != 0),
		}))
	}
	secret := cty.StringVal("hunter2").Mark("sensitive")
	return &hcl.EvalContext{
		Variables: map[string]cty.Value{
			"s":      cty.StringVal("café"),
			"e":      cty.StringVal(""),
			"n":      cty.NumberIntVal(3),
			"idx":    elements.Index(7), // count.index, a range() element: a shared number
			"lit":    lit,
			"big":    big,
			"f":      cty.NumberFloatVal(2.5),
			"f3":     cty.NumberFloatVal(3),
			"tenth":  cty.NumberFloatVal(0.1),
			"negz":   cty.NumberFloatVal(math.Copysign(0, -1)),
			"inf":    cty.PositiveInfinity,
			"t":      cty.True,
			"no":     cty.False,
			"null":   cty.NullVal(cty.String),
			"dnull":  cty.NullVal(cty.DynamicPseudoType),
			"u":      cty.UnknownVal(cty.String),
			"un":     cty.UnknownVal(cty.Number),
			"dyn":    cty.DynamicVal,
			"secret": secret,
			"msec":   cty.NumberIntVal(7).Mark("sensitive"),
			"list":   cty.ListVal([]cty.Value{cty.StringVal("a"), cty.StringVal("b"), cty.StringVal("a")}),
			"ulist":  cty.ListVal([]cty.Value{cty.StringVal("a"), cty.UnknownVal(cty.String)}),
			"slist":  cty.ListVal([]cty.Value{cty.StringVal("a"), secret}),
			"mlist":  cty.ListVal([]cty.Value{cty.StringVal("x")}).Mark("sensitive"),
			"tup":    cty.TupleVal([]cty.Value{cty.StringVal("x"), cty.NumberIntVal(1), cty.True}),
			"set":    cty.SetVal([]cty.Value{cty.StringVal("p"), cty.StringVal("q")}),
			"map":    cty.MapVal(map[string]cty.Value{"a": cty.StringVal("1"), "b": cty.StringVal("2")}),
			"nmap":   cty.MapVal(map[string]cty.Value{"a": cty.NumberIntVal(1), "b": cty.NumberIntVal(5)}),
			"obj":    cty.ObjectVal(map[string]cty.Value{"a": cty.StringVal("x"), "b": cty.NumberIntVal(2), "c": cty.NullVal(cty.String), "d": cty.UnknownVal(cty.Bool), "nested": cty.ObjectVal(map[string]cty.Value{"deep": cty.ListVal([]cty.Value{cty.NumberIntVal(9)})})}),
			"uobj":   cty.UnknownVal(cty.Object(map[string]cty.Type{"a": cty.String})),
			"nobj":   cty.NullVal(cty.Object(map[string]cty.Type{"a": cty.String})),
			"rules":  cty.TupleVal(rules),
			"empty":  cty.EmptyTupleVal,
			"each":   cty.ObjectVal(map[string]cty.Value{"key": cty.StringVal("item-1"), "value": cty.NumberIntVal(2)}),
			"nfc":    cty.ObjectVal(map[string]cty.Value{"caf\u00e9": cty.StringVal("composed")}),
			// elements an attribute comparison cannot decide in place
			"mixed": cty.TupleVal([]cty.Value{
				cty.ObjectVal(map[string]cty.Value{"item": cty.StringVal("item-1"), "port": cty.NumberIntVal(1)}),
				cty.ObjectVal(map[string]cty.Value{"item": cty.NumberIntVal(1), "port": cty.NumberIntVal(2)}),
				cty.ObjectVal(map[string]cty.Value{"item": cty.StringVal("1"), "port": cty.NumberIntVal(3)}),
				cty.ObjectVal(map[string]cty.Value{"item": cty.NullVal(cty.String), "port": cty.NumberIntVal(4)}),
				cty.ObjectVal(map[string]cty.Value{"item": cty.StringVal("item-1").Mark("sensitive"), "port": cty.NumberIntVal(5)}),
				cty.ObjectVal(map[string]cty.Value{"item": cty.UnknownVal(cty.String), "port": cty.NumberIntVal(6)}),
				cty.MapVal(map[string]cty.Value{"item": cty.StringVal("item-1"), "port": cty.StringVal("7")}),
				cty.ObjectVal(map[string]cty.Value{"item": cty.StringVal("item-2"), "port": cty.NumberIntVal(8)}).Mark("sensitive"),
				cty.ObjectVal(map[string]cty.Value{"item": cty.True, "port": cty.NumberIntVal(9)}),
			}),
			"nomatch": cty.TupleVal([]cty.Value{cty.ObjectVal(map[string]cty.Value{"other": cty.StringVal("x")})}),
			"olist": cty.ListVal([]cty.Value{
				cty.ObjectVal(map[string]cty.Value{"id": cty.StringVal("i-1"), "tags": cty.ObjectVal(map[string]cty.Value{"env": cty.StringVal("prod")})}),
				cty.ObjectVal(map[string]cty.Value{"id": cty.StringVal("i-2"), "tags": cty.ObjectVal(map[string]cty.Value{"env": cty.StringVal("dev").Mark("sensitive")})}),
			}),
			"uolist": cty.ListVal([]cty.Value{
				cty.ObjectVal(map[string]cty.Value{"id": cty.StringVal("i-1")}),
				cty.UnknownVal(cty.Object(map[string]cty.Type{"id": cty.String})),
			}),
			"eolist": cty.ListValEmpty(cty.Object(map[string]cty.Type{"id": cty.String})),
		},
		Functions: map[string]function.Function{
			"upper": stdlib.UpperFunc, "length": stdlib.LengthFunc, "tostring": stdlib.MakeToFunc(cty.String),
			"tolist": stdlib.MakeToFunc(cty.List(cty.DynamicPseudoType)), "keys": stdlib.KeysFunc, "jsonencode": stdlib.JSONEncodeFunc,
			"merge": stdlib.MergeFunc, "try": tryfunc.TryFunc, "can": tryfunc.CanFunc, "concat": stdlib.ConcatFunc,
		},
	}
}

// fastTestExprs cover each fast node on its shortcut and on every way off it.
var fastTestExprs = []string{
	// comparisons and logic of marked primitives (markedPrimitives)
	`secret == "hunter2"`, `secret != s`, `msec >= 3`, `msec < n`, `msec <= msec`, `n > msec`, `msec == 7`,
	`t && (msec > 1)`, `(secret == "x") || no`, `msec + 1`, `secret == null`, `msec == u`, `msec < un`, `secret == n`,
	// splats
	`rules[*].port`, `rules[*].item`, `rules[*].nope`, `olist[*].id`, `olist[*].tags.env`, `olist[*].tags`,
	`olist[*].tags.nope`, `mixed[*].port`, `mixed[*].item`, `nomatch[*].other`, `empty[*].a`, `obj[*].a`,
	`nobj[*].a`, `set[*]`, `uolist[*].id`, `eolist[*].id`, `mlist[*]`, `uobj[*].a`, `dyn[*].a`, `list[*].a`,
	`rules[*]`, `tup[*]`, `[for r in rules : r][*].port`, `rules[*].port[0]`, `olist.*.id`, `missing[*].a`,
	// arguments that do not convert to their parameter's type
	`upper(obj)`, `upper([s])`, `upper(tup)`, `concat(upper(obj), upper(list))`,
	// references
	"nfc.caf\u00e9", "nfc.cafe\u0301", "nfc[\"cafe\u0301\"]",
	`s`, `obj.a`, `obj.nested.deep[0]`, `obj.nested.deep[1]`, `obj.zz`, `obj["a"]`, `obj["zz"]`, `map.a`, `map.zz`, `map["b"]`,
	`list[0]`, `list[3]`, `list[-1]`, `list[0.5]`, `list["1"]`, `tup[2]`, `set[0]`, `uobj.a`, `nobj.a`, `dyn.a`, `mlist[0]`,
	`secret`, `slist[1]`, `missing`, `s.a`, `null.a`, `obj.d`, `list.0`, `tup.1`,
	// indexing with computed keys
	`list[n - 3]`, `map[s]`, `map[e]`, `map[tostring(1)]`, `obj[each.key]`, `list[un]`, `list[msec]`, `ulist[1]`, `tup[n]`,
	// comparisons and logic
	`s == "café"`, `s != "x"`, `n == 3`, `n == lit`, `big == big`, `f > 2`, `n >= 3`, `n < f`, `n <= 1`, `t && no`, `t || no`,
	`s == n`, `"3" == n`, `u == "x"`, `secret == "hunter2"`, `null == null`, `null == "a"`, `dnull == null`, `list == list`, `obj == obj`,
	`n > "2"`, `t && "true"`, `un > 1`, `msec > 1`, `t && u == "x"`, `no || dyn`,
	// arithmetic
	`n + 1`, `n - lit`, `n * f`, `big / n`, `n % 2`, `-n % 2`, `f % 1`, `n / 0`, `0 / 0`, `n % 0`, `n + "1"`, `"1" + "2"`, `n + u`, `n + un`,
	`msec + 1`, `n + null`, `big * big * big`, `1e400 * 1e-400`, `n - n`, `(n + 1) * (n - 1) / 3`, `t + 1`,
	`inf + 1`, `inf - inf`, `inf * 0`, `n / inf`, `inf % 2`, `inf > n`, `inf == inf`,
	`idx % 4`, `(idx % 5) / (idx % 4)`, `(idx % 4) / 7`, `idx % 2000`, `-idx % 4`, `idx % lit`, `"${idx}-${idx % 4}"`,
	`1e5000 * 1e5000`, `1e-5000 * 1e-5000`, `[for x in [1e5000] : x * x]`, `msec * 1e9000 * 1e9000`, `1e9000 + 1`,
	// conditionals
	`t ? "a" : "b"`, `no ? 1 : 2`, `t ? s : n`, `t ? null : "x"`, `u == "" ? "a" : "b"`, `t ? secret : "x"`, `"true" ? 1 : 2`,
	`null ? 1 : 2`, `t ? [1] : [2]`, `t ? list : tolist(["z"])`, `t ? missing : 1`, `no ? u : "k"`, `t ? u : "k"`,
	// operands the fast nodes leave to hcl, evaluated once
	`u == "" ? 1 : 2`, `un > 1 ? n : f`, `msec > 1 ? "a" : "b"`, `t ? secret : null`, `no ? null : secret`, `u == "x" ? [1] : [2, 3]`,
	`un > 0 ? 1 : 5`, `u == "x" ? null : null`, `t ? null : null`, `mlist[0] == "x" ? upper(s) : "y"`, `u == "x" ? missing : 1`,
	`t ? dyn : 1`, `no ? 1 : dyn`, `un + 1 > n ? "${u}-x" : "${s}-y"`, `no && u == "x"`, `t || u == "x"`, `no && missing`,
	`u == "x" && t`, `secret == "a" || no`, `un * 2 + 1`, `msec + n`, `n + null`, `"${s}${u}${n}"`, `"${u}${s}${missing}"`,
	`"${secret}-${u}"`, `"${s}-${null}-${u}"`, `"${u}${list}"`, `"a${s}b${n}c${t}d${f}e${lit}f${big}g${u}h${s}i${n}"`,
	`"a${s}b${n}c${t}d${f}e${lit}f${big}g${s}h${s}i${u}"`,
	// templates
	`"${s}-${n}"`, `"${s}-${big}-${f}-${t}"`, `"${0 * -1}:${-n}:${lit % 7}:${-lit % 7}:${1e30}:${0.1}:${big % 7}:${no}:${n % -2}:${f % 2}"`, `"x${u}y"`, `"${secret}!"`, `"${null}"`, `"${list}"`, `"${lit}"`, `"plain"`, `"a$${b}"`,
	`"%{ for x in list }${x},%{ endfor }"`, `"%{ if t }yes%{ else }no%{ endif }"`, `"${dnull}"`, `"${missing}x"`, `<<EOT
hello ${s}
EOT
`,
	// objects and tuples
	`{ a = s, b = n }`, `{ "q" = 1, a = secret }`, `{ a = 1, a = 2 }`, `{ (s) = 1 }`, `{ a = missing }`, `{ a = u }`, `{ a.b = 1 }`,
	`{ true = 1, null = 2 }`, `["x", n, u]`, `[missing]`, `{}`, `[]`,
	// repeated keys, found by a search of the keys (up to 8) or a map
	`{ a = 1, b = 2, "a" = 3 }`, `{ a = 1, b = 2, c = 3, d = 4, e = 5, f = 6, g = 7, h = 8, i = 9 }`,
	`{ a = 1, b = 2, c = 3, d = 4, e = 5, f = 6, g = 7, h = 8, i = 9, b = 10 }`,
	// for expressions
	`[for x in list : upper(x)]`, `[for i, x in list : "${i}:${x}"]`, `{ for x in list : x => x... }`, `{ for x in list : x => x }`,
	`[for r in rules : r if r.item == each.key]`, `[for r in rules : r.port if r.on]`, `{ for r in rules : r.item => r.port... if r.on }`,
	`[for x in set : x]`, `{ for k, v in map : k => v }`, `{ for k, v in nmap : v => k }`, `[for x in empty : x]`, `[for x in ulist : x]`,
	`[for x in ulist : x if x == "a"]`, `[for x in slist : x]`, `[for x in slist : x if x == "a"]`, `[for x in mlist : x]`,
	`[for x in u : x]`, `[for x in null : x]`, `[for x in s : x]`, `[for x in list : x if x]`, `[for x in list : x if null]`,
	`[for x in list : x if "true"]`, `[for x in list : missing]`, `{ for x in list : u => x }`, `{ for x in list : secret => x }`,
	`[for x in dyn : x]`, `[for x in list : [for y in list : "${x}${y}" if y != x]]`, `{ for i, x in tup : i => x }`,
	`[for x in empty : x if "nope"]`, `[for x in list : x if x == missing]`, `{ for k, v in obj : k => v }`,
	// function calls
	`upper(s)`, `upper(n)`, `upper(secret)`, `upper(null)`, `upper(u)`, `upper(list)`, `length(list)`, `length()`, `upper(s, s)`,
	`jsonencode(obj)`, `jsonencode({ a = secret })`, `jsonencode(uobj)`, `keys(map)`, `tostring(n)`, `nosuch(1)`, `upper(list...)`,
	`jsonencode({ b = s, a = n, "c" = list })`, `jsonencode({ a = missing })`, `jsonencode({ a = u, b = 1 })`, `jsonencode({})`,
	`keys({ z = 1, y = upper(s) })`, `upper({ a = s })`, `jsonencode({ a = s }, 1)`,
	`upper(missing)`, `merge(map, { c = s })`, `merge(obj, null)`, `merge(s)`, `try(missing, "fallback")`, `can(list[7])`,
	`concat(list, ["z"], tup)`, `concat(list...)`, `length([for x in list : x])`, `core::upper(s)`,
	// try() and can() take their arguments as expressions
	`try(list[7], list[0])`, `try(obj.a, "x")`, `try(obj.d, true)`, `try(missing, list[9])`, `try(secret, s)`,
	`try(u, s)`, `try(obj.nested.deep[0], 0)`, `try([for x in list : upper(x)], [])`, `try()`, `try(list[7])`,
	`can(obj.a)`, `can(obj.nope)`, `can(u)`, `can(secret)`, `can(list[0], list[1])`, `can(upper(list))`,
	`[for x in list : try(obj[x], x)]`, `{ for r in rules : r.item => try(r.port, 0)... }`, `try(each.value, 0) + 1`,
	// everything together, as the benchmark trees write it
	`{ for r in rules : r.item => { port = r.port, proto = r.port == 443 || r.port == 8443 ? "https" : "tcp" }... }`,
	`length([for r in rules : r if r.item == each.key]) > 1 ? "many" : "few"`,
	// references a for expression looks up once (hoisted): nested loops,
	// shadowed variables, values the fast path cannot take, bodies never run
	`[for x in list : [for y in list : "${x}${y}${s}"]]`, `[for x in list : [for x in tup : x]]`,
	`[for x in list : [for y in [x, s] : y]]`, `[for x in list : secret]`, `[for x in list : u]`,
	`[for x in list : dyn]`, `[for x in list : dnull]`, `[for x in list : obj.nested.deep[0] + n]`,
	`[for x in list : x if x == s]`, `{ for k, v in map : k => [for y in list : "${k}=${v}${y}"] }`,
	`[for x in empty : missing.attr]`, `[for x in list : [for y in empty : x.bad]]`, `[for i, x in list : i + n]`,
	`[for x in list : length(list) + n]`, `[for r in rules : r.port if r.item == rules[0].item]`,
	`[for x in list : { k = x, s = s, n = null }]`, `[for x in list : each.key]`, `[for x in list : obj.missing]`,
	`[for x in list : x if msec > 3]`, `[for x in list : x if obj.d]`, `[for k, v in obj : v if k == obj.a]`,
	`[for x in list : [for y in list : y if y == x && x == list[0]]]`, `[for x in list : uobj.a]`,
	// numbers compared with whole-number literals
	`n == 3`, `3 == n`, `n != 3`, `n == 4`, `n >= 3`, `n <= 3`, `n >= 4`, `3 <= n`, `f == 2`, `f >= 2`, `f <= 3`,
	`f3 == 3`, `f3 >= 3`, `tenth == 0`, `tenth >= 0`, `tenth <= 0`, `negz == 0`, `negz >= 0`, `negz <= 0`,
	`big == 12345678901234567890`, `big >= 12345678901234567890`, `big <= 12345678901234567891`, `inf == 1`,
	`inf >= 1`, `inf <= 1`, `lit == 443`, `lit != 443`, `un == 3`, `msec == 7`, `un >= 1`, `s == 1`, `n == 3.0`,
	`[for r in rules : r.port if r.port == 81 || r.port >= 84]`,
	// a filter on one attribute (attrMatch), on and off its shortcut
	`[for r in rules : r.port if r.item != each.key]`, `[for r in rules : r.port if "item-2" == r.item]`,
	`[for i, r in rules : i if r.item == "item-0"]`, `{ for r in rules : tostring(r.port) => r if r.item == "item-1" }`,
	`{ for r in rules : r.item => r.port... if r.item != "item-1" }`, `[for r in rules : r if r.item == null]`,
	`[for r in rules : r if r.item == secret]`, `[for r in rules : r if r.item == u]`, `[for r in rules : r if r.item == n]`,
	`[for r in rules : r if r.item == "${each.key}"]`, `[for r in rules : r if r.item == missing]`,
	`[for x in list : [for r in rules : r.port if r.item == x]]`, `[for r in rules : r.port if r.item == r.item]`,
	`[for r in mixed : r.port if r.item == "item-1"]`, `[for r in mixed : r.port if r.item != "item-1"]`,
	`[for r in mixed : r.port if r.item == "1"]`, `[for r in mixed : r.port if r.item == each.key]`,
	`[for r in mixed : r.port if "1" != r.item]`, `[for r in nomatch : r if r.item == "x"]`,
	`[for r in list : r if r.item == "x"]`, `[for r in dyn : r if r.item == "x"]`,
	// comparisons with null, and conditionals whose results differ in type
	`obj == null`, `null == obj`, `obj != null`, `nobj == null`, `nobj != null`, `dnull == null`, `null == null`,
	`u == null`, `dyn == null`, `uobj == null`, `ulist == null`, `secret == null`, `slist == null`, `mlist != null`,
	`list == null ? 1 : 2`, `missing == null`, `obj.c == null`, `obj.d == null`, `[for x in list : x == null]`,
	`t ? [] : list`, `no ? [] : list`, `t ? list : []`, `no ? tup : list`, `t ? tup : list`, `t ? map : nmap`,
	`no ? map : nmap`, `t ? { a = 1 } : { b = "x" }`, `t ? { a = 1 } : { a = "x" }`, `t ? obj : nobj`, `t ? null : list`,
	`t ? dyn : list`, `t ? list : dyn`, `t ? 1 : "x"`, `no ? 1 : "x"`, `t ? "1" : 2`, `t ? [1] : ["a"]`, `t ? set : list`,
	`no ? set : list`, `t ? ulist : list`, `no ? ulist : tup`, `t ? slist : list`, `t ? [s] : slist`, `u == null ? [] : list`,
	`t ? tolist([]) : [n]`, `t ? { k = [1] } : { k = ["x", "y"] }`, `t ? [[1]] : [["a"], []]`, `no ? list : [n, "x"]`,
	// one result the literal null, which takes the other's type
	`t ? null : u`, `no ? null : u`, `t ? u : null`, `no ? u : null`, `t ? nobj : null`, `no ? nobj : null`,
	`no ? null : obj`, `t ? null : obj`, `t ? dnull : list`, `no ? dnull : list`, `t ? null : dyn`, `no ? dyn : null`,
	`t ? n : null`, `no ? n : null`, `t ? null : s`, `no ? null : s`, `t ? (null) : ulist`, `no ? ulist : (null)`,
	`t ? null : secret`, `no ? secret : null`, `secret == "a" ? null : 1`, `u == "x" ? null : 1`, `t ? dnull : dnull`,
}

// TestFastMatchesSlow evaluates every test expression with the fast nodes
// and with hcl's own, and requires the same value and diagnostics.
func TestFastMatchesSlow(t *testing.T) {
	ctx := fastTestContext()
	// A Charge that never refuses leaves every result as hcl's.
	charge := func(int64) error { return nil }
	for _, g := range []*Guard{{}, {MaxElements: 4, MaxStringLength: 8}, {Direct: directCall}, {Direct: directCall, DirectObject: objectCall}, {Charge: charge}} {
		for _, src := range fastTestExprs {
			checkFastMatchesSlow(t, g, src, ctx)
		}
	}
}

// TestComparisonCharged: == and != of structures charge the work of
// comparing them, and stop where the charge fails; of primitives they
// charge nothing.
func TestComparisonCharged(t *testing.T) {
	shared := cty.ObjectVal(map[string]cty.Value{"a": cty.StringVal("x")})
	for range 10 {
		shared = cty.ObjectVal(map[string]cty.Value{"a": shared, "b": shared})
	}
	ctx := &hcl.EvalContext{Variables: map[string]cty.Value{"big": shared, "s": cty.StringVal("x").Mark("sensitive")}}
	var charged int64
	g := &Guard{Charge: func(n int64) error {
		charged += n
		if charged > 100_000 {
			return fmt.Errorf("budget spent")
		}
		return nil
	}}
	for src, want := range map[string]int64{
		`s == "x"`:                          0,
		`[s] != ["y"]`:                      2 * (3 + 3),
		`big == big`:                        limit.EqualityCost(shared, shared),
		`[for i in [1, 2] : big == big]`:    2 * limit.EqualityCost(shared, shared),
		`[for i in [1, 2, 3] : big != big]`: 3 * limit.EqualityCost(shared, shared),
	} {
		charged = 0
		expr, diags := hclsyntax.ParseExpression([]byte(src), "test.tf", hcl.InitialPos)
		if diags.HasErrors() {
			t.Fatal(diags.Error())
		}
		fast, slow := g.compile(expr, false, nil)
		// Both twins charge the same: the fast one hands structures to
		// the slow one's operator.
		for _, twin := range []hclsyntax.Expression{slow, fast} {
			charged = 0
			_, diags = twin.Value(ctx)
			if want > 100_000 {
				if !strings.Contains(diags.Error(), "budget spent") {
					t.Errorf("%s: %v, want the charge's error", src, diags)
				}
				continue
			}
			if diags.HasErrors() || charged != want {
				t.Errorf("%s: charged %d, want %d (%v)", src, charged, want, diags)
			}
		}
	}
}

func checkFastMatchesSlow(t *testing.T, g *Guard, src string, ctx *hcl.EvalContext) {
	t.Helper()
	expr, diags := hclsyntax.ParseExpression([]byte(src), "test.tf", hcl.InitialPos)
	if diags.HasErrors() {
		t.Fatalf("%s: %s", src, diags.Error())
	}
	fast, slow := g.compile(expr, false, nil)
	fv, fd := fast.Value(ctx)
	sv, sd := slow.Value(ctx)
	if !sameValue(fv, sv) && !limitReached(sd) {
		t.Errorf("%s (limits %d/%d): fast = %#v, slow = %#v", src, g.MaxElements, g.MaxStringLength, fv, sv)
	}
	if limitReached(sd) {
		// At a limit the fast path reports the limit once and stops.
		if !limitReached(fd) || fv.IsWhollyKnown() || !strings.Contains(diagText(sd), diagText(fd)) {
			t.Errorf("%s (limits %d/%d): fast = %#v\n%s\nslow diagnostics\n%s", src, g.MaxElements, g.MaxStringLength, fv, diagText(fd), diagText(sd))
		}
		return
	}
	if got, want := diagText(fd), diagText(sd); got != want {
		t.Errorf("%s (limits %d/%d): fast diagnostics\n%s\nslow diagnostics\n%s", src, g.MaxElements, g.MaxStringLength, got, want)
	}
	if g.MaxElements == 0 && g.MaxStringLength == 0 && g.Direct == nil && !strings.Contains(diagText(sd), "Number too large") {
		// Without limits, both are plain hcl but for the bound on numbers.
		pv, pd := expr.Value(ctx)
		if !sameValue(pv, sv) || diagText(pd) != diagText(sd) {
			t.Errorf("%s: guarded = %#v %s, hcl = %#v %s", src, sv, diagText(sd), pv, diagText(pd))
		}
	}
}

// directCall is a Guard.Direct whose direct form of a function is its Call,
// as funcs.DirectCalls gives the logic of a limited function's wrapper.
func directCall(f function.Function) (func([]cty.Value) (cty.Value, error), bool) {
	return f.Call, true
}

// objectCall is a Guard.DirectObject whose object form of a function is
// its Call of the object, and leaves objects with unknown attributes to
// the direct form.
func objectCall(f function.Function) (func([]string, []cty.Value) (cty.Value, bool, error), bool) {
	return func(names []string, vals []cty.Value) (cty.Value, bool, error) {
		attrs := map[string]cty.Value{}
		for i, name := range names {
			if !vals[i].IsKnown() {
				return cty.NilVal, false, nil
			}
			attrs[name] = vals[i]
		}
		v, err := f.Call([]cty.Value{cty.ObjectVal(attrs)})
		return v, true, err
	}, true
}

// limitReached reports whether diags include a guard's limit diagnostic.
func limitReached(diags hcl.Diagnostics) bool {
	for _, d := range diags {
		if d.Summary == "Too many elements in for expression" {
			return true
		}
	}
	return false
}

// sameValue is RawEquals, marks and refinements included, with NilVal equal to itself.
func sameValue(a, b cty.Value) bool {
	if a == cty.NilVal || b == cty.NilVal {
		return a == cty.NilVal && b == cty.NilVal
	}
	return a.RawEquals(b) && a.GoString() == b.GoString()
}

func diagText(diags hcl.Diagnostics) string {
	var b strings.Builder
	for _, d := range diags {
		detail := d.Detail
		if i := strings.Index(detail, " Did you mean"); i >= 0 {
			// hcl picks among equally close names in map order.
			detail = detail[:i]
		}
		if i := strings.Index(detail, "panic in function implementation"); i >= 0 {
			// cty reports a panic with its stack, addresses and all.
			detail = detail[:i]
		}
		fmt.Fprintf(&b, "%d %s: %s", d.Severity, d.Summary, detail)
		if d.Subject != nil {
			fmt.Fprintf(&b, " @%s", d.Subject)
		}
		b.WriteString("\n")
	}
	return b.String()
}

// TestFastShortcutsTaken makes sure the common cases do not silently fall
// back: the expressions the benchmark trees spend their time in must be
// answered by the fast nodes themselves.
func TestFastShortcutsTaken(t *testing.T) {
	ctx := fastTestContext()
	for _, src := range []string{
		`[for r in rules : r if r.item == each.key]`,
		`"${s}-${n}"`,
		`obj.nested.deep[0]`,
		`{ a = s, b = n }`,
		`t ? "a" : "b"`,
		`list[n - 3]`,
		`{ for r in rules : r.item => r.port... if r.on }`,
		`merge(map, { c = s })`,
		`obj == null`,
		`null != nobj`,
		`no ? [] : list`,
		`obj == null ? {} : { a = obj.a }`,
		`rules[*].port`,
		`olist[*].tags.env`,
	} {
		expr, _ := hclsyntax.ParseExpression([]byte(src), "test.tf", hcl.InitialPos)
		fast, _ := (&Guard{Direct: directCall}).compile(expr, false, nil)
		type shortcut interface {
			fast(*hcl.EvalContext) (cty.Value, bool)
		}
		switch f := fast.(type) {
		case *fastFor:
			if _, _, ok := f.fast(ctx); !ok {
				t.Errorf("%s: fell back to hcl", src)
			}
		case *fastCall:
			if _, diags, ok := f.fast(ctx); !ok || diags != nil {
				t.Errorf("%s: fell back to hcl (%v)", src, diags)
			}
		case shortcut:
			if _, ok := f.fast(ctx); !ok {
				t.Errorf("%s: fell back to hcl", src)
			}
		case *fastObject, *fastIndex:
			// No separate shortcut method; their values are checked above.
		default:
			t.Errorf("%s: compiled to %T, not a fast node", src, fast)
		}
	}
}

// FuzzFastEval compares the fast and slow evaluation of arbitrary
// expressions in the test context.
func FuzzFastEval(f *testing.F) {
	for _, src := range fastTestExprs {
		f.Add(src)
	}
	ctx := fastTestContext()
	f.Fuzz(func(t *testing.T, src string) {
		if len(src) > 2000 || limit.CheckSource([]byte(src), "fuzz.tf", hcl.InitialPos, limit.Expression, 40).HasErrors() {
			return
		}
		if _, diags := hclsyntax.ParseExpression([]byte(src), "fuzz.tf", hcl.InitialPos); diags.HasErrors() {
			return
		}
		timer := time.AfterFunc(10*time.Second, func() { panic(fmt.Sprintf("slow input %q", src)) })
		defer timer.Stop()
		checkFastMatchesSlow(t, &Guard{MaxElements: 2000, MaxStringLength: 1 << 16, Direct: directCall, DirectObject: objectCall}, src, ctx)
	})
}

// BenchmarkForFilter is the filter the benchmark trees run for every
// firewall instance, evaluated by hcl's nodes (slow) and the fast ones.
func BenchmarkForFilter(b *testing.B) {
	ctx := fastTestContext()
	rules := make([]cty.Value, 90)
	for i := range rules {
		rules[i] = cty.ObjectVal(map[string]cty.Value{"item": cty.StringVal(fmt.Sprintf("item-%03d", i/2)), "port": cty.NumberIntVal(int64(80 + i%2))})
	}
	ctx.Variables["rules"] = cty.TupleVal(rules)
	expr, _ := hclsyntax.ParseExpression([]byte(`[for r in rules : r if r.item == each.key]`), "bench.tf", hcl.InitialPos)
	fast, slow := (&Guard{}).compile(expr, false, nil)
	for _, tc := range []struct {
		name string
		expr hclsyntax.Expression
	}{{"slow", slow}, {"fast", fast}} {
		b.Run(tc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				tc.expr.Value(ctx)
			}
		})
	}
}

// BenchmarkNestedFilter filters a module's list of 400 rules by each of
// 200 keys in an outer loop: indexed, and with the collection in
// parentheses, which is never indexed (every key scans every rule).
func BenchmarkNestedFilter(b *testing.B) {
	rules := make([]cty.Value, 400)
	keys := make([]cty.Value, 200)
	for i := range rules {
		rules[i] = cty.ObjectVal(map[string]cty.Value{"item": cty.StringVal(fmt.Sprintf("item-%03d", i/2)), "port": cty.NumberIntVal(int64(i))})
	}
	for i := range keys {
		keys[i] = cty.StringVal(fmt.Sprintf("item-%03d", i))
	}
	ctx := &hcl.EvalContext{Variables: map[string]cty.Value{"local": cty.ObjectVal(map[string]cty.Value{
		"keys": cty.TupleVal(keys), "rules": cty.TupleVal(rules),
	})}}
	for _, tc := range []struct{ name, src string }{
		{"indexed", `[for k in local.keys : [for r in local.rules : r.port if r.item == k]]`},
		{"scanned", `[for k in local.keys : [for r in (local.rules) : r.port if r.item == k]]`},
	} {
		b.Run(tc.name, func(b *testing.B) {
			expr, _ := hclsyntax.ParseExpression([]byte(tc.src), "bench.tf", hcl.InitialPos)
			fast, _ := (&Guard{}).compile(expr, false, nil)
			b.ReportAllocs()
			for b.Loop() {
				if _, diags := fast.Value(ctx); diags.HasErrors() {
					b.Fatal(diags)
				}
			}
		})
	}
}

// TestIntModulo compares the whole-number remainder with cty's Modulo on
// random operands of every size and precision, negative ones included:
// the value, its precision and rounding mode, its text, and what a later
// division makes of it must all be the same.
func TestIntModulo(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	operand := func() *big.Float {
		n := r.Int64() >> r.IntN(64)
		if r.IntN(2) == 0 {
			n = -n
		}
		precs := []uint{53, 64, 64, 100, 512, uint(1 + r.IntN(200))}
		return new(big.Float).SetPrec(precs[r.IntN(len(precs))]).SetInt64(n)
	}
	// 5,000 random pairs by default, 50,000 with the long suites.
	cases := longtest.Pick(5000, 50000)
	taken := 0
	for range cases {
		a, b := operand(), operand()
		got, ok := intModulo(a, b)
		if !ok {
			continue
		}
		taken++
		want := cty.NumberVal(a).Modulo(cty.NumberVal(b))
		gf, wf := got.AsBigFloat(), want.AsBigFloat()
		three := cty.NumberIntVal(3)
		if !got.RawEquals(want) || gf.Prec() != wf.Prec() || gf.Mode() != wf.Mode() || gf.Signbit() != wf.Signbit() ||
			gf.Text('f', -1) != wf.Text('f', -1) || !got.Divide(three).RawEquals(want.Divide(three)) {
			t.Fatalf("%s %% %s (precisions %d, %d): got %s (prec %d), cty gives %s (prec %d)",
				a.Text('f', -1), b.Text('f', -1), a.Prec(), b.Prec(), gf.Text('f', -1), gf.Prec(), wf.Text('f', -1), wf.Prec())
		}
	}
	if taken < cases/5 {
		t.Errorf("the whole-number remainder answered only %d of %d random cases", taken, cases)
	}
	if _, ok := intModulo(cty.NumberIntVal(1234).AsBigFloat(), cty.NumberIntVal(4).AsBigFloat()); !ok {
		t.Error("count.index % 4 does not take the whole-number remainder")
	}
}

func TestIsTrue(t *testing.T) {
	for _, tc := range []struct {
		v    cty.Value
		want bool
	}{
		{cty.True, true}, {cty.BoolVal(true), true}, {cty.BoolVal(1 < 2), true},
		{cty.False, false}, {cty.UnknownVal(cty.Bool), false}, {cty.UnknownVal(cty.Bool).RefineNotNull(), false},
		{cty.NullVal(cty.Bool), false}, {cty.True.Mark("sensitive"), false}, {cty.StringVal("true"), false},
		{cty.DynamicVal, false}, {cty.ObjectVal(map[string]cty.Value{"a": cty.True}), false},
	} {
		if got := isTrue(tc.v); got != tc.want {
			t.Errorf("isTrue(%#v) = %v, want %v", tc.v, got, tc.want)
		}
	}
}

// TestHoisted checks which references a for expression looks up once: those
// naming neither of its variables, in its own body (a nested for
// expression's collection included, its body not).
func TestHoisted(t *testing.T) {
	for _, tc := range []struct {
		src          string
		outer, inner string
	}{
		{`[for r in rules : r if r.item == each.key]`, "each.key", ""},
		{`[for i, x in list : "${i}${x}${s}" if n > 1]`, "s n", ""},
		{`[for x in list : [for y in list : "${x}${y}${s}"]]`, "list", "x s"},
		{`[for x in list : [for x in tup : x]]`, "tup", ""},
		{`{ for k, v in map : k => [for y in [k, v, s] : y] }`, "s", ""},
	} {
		expr, diags := hclsyntax.ParseExpression([]byte(tc.src), "test.tf", hcl.InitialPos)
		if diags.HasErrors() {
			t.Fatal(diags.Error())
		}
		fast, _ := (&Guard{}).compile(expr, false, nil)
		outer := fast.(*fastFor)
		if got := hoistedNames(outer); got != tc.outer {
			t.Errorf("%s: outer hoists %q, want %q", tc.src, got, tc.outer)
		}
		inner, _ := outer.val.(*fastFor)
		if got := hoistedNames(inner); got != tc.inner {
			t.Errorf("%s: inner hoists %q, want %q", tc.src, got, tc.inner)
		}
	}
}

// TestAttrMatch checks which conditions are compiled to an attribute
// comparison: the element's attribute against a literal or a reference
// hoisted out of that same for expression, with == or !=.
func TestAttrMatch(t *testing.T) {
	for _, tc := range []struct {
		src   string
		match string // attribute, "" for none
	}{
		{`[for r in rules : r if r.item == each.key]`, "item"},
		{`[for r in rules : r if each.key != r.item]`, "item"},
		{`[for r in rules : r if r.item == "item-1"]`, "item"},
		{`[for r in rules : r if r.port == 80]`, "port"},
		{`[for r in rules : r if r.item == "${each.key}"]`, ""},
		{`[for r in rules : r if r.item == r.name]`, ""},
		{`[for r in rules : r if r.item == upper(s)]`, ""},
		{`[for r in rules : r if r.a.b == "x"]`, ""},
		{`[for r in rules : r if r["item"] == "x"]`, ""},
		{`[for r in rules : r if r.item > "x"]`, ""},
		{`[for k, r in rules : r if k == "x"]`, ""},
		{`[for r in rules : r if r.on]`, ""},
	} {
		expr, diags := hclsyntax.ParseExpression([]byte(tc.src), "test.tf", hcl.InitialPos)
		if diags.HasErrors() {
			t.Fatal(diags.Error())
		}
		fast, _ := (&Guard{}).compile(expr, false, nil)
		got := ""
		if m := fast.(*fastFor).match; m != nil {
			got = m.name
		}
		if got != tc.match {
			t.Errorf("%s: match %q, want %q", tc.src, got, tc.match)
		}
	}
}

// hoistedNames lists a for expression's hoisted references as written.
func hoistedNames(f *fastFor) string {
	if f == nil {
		return ""
	}
	var names []string
	for _, h := range f.hoisted {
		name := h.Traversal.RootName()
		for _, step := range h.Traversal[1:] {
			if a, ok := step.(hcl.TraverseAttr); ok {
				name += "." + a.Name
			}
		}
		names = append(names, name)
	}
	return strings.Join(names, " ")
}

// TestFilterIndex checks the index an == filter keeps per context: reused
// by the instances that share their parent context, kept apart for
// contexts holding different collections, never made for a collection
// found in a for expression's own context, bounded in number, and
// charging the same elements and steps as the loop it replaces.
func TestFilterIndex(t *testing.T) {
	rulesOf := func(items ...string) cty.Value {
		var rules []cty.Value
		for i, item := range items {
			rules = append(rules, cty.ObjectVal(map[string]cty.Value{"item": cty.StringVal(item), "port": cty.NumberIntVal(int64(i))}))
		}
		return cty.TupleVal(rules)
	}
	parse := func(src string) hclsyntax.Expression {
		expr, diags := hclsyntax.ParseExpression([]byte(src), "test.tf", hcl.InitialPos)
		if diags.HasErrors() {
			t.Fatal(diags.Error())
		}
		return expr
	}
	steps := 0
	g := &Guard{Step: func() error { steps++; return nil }}
	expr := parse(`[for r in local.rules : r.port if r.item == each.key]`)
	fast, slow := g.compile(expr, false, nil)
	ff := fast.(*fastFor)
	instance := func(parent *hcl.EvalContext, key string) *hcl.EvalContext {
		c := parent.NewChild()
		c.Variables = map[string]cty.Value{"each": cty.ObjectVal(map[string]cty.Value{"key": cty.StringVal(key)})}
		return c
	}
	module := func(rules cty.Value) *hcl.EvalContext {
		return &hcl.EvalContext{Variables: map[string]cty.Value{"local": cty.ObjectVal(map[string]cty.Value{"rules": rules})}}
	}
	// The same filter on a parenthesized collection is never indexed.
	unindexed := func(src string) hclsyntax.Expression {
		f, _ := g.compile(parse(src), false, nil)
		return f
	}
	plainFast := unindexed(`[for r in (local.rules) : r.port if r.item == each.key]`)
	check := func(ctx *hcl.EvalContext) {
		t.Helper()
		steps = 0
		fv, fd := fast.Value(ctx)
		fastSteps := steps
		steps = 0
		pv, pd := plainFast.Value(ctx)
		plainSteps := steps
		sv, sd := slow.Value(ctx)
		if !sameValue(fv, sv) || diagText(fd) != diagText(sd) || !sameValue(pv, sv) || diagText(pd) != diagText(sd) {
			t.Fatalf("fast = %#v %s, unindexed = %#v %s, slow = %#v %s", fv, diagText(fd), pv, diagText(pd), sv, diagText(sd))
		}
		if fastSteps != plainSteps {
			t.Errorf("indexed filter took %d steps, unindexed %d", fastSteps, plainSteps)
		}
	}
	a, b := module(rulesOf("x", "y", "x", "z")), module(rulesOf("y", "y", "x"))
	for _, key := range []string{"x", "y", "z", "none"} {
		check(instance(a, key))
		check(instance(b, key))
	}
	if pf, ok := plainFast.(*fastFor); !ok || len(pf.indexes) != 0 {
		t.Fatalf("the parenthesized filter is %T, indexed: it cannot serve as the unindexed one", plainFast)
	}
	if len(ff.indexes) != 2 {
		t.Errorf("%d indexes for two module contexts, want 2", len(ff.indexes))
	}
	for i := range 2 * maxFilterIndexes {
		check(instance(module(rulesOf("x", fmt.Sprint(i))), "x"))
	}
	if len(ff.indexes) > maxFilterIndexes {
		t.Errorf("%d indexes kept, at most %d wanted", len(ff.indexes), maxFilterIndexes)
	}

	// A collection that is the outer loop's element changes with it.
	nested := parse(`[for rs in local.all : [for r in rs : r.port if r.item == "x"]]`)
	fast, slow = g.compile(nested, false, nil)
	plainFast = unindexed(`[for rs in (local.all) : [for r in (rs) : r.port if r.item == "x"]]`)
	check(&hcl.EvalContext{Variables: map[string]cty.Value{"local": cty.ObjectVal(map[string]cty.Value{
		"all": cty.TupleVal([]cty.Value{rulesOf("x", "y"), rulesOf("y", "x", "x"), rulesOf("z")}),
	})}})
	if inner := fast.(*fastFor).val.(*fastFor); len(inner.indexes) != 0 {
		t.Errorf("an index was kept for a loop variable's collection: %v", inner.indexes)
	}

	// A module's list filtered in an outer loop's body, by the outer
	// element: one index serves every element of the outer loop.
	byOuter := parse(`[for k in local.keys : [for r in local.rules : r.port if r.item == k]]`)
	fast, slow = g.compile(byOuter, false, nil)
	plainFast = unindexed(`[for k in local.keys : [for r in (local.rules) : r.port if r.item == k]]`)
	check(&hcl.EvalContext{Variables: map[string]cty.Value{"local": cty.ObjectVal(map[string]cty.Value{
		"keys":  cty.TupleVal([]cty.Value{cty.StringVal("x"), cty.StringVal("y"), cty.StringVal("none"), cty.StringVal("x")}),
		"rules": rulesOf("x", "y", "x", "z"),
	})}})
	if inner := fast.(*fastFor).val.(*fastFor); len(inner.indexes) != 1 {
		t.Errorf("%d indexes for a list filtered in an outer loop, want 1", len(inner.indexes))
	}
}

// TestFilterIndexConcurrent evaluates one compiled filter from several
// goroutines at once, in shared and separate contexts, as the instances
// of module instances planned in parallel do; run with -race it checks
// the index cache's locking.
func TestFilterIndexConcurrent(t *testing.T) {
	expr, diags := hclsyntax.ParseExpression([]byte(`[for r in local.rules : r.port if r.item == each.key]`), "test.tf", hcl.InitialPos)
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	fast, slow := (&Guard{}).compile(expr, false, nil)
	modules := make([]*hcl.EvalContext, 3)
	for m := range modules {
		var rules []cty.Value
		for i := range 40 {
			rules = append(rules, cty.ObjectVal(map[string]cty.Value{
				"item": cty.StringVal(fmt.Sprintf("item-%d", (i+m)%7)), "port": cty.NumberIntVal(int64(i)),
			}))
		}
		modules[m] = &hcl.EvalContext{Variables: map[string]cty.Value{"local": cty.ObjectVal(map[string]cty.Value{"rules": cty.TupleVal(rules)})}}
	}
	var wg sync.WaitGroup
	errs := make(chan string, 64)
	for w := range 8 {
		wg.Go(func() {
			for i := range 200 {
				c := modules[(w+i)%len(modules)].NewChild()
				c.Variables = map[string]cty.Value{"each": cty.ObjectVal(map[string]cty.Value{"key": cty.StringVal(fmt.Sprintf("item-%d", i%8))})}
				fv, _ := fast.Value(c)
				sv, _ := slow.Value(c)
				if !sameValue(fv, sv) {
					errs <- fmt.Sprintf("fast = %#v, slow = %#v", fv, sv)
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}
