package cli

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/tfeval/tfeval/scan"
)

// command is one tfeval command and what its help says of it.
type command struct {
	run func(*common, Env) int
	// root, for a command that works on a root module (roots.go), is
	// what it makes of the one in env.WorkDir, and the command takes
	// -recursive; run, when also set, still runs the command on a single
	// root (a command whose output on one root is not a report, such as
	// test's diagnostics between its status lines).
	root func(*common, Env) report
	// check, when not nil, says what is wrong with the options, before
	// anything is done (exit status 2).
	check func(*common) error
	// needsConfig says the command is pointless in a directory without
	// configuration files, which is then an error that points at
	// -recursive.
	needsConfig bool
	// header, when not nil, is the line that names a root before its
	// output in a -recursive run; "==> ROOT <==" otherwise.
	header func(c *common, root string) string
	// outFile, when not nil, is the file -out=DIR writes each root's
	// output to, under DIR/ROOT.
	outFile func(*common) string
	// roots, when not nil, picks the directories a -recursive run works
	// on among every module directory of the tree, in place of the root
	// modules (test: the modules that have test files).
	roots func(c *common, tree *scan.Tree) []string
	// summary is its line in the list of commands.
	summary string
	// usage is what follows "tfeval NAME" in its usage line.
	usage string
	// about says what it does, in paragraphs.
	about string
	// args describes its arguments, a line each, as in the help text.
	args []string
	// options names the options it uses, in the order its help lists them.
	options []string
	// examples are command lines, each after a comment line ("# ...").
	examples []string
}

// dirArgument is the directory argument every command that reads a module
// takes.
const dirArgument = "DIR   The root module directory (default: the current directory);\n      the same as -chdir=DIR. Options may come before or after it."

