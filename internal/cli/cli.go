package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/bmatcuk/doublestar"

	tfeval "github.com/tfeval/tfeval"
	"github.com/tfeval/tfeval/config"
	"github.com/tfeval/tfeval/dialect"
	"github.com/tfeval/tfeval/internal/gcpace"
	"github.com/tfeval/tfeval/lang"
	"github.com/tfeval/tfeval/tfvars"
)

// Env is what a command run sees of the world: its standard streams, its
// environment and its working directory.
type Env struct {
	Stdin          io.Reader
	Stdout, Stderr io.Writer
	// Environ is the environment in os.Environ form.
	Environ []string
	// WorkDir is the directory the command was started in.
	WorkDir string
	// Terminal says stdin and stderr are a terminal: prompts and colour.
	Terminal bool
	// Width is the width of the terminal standard output goes to, in
	// columns; 0 when it is not a terminal (the COLUMNS variable, else
	// 80, is then the width text is wrapped to).
	Width int
	// MakeRaw, when not nil on a terminal, puts it in raw mode and returns
	// the function that restores it; the console then edits lines itself
	// and recalls earlier ones with the arrow keys.
	MakeRaw func() (restore func(), err error)
	// Rand, when not nil, replaces crypto/rand behind uuid() and bcrypt().
	Rand io.Reader
	// ErrTerminal says standard error is a terminal: a -recursive run
	// shows its progress there.
	ErrTerminal bool
	// Pacer, when not nil, paces the garbage collector of the process
	// (cmd/tfeval's): a -recursive run lowers its highest percentage.
	Pacer *gcpace.Pacer
	// Step, when not nil, is called between the steps of an evaluation's
	// graph walk with the resource instances expanded so far
	// (tfeval.Options.Step): a -recursive run sets it for each root, to
	// pause a large root while an earlier root runs (scan.EachHeld).
	Step func(instances int)
}

// Version is the tfeval version printed by `tfeval version`.
const Version = "0.1.0"

// Exit statuses, documented in `tfeval -help`.
const (
	exitOK    = 0
	exitError = 1 // the configuration or an expression has errors
	exitUsage = 2 // the command line itself is wrong
)

// common holds the options every command accepts.
type common struct {
	chdir, dialectName, schemas, sandbox string
	format                               string // graph: dot or mermaid
	cacheDir                             string // init: the shared module cache
	upgrade, offline                     bool   // init
	noColor, json                        bool
	color                                bool // colour diagnostics: a terminal, and not turned off
	varArgs                              []tfvars.Arg
	dialect                              dialect.Dialect
	dataFiles                            []string // -data
	missingModules                       string   // -missing-modules
	missing                              config.MissingModules
	timeout                              time.Duration   // -timeout; 0 for none
	ctx                                  context.Context // ends at -timeout
	command                              string          // the command's name
	missingVariables                     string          // -missing-variables
	missingVars                          tfvars.MissingVariables

	// -recursive and what goes with it (roots.go).
	recursive, allDirs, noProgress bool
	exclude                        []string
	parallelism                    int
	out                            string // show, graph: a directory for a file per root
	sarifRoot                      string // eval, validate: what SARIF URIs are relative to
	scanDir                        string // -recursive: the directory scanned, absolute
	// What the roots of a -recursive run share.
	moduleCache     *tfeval.ModuleCache
	functionCache   *tfeval.FunctionCache
	providerSchemas *lang.ProviderSchemas
	test            testOptions // test
}

func (c *common) register(fs *flag.FlagSet) {
	fs.StringVar(&c.chdir, "chdir", "", "switch to this directory first")
	fs.StringVar(&c.dialectName, "dialect", "terraform", "terraform or tofu")
	fs.StringVar(&c.schemas, "schemas", "", "provider schema document")
	fs.StringVar(&c.sandbox, "sandbox", "", "directory outside which nothing is read")
	fs.BoolVar(&c.noColor, "no-color", false, "no colour")
	fs.BoolVar(&c.json, "json", false, "machine-readable output")
	// -var and -var-file share one list because their relative order decides precedence.
	fs.Func("var", "NAME=VALUE", func(s string) error {
		c.varArgs = append(c.varArgs, tfvars.Arg{Kind: tfvars.VarFlag, Text: s})
		return nil
	})
	fs.Func("var-file", "FILE", func(s string) error {
		c.varArgs = append(c.varArgs, tfvars.Arg{Kind: tfvars.VarFileFlag, Text: s})
		return nil
	})
	fs.Func("data", "FILE", func(s string) error {
		c.dataFiles = append(c.dataFiles, s)
		return nil
	})
	fs.StringVar(&c.missingModules, "missing-modules", "error", "error or unknown")
	fs.StringVar(&c.missingVariables, "missing-variables", "error", "error or unknown")
	fs.DurationVar(&c.timeout, "timeout", 0, "stop loading and evaluating after this long (0: no limit)")
}

