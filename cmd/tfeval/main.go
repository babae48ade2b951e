package main

import (
	"os"
	"runtime/debug"

	"golang.org/x/term"

	"github.com/tfeval/tfeval/internal/cli"
	"github.com/tfeval/tfeval/internal/gcpace"
)

// gcHeadroom is how much garbage the heap may hold past the live data
// before a collection (less on a machine or in a container with under
// 8 GiB), and gcMaxPercent caps it for small heaps (see package gcpace).
const (
	gcHeadroom   = 1 << 30
	gcMaxPercent = 400
)

// paceGC starts pacing the collector for a short-lived process, unless the
// user set GOGC or GOMEMLIMIT and so chose the pace themselves; it returns
// nil then.
func paceGC(getenv func(string) string) *gcpace.Pacer {
	if getenv("GOGC") != "" || getenv("GOMEMLIMIT") != "" {
		return nil
	}
	// A limit on the process (a container's, or ulimit -d or -v) kills it
	// when passed: the collector works harder as the heap nears it.
	if limit := gcpace.ProcessLimit(); limit > 0 {
		debug.SetMemoryLimit(int64(limit / 4 * 3))
	}
	return gcpace.Start(gcpace.Headroom(gcHeadroom), 100, gcMaxPercent)
}

func main() {
	pacer := paceGC(os.Getenv)
	wd, err := os.Getwd()
	if err != nil {
		wd = "."
	}
	env := cli.Env{
		Stdin:    os.Stdin,
		Stdout:   os.Stdout,
		Stderr:   os.Stderr,
		Environ:  os.Environ(),
		WorkDir:  wd,
		Terminal: term.IsTerminal(int(os.Stdin.Fd())) && term.IsTerminal(int(os.Stderr.Fd())),
		// The progress of -recursive needs only standard error.
		ErrTerminal: term.IsTerminal(int(os.Stderr.Fd())),
		Pacer:       pacer,
	}
	if w, _, err := term.GetSize(int(os.Stdout.Fd())); err == nil {
		env.Width = w
	}
	if env.Terminal {
		fd := int(os.Stdin.Fd())
		env.MakeRaw = func() (func(), error) {
			old, err := term.MakeRaw(fd)
			if err != nil {
				return nil, err
			}
			return func() { term.Restore(fd, old) }, nil
		}
	}
	os.Exit(cli.Run(os.Args[1:], env))
}
