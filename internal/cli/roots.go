package cli

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/hashicorp/hcl/v2"

	tfeval "github.com/tfeval/tfeval"
	"github.com/tfeval/tfeval/config"
	"github.com/tfeval/tfeval/format"
	"github.com/tfeval/tfeval/internal/limit"
	"github.com/tfeval/tfeval/internal/sandbox"
	"github.com/tfeval/tfeval/lang"
	"github.com/tfeval/tfeval/scan"
)

// A command that works on a root module (eval, validate, show, graph,
// init) has a root function: what it makes of the root module in
// env.WorkDir, as a report. runRoot prints that report for the directory
// given; with -recursive, runRecursive runs it on every root below the
// directory, in parallel, and prints the reports in path order with a
// header each (text), as JSON Lines (-json), as one SARIF log
// (-format=sarif) or as a file per root (-out=DIR). A new command that
// works on a root module needs only its root function (and, for -out,
// outFile) in its entry of commands.

// report is what a command made of one root module.
type report struct {
	// out is what it writes to standard output: text, a JSON document
	// (or a stream of them, one a line) or a graph.
	out []byte
	// write, when not nil, writes what it writes to standard output
	// instead of out, so that a large document is never held whole
	// (show's plan document; its size is checked first).
	write func(io.Writer) error
	// diags are the root's diagnostics: printed on standard error, or
	// written into the SARIF log with -format=sarif.
	diags hcl.Diagnostics
	// config is the configuration diags are of, when it was loaded:
	// printing them takes the blocks they are in from its parse
	// (format.Sources.UseConfig). Let go once they are printed.
	config *config.Config
	// quiet says the diagnostics are in out already (a JSON document)
	// and are not printed.
	quiet bool
	// note is printed on standard error after the diagnostics.
	note string
	// stderr is what it writes to standard error before the diagnostics,
	// already laid out (test's diagnostics, printed between its runs).
	stderr []byte
	// junit are a test's JUnit XML test suites, for -junit-xml.
	junit []byte
	// failed makes the exit status 1.
	failed bool
}

// failure is the report of a command that could not do its work.
func failure(err error) report {
	return report{note: "tfeval: " + err.Error(), failed: true}
}

// runRoot runs a command that works on a root module: on the one given,
// or with -recursive on every root below it.
func runRoot(c *common, env Env, cmd *command) int {
	if c.recursive {
		return runRecursive(c, env, cmd)
	}
	if cmd.needsConfig && noConfiguration(c, env) {
		return exitError
	}
	rep := cmd.root(c, env)
	if c.format == "sarif" {
		if err := writeSARIF(env.Stdout, c, env, []format.SARIFRoot{{Dir: env.WorkDir, DefaultFile: firstConfigFile(env.WorkDir), Diagnostics: rep.diags}}); err != nil {
			fmt.Fprintf(env.Stderr, "tfeval: %s\n", err)
			return exitError
		}
	} else if !rep.quiet {
		rep.printDiagnostics(env.Stderr, diagOptions(c, env))
	}
	if rep.note != "" {
		fmt.Fprintln(env.Stderr, rep.note)
	}
	if err := rep.writeTo(env.Stdout); err != nil {
		return exitError
	}
	if rep.failed {
		return exitError
	}
	return exitOK
}

// writeTo writes the report's output to w.
func (rep *report) writeTo(w io.Writer) error {
	if rep.write == nil {
		_, err := w.Write(rep.out)
		return err
	}
	out := bufio.NewWriterSize(w, 1<<16)
	if err := rep.write(out); err != nil {
		return err
	}
	return out.Flush()
}

// printDiagnostics prints the report's diagnostics on w as opts say,
// the blocks they are in taken from the configuration's parse.
func (rep *report) printDiagnostics(w io.Writer, opts format.DiagnosticOptions) {
	p := format.NewDiagnosticPrinter(w, opts)
	p.Sources().UseConfig(rep.config)
	p.Print(rep.diags)
}

