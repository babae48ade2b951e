package install

import (
	"archive/tar"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestExtractArchive unpacks good and hostile archives into a directory
// inside a parent that must stay untouched.
func TestExtractArchive(t *testing.T) {
	tests := []struct {
		name    string
		format  string
		data    func(t *testing.T) []byte
		want    map[string]string // files expected (name → content)
		wantErr string
	}{
		{"tar.gz", "tar.gz", func(t *testing.T) []byte {
			return tarGz(t, []tarEntry{{name: "d/", kind: tar.TypeDir}, {name: "d/main.tf", body: "a"}, {name: "link", kind: tar.TypeSymlink, link: "d/main.tf"}, {name: "hard", kind: tar.TypeLink, link: "d/main.tf"}})
		}, map[string]string{"d/main.tf": "a", "link": "a", "hard": "a"}, ""},
		{"zip", "zip", func(t *testing.T) []byte {
			return zipArchive(t, map[string]string{"main.tf": "z", "sub/x.tf": "y"}, map[string]string{"l": "sub/x.tf"})
		}, map[string]string{"main.tf": "z", "sub/x.tf": "y", "l": "y"}, ""},
		{"dot-dot", "tar.gz", func(t *testing.T) []byte { return tarGz(t, []tarEntry{{name: "../evil.tf", body: "x"}}) }, nil, `".."`},
		{"nested dot-dot", "tar.gz", func(t *testing.T) []byte { return tarGz(t, []tarEntry{{name: "a/../../evil.tf", body: "x"}}) }, nil, `".."`},
		{"absolute", "tar.gz", func(t *testing.T) []byte { return tarGz(t, []tarEntry{{name: "/tmp/evil.tf", body: "x"}}) }, nil, "absolute path"},
		{"zip slip", "zip", func(t *testing.T) []byte { return zipArchive(t, map[string]string{"../../evil.tf": "x"}, nil) }, nil, `".."`},
		{"link to absolute", "tar.gz", func(t *testing.T) []byte {
			return tarGz(t, []tarEntry{{name: "etc", kind: tar.TypeSymlink, link: "/etc"}})
		}, nil, "absolute path /etc"},
		{"link upwards", "tar.gz", func(t *testing.T) []byte {
			return tarGz(t, []tarEntry{{name: "a/up", kind: tar.TypeSymlink, link: "../../outside"}})
		}, nil, "outside the module directory"},
		{"write through a link", "tar.gz", func(t *testing.T) []byte {
			return tarGz(t, []tarEntry{{name: "l", kind: tar.TypeSymlink, link: "."}, {name: "l/../evil.tf", body: "x"}})
		}, nil, `".."`},
		{"link chain out", "tar.gz", func(t *testing.T) []byte {
			return tarGz(t, []tarEntry{{name: "self", kind: tar.TypeSymlink, link: "."}, {name: "out", kind: tar.TypeSymlink, link: "self/.."}})
		}, nil, "outside the package"},
		{"zip link out", "zip", func(t *testing.T) []byte {
			return zipArchive(t, map[string]string{"a.tf": ""}, map[string]string{"l": "../../x"})
		}, nil, "outside the module directory"},
		{"hard link out", "tar.gz", func(t *testing.T) []byte {
			return tarGz(t, []tarEntry{{name: "h", kind: tar.TypeLink, link: "../x"}})
		}, nil, "outside the module directory"},
		{"too large", "tar.gz", func(t *testing.T) []byte {
			return tarGz(t, []tarEntry{{name: "big", body: strings.Repeat("x", 5000)}})
		}, nil, "more than 4 KiB"},
		{"too many files", "tar.gz", func(t *testing.T) []byte {
			var es []tarEntry
			for i := 0; i < 20; i++ {
				es = append(es, tarEntry{name: strings.Repeat("f", i+1), body: ""})
			}
			return tarGz(t, es)
		}, nil, "more than 10 entries"},
		{"not an archive", "tar.gz", func(t *testing.T) []byte { return []byte("<html>") }, nil, "not a valid gzip stream"},
		{"xz", "tar.xz", func(t *testing.T) []byte { return []byte("x") }, nil, "xz-compressed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			parent := t.TempDir()
			src := filepath.Join(parent, "archive")
			if err := os.WriteFile(src, tt.data(t), 0o644); err != nil {
				t.Fatal(err)
			}
			dst := filepath.Join(parent, "out", "pkg")
			err := extractArchive(tt.format, src, dst, 4<<10, 10)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want %q", err, tt.wantErr)
				}
			} else if err != nil {
				t.Fatal(err)
			}
			for name, content := range tt.want {
				if got := readFile(dst, name); got != content {
					t.Errorf("%s = %q, want %q", name, got, content)
				}
			}
			// Nothing but the archive and the output directory beside it.
			entries, _ := os.ReadDir(parent)
			outEntries, _ := os.ReadDir(filepath.Join(parent, "out"))
			if len(entries) != 2 || len(outEntries) > 1 {
				t.Errorf("written outside the package: %v %v", entries, outEntries)
			}
		})
	}
}
