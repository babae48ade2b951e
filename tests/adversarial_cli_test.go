//go:build unix

package tests

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/tfeval/tfeval"
	"github.com/tfeval/tfeval/dialect"
	"github.com/tfeval/tfeval/internal/longtest"
)

// The CLI's budget on every adversarial input, with the default limits:
// CPU time (user and system, of the process and what it waited for), and
// the data segment, set with setrlimit before the CLI starts (the address
// space would not do: Go reserves far more of it than it uses).
//
// The CPU budget is for a machine as fast as the one it was set on, and
// scales with the machine running the test (see cpuScale): CPU time does
// not grow with load as wall time does, but a slower or busier machine
// (shared caches, frequency) still spends more of it on the same work. The
// inputs it guards against would take minutes or hours without the limits,
// so a budget of a few seconds tells them apart with room to spare.
const (
	cliCPUBudget    = 3 * time.Second
	cliMemoryBudget = 512 << 20
	// cliHangDeadline only ends a CLI that never answers: what is measured
	// is CPU time, which a busy machine does not inflate as it does wall
	// time.
	cliHangDeadline = 60 * time.Second
)

// referenceCase is linear work the CLI does on every machine, timed to
// scale the CPU budget: 30,000 instances written as JSON. On the machine
// the budget was set on it takes referenceCPU at best.
var referenceCase = advCase{
	name: "reference", args: []string{"-json"},
	files: map[string]string{"main.tf": `locals {
  keys = flatten([for a in range(200) : [for b in range(150) : "k${a}-${b}"]])
}
resource "terraform_data" "r" {
  for_each = toset(local.keys)
  input    = each.key
}
`},
}

const referenceCPU = 450 * time.Millisecond

// cpuScale is how many times more CPU this machine takes than the one the
// budget was set on, at least 1: the least of three runs of referenceCase,
// as the least is the run least disturbed by other work.
func cpuScale(t *testing.T) float64 {
	t.Helper()
	box, workDir := writeCase(t, referenceCase, "")
	least := time.Duration(0)
	for range 3 {
		run := runCLI(t, referenceCase, box, workDir)
		if run.code != 0 {
			t.Fatalf("the reference case failed:\n%s", clip(run.stdout+run.stderr))
		}
		if least == 0 || run.cpu < least {
			least = run.cpu
		}
	}
	t.Logf("the reference case took %s of CPU at least (%s where the budget was set)", least.Round(time.Millisecond), referenceCPU)
	return max(1, float64(least)/float64(referenceCPU))
}

// rlimitExecEnv, when set in the environment of this test binary, makes it
// set the data limit and replace itself with the program the variable
// names (see TestMain): a child process cannot be given a resource limit
// by os/exec, but keeps the limits of the process it replaces.
const rlimitExecEnv = "TFEVAL_TEST_RLIMIT_EXEC"

// execWithDataLimit is what this test binary does when started with
// rlimitExecEnv: set RLIMIT_DATA and exec the CLI with its arguments.
func execWithDataLimit(cli string) {
	lim := syscall.Rlimit{Cur: cliMemoryBudget, Max: cliMemoryBudget}
	if err := syscall.Setrlimit(syscall.RLIMIT_DATA, &lim); err != nil {
		os.Stderr.WriteString("setrlimit: " + err.Error() + "\n")
		os.Exit(3)
	}
	env := []string{}
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, rlimitExecEnv+"=") {
			env = append(env, kv)
		}
	}
	err := syscall.Exec(cli, append([]string{cli}, os.Args[1:]...), env)
	os.Stderr.WriteString("exec: " + err.Error() + "\n")
	os.Exit(3)
}

// cliBinaryDir is the temporary directory cliBinary built the command
// in, which TestMain removes: each run of this package would otherwise
// leave a 20 MB binary behind.
var cliBinaryDir string

// cliBinary builds the tfeval command once per test run.
var cliBinary = sync.OnceValues(func() (string, error) {
	dir, err := os.MkdirTemp("", "tfeval-cli-")
	if err != nil {
		return "", err
	}
	cliBinaryDir = dir
	bin := filepath.Join(dir, "tfeval")
	cmd := exec.Command("go", "build", "-o", bin, "../cmd/tfeval")
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", &buildError{string(out), err}
	}
	return bin, nil
})

