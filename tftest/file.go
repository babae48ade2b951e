package tftest

import (
	"fmt"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	hcljson "github.com/hashicorp/hcl/v2/json"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"

	"github.com/tfeval/tfeval/config"
	"github.com/tfeval/tfeval/dialect"
	"github.com/tfeval/tfeval/internal/diagsort"
	"github.com/tfeval/tfeval/internal/limit"
)

// File is one parsed test file.
type File struct {
	// Path is the file's path relative to the module's directory, with
	// forward slashes, as the binaries name it ("tests/a.tftest.hcl").
	Path string
	// Variables are the file-level variables block's values, by name.
	Variables hcl.Attributes
	// VariableDefs are the file's variable blocks (Terraform 1.13 on), by
	// name: the variables given on the command line, in variables files or
	// the environment that the file declares, with a type and a default.
	VariableDefs map[string]*config.Variable
	// Providers are the provider and mock_provider blocks, in file order.
	Providers []*Provider
	// Overrides are the file-level override_resource, override_data and
	// override_module blocks.
	Overrides []*Override
	// Runs are the run blocks, in file order.
	Runs []*RunBlock
	// Parallel is the test block's parallel argument.
	Parallel bool
}

// Command is what a run block runs: plan or apply.
type Command int

const (
	// Apply is terraform apply, the default.
	Apply Command = iota
	// Plan is terraform plan.
	Plan
)

func (c Command) String() string {
	if c == Plan {
		return "plan"
	}
	return "apply"
}

// RunBlock is one run block.
type RunBlock struct {
	Name      string
	DeclRange hcl.Range
	Command   Command
	// Variables are the run's variables block, by name.
	Variables hcl.Attributes
	// Module is the run's module block, nil when it runs the module under test.
	Module *RunModule
	// Providers is the providers argument: configuration names of the
	// module under test mapped to the test file's (mock) providers.
	Providers []ProviderMapping
	Asserts   []*Assert
	// ExpectFailures are the checkable objects named by expect_failures.
	ExpectFailures []hcl.Traversal
	PlanOptions    PlanOptions
	// StateKey is the state_key argument ("" when not set).
	StateKey  string
	Parallel  bool
	Overrides []*Override
}

// RunModule is a run block's module block.
type RunModule struct {
	Source, Version string
	SourceRange     hcl.Range
	// DeclRange is the module block's.
	DeclRange hcl.Range
}

// ProviderMapping is one entry of a run's providers argument.
type ProviderMapping struct {
	// InModule is the provider configuration name in the module under
	// test (NAME or NAME.ALIAS); InTest the test file's.
	InModule, InTest string
	Range            hcl.Range
}

// Assert is an assert block.
type Assert struct {
	Condition, ErrorMessage hcl.Expression
	DeclRange               hcl.Range
}

// PlanOptions is a run's plan_options block.
type PlanOptions struct {
	// RefreshOnly is mode = refresh-only.
	RefreshOnly bool
	// NoRefresh is refresh = false.
	NoRefresh bool
	Replace   []hcl.Traversal
	Target    []hcl.Traversal
}

// Provider is a provider or mock_provider block.
type Provider struct {
	Name, Alias string
	// Mock is set for a mock_provider block.
	Mock bool
	// Config is a provider block's body.
	Config hcl.Body
	// Source is a mock_provider's source argument: a directory of
	// .tfmock.hcl / .tfmock.json files ("" when not set).
	Source      string
	SourceRange hcl.Range
	// Resources and Data are the mock_resource and mock_data blocks by type.
	Resources, Data map[string]*MockValues
	Overrides       []*Override
	// DuringPlan is override_during = plan.
	DuringPlan bool
	DeclRange  hcl.Range
	// NameRange is the block's label.
	NameRange hcl.Range
}

// Key is the provider configuration's name: NAME or NAME.ALIAS.
func (p *Provider) Key() string {
	if p.Alias == "" {
		return p.Name
	}
	return p.Name + "." + p.Alias
}

// invalidReplacement is the summary of the error for mock or override
// values that are not an object.
const invalidReplacement = "Invalid replacement value"

// MockValues is a mock_resource or mock_data block.
type MockValues struct {
	Type string
	// Defaults is the defaults object; cty.NilVal when not given.
	Defaults cty.Value
	// Invalid is the error a run planning with these values gets, in
	// place of Defaults: Terraform (1.15 on) works the defaults out when
	// the tests run, with Terraform's functions.
	Invalid hcl.Diagnostics
	// DuringPlan is override_during = plan; DuringSet says it was given.
	DuringPlan, DuringSet bool
	DeclRange             hcl.Range
	// DefaultsRange is the defaults argument's.
	DefaultsRange hcl.Range
}

