//go:build !unix

package install

import "os/exec"

// setProcessGroup leaves git's default cancellation: killing git itself.
func setProcessGroup(*exec.Cmd) {}
