package funcs

import (
	"crypto/md5"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"io"
	"io/fs"
	"sort"
	"sync"
	"time"

	"github.com/hashicorp/hcl/v2/ext/tryfunc"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	ctyyaml "github.com/zclconf/go-cty-yaml"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
	"github.com/zclconf/go-cty/cty/function/stdlib"

	"github.com/tfeval/tfeval/dialect"
	"github.com/tfeval/tfeval/internal/sandbox"
)

// Options says which dialect's table to build and what the functions may use.
type Options struct {
	Dialect           dialect.Dialect
	BaseDir           string                                  // relative paths in file functions resolve here ("." = cwd)
	Sandbox           string                                  // when set, file functions refuse paths outside it; relative to BaseDir
	ConsoleMode       bool                                    // adds type(), removes plantimestamp()
	PureOnly          bool                                    // plan mode: bcrypt/timestamp/uuid return unknown
	Now               func() time.Time                        // nil = time.Now
	Rand              io.Reader                               // nil = crypto/rand
	PlanTimestamp     time.Time                               // zero = plantimestamp() unknown
	ProviderFunctions map[string]map[string]function.Function // local name -> func name -> impl
	Limits            Limits                                  // bounds on what one call builds or reads (limits.go)
	// FS, when not nil, is where file functions read files from (BaseDir
	// is then a path under sandbox.FSRoot): nothing is read from the
	// operating system, and nothing outside FS can be.
	FS     fs.FS
	Step   func() error        // charged once per call; an error stops evaluation
	Charge func(n int64) error // charged n steps for what a call built (see chargeResult)
	Direct *DirectCalls        // when set, records each function's direct form
	// Cache, when not nil, shares what the functions read and compute
	// with the other tables given the same Cache (see Cache).
	Cache *Cache
}

// CoreNamespace prefixes the second name every built-in is registered under.
const CoreNamespace = "core::"

// ProviderNamespace prefixes provider-defined functions.
const ProviderNamespace = "provider::"

// impureFunctions give a different result on every call, so plan-time
// evaluation (PureOnly) must leave them unknown.
var impureFunctions = []string{"bcrypt", "timestamp", "uuid"}

// Functions returns the function table of opts.Dialect: every built-in under
// its own name and under core::NAME, plus provider::LOCAL::NAME for each
// provider function given.
func Functions(opts Options) map[string]function.Function {
	env := newEnv(opts)
	table := env.table(0)
	out := make(map[string]function.Function, 2*len(table)+8)
	for name, fn := range table {
		out[name] = fn
		out[CoreNamespace+name] = fn
	}
	for local, fns := range opts.ProviderFunctions {
		for name, fn := range fns {
			out[ProviderNamespace+local+"::"+name] = fn
		}
	}
	return out
}