// noConfiguration reports, when the directory of a command that needs a
// configuration has no configuration files, that it has none, and how
// many module directories lie below it that -recursive would find.
func noConfiguration(c *common, env Env) bool {
	entries, err := os.ReadDir(env.WorkDir)
	if err != nil {
		return false
	}
	for _, e := range entries {
		if !e.IsDir() && config.IsConfigFile(e.Name(), c.dialect) {
			return false
		}
	}
	dir := displayDir(c)
	detail := fmt.Sprintf("%s has no Terraform configuration files (.tf, .tf.json).", dir)
	if tree, _ := scan.Find(env.WorkDir, scan.Options{Dialect: c.dialect, AllDirs: true, MaxDirs: 100_000}); tree != nil && len(tree.ModuleDirs) > 0 {
		dirs := "directories below it have"
		if len(tree.ModuleDirs) == 1 {
			dirs = "directory below it has"
		}
		detail += fmt.Sprintf(" %d %s some: run with -recursive to work on each root module among them (tfeval %s -recursive %s).", len(tree.ModuleDirs), dirs, c.command, dir)
	}
	newDiagPrinter(env.Stderr, c, env).Print(hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "No configuration files", Detail: detail}})
	return true
}

// runRecursive runs a command on every root module below the directory.
func runRecursive(c *common, env Env, cmd *command) int {
	scanDir := env.WorkDir
	c.scanDir = scanDir
	if env.Pacer != nil {
		// A scan keeps the parses roots share and evaluates several
		// roots at once: its live heap is several times one root's, and
		// the pace a single evaluation gets (the heap growing up to five
		// times the live data) would multiply that. A scan keeps its
		// garbage within a bound instead (docs/benchmarks.md), and
		// lets a heap of large roots grow by less than Go's default.
		env.Pacer.SetHeadroom(scanGCHeadroom)
		env.Pacer.Tighten(scanLargeHeap, scanLargePercent)
		env.Pacer.SizeToWork(scanWorkFactor)
		env.Pacer.TrimToWork(scanTrimFactor, scanGCFloor)
		env.Pacer.FloorToWork(scanMinPercent)
	}
	// Paths the command line gives are relative to the directory, not to
	// each root (as -chdir=DIR makes them); the caches and the provider
	// schemas serve every root.
	abs := tfeval.Options{WorkDir: scanDir, VarArgs: c.varArgs, DataFiles: c.dataFiles, Sandbox: c.sandbox}.WithAbsolutePaths()
	c.varArgs, c.dataFiles, c.sandbox = abs.VarArgs, abs.DataFiles, abs.Sandbox
	if c.schemas != "" && !filepath.IsAbs(c.schemas) {
		c.schemas = filepath.Join(scanDir, c.schemas)
	}
	c.moduleCache = &tfeval.ModuleCache{MaxBytes: tfeval.DefaultRootsModuleBytes}
	c.functionCache = &tfeval.FunctionCache{}
	if c.schemas != "" {
		// Named by the user, so read wherever it is, but only a
		// regular file and no more than a source file may hold.
		doc, err := limit.ReadSource(sandbox.Dir{}, c.schemas, 0, false)
		if err == nil {
			c.providerSchemas, err = lang.ParseProviderSchemas(doc)
		}
		if err != nil {
			fmt.Fprintf(env.Stderr, "tfeval: -schemas: %s\n", err)
			return exitError
		}
	}
	printer := newDiagPrinter(env.Stderr, c, env)
	tree, diags := scan.Find(scanDir, scan.Options{
		Dialect: c.dialect, AllDirs: c.allDirs || cmd.roots != nil, Exclude: c.exclude, Sandbox: c.sandbox,
		Cache: c.moduleCache, Context: c.ctx,
	})
	if tree != nil && len(tree.ModuleDirs) == 0 {
		diags = append(diags, tfeval.NoConfiguration(displayDir(c)))
	}
	if tree != nil && cmd.roots != nil {
		tree.Roots = cmd.roots(c, tree)
	}
	printer.Print(diags)
	if diags.HasErrors() {
		return exitError
	}
	w := &rootsWriter{c: c, env: env, cmd: cmd, tree: tree}
	w.progress = newProgress(env, c, len(tree.Roots))
	done := tree.LastReached()
	// A root waits for another to end where one more in flight would
	// take the heap past twice the largest root's (gcpace.Pacer.Crowded).
	var crowded func() bool
	if env.Pacer != nil {
		crowded = env.Pacer.Crowded
	}
	for i, r := range scan.EachHeld(len(tree.Roots), c.parallelism, crowded, w.runOne, func(i int, p *scan.Panic) rendered {
		return w.render(i, report{diags: hcl.Diagnostics{p.Diagnostic(tree.Roots[i])}, failed: true})
	}) {
		// Every root up to this one is done, and no later one reaches
		// these directories: the scan's cache need not keep them.
		for _, d := range done[i] {
			c.moduleCache.Forget(d)
		}
		if err := w.write(i, r); err != nil {
			w.progress.clear()
			fmt.Fprintf(env.Stderr, "tfeval: %s\n", err)
			return exitError
		}
		if c.ctx.Err() != nil && i+1 < len(tree.Roots) {
			// -timeout: the roots not started are not, and are
			// reported once rather than each as cancelled.
			w.progress.clear()
			printer.Print(hcl.Diagnostics{scan.Cancelled(c.ctx, i+1, len(tree.Roots))})
			w.failed++
			break
		}
	}
	w.progress.clear()
	if c.test.junitXML != "" {
		if err := writeJUnitFile(c, env, func(out io.Writer) error { return format.WriteJUnitXMLDocument(out, w.junit...) }); err != nil {
			fmt.Fprintf(env.Stderr, "tfeval: -junit-xml: %s\n", err)
			return exitError
		}
	}
	if c.format == "sarif" {
		if err := writeSARIF(env.Stdout, c, env, w.sarif); err != nil {
			fmt.Fprintf(env.Stderr, "tfeval: %s\n", err)
			return exitError
		}
	}
	if !c.json && c.format != "sarif" {
		fmt.Fprintf(env.Stderr, "\n%s\n", w.summary())
	}
	if w.failed > 0 {
		return exitError
	}
	return exitOK
}