// OverrideKind tells the three override blocks apart.
type OverrideKind int

const (
	OverrideResource OverrideKind = iota
	OverrideData
	OverrideModule
)

func (k OverrideKind) block() string {
	switch k {
	case OverrideData:
		return "override_data"
	case OverrideModule:
		return "override_module"
	}
	return "override_resource"
}

// Override is an override_resource, override_data or override_module block.
type Override struct {
	Kind OverrideKind
	// Target is the address it overrides, as written.
	Target      hcl.Traversal
	TargetRange hcl.Range
	// Values is the values (outputs, for a module) object; cty.NilVal when not given.
	Values cty.Value
	// Invalid is the error a run with this override gets, in place of
	// Values: Terraform (1.15 on) works the values out when a run starts,
	// with Terraform's functions.
	Invalid hcl.Diagnostics
	// DuringPlan is override_during = plan; DuringSet says it was given.
	DuringPlan, DuringSet bool
	DeclRange             hcl.Range
	// FromMockFile is set for an override of a mock data file (.tfmock.hcl).
	FromMockFile bool
}

// ParseFile parses a test file's source; path names it in diagnostics and
// says whether it is JSON (a name ending in .json). Mock and override
// values calling functions (Terraform 1.15 on) are left as errors of the
// runs they would be used in; Run parses with the functions.
func ParseFile(src []byte, path string, d dialect.Dialect) (*File, hcl.Diagnostics) {
	return parseFile(src, path, d, nil)
}

func parseFile(src []byte, path string, d dialect.Dialect, fns map[string]function.Function) (*File, hcl.Diagnostics) {
	var f *hcl.File
	var diags hcl.Diagnostics
	if strings.HasSuffix(path, ".json") {
		if diags = limit.CheckJSONSource(src, path, 0); diags.HasErrors() {
			return nil, diags
		}
		f, diags = hcljson.Parse(src, path)
	} else {
		if diags = limit.CheckSource(src, path, hcl.InitialPos, limit.Config, 0); diags.HasErrors() {
			return nil, diags
		}
		f, diags = limit.ParseConfig(src, path)
	}
	if diags.HasErrors() || f == nil {
		return nil, diags
	}
	p := &parser{d: d, fns: fns}
	file := p.file(f.Body, path)
	return file, append(diags, p.diags...)
}

// parser decodes the blocks of one test file, collecting diagnostics.
type parser struct {
	d     dialect.Dialect
	diags hcl.Diagnostics
	// fns are the functions Terraform's mock and override values may call
	// (1.15 on); nil where they are not known (ParseFile).
	fns map[string]function.Function
}

func (p *parser) add(diags hcl.Diagnostics) { p.diags = append(p.diags, diags...) }

func (p *parser) errorf(rng hcl.Range, summary, format string, args ...any) {
	p.diags = append(p.diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: summary, Detail: fmt.Sprintf(format, args...), Subject: rng.Ptr()})
}

// terraform reports whether a construct only Terraform has is accepted.
func (p *parser) terraform() bool { return p.d == dialect.Terraform }

var overrideBlocks = []hcl.BlockHeaderSchema{{Type: "override_resource"}, {Type: "override_data"}, {Type: "override_module"}}

func (p *parser) fileSchema() *hcl.BodySchema {
	s := &hcl.BodySchema{Blocks: []hcl.BlockHeaderSchema{
		{Type: "run", LabelNames: []string{"name"}},
		{Type: "variables"},
		{Type: "provider", LabelNames: []string{"name"}},
		{Type: "mock_provider", LabelNames: []string{"name"}},
	}}
	s.Blocks = append(s.Blocks, overrideBlocks...)
	if p.terraform() {
		s.Blocks = append(s.Blocks, hcl.BlockHeaderSchema{Type: "test"}, hcl.BlockHeaderSchema{Type: "variable", LabelNames: []string{"name"}})
	}
	return s
}

