package funcs

import (
	"fmt"
	"sync"
	"testing"

	ctyyaml "github.com/zclconf/go-cty-yaml"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
	"github.com/zclconf/go-cty/cty/function/stdlib"

	"github.com/tfeval/tfeval/dialect"
	"github.com/tfeval/tfeval/internal/testfiles"
)

// TestCachedDecoder: a cached decoder answers every argument as the
// decoder does (values, types, errors, unknowns, marks), the first time
// and from its cache.
func TestCachedDecoder(t *testing.T) {
	args := []cty.Value{
		cty.StringVal(`{"a": [1, "x", null], "b": {"c": true}}`),
		cty.StringVal(`null`),
		cty.StringVal(`"just a string"`),
		cty.StringVal(`{"a": `),
		cty.StringVal(`[1, 2] trailing`),
		cty.StringVal(`{"a": {"b": [1, {"c": null}]}, "a": {"b": [2, {"c": null}]}, "e": [], "f": {}}`),
		cty.StringVal(`{"a": 1, "a": "one"}`),
		cty.StringVal(`{"a": null, "a": 1}`),
		cty.StringVal(`[1e400, 0.1, -0, 12345678901234567890123]`),
		cty.StringVal(`["e\u0301", "\ud800", "tab\t"]`),
		cty.StringVal(`{1: 2}`),
		cty.StringVal(` `),
		cty.StringVal("a: [1, 2]\nb: {c: d}\n"),
		cty.StringVal("- one\n- two: [\n"),
		cty.StringVal(`{"secret": 1}`).Mark("sensitive"),
		cty.UnknownVal(cty.String),
		cty.UnknownVal(cty.String).Refine().StringPrefix(`"ab`).NewValue(),
		cty.UnknownVal(cty.String).Refine().StringPrefix(`tr`).NewValue(),
		cty.NullVal(cty.String),
		cty.NumberIntVal(5),
	}
	for name, fn := range map[string]function.Function{"jsondecode": stdlib.JSONDecodeFunc, "yamldecode": ctyyaml.YAMLDecodeFunc} {
		e := newEnv(Options{})
		decode := e.yamlDocuments()
		if name == "jsondecode" {
			decode = e.jsonDocuments(fn)
		}
		cached := cachedDecoder(fn, decode, &decodeCache{})
		for _, arg := range args {
			want, wantErr := fn.Call([]cty.Value{arg})
			for round := range 2 {
				got, err := cached.Call([]cty.Value{arg})
				if fmt.Sprint(err) != fmt.Sprint(wantErr) {
					t.Errorf("%s(%#v) round %d: error %v, want %v", name, arg, round, err, wantErr)
				}
				if wantErr == nil && !got.RawEquals(want) {
					t.Errorf("%s(%#v) round %d = %#v, want %#v", name, arg, round, got, want)
				}
			}
			wantTy, wantErr := fn.ReturnTypeForValues([]cty.Value{arg})
			gotTy, err := cached.ReturnTypeForValues([]cty.Value{arg})
			if fmt.Sprint(err) != fmt.Sprint(wantErr) || (wantErr == nil && !gotTy.Equals(wantTy)) {
				t.Errorf("%s(%#v) type %v (%v), want %v (%v)", name, arg, gotTy, err, wantTy, wantErr)
			}
		}
	}
}

// TestDecodeCacheDecodesOnce: a document is decoded once however many
// times it is asked for, and the cache stops keeping documents past its
// byte bound.
func TestDecodeCacheDecodesOnce(t *testing.T) {
	calls := 0
	counting := function.New(&function.Spec{
		Params: []function.Parameter{{Name: "str", Type: cty.String}},
		Type: func(args []cty.Value) (cty.Type, error) {
			calls++
			return stdlib.JSONDecodeFunc.ReturnTypeForValues(args)
		},
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			calls++
			return stdlib.JSONDecodeFunc.Call(args)
		},
	})
	cache := &decodeCache{}
	cache.results.limit = maxDecodedBytes
	cached := cachedDecoder(counting, func(doc string) (cty.Value, error) {
		return counting.Call([]cty.Value{cty.StringVal(doc)})
	}, cache)
	doc := cty.StringVal(`{"a": 1}`)
	for range 5 {
		if _, err := cached.Call([]cty.Value{doc}); err != nil {
			t.Fatal(err)
		}
	}
	if calls != 2 { // one Type and one Impl call of the decoder, for the first call
		t.Errorf("the decoder ran %d times for five calls on one document", calls)
	}
	cache.results.size = maxDecodedBytes
	calls = 0
	for _, other := range []string{`[2]`, `[3]`, `[4]`} {
		if _, err := cached.Call([]cty.Value{cty.StringVal(other)}); err != nil {
			t.Fatal(err)
		}
	}
	if calls != 6 || len(cache.results.m) != 1 { // two decoder runs a call, as without a cache
		t.Errorf("past the bound: %d decoder runs for three calls, %d documents kept", calls, len(cache.results.m))
	}
}

// TestTableCachesConcurrently: the caches one table keeps (file texts,
// listings, parsed templates, decoded documents) serve calls from many
// goroutines at once, as an evaluation's workers make them, with the
// results of single calls. Run it with -race.
func TestTableCachesConcurrently(t *testing.T) {
	dir := testfiles.Dir(t, map[string]string{
		"lib/a.json.tftpl": `{"name": "${name}", "n": [1, 2]}`,
		"lib/b.json.tftpl": `{"fixed": true}`,
		"lib/c.yaml":       "k: v\n",
	})
	fns := Functions(Options{Dialect: dialect.Terraform, BaseDir: dir})
	call := func(name string, args ...cty.Value) cty.Value {
		v, err := fns[name].Call(args)
		if err != nil {
			t.Error(err)
		}
		return v
	}
	once := func(i int) string {
		var out []string
		for it := call("fileset", cty.StringVal("lib"), cty.StringVal("*.tftpl")).ElementIterator(); it.Next(); {
			_, f := it.Element()
			vars := cty.ObjectVal(map[string]cty.Value{"name": cty.StringVal(fmt.Sprint(i % 3))})
			doc := call("jsondecode", call("templatefile", cty.StringVal("lib/"+f.AsString()), vars))
			out = append(out, fmt.Sprintf("%#v", doc))
		}
		out = append(out, fmt.Sprintf("%#v", call("yamldecode", call("file", cty.StringVal("lib/c.yaml")))))
		return fmt.Sprint(out)
	}
	want := make([]string, 3)
	for i := range want {
		want[i] = once(i)
	}
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 30 {
				if got := once(g + i); got != want[(g+i)%3] {
					t.Errorf("call %d: %s, want %s", g+i, got, want[(g+i)%3])
				}
			}
		}()
	}
	wg.Wait()
}