// registerCommand registers the options command cmd takes: those every
// command takes, and its own.
func (c *common) registerCommand(fs *flag.FlagSet, cmd string, env Env) {
	c.register(fs)
	if spec := commands[cmd]; spec != nil && spec.root != nil {
		fs.BoolVar(&c.recursive, "recursive", false, "every root module below the directory")
		fs.BoolVar(&c.allDirs, "all-dirs", false, "with -recursive: every module directory is a root")
		fs.Func("exclude", "GLOB", func(s string) error {
			c.exclude = append(c.exclude, s)
			return nil
		})
		fs.IntVar(&c.parallelism, "parallelism", 0, "root modules at once (default: the CPUs)")
		fs.BoolVar(&c.noProgress, "no-progress", false, "no progress line")
		if spec.outFile != nil {
			fs.StringVar(&c.out, "out", "", "with -recursive: a file per root module below this directory")
		}
	}
	switch cmd {
	case "graph":
		fs.StringVar(&c.format, "format", "dot", "dot or mermaid")
	case "eval", "validate":
		fs.StringVar(&c.format, "format", "", "sarif: the diagnostics as SARIF 2.1.0")
		fs.StringVar(&c.sarifRoot, "sarif-root", "", "what SARIF file URIs are relative to")
	case "test":
		c.test.register(fs)
	case "init":
		fs.BoolVar(&c.upgrade, "upgrade", false, "choose versions and download again")
		fs.BoolVar(&c.offline, "offline", false, "install from the module cache alone")
		fs.StringVar(&c.cacheDir, "cache-dir", lookupEnv(env.Environ, "TFEVAL_MODULE_CACHE_DIR"), "shared module cache")
		fs.StringVar(&c.test.testDir, "test-directory", defaultTestDirectory, "directory of test files whose run modules to install")
	}
}

// context is the context of a command: with -timeout, one that ends then.
func (c *common) context() (context.Context, context.CancelFunc) {
	if c.timeout > 0 {
		return context.WithTimeout(context.Background(), c.timeout)
	}
	return context.WithCancel(context.Background())
}