// scanGCHeadroom is how much garbage a -recursive run lets build up past
// the live heap between collections (but never less than the live heap
// itself, Go's default pace): measured on the published repositories,
// 32 MiB kept a scan's peak memory within 1.4-3x the largest root's,
// where the pace of a single evaluation took 3-7x; 24 MiB brought the
// peaks of terraform-aws-vpc and terraform-google-kubernetes-engine from
// just over twice to within it for 2-7% more CPU, and as the evaluation
// changed, terraform-google-kubernetes-engine's drifted back to 2.05-2.06
// times, which 20 MiB brings to 1.90-1.91 with its CPU against separate
// processes unchanged within its spread (docs/benchmarks.md, session 52).
const scanGCHeadroom = 20 << 20

// scanWorkFactor is how far past its starting live heap a -recursive run
// lets the heap grow before a collection, in multiples of the heap the
// largest root so far would have needed in a process of its own (as
// gcpace.Pacer.SizeToWork estimates it), where that is more than
// scanGCHeadroom past the live heap: the peak stays within about twice
// the largest root's, and a repository whose roots need much memory each
// is collected less often than every 20 MiB (docs/benchmarks.md).
const scanWorkFactor = 2

// scanTrimFactor and scanGCFloor bound scanGCHeadroom by what the roots
// allocate (gcpace.Pacer.TrimToWork): once a root has ended, a -recursive
// run lets at most twice the most any root allocated build up as garbage,
// and never less than 12 MiB. On rust-lang/simpleinfra, whose roots
// allocate 6 MB at most in a scan and whose largest root peaks at 24 MiB
// in a process of its own, 24 MiB of garbage took the scan to 2.0-2.2
// times that; 12 MiB holds it to 1.6-1.8 times. On the published
// repositories measured and gen-small-8 the largest roots allocate
// 13-41 MB in a scan, and the scans keep scanGCHeadroom once one of those
// has run (docs/benchmarks.md).
const (
	scanTrimFactor = 2
	scanGCFloor    = 12 << 20
)

// scanMinPercent is the least a -recursive run lowers the collector's
// floor to (gcpace.Pacer.FloorToWork), where Go's default of doubling the
// live heap would take the heap past twice the most any root allocated.
// On terraform-google-kubernetes-engine, whose roots allocate about 18 MB
// each and whose live heap with the shared parses and a root or two in
// flight is 21-30 MB, doubling took the scan's peak to 2.0-2.1 times its
// largest root's; the lowered floor there is 80-100% (docs/benchmarks.md).
// Half of the live heap is the least garbage a collection is let wait for.
const scanMinPercent = 50

