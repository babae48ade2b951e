//go:build !unix

package sandbox

import "os"

// openNonBlocking opens path for reading; systems without FIFOs in the file
// system have nothing to block on.
func openNonBlocking(path string) (*os.File, error) {
	return os.Open(path)
}