// commands are the commands by name; help lists them in name order.
var commands = map[string]*command{
	"console": {
		run:     runConsole,
		summary: "Evaluate expressions read from standard input, printing each\nvalue as \"terraform console\" does",
		usage:   "[options] [DIR]",
		about: `Reads expressions from standard input, one a line (an expression goes on
over several lines while brackets or a heredoc are open), evaluates each in
the root module as "terraform console" does against an empty state, and
prints its value exactly as the console would. Diagnostics go to standard
error in Terraform's layout. On a terminal it edits lines and recalls
earlier ones with the arrow keys; "exit" or Control-D ends it.

Exit status 1 when the configuration or any expression had errors.`,
		args:    []string{dirArgument},
		options: []string{"chdir", "dialect", "var", "var-file", "data", "missing-modules", "missing-variables", "schemas", "sandbox", "timeout", "no-color"},
		examples: []string{
			"# One expression, in the module in ./infra:",
			`echo 'local.subnet_cidrs' | tfeval console ./infra`,
			"# A session, with a variable set as on terraform's command line:",
			"tfeval console -var environment=prod ./infra",
		},
	},
	"eval": {
		root:        evalRoot,
		needsConfig: true,
		summary:     "Evaluate the whole module tree: outputs and resource instances",
		usage:       "[options] [DIR]",
		about: `Evaluates the module tree as "terraform plan" would (variables from every
source in Terraform's order, modules, count and for_each, every function)
and prints each resource instance's planned arguments, grouped by module,
then the root module's outputs. Values known only after apply print as
(known after apply), secrets as (sensitive value).

When the configuration has errors, only the diagnostics are printed, as
terraform plan prints no plan then; -json still writes what could be
evaluated, next to the diagnostics.

With -recursive, every root module below DIR is evaluated, in parallel,
each as if tfeval ran in its directory, sharing the parse of the modules
they call: text under a "==> ROOT <==" header per root, -json as JSON
Lines (one document a line, {"root": "envs/prod", ...}), -format=sarif
as one SARIF log. Exit status 1 when any root has an error.`,
		args:    []string{dirArgument},
		options: []string{"chdir", "dialect", "var", "var-file", "data", "missing-modules", "missing-variables", "schemas", "sandbox", "timeout", "json", "format", "sarif-root", "no-color", "recursive", "all-dirs", "exclude", "parallelism", "no-progress"},
		examples: []string{
			"# Evaluate the module in ./infra with its terraform.tfvars:",
			"tfeval eval ./infra",
			"# Variables as on terraform's command line, after the directory too:",
			"tfeval eval ./infra -var environment=prod -var-file=ci.tfvars",
			"# The JSON document for a policy engine, with provider schemas:",
			"tfeval eval -json -schemas=schema.json ./infra > plan.json",
			"# Every root module of a repository, examples left out:",
			"tfeval eval -recursive -exclude=examples -missing-variables=unknown .",
		},
	},
	"graph": {
		root:        graphRoot,
		check:       checkGraph,
		needsConfig: true,
		header:      graphHeader,
		outFile:     graphFile,
		summary:     "Print the dependency graph of the module tree (DOT or Mermaid)",
		usage:       "[options] [DIR]",
		about: `Prints the dependency graph of the module tree: a node for every variable,
local value, module call, resource, data source, output and check block of
every module, and an edge from each to what its expressions refer to.
Nothing is evaluated, so no variable values are needed.

With -recursive, the graph of every root module below DIR, each after a
comment naming it (or, with -out=DIR, in DIR/ROOT/graph.dot or .mmd).`,
		args:    []string{dirArgument},
		options: []string{"chdir", "dialect", "format", "schemas", "sandbox", "timeout", "recursive", "all-dirs", "exclude", "parallelism", "no-progress", "out"},
		examples: []string{
			"# A picture with Graphviz:",
			"tfeval graph ./infra | dot -Tpng -o graph.png",
			"# Mermaid, for a Markdown page:",
			"tfeval graph -format=mermaid ./infra",
		},
	},
	"help": {
		summary: "Print this help, or a command's: tfeval help COMMAND",
		usage:   "[COMMAND]",
		about:   `Prints the list of commands, or what one command does, its options and examples.`,
		args:    []string{"COMMAND   The command to describe."},
		examples: []string{
			"tfeval help eval",
		},
	},
	"init": {
		root:    initRoot,
		check:   checkInit,
		summary: "Install the modules the tree calls (registry, git, archives)\ninto .terraform/modules; the only command that uses the network",
		usage:   "[options] [DIR]",
		about: `Installs the module sources the tree calls (from registries, git and HTTP(S)
archives, and local directories) into .terraform/modules with a modules.json
that Terraform and OpenTofu read as their own, as "terraform init" does
without providers. It is the only command that uses the network.

With -recursive, every root module below DIR is initialized (share
downloads with -cache-dir).`,
		args:    []string{dirArgument},
		options: []string{"chdir", "dialect", "upgrade", "cache-dir", "offline", "test-directory", "sandbox", "timeout", "no-color", "recursive", "all-dirs", "exclude", "parallelism", "no-progress"},
		examples: []string{
			"# Install, sharing downloads with other checkouts and runs:",
			"tfeval init -cache-dir=$HOME/.cache/tfeval ./infra",
			"# Install from that cache alone, without the network:",
			"tfeval init -offline -cache-dir=$HOME/.cache/tfeval ./infra",
		},
	},
	"show": {
		root:        showRoot,
		check:       checkShow,
		needsConfig: true,
		outFile:     func(*common) string { return "plan.json" },
		summary:     "With -json: the document \"terraform show -json\" writes for a\nplan of the module tree, from an empty state",
		usage:       "-json [options] [DIR]",
		about: `Writes the JSON document "terraform show -json" writes for a plan of the
module tree made from an empty state, as the dialect's binary writes it
(format 1.2), for the tools that read it: conftest, Checkov, Infracost.
Values known only after apply are in after_unknown; unread data sources
and unknown expansions appear as deferred changes.

A configuration with errors gets its diagnostics on standard error, exit
status 1 and nothing on standard output.

With -recursive, the document of every root module below DIR without
errors: as JSON Lines ({"root": "envs/prod", ...}), or with -out=DIR as
DIR/ROOT/plan.json, a file each for the tools above.`,
		args:    []string{dirArgument},
		options: []string{"json", "chdir", "dialect", "var", "var-file", "data", "missing-modules", "missing-variables", "schemas", "sandbox", "timeout", "no-color", "recursive", "all-dirs", "exclude", "parallelism", "no-progress", "out"},
		examples: []string{
			"# A policy check on a pull request:",
			"tfeval show -json ./infra | conftest test -",
			"# A plan document for every root module of a repository:",
			"tfeval show -json -recursive -out=plans .",
		},
	},
	"validate": {
		root:        validateRoot,
		needsConfig: true,
		summary:     "Load and statically check a module tree",
		usage:       "[options] [DIR]",
		about: `Checks the module tree as "terraform validate" does: every block is
evaluated once with every input variable unknown, so it reports what is
wrong whatever the variables' values, without needing any.

With -recursive, every root module below DIR; -format=sarif writes one
SARIF log for all of them, file URIs relative to the git work tree's top
(or -sarif-root).`,
		args:    []string{dirArgument},
		options: []string{"chdir", "dialect", "schemas", "sandbox", "timeout", "json", "format", "sarif-root", "no-color", "recursive", "all-dirs", "exclude", "parallelism", "no-progress"},
		examples: []string{
			"tfeval validate ./infra",
			"# The document terraform validate -json writes:",
			"tfeval validate -json ./infra",
			"# Diagnostics for a code-scanning service:",
			"tfeval validate -format=sarif ./infra > tfeval.sarif",
			"# Every root module of the repository, for code scanning:",
			"tfeval validate -recursive -format=sarif . > tfeval.sarif",
		},
	},
	"test": {
		run:     runTest,
		root:    testRoot,
		roots:   testedModules,
		summary: "Run the module's test files (.tftest.hcl) offline, as \"terraform test\"\njudges them",
		usage:   "[options] [DIR]",
		about: `Runs the module's test files, *.tftest.hcl and *.tftest.json in the module's
directory and in its test directory (and, with -dialect=tofu, *.tofutest.hcl
and *.tofutest.json, which take the place of a same-named .tftest file), as
"terraform test" does, without providers and without a network: each run
block is planned, and applied unless it says command = plan, against the
file's in-memory state; mock_provider, override_resource, override_data and
override_module blocks give the values a provider would; terraform_data is
applied as Terraform applies it. Assertions and expect_failures are judged
as Terraform judges them.

A run that needs a provider the test file does not mock (an apply that would
create its resources, an assertion on what only it or an unread data source
can answer) is skipped, and says which provider it needs and why: never a
pass or a failure tfeval cannot know.

With -recursive, every module directory below DIR that has test files (in
it or in its test directory) is tested, in parallel, reported in path order;
-junit-xml then writes one report whose suites are named by module and file.

Exit status 0 when no run failed or errored (skipped runs included), 1
otherwise, also when a test file is not valid.`,
		args:    []string{dirArgument},
		options: []string{"chdir", "dialect", "filter", "test-directory", "var", "var-file", "schemas", "sandbox", "timeout", "json", "verbose", "junit-xml", "run-parallelism", "repair", "no-color", "recursive", "exclude", "parallelism", "no-progress"},
		examples: []string{
			"# Run the test files of the module in ./infra:",
			"tfeval test ./infra",
			"# One file, as terraform test -json would report it:",
			"tfeval test -json -filter=tests/defaults.tftest.hcl ./infra",
			"# A JUnit XML report for CI:",
			"tfeval test -junit-xml=report.xml ./infra",
			"# Every module of the repository that has test files, one JUnit report:",
			"tfeval test -recursive -junit-xml=report.xml .",
		},
	},
	"vars": {
		run:     runVars,
		summary: "List the root module's variables with their final values and sources",
		usage:   "[options] [DIR]",
		about: `Lists each variable of the root module: its type, its final value (sensitive
ones redacted) and where the value came from (its default, a variables file
and the place in it, -var, the environment), from the same evaluation eval
makes. When a required variable has no value, the others are still listed.`,
		args:    []string{dirArgument},
		options: []string{"chdir", "dialect", "var", "var-file", "missing-variables", "sandbox", "timeout", "json", "no-color"},
		examples: []string{
			"tfeval vars ./infra",
			"# Which file sets each variable in CI:",
			"tfeval vars -var-file=ci.tfvars ./infra",
		},
	},
	"version": {
		summary: "Print the tfeval version",
		about:   `Prints tfeval's version and the versions of Terraform and OpenTofu it evaluates as.`,
	},
}

