package limit

import (
	"os"

	"github.com/tfeval/tfeval/internal/sandbox"
)

// DefaultMaxSourceSize bounds, in bytes, a configuration or variables file.
const DefaultMaxSourceSize = 64 << 20

// ReadSource reads a configuration or variables file: only a regular file
// inside box (refused before opening, since opening a FIFO blocks), or
// also a pipe when allowPipe is set (-var-file=<(script), named by the
// user and so not sandboxed), and at most max bytes (0 means
// DefaultMaxSourceSize), so a device or huge file named *.tf gives an
// error rather than a hang. Git cannot store pipes or devices, only
// symlinks to them, which are followed.
func ReadSource(box sandbox.Dir, path string, max int64, allowPipe bool) ([]byte, error) {
	if max <= 0 {
		max = DefaultMaxSourceSize
	}
	if allowPipe {
		if fi, err := os.Stat(path); err == nil && fi.Mode()&os.ModeNamedPipe != 0 {
			f, err := os.Open(path)
			if err != nil {
				return nil, err
			}
			defer f.Close()
			return sandbox.ReadLimited(f, path, max, make([]byte, 0, 512))
		}
	}
	return box.ReadFile(path, max)
}