// scanLargeHeap and scanLargePercent are how a -recursive run paces the
// collector once its live heap is large: above 96 MiB of live data (the
// published repositories' scans hold 21 MB at most) the heap may grow by
// 75% of it before a collection instead of doubling. Two roots of the
// generated monorepo gen-medium-4 evaluated at once hold 140-170 MB, and
// their scan peaked at up to 2.2 times the largest root's own peak with
// the heap doubling; a scan starts no more roots beside others once they
// are that large (scan.LargeHeap), so this pace holds only while the
// first ones finish (docs/benchmarks.md).
const (
	scanLargeHeap    = 96 << 20
	scanLargePercent = 75
)

// displayDir is the directory a command works on, as the command line
// gave it.
func displayDir(c *common) string {
	if c.chdir == "" {
		return "."
	}
	return c.chdir
}

// rootsWriter writes the reports of a -recursive run in root order.
type rootsWriter struct {
	c        *common
	env      Env
	cmd      *command
	tree     *scan.Tree
	progress *progress
	sarif    []format.SARIFRoot
	junit    [][]byte
	failed   int
}

// rendered is one root's report as it is written: standard output and
// standard error, made in the goroutine that ran the root.
type rendered struct {
	rep report
	// stdout is what goes to standard output, in pieces written one
	// after another (a root's JSON line is made in lineChunk pieces).
	stdout [][]byte
	stderr []byte
}

// runOne runs the command on the i-th root and renders its report.
func (w *rootsWriter) runOne(i int, step func(instances int)) rendered {
	env := w.env
	// Once it has expanded many instances, the root pauses between the
	// steps of its walk while an earlier one runs (scan.EachHeld).
	env.Step = step
	env.WorkDir = filepath.Join(w.tree.Dir, filepath.FromSlash(w.tree.Roots[i]))
	// The root's own module is not shared with other roots.
	defer w.c.moduleCache.ForgetRoot(env.WorkDir)
	// Between roots the collector's pace catches up with a collection
	// it may have missed (gcpace.Pacer.Follow).
	env.Pacer.Follow()
	defer env.Pacer.Follow()
	// What the root needed sizes the pace of the roots after it
	// (scanWorkFactor).
	defer env.Pacer.EndWork(env.Pacer.StartWork())
	return w.render(i, w.cmd.root(w.c, env))
}

// render lays out the i-th root's report: JSON documents as JSON Lines
// with the root first, text under a header, diagnostics with file names
// relative to the directory scanned.
func (w *rootsWriter) render(i int, rep report) rendered {
	root := w.tree.Roots[i]
	r := rendered{rep: rep}
	switch {
	case w.c.format == "sarif" || w.c.out != "":
	case w.c.json:
		lw := newLineWriter(root)
		var err error
		if rep.write != nil {
			// Made into a line as it is written: the document is never
			// held whole besides its line.
			err, rep.write = rep.write(lw), nil
		} else {
			_, err = lw.Write(rep.out)
		}
		if err == nil {
			err = lw.done()
		}
		if err != nil {
			rep.note += fmt.Sprintf("\ntfeval: %s: %s", root, err)
			rep.failed = true
			lw.full, lw.b = nil, nil // no partial line
		}
		r.stdout = lw.lines()
		// What waits to be written is the lines alone: a root finished
		// ahead of an earlier one does not hold its document twice.
		rep.out = nil
	default:
		header := "==> " + root + " <==\n"
		if w.cmd.header != nil {
			header = w.cmd.header(w.c, root)
		}
		if i > 0 {
			header = "\n" + header
		}
		r.stdout = [][]byte{append([]byte(header), rep.out...)}
		rep.out = nil
	}
	if w.c.format != "sarif" {
		var errBuf bytes.Buffer
		errBuf.Write(rep.stderr)
		if !rep.quiet {
			opts := diagOptions(w.c, w.env)
			opts.Root = root
			rep.printDiagnostics(&errBuf, opts)
		}
		if rep.note != "" {
			fmt.Fprintf(&errBuf, "%s: %s\n", root, strings.TrimPrefix(rep.note, "\n"))
		}
		r.stderr = errBuf.Bytes()
	}
	// A root waiting for an earlier one to be written does not hold its
	// configuration.
	rep.config = nil
	r.rep = rep
	return r
}

