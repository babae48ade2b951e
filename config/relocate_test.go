package config

import (
	"reflect"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// relocateSource has every kind of native-syntax expression, nested
// blocks, splats (whose Each refers to their symbol) and a syntax error.
const relocateSource = `
terraform {
  required_version = ">= 1.0"
}
variable "v" {
  type    = map(object({ a = string, b = optional(list(number), [1]) }))
  default = {}
  validation {
    condition     = alltrue([for k, x in var.v : length(k) > 0 if x != null])
    error_message = "bad ${join(", ", keys(var.v))}"
  }
}
locals {
  a = [1, 2.5, true, null, "s", -1, !false]
  b = { x = 1, "y" = 2, (local.k) = 3, z: 4 }
  c = var.v["k"].a[0]
  d = aws_instance.x[*].id
  e = aws_instance.x.*.tags.name
  f = [for i, v in local.a : v...]
  g = { for k, v in var.v : k => v.a... if k != "" }
  h = local.a[0] == 1 ? "${local.b.x}%{if true}t%{else}f%{endif}" : <<-EOT
    heredoc ${local.c}
    %{for x in local.a}${x}%{endfor}
  EOT
  i = (1 + 2) * 3 / 4 % 5 - -6 >= 7 || 8 < 9 && 10 != 11
  j = provider::aws::arn_parse("x")
  k = try(local.z[0][*], can(local.y.*), f(local.list...))
  l = data.aws_caller_identity.current.account_id
  l = "set twice: an error whose text names the file"
}
resource "aws_instance" "x" {
  count = 2
  tags  = { name = "n${count.index}" }
  dynamic "ebs" {
    for_each = local.a
    content {
      size = ebs.value
    }
  }
  lifecycle {
    ignore_changes = [tags]
  }
}
module "m" {
  source = "./m"
}
output "o" {
  value = local.broken +
}
`

func TestRelocateEqualsParse(t *testing.T) {
	const from, to = "main.tf", "../../modules/x/main.tf"
	a, aDiags := hclsyntax.ParseConfig([]byte(relocateSource), from, hcl.InitialPos)
	b, bDiags := hclsyntax.ParseConfig([]byte(relocateSource), to, hcl.InitialPos)
	if !aDiags.HasErrors() {
		t.Fatal("the source was meant to have a syntax error")
	}
	got, ok := parsedFile{body: a.Body, diags: aDiags}.relocate(from, to)
	if !ok {
		t.Fatal("relocate did not copy the body")
	}
	if !reflect.DeepEqual(got.body, b.Body) {
		t.Error("the relocated body differs from the body parsed with the new name")
	}
	if !reflect.DeepEqual(got.diags, bDiags) {
		t.Errorf("relocated diagnostics\n%v\nwant\n%v", got.diags, bDiags)
	}
	// The copy shares nothing with the original that a range is in.
	if got.body.(*hclsyntax.Body).Attributes == nil && a.Body.(*hclsyntax.Body).Attributes != nil {
		t.Error("attributes lost")
	}
	if reflect.DeepEqual(got.body, a.Body) {
		t.Error("the relocated body still names the old file")
	}
}

// TestRelocateSplatSymbol: the copy of a splat's Each refers to the copy
// of its symbol, as a parse makes it, not to the original's.
func TestRelocateSplatSymbol(t *testing.T) {
	f, _ := hclsyntax.ParseConfig([]byte("x = a[*].b\n"), "a.tf", hcl.InitialPos)
	got, ok := parsedFile{body: f.Body}.relocate("a.tf", "b.tf")
	if !ok {
		t.Fatal("not copied")
	}
	splat := got.body.(*hclsyntax.Body).Attributes["x"].Expr.(*hclsyntax.SplatExpr)
	each := splat.Each.(*hclsyntax.RelativeTraversalExpr)
	if each.Source != splat.Item {
		t.Error("the copied splat's Each does not refer to its own symbol")
	}
	if splat.Item == f.Body.(*hclsyntax.Body).Attributes["x"].Expr.(*hclsyntax.SplatExpr).Item {
		t.Error("the copied splat shares the original's symbol")
	}
}

// TestRelocateUnknownExpression: an expression type the copy does not know
// makes it refuse, so that the file is parsed again.
func TestRelocateUnknownExpression(t *testing.T) {
	body := &hclsyntax.Body{Attributes: hclsyntax.Attributes{"x": {Name: "x", Expr: &unknownExpr{}}}}
	if _, ok := (parsedFile{body: body}).relocate("a.tf", "b.tf"); ok {
		t.Error("an unknown expression type was copied")
	}
	if _, ok := (parsedFile{body: hcl.EmptyBody()}).relocate("a.tf", "b.tf"); ok {
		t.Error("a body that is not native syntax was copied")
	}
}

type unknownExpr struct{ hclsyntax.LiteralValueExpr }
