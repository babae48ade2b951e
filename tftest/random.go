package tftest

import (
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"hash/fnv"
	"math/big"
	"strings"

	"github.com/zclconf/go-cty/cty"

	"github.com/tfeval/tfeval/lang"
	"github.com/tfeval/tfeval/marks"
)

// randomSource is the provider whose resources an apply creates without
// it: hashicorp/random reads nothing outside Terraform and needs no
// account, so creating its objects cannot fail for any reason but the
// arguments it rejects, and what it creates is random, unknown to tfeval
// as it would be to anyone before the apply. tfeval applies them with their
// computed attributes unknown (and marked as the provider's), so a run
// whose assertions do not read the random values passes or fails as it
// would with the provider, and one that reads them is skipped.
const randomSource = "hashicorp/random"

// randomAppliesOffline reports whether an apply can create a random
// resource instance without the provider: the arguments its validators and
// its Create check are known and accepted. Where they are not, the run
// needs the provider, whose own diagnostics tfeval does not invent.
func randomAppliesOffline(pi *lang.PlannedInstance) bool {
	args, _ := pi.Arguments.UnmarkDeep()
	if !args.IsKnown() || args.IsNull() || !args.Type().IsObjectType() {
		return false
	}
	switch pi.Resource.Type {
	case "random_string", "random_password":
		return randomStringValid(args)
	case "random_integer":
		lo, okLo := knownNumber(args, "min")
		hi, okHi := knownNumber(args, "max")
		return okLo && okHi && lo.Cmp(hi) <= 0
	case "random_bytes":
		n, ok := knownNumber(args, "length")
		return ok && n.Cmp(big.NewFloat(1)) >= 0
	case "random_id", "random_pet", "random_shuffle", "random_uuid", "random_uuid4", "random_uuid7":
		// Nothing they are given is rejected once it has the schema's type.
		return true
	}
	return false
}

// randomStringValid checks a random_string's or random_password's
// arguments as the provider does: length at least 1 and at least the sum
// of the min_* counts given; numeric (or number) set to false only with one
// of special, upper and lower not set to false. A min_* count for a
// character class that is turned off is not checked by the provider's
// validators, and what it then generates tfeval does not know: the run
// needs the provider.
func randomStringValid(args cty.Value) bool {
	length, ok := knownNumber(args, "length")
	if !ok || length.Cmp(big.NewFloat(1)) < 0 {
		return false
	}
	sum := new(big.Float)
	classes := map[string]string{"min_upper": "upper", "min_lower": "lower", "min_numeric": "numeric", "min_special": "special"}
	for minName, class := range classes {
		v := attr(args, minName)
		if v.IsNull() {
			continue
		}
		n, ok := knownNumber(args, minName)
		if !ok {
			return false
		}
		sum.Add(sum, n)
		if n.Sign() > 0 && (isFalse(attr(args, class)) || (class == "numeric" && isFalse(attr(args, "number")))) {
			return false
		}
	}
	if length.Cmp(sum) < 0 {
		return false
	}
	for _, name := range []string{"special", "upper", "lower", "numeric", "number"} {
		if !attr(args, name).IsKnown() {
			return false
		}
	}
	if isFalse(attr(args, "numeric")) || isFalse(attr(args, "number")) {
		// A class left unset keeps its default, true.
		return !isFalse(attr(args, "special")) || !isFalse(attr(args, "upper")) || !isFalse(attr(args, "lower"))
	}
	return true
}

// attr is an attribute of an object, null where it has none.
func attr(obj cty.Value, name string) cty.Value {
	if v := attrOf(obj, name); v != cty.NilVal {
		return v
	}
	return cty.NullVal(cty.DynamicPseudoType)
}

// knownNumber is an attribute's value as a number, if it is a known one.
func knownNumber(obj cty.Value, name string) (*big.Float, bool) {
	v := attr(obj, name)
	if !v.IsKnown() || v.IsNull() || v.Type() != cty.Number {
		return nil, false
	}
	return v.AsBigFloat(), true
}

