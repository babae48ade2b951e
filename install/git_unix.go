//go:build unix

package install

import (
	"os/exec"
	"syscall"
)

// setProcessGroup makes cancelling git end its helpers too (the
// transport programs it starts), so none outlives an installation.
func setProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error {
		return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}
