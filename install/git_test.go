package install

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/tfeval/tfeval/internal/testfiles"
)

// TestGitSources installs modules from a local repository created by the
// test, reached by file:// URLs, with refs, depth and subdirectories.
func TestGitSources(t *testing.T) {
	repo := gitRepo(t, []gitCommit{
		{files: map[string]string{"main.tf": `output "v" { value = "one" }`, "modules/vpc/main.tf": `output "v" { value = "vpc one" }`}, tags: []string{"v1.0.0"}},
		{files: map[string]string{"main.tf": `output "v" { value = "two" }`}, tags: []string{"v2.0.0"}},
	})
	url := "file://" + filepath.ToSlash(repo)
	tests := []struct {
		name, source, want, dir, summary string
	}{
		{"default branch", "git::" + url, "two", ".terraform/modules/m", ""},
		{"tag", "git::" + url + "?ref=v1.0.0", "one", ".terraform/modules/m", ""},
		{"branch with depth", "git::" + url + "?ref=main&depth=1", "two", ".terraform/modules/m", ""},
		{"subdirectory", "git::" + url + "//modules/vpc?ref=v1.0.0", "vpc one", ".terraform/modules/m/modules/vpc", ""},
		{"missing ref", "git::" + url + "?ref=v9", "", "", "Failed to download module"},
		{"missing repository", "git::file:///nonexistent/repo.git", "", "", "Failed to download module"},
		{"bad depth", "git::" + url + "?depth=zero", "", "", "Invalid module source address"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			testfiles.Write(t, dir, map[string]string{"main.tf": "module \"m\" {\n  source = \"" + tt.source + "\"\n}\n"})
			res, diags := Modules(Options{WorkDir: dir, Env: testEnv()})
			if tt.summary != "" {
				if len(diags) != 1 || diags[0].Summary != tt.summary || diags[0].Subject == nil || diags[0].Subject.Start.Line != 2 {
					t.Fatalf("want %q at line 2, got:\n%s", tt.summary, summaries(diags))
				}
				return
			}
			if diags.HasErrors() {
				t.Fatal(summaries(diags))
			}
			if len(res.Modules) != 1 || res.Modules[0].Dir != tt.dir {
				t.Fatalf("got %+v, want dir %s", res.Modules, tt.dir)
			}
			if got := readFile(dir, tt.dir+"/main.tf"); !strings.Contains(got, `"`+tt.want+`"`) {
				t.Errorf("main.tf = %q, want %q", got, tt.want)
			}
			if _, err := os.Stat(filepath.Join(dir, ".terraform/modules/m/.git")); err == nil {
				t.Error("the .git directory was installed")
			}
		})
	}
}

// TestGitUnsafeRepositories checks that a repository with a symbolic link
// leading out of it, or one beyond the size limit, is refused.
func TestGitUnsafeRepositories(t *testing.T) {
	escaping := gitRepo(t, []gitCommit{{files: map[string]string{"main.tf": "# x\n"}, links: map[string]string{"secrets": "/etc"}}})
	big := gitRepo(t, []gitCommit{{files: map[string]string{"main.tf": "# x\n", "blob.bin": strings.Repeat("0123456789abcdef", 1<<16)}}})
	tests := []struct{ name, repo, detail string }{
		{"link outside", escaping, "symbolic link secrets"},
		{"too large", big, "larger than"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			testfiles.Write(t, dir, map[string]string{"main.tf": `module "m" { source = "git::file://` + filepath.ToSlash(tt.repo) + `" }`})
			_, diags := Modules(Options{WorkDir: dir, Env: testEnv(), MaxPackageSize: 512 << 10})
			if len(diags) != 1 || !strings.Contains(diags[0].Detail, tt.detail) || diags[0].Subject == nil {
				t.Fatalf("want an error about %q, got:\n%s", tt.detail, summaries(diags))
			}
			if _, err := os.Stat(filepath.Join(dir, ".terraform/modules/m")); err == nil {
				t.Error("the module was installed anyway")
			}
		})
	}
}

// The commit hash patterns as regular expressions, which commitID and
// shortCommit check without compiling.
var (
	commitIDPattern    = regexp.MustCompile(`^[0-9a-f]{40}([0-9a-f]{24})?$`)
	shortCommitPattern = regexp.MustCompile(`^[0-9a-f]{7,64}$`)
)

// TestCommitPatterns: the byte-by-byte checks agree with the regular
// expressions at every length up to 70, with each kind of byte they tell
// apart at each end.
func TestCommitPatterns(t *testing.T) {
	var inputs []string
	for n := 0; n <= 70; n++ {
		for _, fill := range []string{"0", "f", "9", "a"} {
			base := strings.Repeat(fill, n)
			inputs = append(inputs, base)
			for _, odd := range []string{"g", "F", "A", " ", "\n", "\xff", "-"} {
				inputs = append(inputs, base+odd, odd+base)
			}
		}
	}
	for _, in := range inputs {
		if got, want := commitID(in), commitIDPattern.MatchString(in); got != want {
			t.Errorf("commitID(%q) = %v, the pattern says %v", in, got, want)
		}
		if got, want := shortCommit(in), shortCommitPattern.MatchString(in); got != want {
			t.Errorf("shortCommit(%q) = %v, the pattern says %v", in, got, want)
		}
	}
}
