package install

import (
	"testing"

	"github.com/tfeval/tfeval/dialect"
)

// FuzzParseSource checks that any source address parses or gives an
// error, never a panic, and that a parsed one keeps its subdirectory
// inside the package and reads back to itself.
func FuzzParseSource(f *testing.F) {
	for _, s := range []string{"./a", "hashicorp/consul/aws", "a.io/b/c/d//e/*", "git::https://x.io/r.git//s?ref=v1&depth=2",
		"git@github.com:a/b.git", "github.com/a/b//c?ref=x", "https://x.io/a.zip?archive=tgz", "/abs//sub", "s3::x", "git::x@y:1/z"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, addr string) {
		s, err := parseSource(addr, dialect.Terraform)
		if err != nil {
			return
		}
		if _, err := cleanSubdir(s.subdir); err != nil {
			t.Fatalf("%q: subdir %q: %v", addr, s.subdir, err)
		}
		if s.kind == registryKind || s.kind == gitKind {
			again, err := parseSource(s.text, dialect.Terraform)
			if err != nil || again.text != s.text {
				t.Fatalf("%q reads as %q, which reads as %+v (%v)", addr, s.text, again, err)
			}
		}
	})
}
