package limit

import (
	"fmt"
	"io"
	"os"
)

// DefaultMaxSourceSize bounds, in bytes, a configuration or variables file.
const DefaultMaxSourceSize = 64 << 20

// ReadSource reads a configuration or variables file: only a regular file
// (checked before opening, since opening a FIFO blocks), or also a pipe
// when allowPipe is set (-var-file=<(script)), and at most max bytes (0
// means DefaultMaxSourceSize), so a device or huge file named *.tf gives an
// error rather than a hang. Git cannot store pipes or devices, only
// symlinks to them, which Stat follows.
func ReadSource(path string, max int64, allowPipe bool) ([]byte, error) {
	if max <= 0 {
		max = DefaultMaxSourceSize
	}
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() && !(allowPipe && fi.Mode()&os.ModeNamedPipe != 0) {
		return nil, fmt.Errorf("%s is not a regular file", path)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	src, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, err
	}
	if int64(len(src)) > max {
		return nil, fmt.Errorf("%s is larger than %d bytes", path, max)
	}
	return src, nil
}
