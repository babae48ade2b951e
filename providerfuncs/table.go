package providerfuncs

import (
	"sort"
	"strings"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
)

// tables are the functions computed for each provider, by the provider's
// source address in the form key gives it.
var tables = map[string]map[string]function.Function{
	"azure/azapi":           azapiFunctions,
	"hashicorp/assert":      assertFunctions,
	"hashicorp/aws":         awsFunctions,
	"hashicorp/google":      googleFunctions,
	"hashicorp/google-beta": googleFunctions,
}

// Lookup returns the function name of the provider whose source address
// is source, and whether the table has it. The address may be written as
// a required_providers block writes it: "Azure/azapi",
// "registry.terraform.io/azure/azapi" and "registry.opentofu.org/Azure/azapi"
// are one provider, and a bare type ("aws") is in the hashicorp namespace.
func Lookup(source, name string) (function.Function, bool) {
	fn, ok := tables[key(source)][name]
	return fn, ok
}

// Names lists, sorted, the functions the table has for the provider whose
// source address is source; none for a provider it does not know.
func Names(source string) []string {
	fns := tables[key(source)]
	names := make([]string, 0, len(fns))
	for name := range fns {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}

// Undetermined marks the unknown result of a call whose answer depends on
// what only the provider itself holds (see the package documentation for
// where that is so): it is not unknown because an argument is, and a
// caller that tracks why values are unknown can tell it apart.
var Undetermined = undetermined{}

type undetermined struct{}

// GoString names the mark in %#v output.
func (undetermined) GoString() string { return "providerfuncs.Undetermined" }

// key is the form of a provider source address the tables are keyed by:
// lower case, without the host of either public registry.
func key(source string) string {
	s := strings.ToLower(source)
	if !strings.Contains(s, "/") {
		return "hashicorp/" + s
	}
	for _, host := range []string{"registry.terraform.io/", "registry.opentofu.org/"} {
		if rest, ok := strings.CutPrefix(s, host); ok {
			return rest
		}
	}
	return s
}

// stringParams are parameters of type string with the given names, which,
// as the plugin framework declares them by default, take neither null nor
// unknown values.
func stringParams(names ...string) []function.Parameter {
	params := make([]function.Parameter, len(names))
	for i, name := range names {
		params[i] = function.Parameter{Name: name, Type: cty.String}
	}
	return params
}

// newFunction is a provider function as Terraform calls one whose
// parameters take no null and no unknown values: Terraform rejects a null
// argument before calling the provider, and answers unknown without
// calling it when any argument is not wholly known (an unknown element of
// a list included). Marks on the arguments go to the result. impl sees
// only wholly known, unmarked, non-null arguments.
func newFunction(params []function.Parameter, ret cty.Type, impl func(args []cty.Value) (cty.Value, error)) function.Function {
	return function.New(&function.Spec{
		Params: params,
		Type:   function.StaticReturnType(ret),
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			for _, arg := range args {
				if !arg.IsWhollyKnown() {
					return cty.UnknownVal(ret), nil
				}
			}
			return impl(args)
		},
	})
}

// undeterminedVal is the result of a call the table cannot answer.
func undeterminedVal(ret cty.Type) cty.Value {
	return cty.UnknownVal(ret).Mark(Undetermined)
}
