package cli

import (
	"io"
	"strings"
	"testing"

	"github.com/tfeval/tfeval/dialect"
)

func TestInputOpen(t *testing.T) {
	tests := []struct {
		text string
		open bool
	}{
		{"1 + 1", false},
		{"[1, 2", true},
		{"[1, 2]", false},
		{"{\n  a = 1", true},
		{"{\n  a = 1\n}", false},
		{"max(1,", true},
		{`"${upper("a")`, true},
		{`"${upper("a")}"`, false},
		{"<<EOT", true},
		{"<<EOT\nhello", true},
		{"<<EOT\nhello\nEOT", false},
		{"]", false},
		{`"unterminated`, false},
		{"[for x in [1, 2] :", true},
	}
	for _, tt := range tests {
		if got := inputOpen(tt.text); got != tt.open {
			t.Errorf("inputOpen(%q) = %v, want %v", tt.text, got, tt.open)
		}
	}
}

func TestReadExpression(t *testing.T) {
	src := newScannedLines(strings.NewReader("1\n[\n  1,\n  2,\n]\n<<EOT\na\nEOT\n{ a = 1\n"), nil)
	var got []string
	for {
		text, err := readExpression(src, dialect.Terraform)
		if err == io.EOF {
			break
		}
		got = append(got, text)
	}
	want := []string{"1", "[\n  1,\n  2,\n]", "<<EOT\na\nEOT", "{ a = 1"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestConsoleLineEditor(t *testing.T) {
	dir := writeModule(t, map[string]string{"main.tf": "locals { a = 2 }\n"})
	raw := 0
	var out, errb strings.Builder
	env := Env{
		// Enter is a carriage return in raw mode; ESC [ A is the up arrow; ^D ends.
		Stdin:    strings.NewReader("local.a * 3\r\x1b[A\r[\r  1,\r]\r\x04"),
		Stdout:   &out,
		Stderr:   &errb,
		WorkDir:  dir,
		Terminal: true,
		MakeRaw: func() (func(), error) {
			raw++
			return func() { raw-- }, nil
		},
	}
	if rc := Run([]string{"console", "-no-color"}, env); rc != 0 {
		t.Fatalf("rc = %d, stderr %q", rc, errb.String())
	}
	if want := "6\n6\n[\n  1,\n]\n"; out.String() != want {
		t.Errorf("stdout = %q, want %q", out.String(), want)
	}
	if raw != 0 {
		t.Errorf("terminal left in raw mode (%d)", raw)
	}
	if !strings.Contains(errb.String(), promptMore) {
		t.Errorf("no continuation prompt in %q", errb.String())
	}
}

func TestConsoleMultiLinePiped(t *testing.T) {
	dir := writeModule(t, map[string]string{"main.tf": "locals { a = 2 }\n"})
	rc, out, errText := run(t, dir, "{\n  x = local.a\n  y = <<EOT\nhi\nEOT\n}\nlocal.a\n", nil, "console", "-no-color")
	if want := "{\n  \"x\" = 2\n  \"y\" = <<-EOT\n  hi\n  \n  EOT\n}\n2\n"; rc != 0 || out != want {
		t.Errorf("rc=%d out=%q err=%q; want %q", rc, out, errText, want)
	}
}

// OpenTofu's console reads on while a line's brackets stay open or it ends
// in a backslash, counting brackets line by line (a heredoc is not held
// open), and evaluates nothing of an expression the input leaves open;
// Terraform's evaluates what there is, which reports what is unclosed.
func TestConsoleContinuationByDialect(t *testing.T) {
	dir := writeModule(t, map[string]string{"main.tf": "locals { a = 2 }\n"})
	for _, tc := range []struct {
		dialect, stdin string
		rc             int
		out, err       string
	}{
		{"tofu", "[\n  1,\n  local.a\n]\nlocal.a\n", 0, "[\n  1,\n  2,\n]\n2\n", ""},
		{"tofu", "1 + \\\n local.a\n", 0, "3\n", ""},
		{"tofu", "[1, 2\n", 0, "", ""},
		{"tofu", "{\n  a = (1\n", 0, "", ""},
		{"tofu", "[1]]\n", 1, "", "Extra characters after expression"},
		{"tofu", "<<EOT\n", 1, "", "Error: "},
		{"terraform", "[1, 2\n", 1, "", "Error: "},
		{"terraform", "[\n  1,\n]\n", 0, "[\n  1,\n]\n", ""},
	} {
		rc, out, errText := run(t, dir, tc.stdin, nil, "-dialect="+tc.dialect, "console", "-no-color")
		if rc != tc.rc || out != tc.out || !strings.Contains(errText, tc.err) || tc.err == "" && errText != "" {
			t.Errorf("%s %q: rc=%d out=%q err=%q; want rc=%d out=%q err containing %q", tc.dialect, tc.stdin, rc, out, errText, tc.rc, tc.out, tc.err)
		}
	}
}