func (p *parser) file(body hcl.Body, path string) *File {
	f := &File{Path: path}
	content, diags := bodyContent(body, p.fileSchema())
	p.add(diags)
	seenRuns := map[string]hcl.Range{}
	var variables *hcl.Block
	var test *hcl.Block
	for _, b := range content.Blocks {
		switch b.Type {
		case "run":
			r := p.run(b)
			if prev, dup := seenRuns[r.Name]; dup {
				p.errorf(b.DefRange, "Duplicate \"run\" block names", "This test file already has a run named %s block defined at %s.", r.Name, prev)
				continue
			}
			seenRuns[r.Name] = b.DefRange
			f.Runs = append(f.Runs, r)
		case "variables":
			if variables != nil {
				p.errorf(b.DefRange, "Multiple \"variables\" blocks", "This test file already has a variables block defined at %s.", variables.DefRange)
				continue
			}
			variables = b
			attrs, diags := b.Body.JustAttributes()
			p.add(diags)
			f.Variables = attrs
			for _, name := range sortedKeys(attrs) {
				if def, ok := f.VariableDefs[name]; ok {
					p.errorf(def.DeclRange, "Duplicate \"variable\" block names", "This test file already has a variable named %s defined at %s.", name, attrs[name].Range)
				}
			}
		case "variable":
			p.variableDef(b, f)
		case "provider", "mock_provider":
			if pr := p.provider(b); pr != nil {
				f.Providers = append(f.Providers, pr)
			}
		case "override_resource", "override_data", "override_module":
			if o := p.override(b); o != nil {
				f.Overrides = append(f.Overrides, o)
			}
		case "test":
			if test != nil {
				p.errorf(b.DefRange, "Multiple \"test\" blocks", "This test file already has a test block defined at %s.", test.DefRange)
				continue
			}
			test = b
			p.testBlock(b, f)
		}
	}
	f.Providers = p.providers(f.Providers)
	if p.terraform() {
		f.Overrides = p.uniqueOverrides(f.Overrides)
	}
	return f
}

// variableDef decodes a variable block: a name may be declared once, and
// not also be given a value by the file's variables block.
func (p *parser) variableDef(b *hcl.Block, f *File) {
	v, diags := config.DecodeVariable(b, p.d)
	p.add(diags)
	if diags.HasErrors() {
		return
	}
	if prev, ok := f.VariableDefs[v.Name]; ok {
		p.errorf(v.DeclRange, "Duplicate \"variable\" block names", "This test file already has a variable named %s defined at %s.", v.Name, prev.DeclRange)
		return
	}
	if f.VariableDefs == nil {
		f.VariableDefs = map[string]*config.Variable{}
	}
	f.VariableDefs[v.Name] = v
	if a, ok := f.Variables[v.Name]; ok {
		p.errorf(v.DeclRange, "Duplicate \"variable\" block names", "This test file already has a variable named %s defined at %s.", v.Name, a.Expr.Range())
	}
}

func (p *parser) testBlock(b *hcl.Block, f *File) {
	content, diags := bodyContent(b.Body, &hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: "parallel"}, {Name: "skip_cleanup"}}})
	p.add(diags)
	if a, ok := content.Attributes["parallel"]; ok {
		f.Parallel = p.boolAttr(a)
	}
	if a, ok := content.Attributes["skip_cleanup"]; ok {
		p.experimental(a)
	}
}

// experimental reports skip_cleanup, which Terraform (1.14 on) takes only
// in its experimental builds: every release rejects it.
func (p *parser) experimental(a *hcl.Attribute) {
	p.errorf(a.NameRange, "Invalid attribute", "The skip_cleanup attribute is only available in experimental builds of Terraform.")
	p.boolAttr(a)
}

// providers checks the file's provider and mock_provider blocks and
// returns those in effect. Terraform reports a second block for one
// configuration name. OpenTofu keeps a mock_provider's name apart from a
// provider's: a second mock_provider is an error, a second provider block
// replaces the first, and a provider block wins over a mock_provider of
// the same name.
func (p *parser) providers(ps []*Provider) []*Provider {
	seen := map[string]*Provider{}
	if p.terraform() {
		var out []*Provider
		for _, pr := range ps {
			if prev, ok := seen[pr.Key()]; ok {
				p.errorf(pr.DeclRange, "Duplicate provider block", "A provider for %s is already defined at %s.", pr.Key(), prev.NameRange)
				continue
			}
			seen[pr.Key()] = pr
			out = append(out, pr)
		}
		return out
	}
	real := map[string]*Provider{}
	for _, pr := range ps {
		switch {
		case !pr.Mock:
			real[pr.Key()] = pr
		case seen[pr.Key()] != nil:
			p.errorf(pr.DeclRange, "Duplicated `mock_provider` block", "It is not allowed to have multiple `mock_provider` blocks with the same address: `%s`.", pr.Key())
		default:
			seen[pr.Key()] = pr
		}
	}
	var out []*Provider
	for _, pr := range ps {
		if pr.Mock && real[pr.Key()] == nil && seen[pr.Key()] == pr || !pr.Mock && real[pr.Key()] == pr {
			out = append(out, pr)
		}
	}
	return out
}

