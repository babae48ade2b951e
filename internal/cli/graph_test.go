package cli

import (
	"strings"
	"testing"
)

func TestGraph(t *testing.T) {
	dir := writeModule(t, map[string]string{
		"main.tf": `
variable "n" { default = 1 }
locals { twice = var.n * 2 }
module "child" {
  source = "./child"
  x      = local.twice
}
data "terraform_remote_state" "s" {
  backend = "local"
}
output "y" { value = module.child.y }
`,
		"child/main.tf": `
variable "x" {}
resource "terraform_data" "r" { input = var.x }
output "y" { value = terraform_data.r.output }
`,
	})
	wantDOT := `digraph {
  rankdir=RL;
  compound=true;
  node [fontname="Helvetica", fontsize=11];
  edge [color="#5f6368", arrowsize=0.7];
  "data.terraform_remote_state.s" [label="data.terraform_remote_state.s", shape=box, style="rounded,filled,dashed", fillcolor="#e6f4ea"];
  "local.twice" [label="local.twice", shape=ellipse, style=filled, fillcolor="#f1f3f4"];
  "output.y" [label="output.y", shape=house, style=filled, fillcolor="#fce8e6"];
  "var.n" [label="var.n", shape=ellipse, style=filled, fillcolor="#e8f0fe"];
  subgraph "cluster_module.child" {
    label="module.child";
    style="rounded";
    color="#9aa0a6";
    fontname="Helvetica";
    "module.child" [label="module.child\nsource = \"./child\"", shape=component, style=filled, fillcolor="#fef7e0"];
    "module.child.output.y" [label="output.y", shape=house, style=filled, fillcolor="#fce8e6"];
    "module.child.terraform_data.r" [label="terraform_data.r", shape=box, style="rounded,filled", fillcolor="#e6f4ea"];
    "module.child.var.x" [label="var.x", shape=ellipse, style=filled, fillcolor="#e8f0fe"];
  }
  "local.twice" -> "var.n";
  "module.child.output.y" -> "module.child.terraform_data.r";
  "module.child.terraform_data.r" -> "module.child.var.x";
  "module.child.var.x" -> "local.twice";
  "output.y" -> "module.child.output.y";
}
`
	wantMermaid := `flowchart RL
  n0[/"data.terraform_remote_state.s"/]
  n1("local.twice")
  n6>"output.y"]
  n7(["var.n"])
  subgraph m0["module.child"]
    n2[["module.child<br>source = #quot;./child#quot;"]]
    n3>"output.y"]
    n4["terraform_data.r"]
    n5(["var.x"])
  end
  n1 --> n7
  n3 --> n4
  n4 --> n5
  n5 --> n1
  n6 --> n3
`
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"graph"}, wantDOT},
		{[]string{"graph", "-format=dot"}, wantDOT},
		{[]string{"graph", "-format=mermaid"}, wantMermaid},
	} {
		rc, out, errText := run(t, dir, "", nil, tt.args...)
		if rc != 0 || out != tt.want {
			t.Errorf("%v: rc=%d stderr=%q\n%s\nwant:\n%s", tt.args, rc, errText, out, tt.want)
		}
	}
}

func TestGraphErrors(t *testing.T) {
	bad := writeModule(t, map[string]string{"main.tf": "locals {\n  a = \n}\n"})
	if rc, _, errText := run(t, bad, "", nil, "graph", "-no-color"); rc != exitError || !strings.Contains(errText, "Error: ") {
		t.Errorf("broken module: rc=%d stderr=%q", rc, errText)
	}
	if rc, _, _ := run(t, ".", "", nil, "graph", "-format=svg"); rc != exitUsage {
		t.Errorf("bad format: rc=%d, want %d", rc, exitUsage)
	}
	if rc, _, _ := run(t, ".", "", nil, "eval", "-format=dot"); rc != exitUsage {
		t.Errorf("-format outside graph: rc=%d, want %d", rc, exitUsage)
	}
}
