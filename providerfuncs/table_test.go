package providerfuncs

import (
	"os"
	"strings"
	"testing"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
)

// call calls a table function by provider source and name.
func call(t *testing.T, source, name string, args ...cty.Value) (cty.Value, error) {
	t.Helper()
	fn, ok := Lookup(source, name)
	if !ok {
		t.Fatalf("%s has no function %s", source, name)
	}
	return fn.Call(args)
}

// callCase is one call of a table function: the result wanted, or the
// error text, and whether the error blames an argument (ArgError).
type callCase struct {
	name    string
	args    []cty.Value
	want    cty.Value
	err     string
	argErr  bool
	comment string
}

func runCases(t *testing.T, source string, cases []callCase) {
	t.Helper()
	for _, tc := range cases {
		got, err := call(t, source, tc.name, tc.args...)
		label := tc.name + " " + tc.comment
		switch {
		case tc.err != "":
			if err == nil || err.Error() != tc.err {
				t.Errorf("%s: error %v, want %q", label, err, tc.err)
				continue
			}
			_, isArg := err.(function.ArgError)
			if isArg != tc.argErr {
				t.Errorf("%s: argument error %v, want %v", label, isArg, tc.argErr)
			}
		case err != nil:
			t.Errorf("%s: %v", label, err)
		case !got.RawEquals(tc.want):
			t.Errorf("%s:\n got %#v\nwant %#v", label, got, tc.want)
		}
	}
}

// TestLookupSourceForms: every way a required_providers block can write a
// provider's address finds its table; other providers and names do not.
func TestLookupSourceForms(t *testing.T) {
	for _, src := range []string{"Azure/azapi", "azure/azapi", "registry.terraform.io/Azure/azapi", "registry.opentofu.org/azure/azapi", "REGISTRY.TERRAFORM.IO/AZURE/AZAPI"} {
		if _, ok := Lookup(src, "parse_resource_id"); !ok {
			t.Errorf("%s: parse_resource_id not found", src)
		}
	}
	for _, src := range []string{"aws", "hashicorp/aws", "registry.opentofu.org/hashicorp/aws"} {
		if _, ok := Lookup(src, "arn_parse"); !ok {
			t.Errorf("%s: arn_parse not found", src)
		}
	}
	for _, src := range []string{"google", "hashicorp/google-beta", "registry.terraform.io/hashicorp/google"} {
		if _, ok := Lookup(src, "region_from_zone"); !ok {
			t.Errorf("%s: region_from_zone not found", src)
		}
	}
	for _, miss := range [][2]string{
		{"example.com/azure/azapi", "parse_resource_id"}, // another host is another provider
		{"someone/azapi", "parse_resource_id"},
		{"azure/azapi", "unique_string"},
		{"hashicorp/aws", "iam_policy_split"},
		{"tfeval/mock", "upper"},
	} {
		if _, ok := Lookup(miss[0], miss[1]); ok {
			t.Errorf("%s %s: found", miss[0], miss[1])
		}
	}
	if got := Names("tfeval/mock"); len(got) != 0 {
		t.Errorf("Names of an unknown provider: %v", got)
	}
}

// TestDocListsEveryFunction: doc.go names each function of the table.
func TestDocListsEveryFunction(t *testing.T) {
	doc, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	for source := range tables {
		for _, name := range Names(source) {
			if !strings.Contains(string(doc), name+"(") {
				t.Errorf("doc.go does not list %s of %s", name, source)
			}
		}
	}
}

// TestUnknownNullAndMarks: as Terraform calls a provider's function, a
// null argument fails, an argument not wholly known gives an unknown
// result (not an Undetermined one), and marks on the arguments, nested
// ones included, go to the result.
func TestUnknownNullAndMarks(t *testing.T) {
	_, err := call(t, "azure/azapi", "parse_resource_id", cty.StringVal("Microsoft.Resources/resourceGroups"), cty.NullVal(cty.String))
	if ae, ok := err.(function.ArgError); !ok || ae.Index != 1 || err.Error() != "argument must not be null" {
		t.Errorf("null argument: %v", err)
	}

	got, err := call(t, "azure/azapi", "parse_resource_id", cty.StringVal("Microsoft.Resources/resourceGroups"), cty.UnknownVal(cty.String))
	if err != nil || got.IsKnown() || !got.Type().Equals(parsedResourceIDType) || got.IsMarked() {
		t.Errorf("unknown argument: %#v, %v", got, err)
	}
	names := cty.ListVal([]cty.Value{cty.StringVal("vnet1"), cty.UnknownVal(cty.String)})
	got, err = call(t, "azure/azapi", "resource_group_resource_id", cty.StringVal("s"), cty.StringVal("rg"), cty.StringVal("Microsoft.Network/virtualNetworks/subnets"), names)
	if err != nil || got.IsKnown() || got.IsMarked() {
		t.Errorf("nested unknown argument: %#v, %v", got, err)
	}

	names = cty.ListVal([]cty.Value{cty.StringVal("vnet1").Mark("sensitive"), cty.StringVal("s1")})
	got, err = call(t, "azure/azapi", "resource_group_resource_id", cty.StringVal("s").Mark("ephemeral"), cty.StringVal("rg"), cty.StringVal("Microsoft.Network/virtualNetworks/subnets"), names)
	want := cty.StringVal("/subscriptions/s/resourceGroups/rg/providers/Microsoft.Network/virtualNetworks/vnet1/subnets/s1").WithMarks(cty.NewValueMarks("sensitive", "ephemeral"))
	if err != nil || !got.RawEquals(want) {
		t.Errorf("marked arguments: %#v, %v", got, err)
	}
}