// jsonLines is every JSON object of out (tfeval's own output, so valid
// JSON) on a line of its own, without insignificant space, with "root"
// first.
func jsonLines(root string, out []byte) ([]byte, error) {
	lw := newLineWriter(root)
	if _, err := lw.Write(out); err != nil {
		return bytes.Join(lw.lines(), nil), err
	}
	return bytes.Join(lw.lines(), nil), lw.done()
}

// lineWriter makes the JSON objects written to it (tfeval's own output,
// so valid JSON) into JSON Lines as they come, in full and then b: each on
// a line of its own, without insignificant space, with "root" first. One
// pass over the bytes: encoding/json's Compact, which validates as it
// goes, took a fifth of a scan's time.
//
// The lines are kept in pieces of about lineChunk bytes, not in one slice
// grown as they come: a gen-medium-4 root's line is 6 MB, and growing one
// slice to that allocated 32 MB and copied 26 MB of it while the root's
// evaluation was still held, at the scan's peak of memory.
type lineWriter struct {
	rootJSON []byte
	full     [][]byte // pieces filled, in order
	b        []byte   // the piece being filled
	depth    int
	inString bool
	escaped  bool
	// opened is set once an object's root is written: a comma goes
	// before its first member, if it has one.
	opened bool
	err    error
}

func newLineWriter(root string) *lineWriter {
	rootJSON, _ := json.Marshal(root)
	return &lineWriter{rootJSON: rootJSON}
}

// lineChunk is the size of the pieces a lineWriter keeps its lines in.
const lineChunk = 64 << 10

func (w *lineWriter) Write(p []byte) (int, error) {
	if w.err != nil {
		return 0, w.err
	}
	// What p makes fits in the piece: at most p itself and, for the
	// object it may start, the root and a comma. A p longer than a
	// piece gets one its size; one that starts several objects may
	// grow its piece.
	if need := len(p) + len(w.rootJSON) + 16; cap(w.b)-len(w.b) < need {
		if len(w.b) > 0 {
			w.full = append(w.full, w.b)
		}
		w.b = make([]byte, 0, max(lineChunk, need))
	}
	for _, c := range p {
		switch {
		case w.inString:
			w.b = append(w.b, c)
			switch {
			case w.escaped:
				w.escaped = false
			case c == '\\':
				w.escaped = true
			case c == '"':
				w.inString = false
			}
			continue
		case c == ' ' || c == '\n' || c == '\t' || c == '\r':
			continue
		case w.depth == 0 && c != '{':
			w.err = fmt.Errorf("the output is not a stream of JSON objects")
			return 0, w.err
		case w.depth == 0:
			w.b = append(w.b, `{"root":`...)
			w.b = append(w.b, w.rootJSON...)
			w.depth, w.opened = 1, true
			continue
		}
		if w.opened {
			w.opened = false
			if c != '}' {
				w.b = append(w.b, ',')
			}
		}
		switch c {
		case '"':
			w.inString = true
		case '{', '[':
			w.depth++
		case '}', ']':
			w.depth--
		}
		w.b = append(w.b, c)
		if w.depth == 0 {
			w.b = append(w.b, '\n')
		}
	}
	return len(p), nil
}

// lines are the lines made so far, in pieces to write in order.
func (w *lineWriter) lines() [][]byte {
	if len(w.b) == 0 {
		return w.full
	}
	return append(w.full, w.b)
}

// done reports whether what was written ended where an object does.
func (w *lineWriter) done() error {
	if w.err == nil && (w.depth != 0 || w.inString) {
		w.err = fmt.Errorf("the output ends inside a JSON value")
	}
	return w.err
}

