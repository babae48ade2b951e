package config

import (
	"sync/atomic"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/ext/typeexpr"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
)

// Config is one node of the module tree: a module together with where it was
// called from. The root node has an empty Path and no Parent.
type Config struct {
	Root     *Config
	Parent   *Config
	Path     []string // module call names from the root, e.g. ["network", "subnets"]
	Children map[string]*Config
	Module   *Module
	// NotInstalled lists, in name order, the module calls of Module whose
	// source is not installed, when Options.MissingModules let the load go
	// on without them; they have no entry in Children.
	NotInstalled []string

	// CallRange is the declaration range of the module block that called this
	// module (zero for the root).
	CallRange hcl.Range
	// SourceAddr is the source argument of the calling module block ("" for the root).
	SourceAddr string
	// Version is the version constraint of the calling module block ("" for
	// the root and for a call without one).
	Version string
}

// Module is the merged content of one module directory.
type Module struct {
	// SourceDir is the directory as Terraform reports it in path.module:
	// relative to the working directory when it was given relative, with
	// forward slashes, "." for the root.
	SourceDir string

	// Files lists the configuration files read, primary files first and then
	// override files, each in lexical order.
	Files []string
	// Bodies are the files of Files as parsed, in the same order: an
	// empty body for a file that could not be read or parsed. Output that
	// needs a file's structure (the block a diagnostic is in) takes it
	// from here rather than parse the file again.
	Bodies []hcl.Body

	RequiredVersion   []hcl.Expression
	RequiredProviders map[string]*RequiredProvider
	Backend           *Backend

	Variables          map[string]*Variable
	Locals             map[string]*Local
	Outputs            map[string]*Output
	ModuleCalls        map[string]*ModuleCall
	ProviderConfigs    map[string]*Provider // key: "name" or "name.alias"
	ManagedResources   map[string]*Resource // key: "TYPE.NAME"
	DataResources      map[string]*Resource // key: "data.TYPE.NAME"
	EphemeralResources map[string]*Resource // key: "ephemeral.TYPE.NAME"
	Checks             map[string]*Check
	Moved              []*Moved
	Removed            []*Removed
	Import             []*Import

	// requiredProvidersRange is where the module's one required_providers block is.
	requiredProvidersRange *hcl.Range

	// derived keeps what Derived made last, with its key.
	derived derivedSlot
}

// Derived returns the value kept with the module for key, made by make the
// first time it is asked for, as Resource.Derived does for a block: for
// data a package evaluating the configuration works out from the module
// alone (what its expressions read, what each of its objects refers to),
// so that every evaluation a ModuleCache hands the module to (a scan's
// roots calling it) shares it. make must depend only on the module and
// key. The module keeps one value, the last one made, so a cached module
// does not grow with every call. Keys are compared with ==.
func (m *Module) Derived(key any, make func() any) any {
	return m.derived.get(key, make)
}

// VariableParsingMode says how a string given on the command line or in the
// environment becomes a value for a variable.
type VariableParsingMode int

const (
	// VariableParseLiteral takes the string as it is (primitive and untyped variables).
	VariableParseLiteral VariableParsingMode = iota
	// VariableParseHCL parses the string as an HCL expression (complex types and any).
	VariableParseHCL
)

// Variable is a variable block.
type Variable struct {
	Name        string
	Description string
	// Default is cty.NilVal when no default was given; a variable without a
	// default is required. A default of null makes it optional.
	Default cty.Value
	// Type is the concrete type (ConstraintType without optional attributes).
	Type           cty.Type
	ConstraintType cty.Type
	TypeDefaults   *typeexpr.Defaults
	ParsingMode    VariableParsingMode
	Validations    []*CheckRule

	Sensitive, Ephemeral, Const, Nullable      bool
	DescriptionSet, SensitiveSet, EphemeralSet bool
	ConstSet, NullableSet, TypeSet             bool
	Deprecated                                 string
	DeclRange                                  hcl.Range
	// DefaultRange is where the default is written (zero without one).
	DefaultRange hcl.Range
	// IgnoredDefaultAttrs are, in name order, the attributes the default
	// gives that the variable's object type does not have: conversion
	// drops them.
	IgnoredDefaultAttrs []string
}

// Required reports whether the variable has no default.
func (v *Variable) Required() bool { return v.Default == cty.NilVal }

// CheckRule is a validation, precondition, postcondition or check assert.
type CheckRule struct {
	Condition    hcl.Expression
	ErrorMessage hcl.Expression
	DeclRange    hcl.Range
}