// isFalse reports whether v is a known false.
func isFalse(v cty.Value) bool {
	return v.IsKnown() && !v.IsNull() && v.Type() == cty.Bool && v.False()
}

// What hashicorp/random draws from, as its documentation gives it.
const (
	randomLower   = "abcdefghijklmnopqrstuvwxyz"
	randomUpper   = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
	randomNumeric = "0123456789"
	randomSpecial = "!@#$%&*()-_=+[]{}<>:?"
)

// Words of tfeval's own for random_pet's names (the provider has longer
// lists; a pet name is any words of lowercase letters).
var (
	petAdverbs    = []string{"quickly", "gently", "boldly", "calmly", "freely", "neatly", "warmly", "wisely"}
	petAdjectives = []string{"brave", "clever", "eager", "fancy", "happy", "jolly", "lucky", "proud"}
	petNames      = []string{"badger", "falcon", "gecko", "heron", "koala", "lemur", "otter", "panda"}
)

// drawing is the stream of random numbers one instance's values are drawn
// from: like the generator of mocked values, derived from the seed, the
// address, the arguments (a replaced object draws anew) and the draw.
type drawing struct{ x uint64 }

func newDrawing(seed uint64, addr string, args cty.Value, draw int) *drawing {
	h := fnv.New64a()
	fmt.Fprintf(h, "%d|%s|%#v|%d", seed, addr, args, draw)
	return &drawing{x: h.Sum64() | 1}
}

// next is a number below n (n > 0).
func (d *drawing) next(n int) int {
	d.x ^= d.x << 13
	d.x ^= d.x >> 7
	d.x ^= d.x << 17
	return int(d.x % uint64(n))
}

// pick is one character of set.
func (d *drawing) pick(set string) byte { return set[d.next(len(set))] }

// drawRandom is the object an applied hashicorp/random instance holds:
// what the provider computes drawn as it draws it (results of the length,
// character classes and counts given, identifiers in their formats). draw
// tells apart two drawings of the same object: a verdict that differs
// between them depends on what the provider happens to draw. What the
// first drawing (draw 0) draws is marked Drawn, so that the runner can
// tell a verdict that read it (runDrawn); the second's need not be. It reports
// false for an instance whose results tfeval does not draw (random_bytes,
// an argument not wholly known). What the documentation calls a static value for
// Terraform's use alone (the id of random_password and random_shuffle)
// and bcrypt_hash stay unknown.
func drawRandom(pi *lang.PlannedInstance, seed uint64, draw int) (cty.Value, bool) {
	return randomObject(pi, seed, draw, false)
}

// planRandom is the object a plan that creates (or replaces) a
// hashicorp/random instance holds, as the provider plans it: the defaults
// it sets known, and what it draws unknown, as plainly unknown as Terraform
// has it (not marked as something tfeval did not read), so that a count or
// for_each, or a plan run's assertion, over it fails as it does in
// Terraform. It reports false where drawRandom would.
func planRandom(pi *lang.PlannedInstance) (cty.Value, bool) {
	return randomObject(pi, 0, 0, true)
}

