package format

import (
	"encoding/json"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"

	"github.com/tfeval/tfeval/config"
	"github.com/tfeval/tfeval/dialect"
	"github.com/tfeval/tfeval/lang"
	"github.com/tfeval/tfeval/typeexpr"
)

// Configuration is the module tree as written: every module's variables,
// outputs, resources and module calls, with each argument's expression
// described by the objects it refers to or, when it refers to none, its
// constant value.
type Configuration struct {
	// ProviderConfig are the provider configurations by key: "NAME" or
	// "NAME.ALIAS" in the root module, "module.PATH:NAME" in another.
	ProviderConfig map[string]ProviderConfig `json:"provider_config,omitempty"`
	RootModule     ConfigModule              `json:"root_module"`
}

// ProviderConfig is one provider configuration, written or implied by the
// resources that use the provider.
type ProviderConfig struct {
	Name              string         `json:"name"`
	FullName          string         `json:"full_name"`
	Alias             string         `json:"alias,omitempty"`
	ModuleAddress     string         `json:"module_address,omitempty"`
	VersionConstraint string         `json:"version_constraint,omitempty"`
	Expressions       map[string]any `json:"expressions,omitempty"`
}

// ConfigModule is one module of the tree.
type ConfigModule struct {
	Outputs     map[string]ConfigOutput   `json:"outputs,omitempty"`
	Resources   []ConfigResource          `json:"resources,omitempty"`
	ModuleCalls map[string]ModuleCall     `json:"module_calls,omitempty"`
	Variables   map[string]ConfigVariable `json:"variables,omitempty"`
}

// ConfigOutput is an output block.
type ConfigOutput struct {
	Sensitive   bool       `json:"sensitive,omitempty"`
	Expression  Expression `json:"expression"`
	Description string     `json:"description,omitempty"`
	DependsOn   []string   `json:"depends_on,omitempty"`
}

// ConfigResource is a resource or data block (OpenTofu lists ephemeral
// blocks too).
type ConfigResource struct {
	Address           string `json:"address"`
	Mode              string `json:"mode"`
	Type              string `json:"type"`
	Name              string `json:"name"`
	ProviderConfigKey string `json:"provider_config_key"`
	// Expressions are the block's arguments by name; a nested block is an
	// object of its own arguments, or an array of them for blocks that
	// repeat. Dynamic blocks are not listed.
	Expressions       map[string]any `json:"expressions,omitempty"`
	SchemaVersion     int64          `json:"schema_version"`
	CountExpression   *Expression    `json:"count_expression,omitempty"`
	ForEachExpression *Expression    `json:"for_each_expression,omitempty"`
	DependsOn         []string       `json:"depends_on,omitempty"`
}

// ModuleCall is a module block with the module it calls.
type ModuleCall struct {
	Source            string         `json:"source"`
	Expressions       map[string]any `json:"expressions,omitempty"`
	CountExpression   *Expression    `json:"count_expression,omitempty"`
	ForEachExpression *Expression    `json:"for_each_expression,omitempty"`
	Module            ConfigModule   `json:"module"`
	VersionConstraint string         `json:"version_constraint,omitempty"`
	DependsOn         []string       `json:"depends_on,omitempty"`
}

// ConfigVariable is a variable block. Terraform writes its default (converted
// to its type), description and sensitivity; OpenTofu also its type,
// whether it is required and whether it is ephemeral.
type ConfigVariable struct {
	Type        json.RawMessage `json:"type,omitempty"`
	Default     json.RawMessage `json:"default,omitempty"`
	Description string          `json:"description,omitempty"`
	Required    bool            `json:"required,omitempty"`
	Sensitive   bool            `json:"sensitive,omitempty"`
	Ephemeral   bool            `json:"ephemeral,omitempty"`
}

// Expression describes an expression: the objects it refers to, each
// followed by the objects containing it (`var.a.b`, `var.a`), or, when it
// refers to none and needs no function, its value.
type Expression struct {
	ConstantValue json.RawMessage `json:"constant_value,omitempty"`
	References    []string        `json:"references,omitempty"`
}

func (e Expression) empty() bool { return e.ConstantValue == nil && e.References == nil }