func (p *parser) runSchema() *hcl.BodySchema {
	s := &hcl.BodySchema{
		Attributes: []hcl.AttributeSchema{{Name: "command"}, {Name: "providers"}, {Name: "expect_failures"}},
		Blocks: []hcl.BlockHeaderSchema{
			{Type: "variables"}, {Type: "module"}, {Type: "assert"}, {Type: "plan_options"},
		},
	}
	s.Blocks = append(s.Blocks, overrideBlocks...)
	if p.terraform() {
		s.Attributes = append(s.Attributes, hcl.AttributeSchema{Name: "state_key"}, hcl.AttributeSchema{Name: "parallel"}, hcl.AttributeSchema{Name: "skip_cleanup"})
		s.Blocks = append(s.Blocks, hcl.BlockHeaderSchema{Type: "backend", LabelNames: []string{"type"}})
	}
	return s
}

func (p *parser) run(b *hcl.Block) *RunBlock {
	r := &RunBlock{Name: b.Labels[0], DeclRange: b.DefRange}
	if !hclsyntax.ValidIdentifier(r.Name) {
		p.errorf(b.LabelRanges[0], "Invalid run block name", "A name must start with a letter or underscore and may contain only letters, digits, underscores, and dashes.")
	}
	content, diags := bodyContent(b.Body, p.runSchema())
	p.add(diags)
	if a, ok := content.Attributes["command"]; ok {
		switch hcl.ExprAsKeyword(a.Expr) {
		case "plan":
			r.Command = Plan
		case "apply":
			r.Command = Apply
		default:
			p.errorf(a.Expr.Range(), "Invalid \"command\" keyword", "The \"command\" argument requires one of the following keywords without quotes: apply or plan.")
		}
	}
	if a, ok := content.Attributes["providers"]; ok {
		r.Providers = p.providerMappings(a)
	}
	if a, ok := content.Attributes["expect_failures"]; ok {
		r.ExpectFailures = p.traversalList(a.Expr)
	}
	if a, ok := content.Attributes["state_key"]; ok {
		v, diags := a.Expr.Value(nil)
		p.add(diags)
		if !diags.HasErrors() {
			if v.Type() != cty.String || v.IsNull() || !v.IsKnown() {
				p.errorf(a.Expr.Range(), "Invalid state_key", "The state_key argument must be a string.")
			} else {
				r.StateKey = v.AsString()
			}
		}
	}
	if a, ok := content.Attributes["parallel"]; ok {
		r.Parallel = p.boolAttr(a)
	}
	if a, ok := content.Attributes["skip_cleanup"]; ok {
		p.experimental(a)
	}
	var seen = map[string]*hcl.Block{}
	for _, blk := range content.Blocks {
		switch blk.Type {
		case "variables", "module", "plan_options", "backend":
			if prev, ok := seen[blk.Type]; ok {
				p.errorf(blk.DefRange, fmt.Sprintf("Multiple %q blocks", blk.Type), "This run block already has a %s block defined at %s.", blk.Type, prev.DefRange)
				continue
			}
			seen[blk.Type] = blk
		}
		switch blk.Type {
		case "variables":
			attrs, diags := blk.Body.JustAttributes()
			p.add(diags)
			r.Variables = attrs
		case "module":
			r.Module = p.runModule(blk)
		case "assert":
			content, diags := bodyContent(blk.Body, &hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: "condition", Required: true}, {Name: "error_message", Required: true}}})
			p.add(diags)
			as := &Assert{DeclRange: blk.DefRange}
			if a, ok := content.Attributes["condition"]; ok {
				as.Condition = a.Expr
			}
			if a, ok := content.Attributes["error_message"]; ok {
				as.ErrorMessage = a.Expr
			}
			if as.Condition != nil && as.ErrorMessage != nil {
				if d := config.ConstantCondition(&config.CheckRule{Condition: as.Condition}, "assert"); d != nil {
					p.add(hcl.Diagnostics{d})
					break
				}
				r.Asserts = append(r.Asserts, as)
			}
		case "plan_options":
			r.PlanOptions = p.planOptions(blk)
		case "override_resource", "override_data", "override_module":
			if o := p.override(blk); o != nil {
				r.Overrides = append(r.Overrides, o)
			}
		case "backend":
			// Like skip_cleanup, only experimental builds take it.
			p.errorf(blk.DefRange, "Invalid block", "The backend block is only available within run blocks in experimental builds of Terraform.")
			_, diags := blk.Body.JustAttributes()
			p.add(diags)
		}
	}
	if p.terraform() {
		r.Overrides = p.uniqueOverrides(r.Overrides)
	}
	return r
}

