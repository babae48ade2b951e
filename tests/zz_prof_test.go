package tests

import (
	"io"
	"os"
	"testing"

	"github.com/tfeval/tfeval/internal/cli"
)

func TestProfCLI(t *testing.T) {
	dir := os.Getenv("PROF_DIR")
	if dir == "" {
		t.Skip()
	}
	rc := cli.Run([]string{"eval", "-json"}, cli.Env{Stdout: io.Discard, Stderr: os.Stderr, WorkDir: dir})
	t.Log(rc)
}