// write writes the i-th root's rendered report.
func (w *rootsWriter) write(i int, r rendered) error {
	root := w.tree.Roots[i]
	if r.rep.failed {
		w.failed++
	}
	if r.rep.junit != nil {
		w.junit = append(w.junit, r.rep.junit)
	}
	w.progress.clear()
	if len(r.stderr) > 0 {
		if _, err := w.env.Stderr.Write(r.stderr); err != nil {
			return err
		}
	}
	switch {
	case w.c.format == "sarif":
		w.sarif = append(w.sarif, format.SARIFRoot{Dir: filepath.Join(w.tree.Dir, filepath.FromSlash(root)), DefaultFile: firstConfigFile(filepath.Join(w.tree.Dir, filepath.FromSlash(root))), Diagnostics: r.rep.diags})
	case w.c.out != "":
		if len(r.rep.out) > 0 || r.rep.write != nil {
			path := filepath.Join(w.c.out, filepath.FromSlash(root), w.cmd.outFile(w.c))
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				return err
			}
			f, err := os.Create(path)
			if err != nil {
				return err
			}
			err = r.rep.writeTo(f)
			if cerr := f.Close(); err == nil {
				err = cerr
			}
			if err != nil {
				return err
			}
		}
	default:
		for _, b := range r.stdout {
			if _, err := w.env.Stdout.Write(b); err != nil {
				return err
			}
		}
	}
	w.progress.done(r.rep.failed)
	return nil
}

// summary is the last line of a run in text: how many roots, how many
// failed.
func (w *rootsWriter) summary() string {
	n := len(w.tree.Roots)
	s := fmt.Sprintf("tfeval %s: %d root modules", w.c.command, n)
	if n == 1 {
		s = fmt.Sprintf("tfeval %s: 1 root module", w.c.command)
	}
	if w.failed == 0 {
		return s + ", none with errors."
	}
	return fmt.Sprintf("%s, %d with errors.", s, w.failed)
}

// progress is the line on a terminal's standard error that says how far a
// -recursive run is: roots done of all, failing so far, time elapsed.
type progress struct {
	w              io.Writer
	total, n, fail int
	start          time.Time
	shown          bool
}

// newProgress is the progress of a run of total roots; nil (which does
// nothing) unless standard error is a terminal and -no-progress is not
// given.
func newProgress(env Env, c *common, total int) *progress {
	if !env.ErrTerminal || c.noProgress {
		return nil
	}
	p := &progress{w: env.Stderr, total: total, start: time.Now()}
	p.show()
	return p
}

func (p *progress) show() {
	if p == nil {
		return
	}
	fmt.Fprintf(p.w, "\r\x1b[K%d/%d root modules, %d failing, %s", p.n, p.total, p.fail, time.Since(p.start).Round(100*time.Millisecond))
	p.shown = true
}

// clear takes the line away, before something else is written.
func (p *progress) clear() {
	if p == nil || !p.shown {
		return
	}
	fmt.Fprint(p.w, "\r\x1b[K")
	p.shown = false
}

// done counts a root written, and shows the line again.
func (p *progress) done(failed bool) {
	if p == nil {
		return
	}
	p.n++
	if failed {
		p.fail++
	}
	if p.n < p.total {
		p.show()
	}
}

// sarifBase is the directory SARIF URIs are relative to: -sarif-root, or
// the top of the git work tree dir is in, or dir itself.
func sarifBase(c *common, dir string) string {
	if c.sarifRoot != "" {
		return c.sarifRoot
	}
	for d := dir; ; {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return d
		}
		parent := filepath.Dir(d)
		if parent == d {
			return dir
		}
		d = parent
	}
}

// writeSARIF writes the diagnostics of roots as one SARIF log: URIs
// relative to sarifBase, columns counted in the files (read inside the
// sandbox).
func writeSARIF(w io.Writer, c *common, env Env, roots []format.SARIFRoot) error {
	box, err := sandbox.New(c.sandbox, env.WorkDir)
	if err != nil {
		box = sandbox.Dir{}
	}
	opts := format.SARIFOptions{
		ToolVersion: Version,
		BaseDir:     sarifBase(c, env.WorkDir),
		ReadFile:    func(path string) ([]byte, error) { return box.ReadFile(path, 8<<20) },
	}
	b, err := json.MarshalIndent(format.NewSARIFRoots(roots, opts), "", "  ")
	if err != nil {
		return err
	}
	// Held to the output limit like every other document, and written
	// from the one copy encoding/json made.
	if int64(len(b))+1 > maxOutput {
		return &lang.OutputTooLarge{Max: maxOutput}
	}
	if _, err := w.Write(append(b, '\n')); err != nil {
		return err
	}
	return nil
}