type buildError struct {
	out string
	err error
}

func (e *buildError) Error() string { return e.err.Error() + ": " + e.out }

// cliRun is the outcome of one run of the CLI.
type cliRun struct {
	code           int
	stdout, stderr string
	cpu            time.Duration
	maxRSS         int64 // bytes
}

// runCLI runs the CLI on a case under the data limit.
func runCLI(t *testing.T, c advCase, box, workDir string) cliRun {
	t.Helper()
	bin, err := cliBinary()
	if err != nil {
		t.Fatalf("building the CLI: %v", err)
	}
	command := c.command
	if command == "" {
		command = "eval"
	}
	args := []string{"-chdir=" + workDir, command, "-no-color"}
	if c.sandbox {
		args = append(args, "-sandbox=.")
	}
	if c.tofu {
		args = append(args, "-dialect=tofu")
	}
	args = append(args, c.args...)
	ctx, cancel := context.WithTimeout(context.Background(), cliHangDeadline)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], args...)
	cmd.Env = append(os.Environ(), rlimitExecEnv+"="+bin, "NO_COLOR=1", "HOME="+t.TempDir())
	cmd.Dir = t.TempDir() // the process directory is not the working directory
	cmd.Stdin = strings.NewReader(c.stdin)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err = cmd.Run()
	if ctx.Err() != nil {
		t.Fatalf("no answer within %s", cliHangDeadline)
	}
	run := cliRun{code: cmd.ProcessState.ExitCode(), stdout: stdout.String(), stderr: stderr.String()}
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		run.cpu = time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
		run.maxRSS = int64(ru.Maxrss) << 10
	}
	if err != nil && run.code < 0 {
		t.Fatalf("the CLI did not exit: %v\n%s", err, clip(run.stderr))
	}
	return run
}

// clip shortens output for a failure message.
func clip(s string) string {
	if len(s) > 2000 {
		return s[:2000] + "…"
	}
	return s
}

// TestAdversarialCLI runs the command line on every adversarial input, as
// a child process with the data limit and the default limits, and checks
// that it answers (a diagnostic, or success where the input is fine) well
// within its CPU budget, without crashing, and that nothing from outside
// a sandbox appears in what it prints.
func TestAdversarialCLI(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the CLI")
	}
	scale := cpuScale(t)
	budget := time.Duration(float64(cliCPUBudget) * scale)
	t.Logf("CPU budget %s (this machine takes %.2f times the reference CPU)", budget.Round(time.Millisecond), scale)
	for _, c := range adversarialCases() {
		t.Run(c.name, func(t *testing.T) {
			if c.long {
				longtest.Skip(t, "a costly case")
			}
			var server *recordingServer
			url := ""
			if c.serve != nil {
				server = newRecordingServer(t)
				url = server.URL
			}
			box, workDir := writeCase(t, c, url)
			if server != nil {
				server.handler = c.serve(filepath.Join(filepath.Dir(box), "outside"))
			}
			outside := filepath.Join(filepath.Dir(box), "outside")
			before := snapshot(outside)
			run := runCLI(t, c, box, workDir)
			out := run.stdout + run.stderr
			t.Logf("exit %d, CPU %s, max RSS %d MiB", run.code, run.cpu.Round(time.Millisecond), run.maxRSS>>20)
			if strings.Contains(out, "fatal error") || strings.Contains(out, "panic:") || run.code > 1 {
				t.Fatalf("exit status %d:\n%s", run.code, clip(out))
			}
			switch {
			case c.want == "" && run.code != 0:
				t.Errorf("exit status %d, want success:\n%s", run.code, clip(out))
			// Diagnostics are wrapped at 77 columns.
			case c.want != "" && (run.code != 1 || !strings.Contains(strings.Join(strings.Fields(out), " "), c.want)):
				t.Errorf("exit status %d, want 1 and %q:\n%s", run.code, c.want, clip(out))
			}
			if run.cpu > budget {
				t.Errorf("took %s of CPU, more than %s", run.cpu, budget.Round(time.Millisecond))
			}
			// The secret's own text, and any line of it, must appear nowhere.
			if strings.Contains(out, secretText) || strings.Contains(out, "3f9a61c2") {
				t.Errorf("the output shows what is outside the sandbox:\n%s", clip(out))
			}
			if server != nil {
				for _, r := range server.requests() {
					if strings.Contains(r, "3f9a61c2") {
						t.Errorf("sent what is outside the sandbox: %s", clip(r))
					}
				}
			}
			if after := snapshot(outside); after != before {
				t.Errorf("wrote outside the sandbox:\n%s\nwas\n%s", clip(after), clip(before))
			}
		})
	}
}

