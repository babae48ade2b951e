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

	"github.com/tfeval/tfeval/config"
	"github.com/tfeval/tfeval/dialect"
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
	// MakeRaw, when not nil on a terminal, puts it in raw mode and returns
	// the function that restores it; the console then edits lines itself
	// and recalls earlier ones with the arrow keys.
	MakeRaw func() (restore func(), err error)
	// Rand, when not nil, replaces crypto/rand behind uuid() and bcrypt().
	Rand io.Reader
}

// Version is the tfeval version printed by `tfeval version`.
const Version = "0.1.0"

// Exit statuses, documented in `tfeval -help`.
const (
	exitOK    = 0
	exitError = 1 // the configuration or an expression has errors
	exitUsage = 2 // the command line itself is wrong
)

const usage = `Usage: tfeval [options] <command> [options] [DIR]

DIR, when given, is the module directory; it works as -chdir=DIR.
Options before the command must be written -name=value.

Evaluates Terraform and OpenTofu configurations as the real tools would,
without running them and without providers.

Commands:
  console    Evaluate expressions read from standard input, one a line,
             printing each value as "terraform console" does
  eval       Evaluate the whole module tree: outputs and resource instances
  graph      Print the dependency graph of the module tree (-format=dot|mermaid)
  init       Install the modules the tree calls (registry, git, archives)
             into .terraform/modules, as "terraform init" does without
             providers; the only command that uses the network
  show       With -json: the document "terraform show -json" writes for a
             plan of the module tree, from an empty state
  validate   Load and statically check a module tree
  vars       List the root module's variables with their final values and sources
  version    Print the tfeval version

Options (every command):
  -chdir=DIR           Switch to DIR before doing anything else
  -dialect=NAME        terraform (default) or tofu
  -no-color            No colour in diagnostics (also when NO_COLOR is set)
  -var NAME=VALUE      Set a root variable (repeatable; order matters)
  -var-file=FILE       Read root variables from FILE (repeatable; order matters)
  -schemas=FILE        Provider schema document (terraform providers schema -json)
  -data=FILE           Data source results to use as though read (JSON object
                       from data source addresses to results; repeatable)
  -missing-modules=M   error (default): a module call that is not installed is
                       Terraform's error; unknown: its outputs are unknown and
                       the rest of the tree is evaluated
  -sandbox=DIR         Read nothing outside DIR: configuration files, module
                       sources, terraform.tfvars and *.auto.tfvars, file
                       functions (a relative DIR is relative to -chdir)
  -timeout=DURATION    Stop loading and evaluating after DURATION (30s, 2m)
  -json                Machine-readable output (eval, show, validate, vars)
  -format=FORMAT       graph: dot (default, for Graphviz) or mermaid;
                       eval, validate: sarif, the diagnostics as SARIF 2.1.0
                       for code-scanning services
  -upgrade             init only: choose versions and download again
  -cache-dir=DIR       init only: shared module cache reused across roots and
                       runs (default: $TFEVAL_MODULE_CACHE_DIR, else none)
  -offline             init only: install from the cache alone, no network

Exit status: 0 success, 1 errors in the configuration or an expression,
2 a wrong command line.

Memory: unless GOGC or GOMEMLIMIT is set, tfeval lets up to 1 GiB of
garbage (at most 4x the live data, and an eighth of the memory of a
smaller machine or container) build up between collections, which is
faster on big trees; GOGC=100 restores Go's default pace.
`

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
	fs.DurationVar(&c.timeout, "timeout", 0, "stop loading and evaluating after this long (0: no limit)")
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
	if len(args) == 0 || args[0] == "-help" || args[0] == "--help" || args[0] == "-h" || args[0] == "help" {
		fmt.Fprint(env.Stdout, usage)
		if len(args) == 0 {
			return exitUsage
		}
		return exitOK
	}
	cmd, rest := args[0], append(global, args[1:]...)
	if cmd == "version" || cmd == "-version" || cmd == "--version" {
		fmt.Fprintf(env.Stdout, "tfeval v%s\nEvaluates as Terraform v1.15.9 (-dialect=terraform) and OpenTofu v1.12.6 (-dialect=tofu)\n", Version)
		return exitOK
	}
	run, ok := commands[cmd]
	if !ok {
		fmt.Fprintf(env.Stderr, "tfeval: unknown command %q\n\n%s", cmd, usage)
		return exitUsage
	}
	fs := flag.NewFlagSet("tfeval "+cmd, flag.ContinueOnError)
	fs.SetOutput(env.Stderr)
	var c common
	c.register(fs)
	switch cmd {
	case "graph":
		fs.StringVar(&c.format, "format", "dot", "dot or mermaid")
	case "eval", "validate":
		fs.StringVar(&c.format, "format", "", "sarif: the diagnostics as SARIF 2.1.0")
	}
	if cmd == "init" {
		fs.BoolVar(&c.upgrade, "upgrade", false, "choose versions and download again")
		fs.BoolVar(&c.offline, "offline", false, "install from the module cache alone")
		fs.StringVar(&c.cacheDir, "cache-dir", lookupEnv(env.Environ, "TFEVAL_MODULE_CACHE_DIR"), "shared module cache")
	}
	if err := fs.Parse(rest); err != nil {
		if err == flag.ErrHelp {
			return exitOK
		}
		return exitUsage
	}
	if c.chdir == "" {
		c.chdir = chdir
	}
	// A directory argument (tfeval eval DIR) is a shorthand for -chdir=DIR, so
	// the module's own terraform.tfvars is found as a user expects.
	switch fs.NArg() {
	case 0:
	case 1:
		c.chdir = filepath.Join(c.chdir, fs.Arg(0))
	default:
		fmt.Fprintf(env.Stderr, "tfeval %s: unexpected argument %q\n", cmd, fs.Arg(1))
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
	return run(&c, env)
}

var commands = map[string]func(*common, Env) int{
	"console":  runConsole,
	"eval":     runEval,
	"graph":    runGraph,
	"init":     runInit,
	"show":     runShow,
	"validate": runValidate,
	"vars":     runVars,
}

func lookupEnv(environ []string, name string) string {
	for _, kv := range environ {
		if k, v, ok := strings.Cut(kv, "="); ok && k == name {
			return v
		}
	}
	return ""
}
