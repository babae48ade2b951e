package format

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"
)

// failAfter is a writer that fails once more than left bytes would have
// been written.
type failAfter struct {
	bytes.Buffer
	left int
}

var errFull = errors.New("full")

func (f *failAfter) Write(p []byte) (int, error) {
	if len(p) > f.left {
		return 0, errFull
	}
	f.left -= len(p)
	return f.Buffer.Write(p)
}

// The resource instances are made a window at a time, the next while
// this one is written: the document is the same as written one instance
// after another, in order, across window bounds, and the first error in
// document order ends it, whether an instance's or the writer's.
func TestWriteIndentedWindows(t *testing.T) {
	item := func(i int) ([]byte, error) { return fmt.Appendf(nil, "{\"i\": %d}", i), nil }
	want := func(n int) string {
		var b strings.Builder
		b.WriteString("{\n  \"format_version\": \"" + EvalFormatVersion + "\",\n  \"diagnostics\": null,\n  \"outputs\": null,\n  \"resources\": [\n")
		for i := range n {
			sep := ",\n"
			if i == n-1 {
				sep = "\n"
			}
			fmt.Fprintf(&b, "%s{\"i\": %d}%s", resourceIndent, i, sep)
		}
		b.WriteString("  ]\n}")
		return b.String()
	}
	for _, n := range []int{1, writeWindow - 1, writeWindow, writeWindow + 1, 3*writeWindow + 7} {
		var out bytes.Buffer
		d := &EvalDocument{FormatVersion: EvalFormatVersion}
		if err := d.writeIndentedWith(&out, nil, nil, n, item); err != nil {
			t.Fatalf("n=%d: %v", n, err)
		}
		if got := out.String(); got != want(n) {
			t.Errorf("n=%d: the document differs from one written an instance at a time:\n%.300s", n, got)
		}
	}

	errItem := errors.New("item")
	for _, tc := range []struct {
		name    string
		bad     int // the instance that fails, -1 none
		left    int // the bytes the writer takes, -1 all
		want    error
		written int // instances written before the error
	}{
		{"an instance in the second window", writeWindow + 3, -1, errItem, writeWindow + 3},
		{"an instance in the last window", 2*writeWindow + 1, -1, errItem, 2*writeWindow + 1},
		{"the writer in the first window, an instance later", 2*writeWindow + 1, 200, errFull, -1},
		{"the writer in the second window", -1, len(want(writeWindow + 10)), errFull, -1},
	} {
		n := 3 * writeWindow
		w := &failAfter{left: tc.left}
		if tc.left < 0 {
			w.left = 1 << 30
		}
		d := &EvalDocument{FormatVersion: EvalFormatVersion}
		err := d.writeIndentedWith(w, nil, nil, n, func(i int) ([]byte, error) {
			if i == tc.bad {
				return nil, errItem
			}
			return item(i)
		})
		if err != tc.want {
			t.Errorf("%s: error %v, want %v", tc.name, err, tc.want)
			continue
		}
		if tc.written >= 0 {
			got := strings.Count(w.String(), "{\"i\": ")
			if got != tc.written {
				t.Errorf("%s: %d instances written before the error, want %d", tc.name, got, tc.written)
			}
		}
	}
}