// optionHelp describes each option: its form, then what it does.
var optionHelp = map[string][2]string{
	"chdir":             {"-chdir=DIR", "Switch to DIR before doing anything else"},
	"dialect":           {"-dialect=NAME", "terraform (default) or tofu"},
	"no-color":          {"-no-color", "No colour in diagnostics (also when NO_COLOR is set)"},
	"var":               {"-var NAME=VALUE", "Set a root variable (repeatable; order matters)"},
	"var-file":          {"-var-file=FILE", "Read root variables from FILE (repeatable; order matters)"},
	"schemas":           {"-schemas=FILE", "Provider schema document (terraform providers schema -json)"},
	"data":              {"-data=FILE", "Data source results to use as though read (JSON object\nfrom data source addresses to results; repeatable)"},
	"missing-modules":   {"-missing-modules=M", "error (default): a module call that is not installed is\nTerraform's error; unknown: its outputs are unknown and\nthe rest of the tree is evaluated"},
	"sandbox":           {"-sandbox=DIR", "Read nothing outside DIR: configuration files, module\nsources, terraform.tfvars and *.auto.tfvars, file\nfunctions (a relative DIR is relative to -chdir)"},
	"timeout":           {"-timeout=DURATION", "Stop loading and evaluating after DURATION (30s, 2m)"},
	"json":              {"-json", "Machine-readable output"},
	"format":            {"-format=FORMAT", "graph: dot (default, for Graphviz) or mermaid;\neval, validate: sarif, the diagnostics as SARIF 2.1.0\nfor code-scanning services"},
	"upgrade":           {"-upgrade", "Choose versions and download again"},
	"cache-dir":         {"-cache-dir=DIR", "Shared module cache reused across roots and runs\n(default: $TFEVAL_MODULE_CACHE_DIR, else none)"},
	"offline":           {"-offline", "Install from the cache alone, no network"},
	"missing-variables": {"-missing-variables=M", "error (default): a required root variable without a value\nis Terraform's error; unknown: it is unknown, with a\nwarning, and everything else is evaluated"},
	"recursive":         {"-recursive", "Work on every root module below DIR: each directory with\nconfiguration files that no other one calls as a local\nmodule, in parallel, reported in path order"},
	"all-dirs":          {"-all-dirs", "With -recursive: every directory with configuration files\nis a root module, called by another one or not"},
	"exclude":           {"-exclude=GLOB", "With -recursive: skip the directories GLOB matches, by\npath below DIR (envs/*, **/test) or, without a slash,\nby name (repeatable); hidden ones are always skipped"},
	"parallelism":       {"-parallelism=N", "With -recursive: at most N root modules at once (default:\nthe number of CPUs; one at a time once they are large)"},
	"no-progress":       {"-no-progress", "With -recursive: no progress line on the terminal"},
	"out":               {"-out=DIR", "With -recursive: write each root module's output to\nDIR/ROOT/FILE instead of standard output"},
	"sarif-root":        {"-sarif-root=DIR", "With -format=sarif: file URIs relative to DIR (default:\nthe top of the git work tree, else the module directory)"},
	"filter":            {"-filter=FILE", "Run only this test file (repeatable; relative to the\nmodule directory)"},
	"test-directory":    {"-test-directory=DIR", "Directory of test files besides the module's own\n(default: tests)"},
	"verbose":           {"-verbose", "Print each run's plan or state"},
	"junit-xml":         {"-junit-xml=FILE", "Also write a JUnit XML report to FILE"},
	"run-parallelism":   {"-run-parallelism=N", "Taken as terraform test takes it; changes nothing (a file's\nruns go one after another, reported in order)"},
	"repair":            {"-repair", "Taken as terraform test takes it; changes nothing (it\nmatters only to terraform test cleanup)"},
}