// Names lists the built-in function names (without namespace) of a dialect,
// sorted, as Functions would register them for the given console mode.
func Names(d dialect.Dialect, consoleMode bool) []string {
	table := newEnv(Options{Dialect: d, ConsoleMode: consoleMode}).table(0)
	names := make([]string, 0, len(table))
	for name := range table {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}

// env is the state shared by the functions of one table: the options, with
// defaults filled in.
type env struct {
	opts   Options
	limits Limits // opts.Limits with defaults
	// box is opts.Sandbox resolved against BaseDir, or why it could not be.
	box    sandbox.Dir
	boxErr error

	mu             sync.Mutex                              // guards templateTables
	templateTables map[string]map[string]function.Function // by caller and depth, built on first use

	// What a table keeps across calls (see doc.go); files do not change
	// while a configuration is evaluated. With Options.Cache, all but
	// texts are the cache's, shared with other tables.
	//
	// templates are the template files templatefile has parsed, by path:
	// a module that renders one file for many instances parses it once.
	templates *memo[parsedTemplate]
	// decoded are the results of jsondecode and yamldecode by document.
	decoded *decodeCache
	// filesets are fileset's matches by directory and pattern.
	filesets *memo[[]cty.Value]
	// texts are the files read as text, by path as given (readUTF8File).
	texts memo[string]
	// identifiers says which template variable names are valid.
	identifiers *memo[bool]
	// shared is Options.Cache when it may keep file texts and listings for
	// this table: not in console mode, nor for files from an fs.FS.
	shared *Cache
	// patterns are the regular expressions regex, regexall and replace
	// have compiled, with what their costs and results need.
	patterns patterns
}

// parsedTemplate is a template file's source and its parse.
type parsedTemplate struct {
	src  string
	expr hclsyntax.Expression
}

func newEnv(opts Options) *env {
	if opts.BaseDir == "" {
		opts.BaseDir = "."
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	e := &env{opts: opts, limits: opts.Limits.withDefaults(), templateTables: map[string]map[string]function.Function{}}
	e.texts.limit = maxCachedTextBytes
	if c := opts.Cache; c != nil {
		c.init()
		e.templates, e.decoded, e.identifiers = &c.templates, &c.decoded, &c.identifiers
		e.filesets = new(memo[[]cty.Value])
		if !opts.ConsoleMode && opts.FS == nil {
			e.shared, e.filesets = c, &c.filesets
		}
	} else {
		e.templates, e.decoded, e.filesets, e.identifiers = new(memo[parsedTemplate]), new(decodeCache), new(memo[[]cty.Value]), new(memo[bool])
		e.decoded.results.limit = maxDecodedBytes
	}
	e.box, e.boxErr = sandbox.NewFS(opts.FS, opts.Sandbox, opts.BaseDir)
	return e
}

func (e *env) tofu() bool { return e.opts.Dialect == dialect.Tofu }

// table builds the unnamespaced function map. depth counts how many
// templatefile calls enclose the templates that will use this table.
func (e *env) table(depth int) map[string]function.Function {
	t := e.declared(depth)
	for name, fn := range t {
		t[name] = e.limited(name, fn, e.shortcutOf(fn))
	}
	return t
}

// declared is the function table before table wraps each function with
// its limits, which hides the result type the function declares.
func (e *env) declared(depth int) map[string]function.Function {
	t := map[string]function.Function{
		"abs":              stdlib.AbsoluteFunc,
		"abspath":          e.absPathFunc(),
		"alltrue":          allTrueFunc,
		"anytrue":          anyTrueFunc,
		"base64decode":     base64DecodeFunc,
		"base64encode":     base64EncodeFunc,
		"base64gzip":       base64GzipFunc,
		"base64sha256":     base64Sha256Func,
		"base64sha512":     base64Sha512Func,
		"basename":         basenameFunc,
		"bcrypt":           e.bcryptFunc(),
		"can":              tryfunc.CanFunc,
		"ceil":             stdlib.CeilFunc,
		"chomp":            stdlib.ChompFunc,
		"chunklist":        stdlib.ChunklistFunc,
		"cidrhost":         cidrHostFunc,
		"cidrnetmask":      cidrNetmaskFunc,
		"cidrsubnet":       cidrSubnetFunc,
		"cidrsubnets":      cidrSubnetsFunc,
		"coalesce":         coalesceFunc,
		"coalescelist":     stdlib.CoalesceListFunc,
		"compact":          stdlib.CompactFunc,
		"concat":           stdlib.ConcatFunc,
		"contains":         containsFunc,
		"csvdecode":        stdlib.CSVDecodeFunc,
		"dirname":          dirnameFunc,
		"distinct":         stdlib.DistinctFunc,
		"element":          stdlib.ElementFunc,
		"endswith":         endsWithFunc,
		"ephemeralasnull":  ephemeralAsNullFunc,
		"file":             e.fileFunc(false),
		"filebase64":       e.fileFunc(true),
		"filebase64sha256": e.fileHashFunc(sha256.New, encodeBase64),
		"filebase64sha512": e.fileHashFunc(sha512.New, encodeBase64),
		"fileexists":       e.fileExistsFunc(),
		"filemd5":          e.fileHashFunc(md5.New, encodeHex),
		"fileset":          e.fileSetFunc(),
		"filesha1":         e.fileHashFunc(sha1.New, encodeHex),
		"filesha256":       e.fileHashFunc(sha256.New, encodeHex),
		"filesha512":       e.fileHashFunc(sha512.New, encodeHex),
		"flatten":          stdlib.FlattenFunc,
		"floor":            stdlib.FloorFunc,
		"format":           stdlib.FormatFunc,
		"formatdate":       stdlib.FormatDateFunc,
		"formatlist":       stdlib.FormatListFunc,
		"indent":           stdlib.IndentFunc,
		"index":            indexFunc,
		"issensitive":      e.isSensitiveFunc(),
		"join":             stdlib.JoinFunc,
		"jsondecode":       stdlib.JSONDecodeFunc,
		"jsonencode":       jsonEncodeFunc,
		"keys":             stdlib.KeysFunc,
		"length":           lengthFunc,
		"list":             e.deprecatedFunc("list", "tolist([ ... ])", "list"),
		"log":              stdlib.LogFunc,
		"lookup":           lookupFunc,
		"lower":            stdlib.LowerFunc,
		"map":              e.deprecatedFunc("map", "tomap({ ... })", "map"),
		"matchkeys":        matchkeysFunc,
		"max":              stdlib.MaxFunc,
		"md5":              md5Func,
		"merge":            stdlib.MergeFunc,
		"min":              stdlib.MinFunc,
		"nonsensitive":     nonsensitiveFunc,
		"one":              oneFunc,
		"parseint":         stdlib.ParseIntFunc,
		"pathexpand":       pathExpandFunc,
		"pow":              stdlib.PowFunc,
		"range":            stdlib.RangeFunc,
		"regex":            stdlib.RegexFunc,
		"regexall":         stdlib.RegexAllFunc,
		"replace":          replaceFunc,
		"reverse":          stdlib.ReverseListFunc,
		"rsadecrypt":       rsaDecryptFunc,
		"sensitive":        sensitiveFunc,
		"setintersection":  stdlib.SetIntersectionFunc,
		"setproduct":       stdlib.SetProductFunc,
		"setsubtract":      stdlib.SetSubtractFunc,
		"setunion":         stdlib.SetUnionFunc,
		"sha1":             sha1Func,
		"sha256":           sha256Func,
		"sha512":           sha512Func,
		"signum":           signumFunc,
		"slice":            stdlib.SliceFunc,
		"sort":             stdlib.SortFunc,
		"split":            stdlib.SplitFunc,
		"startswith":       startsWithFunc,
		"strcontains":      strContainsFunc,
		"strrev":           stdlib.ReverseFunc,
		"substr":           stdlib.SubstrFunc,
		"sum":              sumFunc,
		"textdecodebase64": e.textDecodeBase64Func(),
		"textencodebase64": e.textEncodeBase64Func(),
		"timeadd":          stdlib.TimeAddFunc,
		"timecmp":          timeCmpFunc,
		"timestamp":        e.timestampFunc(),
		"title":            stdlib.TitleFunc,
		"tobool":           e.toFunc(cty.Bool),
		"tolist":           e.toFunc(cty.List(cty.DynamicPseudoType)),
		"tomap":            e.toFunc(cty.Map(cty.DynamicPseudoType)),
		"tonumber":         e.toFunc(cty.Number),
		"toset":            e.toFunc(cty.Set(cty.DynamicPseudoType)),
		"tostring":         e.toFunc(cty.String),
		"transpose":        e.transposeFunc(),
		"trim":             stdlib.TrimFunc,
		"trimprefix":       stdlib.TrimPrefixFunc,
		"trimspace":        stdlib.TrimSpaceFunc,
		"trimsuffix":       stdlib.TrimSuffixFunc,
		"try":              tryfunc.TryFunc,
		"upper":            stdlib.UpperFunc,
		"urlencode":        urlEncodeFunc,
		"uuid":             e.uuidFunc(),
		"uuidv5":           uuidV5Func,
		"values":           stdlib.ValuesFunc,
		"yamldecode":       ctyyaml.YAMLDecodeFunc,
		"yamlencode":       ctyyaml.YAMLEncodeFunc,
		"zipmap":           stdlib.ZipmapFunc,
	}
	if e.tofu() {
		t["base64gunzip"] = base64GunzipFunc
		t["cidrcontains"] = cidrContainsFunc
		t["urldecode"] = urlDecodeFunc
	} else {
		t["convert"] = newConvertFunc()
	}
	t["templatefile"] = e.templateFileFunc(depth)
	t["templatestring"] = e.templateStringFunc(depth)
	if e.opts.ConsoleMode {
		t["type"] = typeFunc
	} else {
		t["plantimestamp"] = e.planTimestampFunc()
	}
	if e.opts.PureOnly {
		for _, name := range impureFunctions {
			t[name] = function.Unpredictable(t[name])
		}
	}
	t["jsondecode"] = cachedDecoder(t["jsondecode"], e.jsonDocuments(t["jsondecode"]), e.decoded)
	t["yamldecode"] = cachedDecoder(t["yamldecode"], e.yamlDocuments(), e.decoded)
	return t
}

// ReturnType is the type the built-in function name (without namespace)
// declares it returns for arguments of the given types, as a function's
// signature shows it; dynamic when it depends on the values, or when
// there is no such built-in. The functions of a table (Functions) all
// declare dynamic, as they work it out on each call.
func ReturnType(d dialect.Dialect, name string, args []cty.Type) (ty cty.Type) {
	t, _ := signatureTables.Load(d)
	if t == nil {
		// Made once per dialect: writing diagnostics asks once for each
		// one about a function call, and a table is 150 allocations.
		t, _ = signatureTables.LoadOrStore(d, newEnv(Options{Dialect: d}).declared(0))
	}
	fn, ok := t.(map[string]function.Function)[name]
	if !ok {
		return cty.DynamicPseudoType
	}
	defer func() {
		// A function that cannot say without values.
		if recover() != nil {
			ty = cty.DynamicPseudoType
		}
	}()
	ty, err := fn.ReturnType(args)
	if err != nil {
		return cty.DynamicPseudoType
	}
	return ty
}

// signatureTables are the built-in tables ReturnType reads, by dialect:
// read-only once made, only their declared types are used.
var signatureTables sync.Map

// refineNotNull tells callers an unknown result of a function will not be null.
func refineNotNull(b *cty.RefinementBuilder) *cty.RefinementBuilder {
	return b.NotNull()
}