// Local is one entry of a locals block.
type Local struct {
	Name      string
	Expr      hcl.Expression
	DeclRange hcl.Range
}

// Output is an output block.
type Output struct {
	Name        string
	Description string
	Expr        hcl.Expression
	// ConstraintType is cty.NilType when the output has no type argument.
	ConstraintType cty.Type
	TypeDefaults   *typeexpr.Defaults
	DependsOn      []hcl.Traversal
	Preconditions  []*CheckRule

	Sensitive, Ephemeral       bool
	SensitiveSet, EphemeralSet bool
	// Deprecated is the deprecation message ("" when not deprecated).
	Deprecated string
	DeclRange  hcl.Range
}

// ModuleCall is a module block.
type ModuleCall struct {
	Name        string
	SourceAddr  string
	SourceRange hcl.Range
	// SourceExpr is the source argument when it is not a literal but
	// built from variables or locals (Terraform 1.15's const variables,
	// OpenTofu's static evaluation); SourceAddr is then empty, and the
	// address each call resolves to is its child Config's SourceAddr.
	SourceExpr hcl.Expression
	Version    string
	// VersionExpr is the version argument when it is not a literal; the
	// constraint it resolves to is the child Config's Version.
	VersionExpr hcl.Expression
	// VersionRange is where the version argument's value is; the zero
	// range when there is no version argument.
	VersionRange hcl.Range
	// Config holds the module's input arguments (everything that is not a
	// meta-argument).
	Config  hcl.Body
	Count   hcl.Expression
	ForEach hcl.Expression
	// Enabled is OpenTofu's lifecycle enabled (1.11), as for a resource.
	Enabled   hcl.Expression
	DependsOn []hcl.Traversal
	Providers []PassedProvider
	DeclRange hcl.Range
}

// PassedProvider is one entry of a module block's providers map.
type PassedProvider struct {
	InChild, InParent ProviderConfigRef
}

// ProviderConfigRef names a provider configuration: NAME or NAME.ALIAS.
type ProviderConfigRef struct {
	Name      string
	Alias     string
	NameRange hcl.Range
	// KeyExpr is the instance key of NAME.ALIAS[KEY], a reference to one
	// configuration of a provider block with for_each (OpenTofu); nil
	// otherwise.
	KeyExpr hcl.Expression
}

// Provider is a provider block.
type Provider struct {
	Name  string
	Alias string
	// Version is the legacy version constraint argument ("" when absent);
	// HasVersion is set when the block has that argument.
	Version    string
	HasVersion bool
	// ForEach makes one configuration per element (OpenTofu 1.9), each
	// named NAME.ALIAS[KEY]; its value must be known before evaluation.
	ForEach   hcl.Expression
	Config    hcl.Body
	DeclRange hcl.Range
}

// RequiredProvider is one entry of terraform { required_providers { ... } }.
type RequiredProvider struct {
	Name      string
	Source    string // as written, e.g. "hashicorp/aws"; may be empty
	Version   string
	DeclRange hcl.Range
	// ConfigurationAliases lists the aliases a child module expects its caller to pass.
	ConfigurationAliases []ProviderConfigRef
}

// Backend is a backend or cloud block inside the terraform block.
type Backend struct {
	// Type is the backend type label; "cloud" for a cloud block (Cloud
	// true); the store type for a state_store block (StateStore true).
	Type       string
	Cloud      bool
	StateStore bool
	Config     hcl.Body
	DeclRange  hcl.Range
}

// ResourceMode tells managed resources, data sources and ephemeral resources apart.
type ResourceMode int

const (
	ManagedResourceMode   ResourceMode = iota // a resource block
	DataResourceMode                          // a data block
	EphemeralResourceMode                     // an ephemeral block
)

// Resource is a resource, data or ephemeral block (also a data block scoped
// inside a check block).
type Resource struct {
	Mode ResourceMode
	Type string
	Name string
	// Config is the body without meta-arguments (count, for_each, provider,
	// depends_on, lifecycle, connection, provisioner are removed). Nested
	// blocks, including dynamic blocks, stay in it.
	Config  hcl.Body
	Count   hcl.Expression
	ForEach hcl.Expression
	// Enabled is OpenTofu's lifecycle enabled (1.11): false leaves the
	// block without its single instance, and its value null.
	Enabled     hcl.Expression
	ProviderRef *ProviderConfigRef
	DependsOn   []hcl.Traversal

	Preconditions  []*CheckRule
	Postconditions []*CheckRule

	// Managed holds what only managed resources have; nil for the other modes.
	Managed *ManagedResource

	DeclRange hcl.Range
	TypeRange hcl.Range

	// Check is the name of the check block a scoped data block belongs to
	// ("" otherwise); such a data resource cannot be referenced from outside it.
	Check string

	// derived keeps what Derived made last, with its key.
	derived derivedSlot

	// syntax is the block's native-syntax body, meta the schema of the
	// meta-arguments taken out of it, and decoded the body without them
	// that Config was made (see VisibleSyntax).
	syntax  *hclsyntax.Body
	meta    *hcl.BodySchema
	decoded hcl.Body
}

