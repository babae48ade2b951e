//go:build unix

package sandbox

import (
	"os"
	"syscall"
)

// openNonBlocking opens path for reading without waiting: a FIFO that
// replaced the file since it was checked opens at once (and is refused by
// the caller) instead of blocking until a writer comes.
func openNonBlocking(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
}
