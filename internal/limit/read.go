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
	// A regular file's size sizes the buffer, so it is read without the
	// regrowing io.ReadAll does; one byte more finds a file that grew.
	size := int64(512)
	if fi.Mode().IsRegular() && fi.Size() < max {
		size = fi.Size() + 1
	}
	src, err := readAll(io.LimitReader(f, max+1), make([]byte, 0, size))
	if err != nil {
		return nil, err
	}
	if int64(len(src)) > max {
		return nil, fmt.Errorf("%s is larger than %d bytes", path, max)
	}
	return src, nil
}

// readAll is io.ReadAll into buf, which it grows only when r has more.
func readAll(r io.Reader, buf []byte) ([]byte, error) {
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := r.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			return buf, nil
		}
		if err != nil {
			return buf, err
		}
	}
}
