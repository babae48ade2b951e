package benchgen

import (
	"fmt"
	"strings"
)

func serviceVariables() []byte {
	var t text
	t.l(`variable "name" {`, `type = string`, `}`, ``,
		`variable "env" {`, `type = string`, `}`, ``,
		`variable "network" {`,
		`type = object({`,
		`cidr  = string`,
		`zones = list(string)`,
		`})`,
		`}`, ``,
		`variable "tags" {`, `type    = map(string)`, `default = {}`, `}`, ``,
		`variable "upstream" {`,
		`description = "Endpoint of the service this one calls, if any."`,
		`type = object({`,
		`name  = string`,
		`url   = string`,
		`ports = list(number)`,
		`})`,
		`default = null`,
		`}`)
	return t.hcl()
}

func (s *service) locals() []byte {
	var t text
	t.l(`locals {`,
		`prefix       = "${var.env}-${var.name}"`,
		`upstream_url = var.upstream != null ? var.upstream.url : "none"`)
	t.f(`catalog = {`)
	t.f(`for i in range(%d) : format("item-%%03d", i) => {`, s.catalog)
	t.l(`size    = i % 5 + 1`,
		`enabled = i % 8 != 7`,
		`labels  = { index = tostring(i), shard = i % 2 == 0 ? "even" : "odd" }`,
		`}`,
		`}`,
		`}`)
	return t.hcl()
}

// componentRef reads a component's outputs from a sibling call; a counted
// call is read through its first instance.
func componentRef(c *component) string {
	if c.counted {
		return "module." + c.call + "[0]"
	}
	return "module." + c.call
}

func (s *service) main() []byte {
	var t text
	t.l(`resource "terraform_data" "service" {`,
		`input = {`,
		`name     = local.prefix`,
		`upstream = local.upstream_url`,
		`tags     = var.tags`,
		`}`,
		`}`, ``,
		`resource "terraform_data" "zone" {`,
		`for_each = toset(var.network.zones)`,
		`input = {`,
		`zone = each.key`,
		`name = "${local.prefix}-${each.value}"`,
		`}`,
		`}`)
	for _, c := range s.components {
		t.l(``)
		t.f(`module %q {`, c.call)
		t.f(`source = "../../components/%s"`, c.name)
		if c.counted {
			t.l(`count  = length(var.network.zones)`, ``)
			t.f(`name      = "${var.name}-c-%03d-${count.index}"`, c.index)
		} else {
			t.l(``)
			t.f(`name      = "${var.name}-c-%03d"`, c.index)
		}
		t.l(`env       = var.env`)
		t.f(`base_cidr = cidrsubnet(var.network.cidr, 6, %d)`, c.index)
		c.settings(&t)
		c.itemsArg(&t)
		if c.index > 0 {
			t.f(`upstream = %s.summary`, componentRef(s.components[c.index-1]))
		}
		t.l(`}`)
	}
	return t.hcl()
}

// settings writes the settings argument, leaving some optional attributes
// out so their defaults apply.
func (c *component) settings(t *text) {
	t.l(`settings = {`)
	t.f(`replicas = %d`, c.replicas)
	if c.tier != "" {
		t.f(`tier = %q`, c.tier)
	}
	if c.ports != nil {
		t.f(`ports = %s`, numbers(c.ports))
	}
	if c.cpu > 0 {
		t.f(`limits = { cpu = %d }`, c.cpu)
	}
	t.l(`tags = merge(var.tags, { service = var.name })`, `}`)
}

func (c *component) itemsArg(t *text) {
	filter := fmt.Sprintf(`{ for key, item in local.catalog : key => item if item.size <= %d }`, c.sizeCap)
	if len(c.extras) == 0 {
		t.f(`items = %s`, filter)
		return
	}
	t.l(`items = merge(`)
	t.f(`%s,`, filter)
	t.l(`{`)
	for _, e := range c.extras {
		attrs := []string{fmt.Sprintf("size = %d", e.size)}
		if e.enabled >= 0 {
			attrs = append(attrs, fmt.Sprintf("enabled = %t", e.enabled == 1))
		}
		if e.labels {
			attrs = append(attrs, `labels = { pinned = "true" }`)
		}
		t.f(`%q = { %s }`, e.key, strings.Join(attrs, ", "))
	}
	t.l(`}`, `)`)
}

func (s *service) outputs() []byte {
	var t text
	t.l(`output "endpoint" {`,
		`value = {`,
		`name  = local.prefix`,
		`url   = format("https://%s.%s.internal", var.name, var.env)`,
		`ports = [443, 8443]`,
		`}`,
		`}`, ``,
		`output "components" {`,
		`value = {`)
	for _, c := range s.components {
		if c.counted {
			t.f(`%s = module.%s[*].summary.name`, c.call, c.call)
		} else {
			t.f(`%s = module.%s.summary.name`, c.call, c.call)
		}
	}
	t.l(`}`, `}`)
	return t.hcl()
}