func (p *parser) runModule(b *hcl.Block) *RunModule {
	content, diags := bodyContent(b.Body, &hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: "source"}, {Name: "version"}}})
	p.add(diags)
	m := &RunModule{DeclRange: b.DefRange}
	if a, ok := content.Attributes["source"]; ok {
		m.Source, _ = p.stringAttr(a)
		m.SourceRange = a.Expr.Range()
	} else {
		p.errorf(b.DefRange, "Missing \"source\" attribute for module block", "You must specify a source attribute when executing alternate modules during test executions.")
	}
	_, versioned := content.Attributes["version"]
	if versioned {
		m.Version, _ = p.stringAttr(content.Attributes["version"])
	}
	if a := content.Attributes["source"]; versioned && m.Source != "" {
		// The version makes the source a registry address, in both tools.
		if d := config.VersionedSourceError(m.Source, a.Range, p.d); d != nil {
			p.add(hcl.Diagnostics{d})
		}
	}
	if a := content.Attributes["source"]; p.terraform() && !versioned && m.Source != "" && !config.IsLocalSource(m.Source) && !config.IsRegistrySource(m.Source) {
		// Terraform installs a run's module from a local path or a
		// registry only (OpenTofu from any source).
		p.errorf(a.Range, "Invalid module source address", "Only local or registry module sources are currently supported from within test run blocks.")
	}
	if m.Source == "" {
		return nil
	}
	return m
}

func (p *parser) planOptions(b *hcl.Block) PlanOptions {
	var po PlanOptions
	content, diags := bodyContent(b.Body, &hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: "mode"}, {Name: "refresh"}, {Name: "replace"}, {Name: "target"}}})
	p.add(diags)
	if a, ok := content.Attributes["mode"]; ok {
		switch hcl.ExprAsKeyword(a.Expr) {
		case "normal":
		case "refresh-only":
			po.RefreshOnly = true
		default:
			p.errorf(a.Expr.Range(), "Invalid \"mode\" keyword", "The \"mode\" argument requires one of the following keywords without quotes: normal or refresh-only")
		}
	}
	if a, ok := content.Attributes["refresh"]; ok {
		po.NoRefresh = !p.boolAttr(a)
		if po.NoRefresh && po.RefreshOnly {
			p.errorf(a.Range, "Incompatible plan options", "The \"refresh\" option cannot be set to false when running a test in \"refresh-only\" mode.")
		}
	}
	if a, ok := content.Attributes["replace"]; ok {
		po.Replace = p.traversalList(a.Expr)
	}
	if a, ok := content.Attributes["target"]; ok {
		po.Target = p.traversalList(a.Expr)
	}
	return po
}

func (p *parser) providerSchema(mock bool) *hcl.BodySchema {
	if !mock {
		return &hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: "alias"}}}
	}
	s := &hcl.BodySchema{
		Attributes: []hcl.AttributeSchema{{Name: "alias"}, {Name: "source"}},
		Blocks: []hcl.BlockHeaderSchema{
			{Type: "mock_resource", LabelNames: []string{"type"}},
			{Type: "mock_data", LabelNames: []string{"type"}},
			{Type: "override_resource"}, {Type: "override_data"},
		},
	}
	if p.terraform() {
		s.Attributes = append(s.Attributes, hcl.AttributeSchema{Name: "override_during"})
	} else {
		// OpenTofu's mock providers may have instances, all mocked alike.
		s.Attributes = append(s.Attributes, hcl.AttributeSchema{Name: "for_each"})
	}
	return s
}