// snapshot lists what is under dir, each entry with its size and time.
func snapshot(dir string) string {
	var b strings.Builder
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if info, err := d.Info(); err == nil {
			fmt.Fprintf(&b, "%s %d %s\n", p, info.Size(), info.ModTime())
		}
		return nil
	})
	return b.String()
}

// recordingServer is a loopback HTTP server for cases whose files name
// one; it keeps every request's URL and body to look for what must not be
// sent.
type recordingServer struct {
	*httptest.Server
	handler http.Handler
	mu      sync.Mutex
	seen    []string
}

func newRecordingServer(t *testing.T) *recordingServer {
	s := &recordingServer{}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(io.LimitReader(r.Body, 1<<20))
		s.mu.Lock()
		s.seen = append(s.seen, r.URL.String()+"\n"+string(body))
		h := s.handler
		s.mu.Unlock()
		if h == nil {
			http.NotFound(w, r)
			return
		}
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *recordingServer) requests() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.seen...)
}

// TestAdversarialDeadline evaluates every adversarial input through the
// library with a short Context deadline, and checks that each stops soon
// after it: the CPU time the whole evaluation used is bounded (a wall
// clock would measure the machine's load, not tfeval). Most inputs are
// refused sooner by a limit, the rest are stopped by the deadline; the
// only wall-clock wait is the generous one that ends a hang.
func TestAdversarialDeadline(t *testing.T) {
	const deadline = 300 * time.Millisecond
	// Up to the deadline the evaluation may keep both cores busy; after it,
	// at most what one uninterruptible step (a conversion, a walk) takes.
	budget := raceSlowdown * (2*deadline + 2*time.Second)
	for _, c := range adversarialCases() {
		if c.command == "validate" || c.command == "vars" || c.command == "init" || c.command == "console" && c.stdin == "" || c.serve != nil {
			continue
		}
		t.Run(c.name, func(t *testing.T) {
			if c.long {
				longtest.Skip(t, "a costly case")
			}
			_, workDir := writeCase(t, c, "")
			opts := tfeval.Options{WorkDir: workDir, Console: c.command == "console", Lazy: c.command == "console"}
			for _, a := range c.args {
				if f, ok := strings.CutPrefix(a, "-data="); ok {
					opts.DataFiles = append(opts.DataFiles, f)
				}
			}
			if c.sandbox {
				opts.Sandbox = "."
			}
			if c.tofu {
				opts.Dialect = dialect.Tofu
			}
			ctx, cancel := context.WithTimeout(context.Background(), deadline)
			defer cancel()
			opts.Context = ctx
			cpu := cpuTime()
			done := make(chan *tfeval.Evaluation, 1)
			go func() { done <- tfeval.Evaluate(opts) }()
			var ev *tfeval.Evaluation
			select {
			case ev = <-done:
			case <-time.After(cliHangDeadline):
				t.Fatalf("no answer within %s", cliHangDeadline)
			}
			used := cpuTime() - cpu
			t.Logf("used %s of CPU", used.Round(time.Millisecond))
			if used > budget {
				t.Errorf("used %s of CPU with a %s deadline, more than %s", used, deadline, budget)
			}
			for _, d := range ev.Diagnostics {
				if strings.Contains(d.Summary+d.Detail, secretText) {
					t.Errorf("a diagnostic shows what is outside the sandbox: %s", d.Detail)
				}
			}
			for _, o := range ev.Outputs() {
				if o.Value.IsWhollyKnown() && strings.Contains(o.Value.GoString(), secretText) {
					t.Errorf("output %s shows what is outside the sandbox", o.Name)
				}
			}
		})
	}
}
