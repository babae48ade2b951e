package tests

import (
	"context"
	"fmt"

	"sync"
	"testing"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/tfeval/tfeval"
	"github.com/tfeval/tfeval/config"
	"github.com/tfeval/tfeval/funcs"
	"github.com/tfeval/tfeval/lang"
	"github.com/tfeval/tfeval/tfvars"

	"github.com/tfeval/tfeval/internal/testfiles"
)

const concurrencyModule = `
variable "n" { type = number }
variable "names" { type = list(string) }
locals {
  doubled = var.n * 2
  upper   = [for s in var.names : upper(s)]
  tmpl    = templatefile("${path.module}/t.tftpl", { n = var.n, names = var.names })
}
resource "terraform_data" "r" {
  count = var.n
  input = "${local.upper[count.index % length(local.upper)]}-${count.index}"
}
module "child" {
  source = "./child"
  n      = local.doubled
}
output "doubled" { value = local.doubled }
output "tmpl" { value = local.tmpl }
output "child" { value = module.child.out }
output "inputs" { value = [for i in range(var.n) : "${local.upper[i % length(local.upper)]}-${i}"] }
output "count" { value = length(terraform_data.r) }
`

// TestConcurrentEvaluation evaluates one loaded configuration from many
// goroutines at once, each with its own variables, and checks every result;
// run with -race it also shows that evaluations share no mutable state.
func TestConcurrentEvaluation(t *testing.T) {
	dir := t.TempDir()
	testfiles.Write(t, dir, map[string]string{
		"main.tf":       concurrencyModule,
		"t.tftpl":       "%{for s in names}${s}:${n};%{endfor}",
		"child/main.tf": `variable "n" {}` + "\n" + `output "out" { value = [for i in range(var.n) : i * var.n] }`,
	})
	cfg, diags := config.Load(".", config.Options{WorkDir: dir, Sandbox: dir})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	const goroutines = 16
	var wg sync.WaitGroup
	for g := 0; g < goroutines; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			n := g%5 + 1
			names := []cty.Value{cty.StringVal(fmt.Sprintf("a%d", g)), cty.StringVal("b")}
			raw, diags := tfvars.Collect(tfvars.Inputs{Dir: dir, Values: map[string]cty.Value{"n": cty.NumberIntVal(int64(n)), "names": cty.ListVal(names)}}, cfg.Module.Variables)
			if diags.HasErrors() {
				t.Error(diags)
				return
			}
			for round := 0; round < 3; round++ {
				res, diags := lang.Evaluate(cfg, lang.Options{Cwd: dir, RootVariables: raw, Console: round%2 == 1, Functions: funcs.Options{BaseDir: dir, Sandbox: dir}})
				if diags.HasErrors() {
					t.Error(diags)
					return
				}
				out := res.Root().Outputs
				if got := out["doubled"]; !got.RawEquals(cty.NumberIntVal(int64(2 * n))) {
					t.Errorf("goroutine %d: doubled = %#v", g, got)
				}
				if got, want := out["tmpl"], cty.StringVal(fmt.Sprintf("a%d:%d;b:%d;", g, n, n)); !got.RawEquals(want) {
					t.Errorf("goroutine %d: tmpl = %#v, want %#v", g, got, want)
				}
				if got := out["child"]; !got.IsKnown() || got.LengthInt() != 2*n {
					t.Errorf("goroutine %d: child = %#v", g, got)
				}
				if got := out["inputs"]; !got.IsWhollyKnown() || got.LengthInt() != n || got.Index(cty.NumberIntVal(0)).AsString() != fmt.Sprintf("A%d-0", g) {
					t.Errorf("goroutine %d: inputs = %#v", g, got)
				}
				v, diags := res.EvalExpr(hclExpr(t, "local.upper[0]"), nil)
				if diags.HasErrors() || v.AsString() != fmt.Sprintf("A%d", g) {
					t.Errorf("goroutine %d: console local.upper[0] = %#v %v", g, v, diags)
				}
			}
		}(g)
	}
	wg.Wait()
}

// TestCancelStopsEvaluation cancels an evaluation that would run for
// minutes and checks that it stops with a diagnostic, using under a second
// of CPU after the cancellation (five under the race detector): CPU time,
// which a busy machine does not inflate as it does wall time. The
// wall-clock wait only ends an evaluation that never stops.
func TestCancelStopsEvaluation(t *testing.T) {
	dir := t.TempDir()
	testfiles.Write(t, dir, map[string]string{"main.tf": `
locals {
  a = [for a in range(1000) : [for b in range(1000) : [for c in range(1000) : c]]]
  b = [for a in range(1000) : [for b in range(1000) : [for c in range(1000) : "${c}"]]]
}
output "x" { value = length(local.a) + length(local.b) }
`})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan *tfeval.Evaluation, 1)
	go func() {
		done <- tfeval.Evaluate(tfeval.Options{WorkDir: dir, Context: ctx,
			Limits: lang.Limits{MaxSteps: 1 << 62, MaxElements: 1 << 40, MaxMemory: 1 << 50}})
	}()
	time.Sleep(200 * time.Millisecond)
	select {
	case ev := <-done:
		t.Fatalf("evaluation finished before it was cancelled: %v", ev.Diagnostics)
	default:
	}
	cpu := cpuTime()
	cancel()
	select {
	case ev := <-done:
		used := cpuTime() - cpu
		t.Logf("used %s of CPU after cancellation", used)
		if limit := raceSlowdown * time.Second; used > limit {
			t.Errorf("used %s of CPU after cancellation, more than %s", used, limit)
		}
		wantError(t, ev.Diagnostics, "Evaluation cancelled", false)
	case <-time.After(60 * time.Second):
		t.Fatal("evaluation did not stop within 60s of cancellation")
	}
}

func hclExpr(t *testing.T, src string) hcl.Expression {
	expr, diags := hclParseExpr(src)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	return expr
}

func hclParseExpr(src string) (hcl.Expression, hcl.Diagnostics) {
	return hclsyntax.ParseExpression([]byte(src), "<test>", hcl.InitialPos)
}

// TestConcurrentEvalOnOneEvaluation calls Eval and Checks on one finished
// evaluation from many goroutines, as an IDE answering hovers would.
func TestConcurrentEvalOnOneEvaluation(t *testing.T) {
	ev := tfeval.Evaluate(tfeval.Options{WorkDir: quickstart})
	if ev.HasErrors() {
		t.Fatal(ev.Diagnostics)
	}
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 50; i++ {
				v, diags := ev.Eval("local.name_prefix", "")
				if diags.HasErrors() || !v.RawEquals(cty.StringVal("shop-dev")) {
					t.Errorf("local.name_prefix = %#v %v", v, diags)
					return
				}
				v, diags = ev.Eval("length(local.subnet_cidrs)", "module.network")
				if diags.HasErrors() || !v.RawEquals(cty.NumberIntVal(3)) {
					t.Errorf("module.network length = %#v %v", v, diags)
					return
				}
				if len(ev.Checks()) == 0 {
					t.Error("no check results")
					return
				}
			}
		}()
	}
	wg.Wait()
}
