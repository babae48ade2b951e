package limit

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/hashicorp/hcl/v2"

	"github.com/tfeval/tfeval/internal/sandbox"
)

func TestCheckNesting(t *testing.T) {
	deep := func(n int) string { return strings.Repeat("[", n) + strings.Repeat("]", n) }
	tests := []struct {
		name   string
		src    string
		syntax Syntax
		max    int
		ok     bool
	}{
		{"shallow expression", deep(10), Expression, 20, true},
		{"brackets over the limit", deep(30), Expression, 20, false},
		{"default limit holds hand-written depth", deep(100), Expression, 0, true},
		{"default limit stops hostile depth", deep(100000), Expression, 0, false},
		{"templates nest too", strings.Repeat(`"${`, 30) + "1" + strings.Repeat(`}"`, 30), Expression, 20, false},
		{"config file", "a = " + deep(30) + "\n", Config, 20, false},
		{"unbalanced input is left to the parser", strings.Repeat("]", 50), Expression, 20, true},
	}
	for _, tt := range tests {
		diags := CheckNesting([]byte(tt.src), "x.tf", hcl.InitialPos, tt.syntax, tt.max)
		if diags.HasErrors() == tt.ok {
			t.Errorf("%s: errors = %v, want ok = %v", tt.name, diags, tt.ok)
			continue
		}
		if !tt.ok && (diags[0].Summary != "Expression nested too deeply" || diags[0].Subject == nil) {
			t.Errorf("%s: diagnostic = %+v", tt.name, diags[0])
		}
	}
}

func TestCheckJSONNesting(t *testing.T) {
	if d := CheckJSONNesting([]byte(`{"a": [[1]]}`), "x.tf.json", 10); d.HasErrors() {
		t.Errorf("shallow JSON refused: %s", d.Error())
	}
	if d := CheckJSONNesting([]byte(strings.Repeat("[", 50)+strings.Repeat("]", 50)), "x.tf.json", 10); !d.HasErrors() {
		t.Error("deep JSON accepted")
	}
}

func TestParseExpression(t *testing.T) {
	if _, d := ParseExpression([]byte("var.a + 1"), "<eval>"); d.HasErrors() {
		t.Fatal(d.Error())
	}
	if _, d := ParseExpression([]byte(strings.Repeat("(", 100000)+"1"+strings.Repeat(")", 100000)), "<eval>"); !d.HasErrors() {
		t.Fatal("100,000 nested parentheses parsed")
	}
}

func TestReadSource(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "main.tf")
	if err := os.WriteFile(file, []byte("0123456789"), 0o644); err != nil {
		t.Fatal(err)
	}
	if b, err := ReadSource(sandbox.Dir{}, file, 0, false); err != nil || string(b) != "0123456789" {
		t.Errorf("regular file: %q, %v", b, err)
	}
	if _, err := ReadSource(sandbox.Dir{}, file, 5, false); err == nil || !strings.Contains(err.Error(), "larger than the limit of 5 bytes") {
		t.Errorf("oversized file: %v", err)
	}
	if b, err := ReadSource(sandbox.Dir{}, file, 10, false); err != nil || string(b) != "0123456789" {
		t.Errorf("file of exactly the limit: %q, %v", b, err)
	}
	for _, n := range []int{0, 1, 511, 512, 513, 100_000} {
		want := bytes.Repeat([]byte("abcdefg\n"), n/8+1)[:n]
		if err := os.WriteFile(file, want, 0o644); err != nil {
			t.Fatal(err)
		}
		if b, err := ReadSource(sandbox.Dir{}, file, 0, false); err != nil || !bytes.Equal(b, want) {
			t.Errorf("%d bytes: read %d, %v", n, len(b), err)
		}
		if n == 100_000 {
			// The buffer is made at the file's size, not grown from 512 bytes.
			if a := testing.AllocsPerRun(5, func() { _, _ = ReadSource(sandbox.Dir{}, file, 0, false) }); a > 10 {
				t.Errorf("reading %d bytes made %v allocations", n, a)
			}
		}
	}
	if _, err := ReadSource(sandbox.Dir{}, dir, 0, false); err == nil {
		t.Error("a directory was read")
	}
	fifo := filepath.Join(dir, "pipe.tf")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip("no FIFOs:", err)
	}
	// Opening a FIFO with no writer would block; it must be refused first.
	if _, err := ReadSource(sandbox.Dir{}, fifo, 0, false); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("FIFO: %v", err)
	}
}
