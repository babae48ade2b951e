package config

import (
	"github.com/hashicorp/hcl/v2"
	"github.com/tfeval/tfeval/dialect"
)

// The schemas the decoder reads blocks with are made once, for each
// dialect and (where it matters) for override files, which require no
// argument: hcl only reads a schema, and a module's every block would
// otherwise build its own.
var (
	fileSchemas             = byDialect(newFileSchema)
	terraformBlockSchemas   = byDialect(newTerraformBlockSchema)
	outputBlockSchemas      = byDialectOverride(newOutputBlockSchema)
	checkRuleSchemas        = [2]*hcl.BodySchema{newCheckRuleSchema(false), newCheckRuleSchema(true)}
	resourceMetaSchemas     = [...]*hcl.BodySchema{ManagedResourceMode: newResourceMetaSchema(ManagedResourceMode), DataResourceMode: newResourceMetaSchema(DataResourceMode), EphemeralResourceMode: newResourceMetaSchema(EphemeralResourceMode)}
	managedLifecycleSchemas = byDialect(newManagedLifecycleSchema)
	moduleCallMetaSchemas   = byDialectOverride(newModuleCallMetaSchema)
	importBlockSchemas      = byDialect(newImportBlockSchema)
)

// dialectIndex is where a dialect's schema is in a table made by
// byDialect: every dialect but Terraform's reads as OpenTofu's does.
func dialectIndex(d dialect.Dialect) int {
	if d == dialect.Terraform {
		return 0
	}
	return 1
}

// byDialect makes a schema for each dialect.
func byDialect(make func(dialect.Dialect) *hcl.BodySchema) [2]*hcl.BodySchema {
	return [2]*hcl.BodySchema{make(dialect.Terraform), make(dialect.Tofu)}
}

// byDialectOverride makes a schema for each dialect, for ordinary files
// and for override files.
func byDialectOverride(make func(dialect.Dialect, bool) *hcl.BodySchema) [2][2]*hcl.BodySchema {
	return [2][2]*hcl.BodySchema{
		{make(dialect.Terraform, false), make(dialect.Terraform, true)},
		{make(dialect.Tofu, false), make(dialect.Tofu, true)},
	}
}

func overrideIndex(override bool) int {
	if override {
		return 1
	}
	return 0
}

// fileSchema lists the top-level block types of a configuration file.
func fileSchema(d dialect.Dialect) *hcl.BodySchema { return fileSchemas[dialectIndex(d)] }

func terraformBlockSchema(d dialect.Dialect) *hcl.BodySchema {
	return terraformBlockSchemas[dialectIndex(d)]
}

func outputBlockSchema(d dialect.Dialect, override bool) *hcl.BodySchema {
	return outputBlockSchemas[dialectIndex(d)][overrideIndex(override)]
}

func checkRuleSchema(override bool) *hcl.BodySchema { return checkRuleSchemas[overrideIndex(override)] }

func resourceMetaSchema(mode ResourceMode) *hcl.BodySchema { return resourceMetaSchemas[mode] }

func managedLifecycleSchema(d dialect.Dialect) *hcl.BodySchema {
	return managedLifecycleSchemas[dialectIndex(d)]
}

func moduleCallMetaSchema(d dialect.Dialect, override bool) *hcl.BodySchema {
	return moduleCallMetaSchemas[dialectIndex(d)][overrideIndex(override)]
}

func importBlockSchema(d dialect.Dialect) *hcl.BodySchema { return importBlockSchemas[dialectIndex(d)] }

func newFileSchema(d dialect.Dialect) *hcl.BodySchema {
	s := &hcl.BodySchema{Blocks: []hcl.BlockHeaderSchema{
		{Type: "terraform"},
		{Type: "required_providers"},
		{Type: "provider", LabelNames: []string{"name"}},
		{Type: "variable", LabelNames: []string{"name"}},
		{Type: "locals"},
		{Type: "output", LabelNames: []string{"name"}},
		{Type: "module", LabelNames: []string{"name"}},
		{Type: "resource", LabelNames: []string{"type", "name"}},
		{Type: "data", LabelNames: []string{"type", "name"}},
		{Type: "ephemeral", LabelNames: []string{"type", "name"}},
		{Type: "moved"},
		{Type: "import"},
		{Type: "check", LabelNames: []string{"name"}},
		{Type: "removed"},
	}}
	if d == dialect.Terraform {
		s.Blocks = append(s.Blocks, hcl.BlockHeaderSchema{Type: "action", LabelNames: []string{"type", "name"}})
	} else {
		s.Blocks = append(s.Blocks, hcl.BlockHeaderSchema{Type: "language"})
	}
	return s
}

func newTerraformBlockSchema(d dialect.Dialect) *hcl.BodySchema {
	s := &hcl.BodySchema{
		Attributes: []hcl.AttributeSchema{{Name: "required_version"}, {Name: "experiments"}, {Name: "language"}},
		Blocks: []hcl.BlockHeaderSchema{
			{Type: "backend", LabelNames: []string{"type"}},
			{Type: "cloud"},
			{Type: "required_providers"},
			{Type: "provider_meta", LabelNames: []string{"provider"}},
		},
	}
	if d == dialect.Terraform {
		s.Blocks = append(s.Blocks, hcl.BlockHeaderSchema{Type: "state_store", LabelNames: []string{"type"}})
	} else {
		s.Blocks = append(s.Blocks, hcl.BlockHeaderSchema{Type: "encryption"})
	}
	return s
}

// variableSchema is a variable block's schema, made once.
var variableSchema = newVariableBlockSchema()

func variableBlockSchema() *hcl.BodySchema { return variableSchema }

