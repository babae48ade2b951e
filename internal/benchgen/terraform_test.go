package benchgen

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestTerraformPlansTree is opt-in (BENCHGEN_TERRAFORM=small or
// small,medium): it plans the provider-free tree with a real terraform
// binary and checks it is valid and has ExpectedInstances instances. Terraform
// takes about 3s for small and 40s for medium; large did not finish in 20 minutes.
func TestTerraformPlansTree(t *testing.T) {
	sizes := os.Getenv("BENCHGEN_TERRAFORM")
	if sizes == "" {
		t.Skip("set BENCHGEN_TERRAFORM=small[,medium,large] to plan trees with terraform")
	}
	bin, err := exec.LookPath("terraform")
	if err != nil {
		t.Skip("terraform not in PATH")
	}
	for _, name := range strings.Split(sizes, ",") {
		size, err := ParseSize(name)
		if err != nil {
			t.Fatal(err)
		}
		t.Run(name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "tree")
			if err := WriteOptions(dir, size, Options{NoProvider: true}); err != nil {
				t.Fatal(err)
			}
			run := func(args ...string) []byte {
				cmd := exec.Command(bin, args...)
				cmd.Dir = dir
				cmd.Env = append(os.Environ(), "TF_IN_AUTOMATION=1", "CHECKPOINT_DISABLE=1")
				out, err := cmd.Output()
				if err != nil {
					stderr := ""
					if ee, ok := err.(*exec.ExitError); ok {
						stderr = string(ee.Stderr)
					}
					t.Fatalf("terraform %s: %v\n%s\n%s", args[0], err, out, stderr)
				}
				return out
			}
			run("init", "-input=false", "-no-color")
			run("plan", "-input=false", "-no-color", "-out=plan.bin")
			var plan struct {
				ResourceChanges []struct{ Address string } `json:"resource_changes"`
			}
			if err := json.Unmarshal(run("show", "-json", "plan.bin"), &plan); err != nil {
				t.Fatal(err)
			}
			if got, want := len(plan.ResourceChanges), ExpectedInstances(size); got != want {
				t.Errorf("terraform planned %d instances, ExpectedInstances = %d", got, want)
			}
		})
	}
}