func (p *parser) provider(b *hcl.Block) *Provider {
	pr := &Provider{Name: b.Labels[0], Mock: b.Type == "mock_provider", DeclRange: b.DefRange, NameRange: b.LabelRanges[0]}
	var content *hcl.BodyContent
	var diags hcl.Diagnostics
	if pr.Mock {
		content, diags = bodyContent(b.Body, p.providerSchema(true))
	} else {
		content, pr.Config, diags = b.Body.PartialContent(p.providerSchema(false))
	}
	p.add(diags)
	if a, ok := content.Attributes["alias"]; ok {
		alias := hcl.ExprAsKeyword(a.Expr)
		if alias == "" {
			if s, ok := p.stringAttr(a); ok {
				alias = s
			}
		}
		if !hclsyntax.ValidIdentifier(alias) {
			p.errorf(a.Expr.Range(), "Invalid provider configuration alias", "An alias must be a valid name. A name must start with a letter or underscore and may contain only letters, digits, underscores, and dashes.")
		}
		pr.Alias = alias
	}
	if !pr.Mock {
		return pr
	}
	if a, ok := content.Attributes["source"]; ok {
		pr.Source, _ = p.stringAttr(a)
		pr.SourceRange = a.Expr.Range()
	}
	if a, ok := content.Attributes["override_during"]; ok {
		pr.DuringPlan, _ = p.during(a)
	}
	pr.Resources, pr.Data = map[string]*MockValues{}, map[string]*MockValues{}
	p.mockBlocks(content.Blocks, pr)
	return pr
}

// mockBlocks decodes the mock_resource, mock_data and override blocks of a
// mock_provider block or a mock data file into pr.
func (p *parser) mockBlocks(blocks hcl.Blocks, pr *Provider) {
	for _, blk := range blocks {
		switch blk.Type {
		case "mock_resource", "mock_data":
			m := p.mockValues(blk)
			set := pr.Resources
			if blk.Type == "mock_data" {
				set = pr.Data
			}
			if prev, ok := set[m.Type]; ok {
				if p.terraform() {
					p.errorf(blk.LabelRanges[0], fmt.Sprintf("Duplicate %s block", blk.Type), "A %s block for %s has already been defined at %s.", blk.Type, m.Type, prev.DeclRange)
				} else {
					p.errorf(pr.DeclRange, fmt.Sprintf("Duplicated `%s` block", blk.Type), "`%s.%s` is already defined in `mock_provider` block.", blk.Type, m.Type)
				}
				continue
			}
			set[m.Type] = m
		case "override_resource", "override_data":
			if o := p.override(blk); o != nil {
				pr.Overrides = append(pr.Overrides, o)
			}
		}
	}
	if p.terraform() {
		pr.Overrides = p.uniqueOverrides(pr.Overrides)
		return
	}
	seen := map[string]bool{}
	for _, o := range pr.Overrides {
		t := formatTarget(o.Target)
		if seen[t] {
			p.errorf(pr.DeclRange, fmt.Sprintf("Duplicated `%s` block", o.Kind.block()), "`%s` with target `%s` is already defined in `mock_provider` block.", o.Kind.block(), t)
		}
		seen[t] = true
	}
}

// uniqueOverrides reports, as Terraform does when it loads a test file,
// a second override block (of any kind) of one target in the same place:
// the file, a run or a mock provider; the second is left out.
func (p *parser) uniqueOverrides(os []*Override) []*Override {
	seen := map[string]*Override{}
	var out []*Override
	for _, o := range os {
		t := formatTarget(o.Target)
		if prev, ok := seen[t]; ok {
			p.errorf(o.DeclRange, fmt.Sprintf("Duplicate %s block", o.Kind.block()), "An %s block targeting %s has already been defined at %s.", o.Kind.block(), t, prev.DeclRange)
			continue
		}
		seen[t] = o
		out = append(out, o)
	}
	return out
}

// duplicatedOverrides are OpenTofu's errors, when a run starts, for a
// second override block of one target among os (the file's or the run's):
// resources and data sources apart from modules.
func duplicatedOverrides(os []*Override) hcl.Diagnostics {
	var diags hcl.Diagnostics
	seen := map[string]bool{}
	for _, o := range os {
		t := formatTarget(o.Target)
		k := t
		if o.Kind == OverrideModule {
			k = "module " + t
		}
		if seen[k] {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  fmt.Sprintf("Duplicated `%s` block", o.Kind.block()),
				Detail:   fmt.Sprintf("It is not allowed to have multiple `%s` blocks with the same target: `%s`.", o.Kind.block(), t),
				Subject:  o.TargetRange.Ptr(),
			})
			continue
		}
		seen[k] = true
	}
	return diags
}

func (p *parser) mockValues(b *hcl.Block) *MockValues {
	s := &hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: "defaults"}}}
	if p.terraform() {
		s.Attributes = append(s.Attributes, hcl.AttributeSchema{Name: "override_during"})
	}
	content, diags := bodyContent(b.Body, s)
	p.add(diags)
	m := &MockValues{Type: b.Labels[0], DeclRange: b.DefRange}
	if a, ok := content.Attributes["defaults"]; ok {
		m.DefaultsRange = a.Range
		if p.terraform() {
			m.Defaults, m.Invalid = p.mockObject(a, "")
		} else {
			m.Defaults = p.objectAttr(a)
		}
	}
	if a, ok := content.Attributes["override_during"]; ok {
		m.DuringPlan, m.DuringSet = p.during(a)
	}
	return m
}