// VisibleSyntax returns the native-syntax body of the resource's block and
// the schema of the meta-arguments its Config hides, while Config is still
// the body the block was decoded to (no override file merged into it):
// VisibleContent of Config is then the body's attributes that the schema
// does not name, and its blocks of types the schema does not name, of
// each type those with as many labels as its first. ok is false for any
// other Config.
func (r *Resource) VisibleSyntax() (body *hclsyntax.Body, meta *hcl.BodySchema, ok bool) {
	if r.syntax == nil || r.Config != r.decoded {
		return nil, nil, false
	}
	return r.syntax, r.meta, true
}

// derivedSlot keeps one value derived from a block or module, the last one
// made, with the key it was made for.
type derivedSlot struct {
	last atomic.Pointer[derivedValue]
}

// derivedValue is a value Derived made, and the key it was made for.
type derivedValue struct {
	key, value any
}

// get returns the value kept for key, made by make when the slot holds
// none for it (which then replaces the one it held).
func (s *derivedSlot) get(key any, make func() any) any {
	if d := s.last.Load(); d != nil && d.key == key {
		return d.value
	}
	d := &derivedValue{key: key, value: make()}
	s.last.Store(d)
	return d.value
}

// Derived returns the value kept with the block for key, made by make the
// first time it is asked for. It is for data that a package evaluating
// the configuration works out from the block alone (how to decode its
// body, what the body refers to): a module a ModuleCache hands out is
// shared by every evaluation that loads it, so such data is then worked
// out once for all of them (a scan's roots calling the module) and not in
// each. make must depend only on the block and key. The block keeps one
// value, the last one made: asked with another key (a schema parsed
// anew by each of a long-lived program's evaluations), Derived makes and
// keeps a new one, so a cached module does not grow with every call.
// Keys are compared with ==.
func (r *Resource) Derived(key any, make func() any) any {
	return r.derived.get(key, make)
}

// Addr is the resource's address inside its module, e.g. "aws_instance.web"
// or "data.aws_ami.ubuntu".
func (r *Resource) Addr() string {
	switch r.Mode {
	case DataResourceMode:
		return "data." + r.Type + "." + r.Name
	case EphemeralResourceMode:
		return "ephemeral." + r.Type + "." + r.Name
	}
	return r.Type + "." + r.Name
}

// ManagedResource is the part of a resource block only managed resources have.
type ManagedResource struct {
	Connection   *Connection
	Provisioners []*Provisioner

	CreateBeforeDestroy, PreventDestroy       bool
	CreateBeforeDestroySet, PreventDestroySet bool
	IgnoreChanges                             []hcl.Traversal
	IgnoreAllChanges                          bool
	ReplaceTriggeredBy                        []hcl.Expression
}

// Connection is a connection block.
type Connection struct {
	Config    hcl.Body
	DeclRange hcl.Range
}

// Provisioner is a provisioner block.
type Provisioner struct {
	Type       string
	Config     hcl.Body
	Connection *Connection
	When       string // "create" or "destroy"
	OnFailure  string // "fail" or "continue"
	DeclRange  hcl.Range
}

// Check is a check block.
type Check struct {
	Name         string
	DataResource *Resource // the scoped data block, or nil
	Asserts      []*CheckRule
	DeclRange    hcl.Range
}

// Moved is a moved block.
type Moved struct {
	From, To  hcl.Expression
	DeclRange hcl.Range
}

// Removed is a removed block.
type Removed struct {
	From      hcl.Expression
	Config    hcl.Body
	DeclRange hcl.Range
}

// Import is an import block.
type Import struct {
	To, ID, Identity hcl.Expression
	// Target is the resource To names, nil when To is not an address.
	Target      *ImportTarget
	ForEach     hcl.Expression
	ProviderRef *ProviderConfigRef
	DeclRange   hcl.Range
}