// randomObject is drawRandom, or with planning planRandom.
func randomObject(pi *lang.PlannedInstance, seed uint64, draw int, planning bool) (cty.Value, bool) {
	args, _ := pi.Arguments.UnmarkDeep()
	planned, pm := pi.Planned.Unmark()
	if !randomAppliesOffline(pi) || !args.IsWhollyKnown() || !planned.IsKnown() || planned.IsNull() || !planned.Type().IsObjectType() {
		return cty.NilVal, false
	}
	d := newDrawing(seed, pi.Addr, args, draw)
	attrs := planned.AsValueMap()
	// set gives an attribute the provider computes a value it sets
	// (a default); drawn, one it draws.
	set := func(name string, v cty.Value) {
		if old, ok := attrs[name]; ok {
			if !old.IsKnown() || old.IsNull() {
				attrs[name] = v.WithMarks(old.Marks())
			}
		}
	}
	drawn := func(name string, v cty.Value) {
		if planning {
			if old, ok := attrs[name]; ok && (!old.IsKnown() || old.IsNull()) {
				attrs[name] = cty.UnknownVal(v.Type()).WithMarks(withoutUnread(old.Marks()))
			}
			return
		}
		if draw == 0 {
			v = v.Mark(marks.Drawn)
		}
		set(name, v)
	}
	switch pi.Resource.Type {
	case "random_string", "random_password":
		result := drawString(args, d, set)
		drawn("result", cty.StringVal(result))
		if pi.Resource.Type == "random_string" {
			drawn("id", cty.StringVal(result))
		}
	case "random_id":
		n, ok := knownNumber(args, "byte_length")
		if !ok || !n.IsInt() || n.Sign() <= 0 || n.Cmp(big.NewFloat(1<<16)) > 0 {
			return cty.NilVal, false
		}
		size, _ := n.Int64()
		b := make([]byte, size)
		for i := range b {
			b[i] = byte(d.next(256))
		}
		prefix := knownString(args, "prefix")
		drawn("id", cty.StringVal(base64.RawURLEncoding.EncodeToString(b)))
		drawn("b64_url", cty.StringVal(prefix+base64.RawURLEncoding.EncodeToString(b)))
		drawn("b64_std", cty.StringVal(prefix+base64.StdEncoding.EncodeToString(b)))
		drawn("hex", cty.StringVal(prefix+hex.EncodeToString(b)))
		drawn("dec", cty.StringVal(prefix+new(big.Int).SetBytes(b).String()))
	case "random_integer":
		lo, _ := knownNumber(args, "min")
		hi, _ := knownNumber(args, "max")
		if !lo.IsInt() || !hi.IsInt() {
			return cty.NilVal, false
		}
		l, _ := lo.Int(nil)
		h, _ := hi.Int(nil)
		span := new(big.Int).Sub(h, l)
		span.Add(span, big.NewInt(1))
		off := new(big.Int).SetUint64(uint64(d.next(1 << 30)))
		v := new(big.Int).Add(l, off.Mod(off, span))
		drawn("result", cty.NumberVal(new(big.Float).SetInt(v)))
		drawn("id", cty.StringVal(v.String()))
	case "random_uuid":
		b := make([]byte, 16)
		for i := range b {
			b[i] = byte(d.next(256))
		}
		b[6] = b[6]&0x0f | 0x40 // version 4
		b[8] = b[8]&0x3f | 0x80 // RFC 4122 variant
		u := fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
		drawn("result", cty.StringVal(u))
		drawn("id", cty.StringVal(u))
	case "random_pet":
		length, sep := 2, "-"
		if n, ok := knownNumber(args, "length"); ok {
			if !n.IsInt() || n.Sign() <= 0 || n.Cmp(big.NewFloat(64)) > 0 {
				return cty.NilVal, false
			}
			l, _ := n.Int64()
			length = int(l)
		}
		if s := attr(args, "separator"); s.IsKnown() && !s.IsNull() && s.Type() == cty.String {
			sep = s.AsString()
		}
		var words []string
		if p := knownString(args, "prefix"); p != "" {
			words = append(words, p)
		}
		for i := 0; i < length-2; i++ {
			words = append(words, petAdverbs[d.next(len(petAdverbs))])
		}
		if length >= 2 {
			words = append(words, petAdjectives[d.next(len(petAdjectives))])
		}
		words = append(words, petNames[d.next(len(petNames))])
		drawn("id", cty.StringVal(strings.Join(words, sep)))
		set("length", cty.NumberIntVal(int64(length)))
		set("separator", cty.StringVal(sep))
	case "random_shuffle":
		in := attr(args, "input")
		if !in.IsWhollyKnown() || in.IsNull() || !in.CanIterateElements() {
			return cty.NilVal, false
		}
		items := in.AsValueSlice()
		count := len(items)
		if n, ok := knownNumber(args, "result_count"); ok {
			c, _ := n.Int64()
			if !n.IsInt() || c < 0 || c > 1<<16 {
				return cty.NilVal, false
			}
			count = int(c)
		}
		var out []cty.Value
		for len(out) < count && len(items) > 0 {
			// Every item once before any twice.
			perm := append([]cty.Value(nil), items...)
			for i := len(perm) - 1; i > 0; i-- {
				j := d.next(i + 1)
				perm[i], perm[j] = perm[j], perm[i]
			}
			out = append(out, perm...)
		}
		out = out[:min(count, len(out))]
		switch {
		case len(out) > 0:
			drawn("result", cty.ListVal(out))
		case planning:
			// The provider computes the result when it creates the
			// object, an empty one too: a plan has it unknown.
			drawn("result", cty.ListValEmpty(cty.String))
		default:
			// Nothing is drawn: no verdict depends on the drawing.
			set("result", cty.ListValEmpty(cty.String))
		}
	default:
		return cty.NilVal, false
	}
	return cty.ObjectVal(attrs).WithMarks(pm), true
}

