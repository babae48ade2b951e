// Command tfeval evaluates Terraform and OpenTofu configurations as the real
// tools would, without running them: see `tfeval -help`.
package main

import (
	"os"

	"golang.org/x/term"

	"github.com/tfeval/tfeval/internal/cli"
)

func main() {
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
