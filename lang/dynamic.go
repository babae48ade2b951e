package lang

import (
	"slices"

	"github.com/hashicorp/hcl/v2/hcldec"

	"github.com/tfeval/tfeval/config"
)

// dynamicArguments are the arguments and attributes that providers tfeval
// has no schema for declare of dynamic type (cty.DynamicPseudoType): a
// value given to one keeps the type the configuration gives it, so
// comparing it decides the same with or without the schema. By provider
// source, mode ("resource", "data", "ephemeral") and type, from the
// providers' documentation (Azure/azapi 2.x: "(Dynamic)" in its resource,
// data source and ephemeral resource pages).
var dynamicArguments = map[string]map[string]map[string][]string{
	"azure/azapi": {
		"resource": {
			"azapi_resource":            {"body", "output", "replace_triggers_external_values", "response_export_values", "sensitive_body"},
			"azapi_update_resource":     {"body", "output", "replace_triggers_external_values", "response_export_values", "sensitive_body"},
			"azapi_data_plane_resource": {"body", "output", "replace_triggers_external_values", "response_export_values", "sensitive_body"},
			"azapi_resource_action":     {"body", "output", "response_export_values", "sensitive_body", "sensitive_output", "sensitive_response_export_values"},
		},
		"data": {
			"azapi_resource":            {"output", "response_export_values"},
			"azapi_data_plane_resource": {"body", "output", "response_export_values"},
			"azapi_resource_action":     {"body", "output", "response_export_values", "sensitive_output", "sensitive_response_export_values"},
			"azapi_resource_list":       {"output", "response_export_values"},
		},
		"ephemeral": {
			"azapi_data_plane_resource": {"body", "output", "response_export_values"},
			"azapi_resource_action":     {"body", "output", "response_export_values", "sensitive_body"},
		},
	},
}

// DynamicArgument reports whether attribute name of resource res, in
// module m, is of dynamic type in its provider's schema, as the providers'
// documentation says for the few providers tfeval knows this of; false
// when tfeval does not know.
func DynamicArgument(m *config.Module, res *config.Resource, name string) bool {
	return slices.Contains(dynamicNames(m, res), name)
}

// dynamicNames are the attributes of resource res, in module m, that
// dynamicArguments lists.
func dynamicNames(m *config.Module, res *config.Resource) []string {
	mode := "resource"
	switch res.Mode {
	case config.DataResourceMode:
		mode = "data"
	case config.EphemeralResourceMode:
		mode = "ephemeral"
	}
	return dynamicArguments[providerKey(providerSource(m, resourceProviderName(res)))][mode][res.Type]
}

// dynamicSpecs are the specs of the arguments of spec, the implied spec of
// resource res's body in module m, that DynamicArgument reports: planning
// without schema keeps those exactly as written (see readTree.fill).
// Kept in resourceInfo.
func dynamicSpecs(m *config.Module, res *config.Resource, spec hcldec.Spec) []*hcldec.AttrSpec {
	obj, ok := spec.(hcldec.ObjectSpec)
	if !ok {
		return nil
	}
	var out []*hcldec.AttrSpec
	for _, name := range dynamicNames(m, res) {
		if as, ok := obj[name].(*hcldec.AttrSpec); ok {
			out = append(out, as)
		}
	}
	return out
}

// SetBlock reports whether nested block type name of resource res, in
// module m, has nesting mode set in its provider's schema, for the
// providers setBlocks lists; false when tfeval does not know.
func SetBlock(m *config.Module, res *config.Resource, name string) bool {
	mode := "resource"
	if res.Mode == config.DataResourceMode {
		mode = "data"
	}
	return slices.Contains(setBlocks[providerKey(providerSource(m, resourceProviderName(res)))][mode][res.Type], name)
}