func (p *parser) override(b *hcl.Block) *Override {
	o := &Override{DeclRange: b.DefRange}
	valuesName := "values"
	switch b.Type {
	case "override_data":
		o.Kind = OverrideData
	case "override_module":
		o.Kind = OverrideModule
		valuesName = "outputs"
	}
	s := &hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: "target", Required: true}, {Name: valuesName}}}
	if p.terraform() {
		s.Attributes = append(s.Attributes, hcl.AttributeSchema{Name: "override_during"})
	}
	content, diags := bodyContent(b.Body, s)
	p.add(diags)
	a, ok := content.Attributes["target"]
	if !ok {
		return nil
	}
	trav, tDiags := hcl.AbsTraversalForExpr(a.Expr)
	if tDiags.HasErrors() {
		p.errorf(a.Expr.Range(), "Invalid target", "The target of an %s block must be an address: %s.", b.Type, tDiags[0].Detail)
		return nil
	}
	o.Target, o.TargetRange = trav, a.Expr.Range()
	if !p.validTarget(o) {
		return nil
	}
	if a, ok := content.Attributes[valuesName]; ok {
		if p.terraform() {
			o.Values, o.Invalid = p.mockObject(a, b.Type)
		} else {
			o.Values = p.objectAttr(a)
		}
	}
	if a, ok := content.Attributes["override_during"]; ok {
		o.DuringPlan, o.DuringSet = p.during(a)
	}
	return o
}

// validTarget checks that an override's target names the kind of object
// its block overrides.
func (p *parser) validTarget(o *Override) bool {
	steps := traversalNames(o.Target)
	// Skip the module path.
	i := 0
	for i+1 < len(steps) && steps[i] == "module" {
		i += 2
		if o.Kind == OverrideModule && i == len(steps) {
			return true
		}
	}
	rest := steps[i:]
	switch o.Kind {
	case OverrideModule:
		p.errorf(o.TargetRange, "Invalid override target", "You can only target modules from override_module blocks, not %s.", strings.Join(steps, "."))
		return false
	case OverrideData:
		if len(rest) == 3 && rest[0] == "data" {
			return true
		}
		p.errorf(o.TargetRange, "Invalid override target", "You can only target data sources from override_data blocks, not %s.", strings.Join(steps, "."))
		return false
	}
	if len(rest) == 2 && rest[0] != "data" {
		return true
	}
	p.errorf(o.TargetRange, "Invalid override target", "You can only target resources from override_resource blocks, not %s.", strings.Join(steps, "."))
	return false
}

// leadingNames is the start of a traversal up to its nth name, with the
// instance keys between (module.m[0].out of module.m[0].out.x for 3): the
// part of a reference that names an object (a resource instance, a module
// output), the rest being what is read of it.
func leadingNames(t hcl.Traversal, n int) hcl.Traversal {
	seen := 0
	for i, step := range t {
		switch step.(type) {
		case hcl.TraverseRoot, hcl.TraverseAttr:
			if seen++; seen == n+1 {
				return t[:i]
			}
		}
	}
	return t
}

// traversalNames are the attribute names of a traversal, leaving out
// instance keys.
func traversalNames(t hcl.Traversal) []string {
	var names []string
	for _, step := range t {
		switch s := step.(type) {
		case hcl.TraverseRoot:
			names = append(names, s.Name)
		case hcl.TraverseAttr:
			names = append(names, s.Name)
		}
	}
	return names
}

func (p *parser) during(a *hcl.Attribute) (plan, ok bool) {
	switch hcl.ExprAsKeyword(a.Expr) {
	case "plan":
		return true, true
	case "apply":
		return false, true
	}
	p.errorf(a.Range, "Invalid override_during value", "The override_during attribute must be a value of plan or apply.")
	return false, false
}

// objectAttr evaluates an attribute that must be a constant object.
// objectAttr is OpenTofu's object argument of a mock or override block,
// a constant object.
func (p *parser) objectAttr(a *hcl.Attribute) cty.Value {
	v, diags := a.Expr.Value(nil)
	p.add(diags)
	if diags.HasErrors() {
		return cty.NilVal
	}
	if !v.Type().IsObjectType() {
		p.errorf(a.Range, "Object expected", "The attribute `%s` must be an object.", a.Name)
		return cty.NilVal
	}
	return v
}