// usage is `tfeval -help`: the commands, and how to learn more.
func usage() string {
	var b strings.Builder
	b.WriteString(`Usage: tfeval [options] <command> [options] [DIR]

Evaluates Terraform and OpenTofu configurations as the real tools would,
without running them and without providers.

Commands:
`)
	for _, name := range commandNames() {
		lines := strings.Split(commands[name].summary, "\n")
		fmt.Fprintf(&b, "  %-10s %s\n", name, lines[0])
		for _, l := range lines[1:] {
			fmt.Fprintf(&b, "  %-10s %s\n", "", l)
		}
	}
	b.WriteString(`
DIR, when given, is the module directory; it works as -chdir=DIR. Options
may come before or after it; before the command they must be written
-name=value.

Run "tfeval help COMMAND" (or "tfeval COMMAND -help") for what a command
does, its options and examples.

Exit status: 0 success, 1 errors in the configuration or an expression,
2 a wrong command line.

Memory: unless GOGC or GOMEMLIMIT is set, tfeval lets up to 1 GiB of
garbage (at most 4x the live data, and an eighth of the memory of a
smaller machine or container) build up between collections, which is
faster on big trees; GOGC=100 restores Go's default pace.
`)
	return b.String()
}

// commandNames are the commands in name order.
func commandNames() []string {
	names := make([]string, 0, len(commands))
	for name := range commands {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}

// writeCommandHelp writes a command's help: usage, what it does, its
// arguments, options and examples.
func writeCommandHelp(w io.Writer, name string) {
	cmd := commands[name]
	fmt.Fprintf(w, "Usage: tfeval %s %s\n\n", name, cmd.usage)
	fmt.Fprintf(w, "%s\n", indentLines(cmd.about, "  "))
	if len(cmd.args) > 0 {
		fmt.Fprintf(w, "\nArguments:\n")
		for _, a := range cmd.args {
			fmt.Fprintf(w, "%s\n", indentLines(a, "  "))
		}
	}
	if len(cmd.options) > 0 {
		fmt.Fprintf(w, "\nOptions:\n")
		for _, o := range cmd.options {
			h := optionHelp[o]
			lines := strings.Split(h[1], "\n")
			fmt.Fprintf(w, "  %-20s %s\n", h[0], lines[0])
			for _, l := range lines[1:] {
				fmt.Fprintf(w, "  %-20s %s\n", "", l)
			}
		}
	}
	if len(cmd.examples) > 0 {
		fmt.Fprintf(w, "\nExamples:\n")
		for _, e := range cmd.examples {
			fmt.Fprintf(w, "  %s\n", e)
		}
	}
}

// indentLines puts prefix before every line of text but empty ones.
func indentLines(text, prefix string) string {
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		if l != "" {
			lines[i] = prefix + l
		}
	}
	return strings.Join(lines, "\n")
}

// suggestCommand is the command a mistyped name most likely meant, or ""
// when none is close: one within two edits (one for short names), or
// one the name begins.
func suggestCommand(given string) string {
	best, bestDist := "", 3
	for _, name := range commandNames() {
		d := editDistance(given, name)
		limit := 2
		if len(name) <= 4 {
			limit = 1
		}
		if d <= limit && d < bestDist {
			best, bestDist = name, d
		}
	}
	if best == "" && len(given) >= 2 {
		for _, name := range commandNames() {
			if strings.HasPrefix(name, given) {
				return name
			}
		}
	}
	return best
}

// editDistance is the number of single-character insertions, deletions,
// substitutions and swaps of neighbours that turn a into b.
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev2 := make([]int, len(rb)+1)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(rb)]
}
