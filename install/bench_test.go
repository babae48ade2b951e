package install

import (
	"fmt"
	"strings"
	"testing"

	"github.com/tfeval/tfeval/internal/testfiles"
)

// BenchmarkInstallRegistry installs a tree of 50 module calls, to 50
// distinct modules of a loopback registry, into a fresh root each time:
// service discovery once, then a version list, a download location and
// an archive for each module.
func BenchmarkInstallRegistry(b *testing.B) {
	l := newLoopback(b)
	modules := map[string]registryModule{}
	var root strings.Builder
	for i := 0; i < 50; i++ {
		addr := fmt.Sprintf("acme/m%02d/aws", i)
		modules[addr] = registryModule{
			"1.0.0": {"main.tf": "variable \"x\" {\n  default = 1\n}\n", "README.md": strings.Repeat("docs ", 200)},
			"1.1.0": {"main.tf": "variable \"x\" {\n  default = 2\n}\n", "README.md": strings.Repeat("docs ", 200)},
		}
		fmt.Fprintf(&root, "module \"m%02d\" {\n  source  = \"registry.example.com/%s\"\n  version = \"~> 1.0\"\n}\n", i, addr)
	}
	l.serveRegistry("registry.example.com", modules)
	client := l.client()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		dir := b.TempDir()
		testfiles.Write(b, dir, map[string]string{"main.tf": root.String()})
		b.StartTimer()
		res, diags := Modules(Options{WorkDir: dir, HTTPClient: client})
		if diags.HasErrors() || len(res.Modules) != 50 {
			b.Fatal(summaries(diags))
		}
	}
}