// mockObject is Terraform's value of a mock block's defaults or an
// override block's values (or outputs): since 1.15 worked out when the
// tests run, with Terraform's functions and no references (an empty var
// and run). What fails is the error of the runs that use it. An override
// (block names its type) takes only an object; Terraform's text names the
// outputs attribute whatever the block.
func (p *parser) mockObject(a *hcl.Attribute, block string) (cty.Value, hcl.Diagnostics) {
	ctx := &hcl.EvalContext{Variables: map[string]cty.Value{"var": cty.EmptyObjectVal, "run": cty.EmptyObjectVal}, Functions: p.fns}
	if p.fns == nil {
		ctx = nil
	}
	v, diags := a.Expr.Value(ctx)
	if diags.HasErrors() {
		return cty.NilVal, diags
	}
	if block != "" && !v.Type().IsObjectType() {
		return cty.NilVal, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Invalid outputs attribute", Detail: fmt.Sprintf("%s blocks must specify an outputs attribute that is an object.", block), Subject: a.Range.Ptr()}}
	}
	if !v.Type().IsObjectType() {
		return cty.NilVal, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: invalidReplacement, Detail: fmt.Sprintf("The requested replacement value must be an object type, but was %s.", v.Type().FriendlyName()), Subject: a.Range.Ptr()}}
	}
	return v, nil
}

func (p *parser) boolAttr(a *hcl.Attribute) bool {
	v, diags := a.Expr.Value(nil)
	p.add(diags)
	if diags.HasErrors() {
		return false
	}
	if v.Type() != cty.Bool || v.IsNull() || !v.IsKnown() {
		p.errorf(a.Expr.Range(), "Incorrect value type", "A bool is required.")
		return false
	}
	return v.True()
}

func (p *parser) stringAttr(a *hcl.Attribute) (string, bool) {
	v, diags := a.Expr.Value(nil)
	p.add(diags)
	if diags.HasErrors() {
		return "", false
	}
	if v.Type() != cty.String || v.IsNull() || !v.IsKnown() {
		p.errorf(a.Expr.Range(), "Incorrect value type", "A string is required.")
		return "", false
	}
	return v.AsString(), true
}

// traversalList reads a list of addresses (expect_failures, replace, target).
func (p *parser) traversalList(expr hcl.Expression) []hcl.Traversal {
	exprs, diags := hcl.ExprList(expr)
	p.add(diags)
	var out []hcl.Traversal
	for _, e := range exprs {
		t, diags := hcl.AbsTraversalForExpr(e)
		p.add(diags)
		if !diags.HasErrors() {
			out = append(out, t)
		}
	}
	return out
}

// providerMappings reads a run's providers argument.
func (p *parser) providerMappings(a *hcl.Attribute) []ProviderMapping {
	pairs, diags := hcl.ExprMap(a.Expr)
	p.add(diags)
	var out []ProviderMapping
	for _, kv := range pairs {
		inModule, ok1 := p.providerRef(kv.Key)
		inTest, ok2 := p.providerRef(kv.Value)
		if ok1 && ok2 {
			out = append(out, ProviderMapping{InModule: inModule, InTest: inTest, Range: hcl.RangeBetween(kv.Key.Range(), kv.Value.Range())})
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].InModule < out[j].InModule })
	return out
}

// providerRef reads NAME or NAME.ALIAS.
func (p *parser) providerRef(e hcl.Expression) (string, bool) {
	t, diags := hcl.AbsTraversalForExpr(e)
	if diags.HasErrors() || len(t) > 2 {
		p.errorf(e.Range(), "Invalid provider configuration reference", "A provider configuration reference must not be given in quotes: a provider name, optionally followed by a period and an alias.")
		return "", false
	}
	names := traversalNames(t)
	if len(names) != len(t) {
		p.errorf(e.Range(), "Invalid provider configuration reference", "A provider configuration reference must not be given in quotes: a provider name, optionally followed by a period and an alias.")
		return "", false
	}
	return strings.Join(names, "."), true
}

// bodyContent is body.Content(schema) with its diagnostics in source
// order: hcl reports the arguments a schema does not have in the order of
// a map, so that two runs of one file would list them differently.
func bodyContent(body hcl.Body, schema *hcl.BodySchema) (*hcl.BodyContent, hcl.Diagnostics) {
	content, diags := body.Content(schema)
	diagsort.ByPosition(diags)
	return content, diags
}