// configWriter builds the configuration part of a plan.
type configWriter struct {
	d         dialect.Dialect
	schemas   *lang.ProviderSchemas
	providers map[string]ProviderConfig
	// inherits maps the key of a configuration a module takes from its
	// caller (implied, required without a block, or passed) to the key of
	// the one it resolves to; such keys are not written, and resources
	// show the key they resolve to.
	inherits map[string]string
}

// newConfiguration describes the loaded module tree of an evaluation.
func newConfiguration(res *lang.Result, d dialect.Dialect, schemas *lang.ProviderSchemas) Configuration {
	w := &configWriter{d: d, schemas: schemas, providers: map[string]ProviderConfig{}, inherits: map[string]string{}}
	root := res.Root().Config
	w.providerConfigs(root)
	out := Configuration{RootModule: w.module(root)}
	for key := range w.inherits {
		delete(w.providers, key)
	}
	if len(w.providers) > 0 {
		out.ProviderConfig = w.providers
	}
	return out
}

// module describes one module of the tree and, through its calls, those below.
func (w *configWriter) module(c *config.Config) ConfigModule {
	var out ConfigModule
	m := c.Module
	if m == nil {
		return out
	}
	for _, name := range sortedKeys(m.Variables) {
		if out.Variables == nil {
			out.Variables = map[string]ConfigVariable{}
		}
		out.Variables[name] = w.variable(m.Variables[name])
	}
	for _, name := range sortedKeys(m.Outputs) {
		o := m.Outputs[name]
		if out.Outputs == nil {
			out.Outputs = map[string]ConfigOutput{}
		}
		out.Outputs[name] = ConfigOutput{
			Sensitive:   o.Sensitive,
			Expression:  w.expression(o.Expr),
			Description: o.Description,
			DependsOn:   traversalStrings(o.DependsOn),
		}
	}
	sets := []map[string]*config.Resource{m.ManagedResources, m.DataResources}
	if w.d == dialect.Tofu {
		sets = append(sets, m.EphemeralResources)
	}
	for _, set := range sets {
		for _, key := range sortedKeys(set) {
			out.Resources = append(out.Resources, w.resource(c, set[key]))
		}
	}
	for _, name := range sortedKeys(m.ModuleCalls) {
		call := m.ModuleCalls[name]
		mc := ModuleCall{
			Source:            call.SourceAddr,
			Expressions:       w.attributes(call.Config),
			CountExpression:   w.optional(call.Count),
			ForEachExpression: w.optional(call.ForEach),
			VersionConstraint: call.Version,
			DependsOn:         traversalStrings(call.DependsOn),
		}
		if child := c.Children[name]; child != nil {
			mc.Module = w.module(child)
			// A source or version built from const variables (Terraform)
			// or evaluated early (OpenTofu) is written as it resolved.
			if call.SourceExpr != nil {
				mc.Source = child.SourceAddr
			}
			if call.VersionExpr != nil {
				mc.VersionConstraint = child.Version
			}
		}
		if out.ModuleCalls == nil {
			out.ModuleCalls = map[string]ModuleCall{}
		}
		out.ModuleCalls[name] = mc
	}
	return out
}

// variable describes a variable block.
func (w *configWriter) variable(v *config.Variable) ConfigVariable {
	cv := ConfigVariable{Description: v.Description, Sensitive: v.Sensitive}
	constraint := v.ConstraintType
	if constraint == cty.NilType {
		constraint = cty.DynamicPseudoType
	}
	if v.Default != cty.NilVal {
		def := v.Default
		if conv, err := typeexpr.Convert(v.Default, constraint, v.TypeDefaults); err == nil {
			def = conv
		}
		if vj, ok := plainJSON(def); ok {
			cv.Default = vj
		}
	}
	if w.d == dialect.Tofu {
		if constraint != cty.DynamicPseudoType {
			cv.Type, _ = ctyjson.MarshalType(constraint)
		}
		cv.Required = v.Required()
		cv.Ephemeral = v.Ephemeral
	}
	return cv
}

