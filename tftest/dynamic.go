package tftest

import (
	"github.com/tfeval/tfeval/config"
	"github.com/tfeval/tfeval/lang"
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

// dynamicArgument reports whether attribute name of resource res, in
// module m, is of dynamic type in its provider's schema.
func dynamicArgument(m *config.Module, res *config.Resource, name string) bool {
	mode := "resource"
	switch res.Mode {
	case config.DataResourceMode:
		mode = "data"
	case config.EphemeralResourceMode:
		mode = "ephemeral"
	}
	for _, n := range dynamicArguments[providerSource(m, lang.ResourceProviderName(res))][mode][res.Type] {
		if n == name {
			return true
		}
	}
	return false
}