// Run executes one tfeval command line and returns its exit status.
func Run(args []string, env Env) int {
	// Options may also come before the command name, in -name=value form:
	// -chdir as with terraform, and any other common option
	// (tfeval -sandbox=DIR eval), which then applies to the command.
	var chdir string
	var global []string
	for len(args) > 0 && strings.HasPrefix(args[0], "-") && strings.Contains(args[0], "=") {
		if dir, ok := strings.CutPrefix(args[0], "-chdir="); ok {
			chdir = dir
		} else {
			global = append(global, args[0])
		}
		args = args[1:]
	}
	if len(args) == 0 {
		fmt.Fprint(env.Stdout, usage())
		return exitUsage
	}
	cmd, rest := args[0], append(global, args[1:]...)
	switch cmd {
	case "-help", "--help", "-h":
		fmt.Fprint(env.Stdout, usage())
		return exitOK
	case "help":
		return runHelp(args[1:], env)
	case "version", "-version", "--version":
		fmt.Fprintf(env.Stdout, "tfeval v%s\nEvaluates as Terraform v1.15.9 (-dialect=terraform) and OpenTofu v1.12.6 (-dialect=tofu)\n", Version)
		return exitOK
	}
	spec, ok := commands[cmd]
	if !ok || (spec.run == nil && spec.root == nil) {
		fmt.Fprintf(env.Stderr, "tfeval: unknown command %q", cmd)
		if sug := suggestCommand(cmd); sug != "" {
			fmt.Fprintf(env.Stderr, "; did you mean %q?", sug)
		}
		fmt.Fprintf(env.Stderr, "\nRun \"tfeval -help\" for the list of commands.\n")
		return exitUsage
	}
	fs := flag.NewFlagSet("tfeval "+cmd, flag.ContinueOnError)
	fs.SetOutput(env.Stderr)
	// Go's own usage lists every flag with its type; the command's help
	// is written for people. A wrong option gets the error and a pointer
	// to it.
	fs.Usage = func() {}
	c := common{command: cmd}
	c.registerCommand(fs, cmd, env)
	dirs, err := parseInterspersed(fs, rest)
	if err != nil {
		if err == flag.ErrHelp {
			writeCommandHelp(env.Stdout, cmd)
			return exitOK
		}
		fmt.Fprintf(env.Stderr, "Run \"tfeval help %s\" for its options.\n", cmd)
		return exitUsage
	}
	if c.chdir == "" {
		c.chdir = chdir
	}
	// A directory argument (tfeval eval DIR) is a shorthand for -chdir=DIR, so
	// the module's own terraform.tfvars is found as a user expects.
	switch len(dirs) {
	case 0:
	case 1:
		c.chdir = filepath.Join(c.chdir, dirs[0])
	default:
		fmt.Fprintf(env.Stderr, "tfeval %s: unexpected argument %q: only one directory may be given\n", cmd, dirs[1])
		return exitUsage
	}
	d, err := dialect.Parse(c.dialectName)
	if err != nil {
		fmt.Fprintf(env.Stderr, "tfeval: %s\n", err)
		return exitUsage
	}
	c.dialect = d
	if (cmd == "eval" || cmd == "validate") && c.format != "" && c.format != "sarif" {
		fmt.Fprintf(env.Stderr, "tfeval %s: -format must be sarif, not %q\n", cmd, c.format)
		return exitUsage
	}
	if c.missing, err = config.ParseMissingModules(c.missingModules); err != nil {
		fmt.Fprintf(env.Stderr, "tfeval: %s\n", err)
		return exitUsage
	}
	if c.missingVars, err = tfvars.ParseMissingVariables(c.missingVariables); err != nil {
		fmt.Fprintf(env.Stderr, "tfeval: %s\n", err)
		return exitUsage
	}
	if msg := c.checkRecursive(spec); msg != "" {
		fmt.Fprintf(env.Stderr, "tfeval %s: %s\n", cmd, msg)
		return exitUsage
	}
	if spec.check != nil {
		if err := spec.check(&c); err != nil {
			fmt.Fprintf(env.Stderr, "tfeval %s: %s\n", cmd, err)
			return exitUsage
		}
	}
	// -out and -sarif-root name where results go: relative to the
	// directory the command was started in, as a shell redirection is.
	for _, p := range []*string{&c.out, &c.sarifRoot} {
		if *p != "" && !filepath.IsAbs(*p) {
			*p = filepath.Join(env.WorkDir, *p)
		}
	}
	if c.chdir != "" {
		dir := c.chdir
		if !filepath.IsAbs(dir) {
			dir = filepath.Join(env.WorkDir, dir)
		}
		if st, err := os.Stat(dir); err != nil || !st.IsDir() {
			fmt.Fprintf(env.Stderr, "tfeval: -chdir: %s is not a directory\n", c.chdir)
			return exitUsage
		}
		env.WorkDir = dir
	}
	c.color = env.Terminal && !c.noColor && lookupEnv(env.Environ, "NO_COLOR") == ""
	ctx, cancel := c.context()
	defer cancel()
	c.ctx = ctx
	if spec.root != nil && (c.recursive || spec.run == nil) {
		return runRoot(&c, env, spec)
	}
	return spec.run(&c, env)
}

// checkRecursive is what is wrong with the options of -recursive, or "".
func (c *common) checkRecursive(spec *command) string {
	switch {
	case !c.recursive && (c.allDirs || len(c.exclude) > 0):
		return "-all-dirs and -exclude go with -recursive"
	case !c.recursive && c.out != "":
		return "-out goes with -recursive: without it the output is on standard output"
	case c.parallelism < 0:
		return "-parallelism must be at least 1"
	}
	for _, p := range c.exclude {
		if _, err := doublestar.Match(p, "x"); err != nil || p == "" {
			return fmt.Sprintf("-exclude=%q is not a valid glob pattern", p)
		}
	}
	return ""
}

// parseInterspersed parses options that may come before and after the
// arguments (tfeval eval DIR -var x=1), which Go's flag package stops at;
// it returns the arguments. After "--" everything is an argument.
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var positional []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return positional, nil
		}
		if consumed := len(args) - len(rest); consumed > 0 && args[consumed-1] == "--" {
			return append(positional, rest...), nil
		}
		positional = append(positional, rest[0])
		args = rest[1:]
	}
}

// runHelp is `tfeval help [COMMAND]`.
func runHelp(args []string, env Env) int {
	switch {
	case len(args) == 0:
		fmt.Fprint(env.Stdout, usage())
		return exitOK
	case len(args) > 1:
		fmt.Fprintf(env.Stderr, "tfeval help: one command at a time, not %q\n", strings.Join(args, " "))
		return exitUsage
	}
	if _, ok := commands[args[0]]; !ok {
		fmt.Fprintf(env.Stderr, "tfeval help: unknown command %q", args[0])
		if sug := suggestCommand(args[0]); sug != "" {
			fmt.Fprintf(env.Stderr, "; did you mean %q?", sug)
		}
		fmt.Fprintln(env.Stderr)
		return exitUsage
	}
	writeCommandHelp(env.Stdout, args[0])
	return exitOK
}

func lookupEnv(environ []string, name string) string {
	for _, kv := range environ {
		if k, v, ok := strings.Cut(kv, "="); ok && k == name {
			return v
		}
	}
	return ""
}
