package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// gitModuleRepo makes a git repository holding one module and returns
// its file:// URL.
func gitModuleRepo(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	dir := writeModule(t, map[string]string{"main.tf": "variable \"name\" {}\noutput \"greeting\" {\n  value = \"hello ${var.name}\"\n}\n"})
	for _, args := range [][]string{{"init", "--quiet"}, {"add", "-A"}, {"commit", "--quiet", "-m", "m"}, {"tag", "v1.0.0"}} {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1", "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	return "file://" + filepath.ToSlash(dir)
}

func TestInit(t *testing.T) {
	repo := gitModuleRepo(t)
	gitEnv := []string{"PATH=" + os.Getenv("PATH"), "HOME=/nonexistent", "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1"}
	root := map[string]string{"main.tf": "module \"greeter\" {\n  source = \"git::" + repo + "?ref=v1.0.0\"\n  name   = \"ci\"\n}\noutput \"greeting\" {\n  value = module.greeter.greeting\n}\n"}

	dir := writeModule(t, root)
	// Before init, evaluation reports the module as not installed.
	if rc, _, errText := run(t, dir, "", nil, "eval", "-no-color"); rc != exitError || !strings.Contains(errText, "Module not installed") {
		t.Fatalf("eval before init: rc=%d %s", rc, errText)
	}
	cache := filepath.Join(t.TempDir(), "cache")
	rc, out, errText := run(t, dir, "", gitEnv, "init", "-no-color", "-cache-dir="+cache)
	wantOut := "Initializing modules...\nDownloading git::" + repo + "?ref=v1.0.0 for greeter...\n- greeter in .terraform/modules/greeter\n\ntfeval has installed 1 module call (2 network requests). Run \"tfeval validate\" or \"tfeval eval\" now.\n"
	if rc != exitOK || out != wantOut || errText != "" {
		t.Fatalf("init: rc=%d\n%s\nwant\n%s\nstderr: %s", rc, out, wantOut, errText)
	}
	if rc, out, errText := run(t, dir, "", nil, "eval", "-no-color"); rc != exitOK || !strings.Contains(out, `greeting = "hello ci"`) {
		t.Fatalf("eval after init: rc=%d %s %s", rc, out, errText)
	}

	// Another root, offline, from the cache the first filled; the
	// repository may be gone by then.
	other := writeModule(t, root)
	os.RemoveAll(strings.TrimPrefix(repo, "file://"))
	rc, out, errText = run(t, other, "", append(gitEnv, "TFEVAL_MODULE_CACHE_DIR="+cache), "init", "-offline")
	if rc != exitOK || !strings.Contains(out, "Copying git::"+repo+"?ref=v1.0.0 from the module cache for greeter...") || !strings.Contains(out, "(0 network requests)") {
		t.Fatalf("offline init: rc=%d\n%s\n%s", rc, out, errText)
	}
}

func TestInitErrors(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string
		args  []string
		rc    int
		err   string
	}{
		{"offline without a cache", map[string]string{"main.tf": ""}, []string{"-offline"}, exitUsage, "-offline needs a module cache"},
		{"bad source", map[string]string{"main.tf": "module \"m\" {\n  source = \"nope\"\n}\n"}, nil, exitError, "Error: Invalid module source address\n\n  on main.tf line 2, in module \"m\":\n"},
		{"offline and not cached", map[string]string{"main.tf": "module \"m\" {\n  source = \"acme/net/aws\"\n}\n"}, []string{"-offline", "-cache-dir=cache"}, exitError, "Error: Module not in the cache"},
		{"sandbox", map[string]string{"main.tf": ""}, []string{"-sandbox=sub", "-cache-dir=cache"}, exitError, "Error: Installation outside the allowed directory"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := writeModule(t, tt.files)
			os.Mkdir(filepath.Join(dir, "sub"), 0o755)
			rc, _, errText := run(t, dir, "", nil, append([]string{"init", "-no-color"}, tt.args...)...)
			if rc != tt.rc || !strings.Contains(errText, tt.err) {
				t.Errorf("rc=%d stderr:\n%s\nwant rc=%d and %q", rc, errText, tt.rc, tt.err)
			}
		})
	}
}

// TestInitRunModules: init installs the module of every run block of the
// test files, as terraform init does, under the key the test command looks
// it up by (test.<directories>.<file name>.<run>), with the calls of the
// modules it installs; the test command then finds them. The manifest is
// the one terraform init v1.11.4 writes for this module.
func TestInitRunModules(t *testing.T) {
	dir := writeModule(t, map[string]string{
		"main.tf":                   "variable \"x\" {\n  default = \"a\"\n}\noutput \"y\" {\n  value = var.x\n}\n",
		"tests/setup/main.tf":       "output \"z\" {\n  value = \"setup\"\n}\nmodule \"child\" {\n  source = \"./child\"\n}\n",
		"tests/setup/child/main.tf": "output \"c\" {\n  value = 1\n}\n",
		"tests/a.tftest.hcl":        "run \"setup\" {\n  module {\n    source = \"./tests/setup\"\n  }\n}\nrun \"main\" {\n  assert {\n    condition     = output.y == \"a\"\n    error_message = \"bad\"\n  }\n}\n",
		"other/b.tftest.hcl":        "run \"elsewhere\" {\n  module {\n    source = \"./tests/setup\"\n  }\n}\n",
	})
	rc, out, errOut := run(t, dir, "", nil, "init")
	if rc != exitOK || !strings.Contains(out, "- test.tests.a.setup in tests/setup\n") {
		t.Fatalf("init: %d\n%s%s", rc, out, errOut)
	}
	manifest, err := os.ReadFile(filepath.Join(dir, ".terraform/modules/modules.json"))
	if err != nil {
		t.Fatal(err)
	}
	want := `{"Modules":[{"Key":"","Source":"","Dir":"."},{"Key":"test.tests.a.setup","Source":"./tests/setup","Dir":"tests/setup"},{"Key":"test.tests.a.setup.child","Source":"./child","Dir":"tests/setup/child"}]}`
	if strings.TrimSpace(string(manifest)) != want {
		t.Errorf("modules.json:\n%s\nwant\n%s", manifest, want)
	}
	if rc, out, errOut := run(t, dir, "", nil, "test"); rc != exitOK || !strings.Contains(out, "2 passed, 0 failed") {
		t.Errorf("test after init: %d\n%s%s", rc, out, errOut)
	}

	// -test-directory names where else test files are.
	if rc, out, errOut := run(t, dir, "", nil, "init", "-test-directory=other"); rc != exitOK || !strings.Contains(out, "- test.other.b.elsewhere in tests/setup\n") || strings.Contains(out, "test.tests.a") {
		t.Errorf("init -test-directory=other: %d\n%s%s", rc, out, errOut)
	}
}