// resource describes a resource, data or ephemeral block.
func (w *configWriter) resource(c *config.Config, r *config.Resource) ConfigResource {
	cr := ConfigResource{
		Address:           r.Addr(),
		Mode:              modeName(r.Mode),
		Type:              r.Type,
		Name:              r.Name,
		ProviderConfigKey: w.providerKey(c, r),
		CountExpression:   w.optional(r.Count),
		ForEachExpression: w.optional(r.ForEach),
		DependsOn:         traversalStrings(r.DependsOn),
	}
	schema := w.schemas.ResourceSchema(c.Module, r)
	if schema != nil {
		cr.SchemaVersion = schema.Version
	}
	cr.Expressions = w.body(r.Config, schema)
	return cr
}

// optional describes a count or for_each expression: nil without one, or
// when it neither refers to anything nor has a value without functions.
func (w *configWriter) optional(e hcl.Expression) *Expression {
	if e == nil {
		return nil
	}
	x := w.expression(e)
	if x.empty() {
		return nil
	}
	return &x
}

// expression describes one expression.
func (w *configWriter) expression(e hcl.Expression) Expression {
	if e == nil {
		return Expression{}
	}
	var refs []string
	for _, t := range e.Variables() {
		refs = append(refs, traversalRefs(t)...)
	}
	if w.d == dialect.Tofu {
		refs = append(refs, providerFunctions(e)...)
	}
	// The binaries try every expression as a constant too: one that
	// refers to something may still have a value without it (true || x).
	x := Expression{References: refs}
	v, diags := e.Value(nil)
	if diags.HasErrors() || !v.IsWhollyKnown() {
		return x
	}
	if b, err := ctyjson.Marshal(v, v.Type()); err == nil {
		x.ConstantValue = b
	}
	return x
}

