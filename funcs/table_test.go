package funcs

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"

	"github.com/tfeval/tfeval/dialect"
)

// allNames is the union of both tools' built-ins, the 125 rows of the
// reference function table (shared/reference/terraform-behavior.md §1.3).
var allNames = strings.Fields(`abs abspath alltrue anytrue base64decode base64encode base64gunzip base64gzip
base64sha256 base64sha512 basename bcrypt can ceil chomp chunklist cidrcontains cidrhost cidrnetmask cidrsubnet
cidrsubnets coalesce coalescelist compact concat contains convert csvdecode dirname distinct element endswith
ephemeralasnull file filebase64 filebase64sha256 filebase64sha512 fileexists filemd5 fileset filesha1 filesha256
filesha512 flatten floor format formatdate formatlist indent index issensitive join jsondecode jsonencode keys
length list log lookup lower map matchkeys max md5 merge min nonsensitive one parseint pathexpand plantimestamp
pow range regex regexall replace reverse rsadecrypt sensitive setintersection setproduct setsubtract setunion
sha1 sha256 sha512 signum slice sort split startswith strcontains strrev substr sum templatefile templatestring
textdecodebase64 textencodebase64 timeadd timecmp timestamp title tobool tolist tomap tonumber toset tostring
transpose trim trimprefix trimspace trimsuffix try type upper urldecode urlencode uuid uuidv5 values yamldecode
yamlencode zipmap`)

// expectedNames derives a dialect's table from allNames.
func expectedNames(d dialect.Dialect, console bool) []string {
	drop := map[string]bool{}
	if d == dialect.Terraform {
		drop["base64gunzip"], drop["cidrcontains"], drop["urldecode"] = true, true, true
	} else {
		drop["convert"] = true
	}
	if console {
		drop["plantimestamp"] = true
	} else {
		drop["type"] = true
	}
	var out []string
	for _, n := range allNames {
		if !drop[n] {
			out = append(out, n)
		}
	}
	sort.Strings(out)
	return out
}

func TestDialectTables(t *testing.T) {
	if len(allNames) != 125 {
		t.Fatalf("reference list has %d names, want 125", len(allNames))
	}
	counts := map[dialect.Dialect]int{dialect.Terraform: 121, dialect.Tofu: 123}
	for _, d := range []dialect.Dialect{dialect.Terraform, dialect.Tofu} {
		for _, console := range []bool{false, true} {
			want := expectedNames(d, console)
			got := Names(d, console)
			if len(want) != counts[d] {
				t.Errorf("%s console=%v: derived %d names, reference says %d", d, console, len(want), counts[d])
			}
			if strings.Join(got, " ") != strings.Join(want, " ") {
				t.Errorf("%s console=%v:\nwant %v\n got %v", d, console, want, got)
			}
			fns := Functions(Options{Dialect: d, ConsoleMode: console})
			if len(fns) != 2*len(want) {
				t.Errorf("%s console=%v: Functions has %d entries, want %d (each name plus core::)", d, console, len(fns), 2*len(want))
			}
			for _, n := range want {
				if _, ok := fns[CoreNamespace+n]; !ok {
					t.Errorf("%s: core::%s missing", d, n)
				}
				if Description(n) == "" || fns[n].Description() != Description(n) {
					t.Errorf("%s: %s has no description", d, n)
				}
			}
		}
	}
	if Description("core::upper") != Description("upper") || Description("nope") != "" {
		t.Error("Description must accept core:: names and return empty for unknown names")
	}
}

func TestProviderFunctionNames(t *testing.T) {
	fn := function.New(&function.Spec{Type: function.StaticReturnType(cty.String)})
	fns := Functions(Options{ProviderFunctions: map[string]map[string]function.Function{
		"mock":  {"upper": fn},
		"other": {"a": fn, "b": fn},
	}})
	for _, n := range []string{"provider::mock::upper", "provider::other::a", "provider::other::b"} {
		if _, ok := fns[n]; !ok {
			t.Errorf("%s missing", n)
		}
	}
}

// BenchmarkFunctionTable builds a plan-mode function table, as every
// evaluation does for its modules: for small modules evaluated often (a
// table of module tests), a large part of each evaluation.
func BenchmarkFunctionTable(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		Functions(Options{PureOnly: true, Direct: &DirectCalls{}})
	}
}

// ReturnType's tables are shared by every caller of a dialect (writers of
// diagnostics run on several goroutines in a scan): asked at once for
// every built-in, it answers as it does one call at a time.
func TestReturnTypeConcurrent(t *testing.T) {
	names := slices.Sorted(maps.Keys(newEnv(Options{}).declared(0)))
	argSets := [][]cty.Type{nil, {cty.String}, {cty.String, cty.String}, {cty.List(cty.String)}, {cty.Number, cty.Number}}
	want := map[string]cty.Type{}
	for _, d := range []dialect.Dialect{dialect.Terraform, dialect.Tofu} {
		for _, n := range names {
			for i, args := range argSets {
				want[fmt.Sprint(d, n, i)] = ReturnType(d, n, args)
			}
		}
	}
	if ty := ReturnType(dialect.Terraform, "upper", []cty.Type{cty.String}); ty != cty.String {
		t.Fatalf("upper(string) declares %#v", ty)
	}
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for _, d := range []dialect.Dialect{dialect.Terraform, dialect.Tofu} {
				for _, n := range names {
					for i, args := range argSets {
						if got, w := ReturnType(d, n, args), want[fmt.Sprint(d, n, i)]; !got.Equals(w) {
							t.Errorf("%v %s %v: %#v, want %#v", d, n, args, got, w)
						}
					}
				}
			}
		}()
	}
	wg.Wait()
}