func newVariableBlockSchema() *hcl.BodySchema {
	return &hcl.BodySchema{
		Attributes: []hcl.AttributeSchema{
			{Name: "description"}, {Name: "default"}, {Name: "type"}, {Name: "sensitive"},
			{Name: "ephemeral"}, {Name: "nullable"}, {Name: "deprecated"}, {Name: "const"},
		},
		Blocks: []hcl.BlockHeaderSchema{{Type: "validation"}},
	}
}

func newOutputBlockSchema(d dialect.Dialect, override bool) *hcl.BodySchema {
	s := &hcl.BodySchema{
		Attributes: []hcl.AttributeSchema{
			{Name: "description"}, {Name: "value", Required: !override}, {Name: "sensitive"},
			{Name: "ephemeral"}, {Name: "depends_on"}, {Name: "deprecated"},
		},
		Blocks: []hcl.BlockHeaderSchema{{Type: "precondition"}, {Type: "postcondition"}},
	}
	if d == dialect.Terraform {
		s.Attributes = append(s.Attributes, hcl.AttributeSchema{Name: "type"})
	}
	return s
}

func newCheckRuleSchema(override bool) *hcl.BodySchema {
	return &hcl.BodySchema{Attributes: []hcl.AttributeSchema{
		{Name: "condition", Required: !override},
		{Name: "error_message", Required: !override},
	}}
}

// resourceMetaSchema holds the meta-arguments of resource, data and ephemeral
// blocks; whatever it does not name stays in Resource.Config.
func newResourceMetaSchema(mode ResourceMode) *hcl.BodySchema {
	s := &hcl.BodySchema{
		Attributes: []hcl.AttributeSchema{{Name: "count"}, {Name: "for_each"}, {Name: "provider"}, {Name: "depends_on"}},
		Blocks:     []hcl.BlockHeaderSchema{{Type: "lifecycle"}, {Type: "_"}, {Type: "locals"}},
	}
	if mode == ManagedResourceMode {
		s.Blocks = append(s.Blocks, hcl.BlockHeaderSchema{Type: "connection"},
			hcl.BlockHeaderSchema{Type: "provisioner", LabelNames: []string{"type"}})
	}
	return s
}

func newManagedLifecycleSchema(d dialect.Dialect) *hcl.BodySchema {
	s := &hcl.BodySchema{
		Attributes: []hcl.AttributeSchema{
			{Name: "create_before_destroy"}, {Name: "prevent_destroy"},
			{Name: "ignore_changes"}, {Name: "replace_triggered_by"},
		},
		Blocks: []hcl.BlockHeaderSchema{{Type: "precondition"}, {Type: "postcondition"}},
	}
	if d == dialect.Terraform {
		s.Blocks = append(s.Blocks, hcl.BlockHeaderSchema{Type: "action_trigger"})
	} else {
		s.Attributes = append(s.Attributes, hcl.AttributeSchema{Name: "destroy"}, hcl.AttributeSchema{Name: "enabled"})
	}
	return s
}

var provisionerMetaSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{{Name: "when"}, {Name: "on_failure"}},
	Blocks:     []hcl.BlockHeaderSchema{{Type: "connection"}, {Type: "lifecycle"}, {Type: "_"}},
}

func newModuleCallMetaSchema(d dialect.Dialect, override bool) *hcl.BodySchema {
	s := &hcl.BodySchema{
		Attributes: []hcl.AttributeSchema{
			{Name: "source", Required: !override}, {Name: "version"}, {Name: "count"},
			{Name: "for_each"}, {Name: "depends_on"}, {Name: "providers"},
		},
		Blocks: []hcl.BlockHeaderSchema{{Type: "_"}, {Type: "lifecycle"}, {Type: "locals"}, {Type: "provider", LabelNames: []string{"type"}}},
	}
	if d == dialect.Terraform {
		s.Attributes = append(s.Attributes, hcl.AttributeSchema{Name: "ignore_nested_deprecations"})
	}
	return s
}

// moduleLifecycleSchema is what OpenTofu's module lifecycle block holds.
var moduleLifecycleSchema = &hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: "enabled"}}}

// providerMetaSchema holds a provider block's meta-arguments and the names
// reserved in it; everything else is the provider's configuration.
var providerMetaSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{{Name: "alias"}, {Name: "version"},
		{Name: "count"}, {Name: "depends_on"}, {Name: "for_each"}, {Name: "source"}},
	Blocks: []hcl.BlockHeaderSchema{{Type: "_"}, {Type: "lifecycle"}, {Type: "locals"}},
}

var checkBlockSchema = &hcl.BodySchema{Blocks: []hcl.BlockHeaderSchema{
	{Type: "data", LabelNames: []string{"type", "name"}},
	{Type: "assert"},
}}

var movedBlockSchema = &hcl.BodySchema{Attributes: []hcl.AttributeSchema{
	{Name: "from", Required: true}, {Name: "to", Required: true},
}}

func newImportBlockSchema(d dialect.Dialect) *hcl.BodySchema {
	s := &hcl.BodySchema{Attributes: []hcl.AttributeSchema{
		{Name: "to", Required: true}, {Name: "id"}, {Name: "provider"}, {Name: "for_each"},
	}}
	if d == dialect.Terraform {
		s.Attributes = append(s.Attributes, hcl.AttributeSchema{Name: "identity"})
	}
	return s
}

var removedMetaSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{{Name: "from", Required: true}},
	Blocks: []hcl.BlockHeaderSchema{
		{Type: "lifecycle"}, {Type: "connection"},
		{Type: "provisioner", LabelNames: []string{"type"}},
	},
}