// attributes describes the arguments of a body without a schema: a
// module call's inputs.
func (w *configWriter) attributes(body hcl.Body) map[string]any {
	if body == nil {
		return nil
	}
	attrs, _ := body.JustAttributes()
	out := map[string]any{}
	for name, a := range attrs {
		out[name] = w.expression(a.Expr)
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// body describes the arguments and static nested blocks of a resource
// body, as its schema (when there is one) decodes it.
func (w *configWriter) body(body hcl.Body, schema *lang.Block) map[string]any {
	if body == nil {
		return nil
	}
	if schema == nil {
		return w.bodyWithoutSchema(body, resourceMeta)
	}
	bs := &hcl.BodySchema{}
	for _, name := range sortedKeys(schema.Attributes) {
		bs.Attributes = append(bs.Attributes, hcl.AttributeSchema{Name: name})
	}
	for _, name := range sortedKeys(schema.BlockTypes) {
		bs.Blocks = append(bs.Blocks, hcl.BlockHeaderSchema{Type: name})
	}
	content, _, _ := body.PartialContent(bs)
	if content == nil {
		return nil
	}
	out := map[string]any{}
	for name, a := range content.Attributes {
		out[name] = w.expression(a.Expr)
	}
	byType := map[string][]*hcl.Block{}
	for _, b := range content.Blocks {
		byType[b.Type] = append(byType[b.Type], b)
	}
	for name, blocks := range byType {
		nb := schema.BlockTypes[name]
		switch nb.Nesting {
		case lang.NestingSingle, lang.NestingGroup:
			out[name] = nonNil(w.body(blocks[0].Body, nb.Block))
		default:
			list := make([]any, 0, len(blocks))
			for _, b := range blocks {
				list = append(list, nonNil(w.body(b.Body, nb.Block)))
			}
			out[name] = list
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// bodyWithoutSchema describes a body whose schema is not known: every
// argument, and nested blocks as arrays of their arguments.
func (w *configWriter) bodyWithoutSchema(body hcl.Body, skip map[string]bool) map[string]any {
	sb, ok := body.(*hclsyntax.Body)
	if !ok {
		return w.attributes(body)
	}
	out := map[string]any{}
	for name, a := range sb.Attributes {
		if skip[name] {
			continue
		}
		out[name] = w.expression(a.Expr)
	}
	for _, b := range sb.Blocks {
		if b.Type == "dynamic" || skip[b.Type] {
			continue
		}
		list, _ := out[b.Type].([]any)
		out[b.Type] = append(list, nonNil(w.bodyWithoutSchema(b.Body, nil)))
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// nonNil is m, or an empty map for nil, so that a block without arguments
// is written as {}.
func nonNil(m map[string]any) map[string]any {
	if m == nil {
		return map[string]any{}
	}
	return m
}

// providerBlock records a provider block's configuration.
func (w *configWriter) providerBlock(c *config.Config, p *config.Provider) {
	key := p.Name
	if p.Alias != "" {
		key += "." + p.Alias
	}
	pc := ProviderConfig{Name: p.Name, FullName: providerFullName(c, p.Name, w.d), Alias: p.Alias, VersionConstraint: p.Version}
	if rp := c.Module.RequiredProviders[p.Name]; rp != nil && pc.VersionConstraint == "" {
		pc.VersionConstraint = rp.Version
	}
	pc.ModuleAddress = modulePath(c.Path)
	key = providerEntryKey(c.Path, key)
	var schema *lang.Block
	if ps := w.schemas.ProviderSchema(c.Module, p.Name); ps != nil {
		schema = ps.Provider
	}
	if schema != nil {
		pc.Expressions = w.body(p.Config, schema)
	} else if p.Config != nil {
		pc.Expressions = w.bodyWithoutSchema(p.Config, map[string]bool{"alias": true, "version": true})
	}
	w.providers[key] = pc
}

// providerKey is the key of the provider configuration a resource uses:
// its module's entry for the provider's local name (and alias), or the
// entry that one resolves to in a calling module.
func (w *configWriter) providerKey(c *config.Config, r *config.Resource) string {
	local := lang.ResourceProviderName(r)
	if r.ProviderRef != nil && r.ProviderRef.Alias != "" {
		local += "." + r.ProviderRef.Alias
	}
	key := providerEntryKey(c.Path, local)
	if to, ok := w.inherits[key]; ok {
		return to
	}
	return key
}

// providerConfigs records the provider configuration entries of module c
// and those below it, as Terraform and OpenTofu write them: one for each
// provider block; one for each required provider (and each alias it
// expects to be passed); one named for the type of every other provider
// the module needs (its resources', its blocks'); and one for each
// configuration a module call passes. An entry for a provider the module
// does not configure itself resolves to the caller's entry of the same
// provider where the caller has one, and is then not written.
func (w *configWriter) providerConfigs(c *config.Config) {
	m := c.Module
	if m == nil {
		return
	}
	for _, key := range sortedKeys(m.ProviderConfigs) {
		w.providerBlock(c, m.ProviderConfigs[key])
	}
	moduleAddr := modulePath(c.Path)
	for _, local := range sortedKeys(m.RequiredProviders) {
		rp := m.RequiredProviders[local]
		full := providerFullName(c, local, w.d)
		for _, alias := range rp.ConfigurationAliases {
			key := providerEntryKey(c.Path, local+"."+alias.Alias)
			if _, ok := w.providers[key]; !ok {
				w.providers[key] = ProviderConfig{Name: local, FullName: full, ModuleAddress: moduleAddr, VersionConstraint: rp.Version}
			}
		}
		w.inheritedEntry(c, local, local, full, rp.Version)
	}
	for _, req := range providerRequirements(c, w.d) {
		w.inheritedEntry(c, req.typ, req.typ, req.full, "")
	}
	for _, name := range sortedKeys(m.ModuleCalls) {
		child := c.Children[name]
		if child == nil || child.Module == nil {
			continue
		}
		for _, pp := range m.ModuleCalls[name].Providers {
			inChild, inParent := pp.InChild.Name, pp.InParent.Name
			if pp.InChild.Alias != "" {
				inChild += "." + pp.InChild.Alias
			}
			if pp.InParent.Alias != "" {
				inParent += "." + pp.InParent.Alias
			}
			full := providerFullName(child, pp.InChild.Name, w.d)
			key := providerEntryKey(child.Path, inChild)
			w.providers[key] = ProviderConfig{Name: inChild, FullName: full, ModuleAddress: modulePath(child.Path)}
			w.resolve(key, providerEntryKey(c.Path, inParent), full)
		}
		w.providerConfigs(child)
	}
}

// inheritedEntry records, unless module c has it already, the entry key
// (a local name) for provider full, which resolves to the caller's entry
// named parentName when the caller has one for the same provider.
func (w *configWriter) inheritedEntry(c *config.Config, key, parentName, full, version string) {
	k := providerEntryKey(c.Path, key)
	if _, ok := w.providers[k]; ok {
		return
	}
	w.providers[k] = ProviderConfig{Name: key, FullName: full, ModuleAddress: modulePath(c.Path), VersionConstraint: version}
	if c.Parent != nil {
		w.resolve(k, providerEntryKey(c.Parent.Path, parentName), full)
	}
}

// resolve makes key resolve to the entry at parentKey when there is one
// for provider full, or to what that one resolves to.
func (w *configWriter) resolve(key, parentKey, full string) {
	if p, ok := w.providers[parentKey]; !ok || p.FullName != full {
		return
	}
	if to, ok := w.inherits[parentKey]; ok {
		parentKey = to
	}
	w.inherits[key] = parentKey
}

// providerEntryKey is the key of a provider configuration entry: the local
// name (with its alias) in the root module, prefixed by the module's
// address elsewhere.
func providerEntryKey(path []string, local string) string {
	if len(path) == 0 {
		return local
	}
	return modulePath(path) + ":" + local
}

// providerRequirement is a provider a module needs: its source address
// and its type (the last part of the address).
type providerRequirement struct{ full, typ string }

// providerRequirements lists the providers module c needs by their own
// declarations and blocks (not its children's): required providers,
// provider blocks and every resource's provider, sorted by address.
func providerRequirements(c *config.Config, d dialect.Dialect) []providerRequirement {
	m := c.Module
	seen := map[string]bool{}
	add := func(local string) { seen[providerFullName(c, local, d)] = true }
	for local := range m.RequiredProviders {
		add(local)
	}
	for _, p := range m.ProviderConfigs {
		add(p.Name)
	}
	for _, set := range []map[string]*config.Resource{m.ManagedResources, m.DataResources, m.EphemeralResources} {
		for _, r := range set {
			add(lang.ResourceProviderName(r))
		}
	}
	var out []providerRequirement
	for _, full := range sortedKeys(seen) {
		out = append(out, providerRequirement{full: full, typ: full[strings.LastIndexByte(full, '/')+1:]})
	}
	return out
}

// providerFullName is the source address of the provider a module calls
// by a local name, with the dialect's registry host when it has none.
func providerFullName(c *config.Config, local string, d dialect.Dialect) string {
	if local == "terraform" {
		return "terraform.io/builtin/terraform"
	}
	source := "hashicorp/" + local
	if c != nil && c.Module != nil {
		if rp := c.Module.RequiredProviders[local]; rp != nil && rp.Source != "" {
			source = rp.Source
		}
	}
	source = strings.ToLower(source)
	if strings.Count(source, "/") == 1 {
		source = d.RegistryHost() + "/" + source
	}
	return source
}

// modulePath is the address of a module in the configuration tree.
func modulePath(path []string) string {
	var b strings.Builder
	for i, p := range path {
		if i > 0 {
			b.WriteByte('.')
		}
		b.WriteString("module.")
		b.WriteString(p)
	}
	return b.String()
}

// traversalStrings writes depends_on entries as they are written.
func traversalStrings(ts []hcl.Traversal) []string {
	var out []string
	for _, t := range ts {
		out = append(out, traversalString(t))
	}
	return out
}

// traversalString writes a traversal in the configuration's syntax.
func traversalString(t hcl.Traversal) string { return traversalWith(t, keyString) }

// traversalWith writes a traversal with its index keys written by key.
func traversalWith(t hcl.Traversal, key func(cty.Value) string) string {
	var b strings.Builder
	for _, step := range t {
		switch s := step.(type) {
		case hcl.TraverseRoot:
			b.WriteString(s.Name)
		case hcl.TraverseAttr:
			b.WriteString("." + s.Name)
		case hcl.TraverseIndex:
			b.WriteString("[" + key(s.Key) + "]")
		case hcl.TraverseSplat:
			b.WriteString("[*]")
		}
	}
	return b.String()
}

// keyString writes an index key as an address does: a number as it is, a
// string quoted.
func keyString(k cty.Value) string {
	k, _ = k.Unmark()
	if !k.IsKnown() || k.IsNull() {
		return "*"
	}
	switch k.Type() {
	case cty.Number:
		return k.AsBigFloat().Text('f', -1)
	case cty.String:
		b, _ := json.Marshal(k.AsString())
		return string(b)
	}
	return "*"
}

// reference is a traversal parsed as an address: the object it names, the
// rest of the traversal, and the object that contains the one named when
// it is an instance (a keyed resource instance's resource, a keyed module
// call instance's call, a module output's call instance).
type reference struct {
	subject   string
	rest      hcl.Traversal
	container string
	// resource is set for a managed or data resource (instance): its
	// address in its module and the key steps, if any.
	resource string
}

// parseReference parses a traversal of an expression; ok is false for one
// that is no valid reference.
func parseReference(t hcl.Traversal) (reference, bool) {
	if len(t) == 0 {
		return reference{}, false
	}
	root := t.RootName()
	attr := func(i int) (string, bool) {
		if i >= len(t) {
			return "", false
		}
		a, ok := t[i].(hcl.TraverseAttr)
		return a.Name, ok
	}
	index := func(i int) (string, bool) {
		if i >= len(t) {
			return "", false
		}
		ix, ok := t[i].(hcl.TraverseIndex)
		if !ok {
			return "", false
		}
		return "[" + keyString(ix.Key) + "]", true
	}
	switch root {
	case "var", "local", "path", "terraform", "count", "each", "tofu":
		name, ok := attr(1)
		if !ok {
			return reference{}, false
		}
		return reference{subject: root + "." + name, rest: t[2:]}, true
	case "self":
		return reference{subject: "self", rest: t[1:]}, true
	case "module":
		name, ok := attr(1)
		if !ok {
			return reference{}, false
		}
		call, i := "module."+name, 2
		key, keyed := index(i)
		if keyed {
			call += key
			i++
		}
		if out, ok := attr(i); ok {
			return reference{subject: call + "." + out, rest: t[i+1:], container: call}, true
		}
		// An instance of a call with count or for_each is followed by
		// the whole call.
		ref := reference{subject: call, rest: t[i:]}
		if keyed {
			ref.container = "module." + name
		}
		return ref, true
	case "data", "ephemeral", "resource":
		typ, ok1 := attr(1)
		name, ok2 := attr(2)
		if !ok1 || !ok2 {
			return reference{}, false
		}
		prefix := root + "."
		if root == "resource" {
			prefix = ""
		}
		return resourceReference(prefix+typ+"."+name, t, 3, index), true
	}
	name, ok := attr(1)
	if !ok {
		return reference{}, false
	}
	return resourceReference(root+"."+name, t, 2, index), true
}

// resourceReference is the reference to resource addr whose traversal
// goes on at step i.
func resourceReference(addr string, t hcl.Traversal, i int, index func(int) (string, bool)) reference {
	if key, ok := index(i); ok {
		return reference{subject: addr + key, rest: t[i+1:], container: addr, resource: addr}
	}
	return reference{subject: addr, rest: t[i:], resource: addr}
}

// traversalRefs lists what one traversal refers to, most specific first:
// the whole traversal, each shorter one down to the object it names, then
// the object containing that one.
func traversalRefs(t hcl.Traversal) []string {
	ref, ok := parseReference(t)
	if !ok {
		return nil
	}
	var out []string
	for i := len(ref.rest); i > 0; i-- {
		out = append(out, ref.subject+traversalString(ref.rest[:i]))
	}
	out = append(out, ref.subject)
	if ref.container != "" {
		out = append(out, ref.container)
	}
	return out
}

// providerFunctions lists the provider-defined functions an expression
// calls, as OpenTofu lists them among its references.
func providerFunctions(e hcl.Expression) []string {
	se, ok := e.(hclsyntax.Expression)
	if !ok {
		return nil
	}
	var out []string
	hclsyntax.VisitAll(se, func(n hclsyntax.Node) hcl.Diagnostics {
		if call, ok := n.(*hclsyntax.FunctionCallExpr); ok && strings.HasPrefix(call.Name, "provider::") {
			out = append(out, call.Name)
		}
		return nil
	})
	return out
}