// drawString draws a random_string's or random_password's result (of
// arguments randomStringValid accepted): the counts each class asks for,
// the rest from every class turned on, in a drawn order. It sets the
// classes and counts left unset to the provider's defaults.
func drawString(args cty.Value, d *drawing, set func(string, cty.Value)) string {
	length, _ := knownNumber(args, "length")
	n, _ := length.Int64()
	special := randomSpecial
	if o := attr(args, "override_special"); o.IsKnown() && !o.IsNull() {
		special = knownString(args, "override_special")
	}
	classes := []struct{ on, min, chars string }{
		{"lower", "min_lower", randomLower},
		{"upper", "min_upper", randomUpper},
		{"numeric", "min_numeric", randomNumeric},
		{"special", "min_special", special},
	}
	var out []byte
	all := ""
	for _, c := range classes {
		on := !isFalse(attr(args, c.on)) && (c.on != "numeric" || !isFalse(attr(args, "number")))
		set(c.on, cty.BoolVal(on))
		if c.on == "numeric" {
			set("number", cty.BoolVal(on))
		}
		count := int64(0)
		if m, ok := knownNumber(args, c.min); ok {
			count, _ = m.Int64()
		}
		set(c.min, cty.NumberIntVal(count))
		if !on || c.chars == "" {
			continue
		}
		all += c.chars
		for i := int64(0); i < count; i++ {
			out = append(out, d.pick(c.chars))
		}
	}
	for int64(len(out)) < n && all != "" {
		out = append(out, d.pick(all))
	}
	for i := len(out) - 1; i > 0; i-- {
		j := d.next(i + 1)
		out[i], out[j] = out[j], out[i]
	}
	return string(out)
}

// knownString is an attribute's value as a string, "" unless it is a
// known one.
func knownString(obj cty.Value, name string) string {
	v := attr(obj, name)
	if !v.IsKnown() || v.IsNull() || v.Type() != cty.String {
		return ""
	}
	return v.AsString()
}

// sameArguments reports whether the state's object prior has every
// argument args sets (known) as it is set.
func sameArguments(args, prior cty.Value) bool {
	a, _ := args.UnmarkDeep()
	p, _ := prior.UnmarkDeep()
	if !a.IsWhollyKnown() || a.IsNull() || !p.IsKnown() || p.IsNull() || !a.Type().IsObjectType() || !p.Type().IsObjectType() {
		return false
	}
	for name := range a.Type().AttributeTypes() {
		av := a.GetAttr(name)
		if av.IsNull() {
			continue
		}
		if !p.Type().HasAttribute(name) {
			return false
		}
		pv := p.GetAttr(name)
		if !pv.IsWhollyKnown() || pv.IsNull() || !av.Type().Equals(pv.Type()) || !av.Equals(pv).True() {
			return false
		}
	}
	return true
}

// withoutUnread is ms without its Unread marks.
func withoutUnread(ms cty.ValueMarks) cty.ValueMarks {
	out := make(cty.ValueMarks, len(ms))
	for m := range ms {
		if _, unread := m.(marks.Unread); !unread {
			out[m] = struct{}{}
		}
	}
	return out
}
