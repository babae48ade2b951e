package benchgen

func componentVariables() []byte {
	var t text
	t.l(`variable "name" {`, `type = string`, `}`, ``,
		`variable "env" {`,
		`type = string`,
		`validation {`,
		`condition     = contains(["prod", "staging"], var.env)`,
		`error_message = "Unknown environment."`,
		`}`,
		`}`, ``,
		`variable "base_cidr" {`, `type = string`, `}`, ``,
		`variable "settings" {`,
		`type = object({`,
		`replicas = optional(number, 2)`,
		`tier     = optional(string, "standard")`,
		`ports    = optional(list(number), [80, 443])`,
		`tags     = optional(map(string), {})`,
		`limits = optional(object({`,
		`cpu    = optional(number, 1)`,
		`memory = optional(number, 512)`,
		`}), {})`,
		`})`,
		`default = {}`,
		`}`, ``,
		`variable "items" {`,
		`type = map(object({`,
		`size    = number`,
		`enabled = optional(bool, true)`,
		`labels  = optional(map(string), {})`,
		`}))`,
		`}`, ``,
		`variable "upstream" {`,
		`description = "Summary of the sibling component this one follows."`,
		`type = object({`,
		`name  = string`,
		`names = list(string)`,
		`cidrs = list(string)`,
		`})`,
		`default = null`,
		`}`)
	return t.hcl()
}

func (c *component) locals() []byte {
	var t text
	t.l(`locals {`,
		`prefix        = format("%s-%s", var.env, var.name)`,
		`tags          = merge(var.settings.tags, { component = var.name, env = var.env, tier = var.settings.tier })`,
		`tier_weights  = { standard = 1, premium = 2, burst = 4 }`,
		`weight        = lookup(local.tier_weights, var.settings.tier, 1)`,
		`enabled_items = { for key, item in var.items : key => item if item.enabled }`,
		`item_names    = [for key in sort(keys(local.enabled_items)) : "${local.prefix}-${key}"]`)
	t.f(`subnets       = [for i in range(%d) : cidrsubnet(var.base_cidr, 4, i)]`, c.subnets)
	t.l(`big_items = { for key, item in local.enabled_items : key => item if item.size >= 3 }`,
		`rules = flatten([`,
		`for key, item in local.enabled_items : [`,
		`for port in var.settings.ports : {`,
		`item  = key`,
		`port  = port`,
		`proto = port == 443 || port == 8443 ? "https" : "tcp"`,
		`}`,
		`]`,
		`])`,
		`upstream_names = var.upstream == null ? [] : var.upstream.names`,
		`}`)
	return t.hcl()
}

// main writes the component's resources; without the mock provider the
// firewall is a terraform_data carrying the same data, so counts do not change.
func (c *component) main(mock bool) []byte {
	var t text
	t.l(`resource "terraform_data" "replica" {`,
		`count = var.settings.replicas`,
		`input = {`,
		`name   = "${local.prefix}-${count.index}"`,
		`subnet = local.subnets[count.index % length(local.subnets)]`,
		`tags   = local.tags`,
		`limits = var.settings.limits`,
		`}`,
		`}`, ``,
		`resource "terraform_data" "item" {`,
		`for_each = local.enabled_items`,
		`input = {`,
		`key    = each.key`,
		`weight = local.weight * each.value.size`,
		`labels = merge(local.tags, each.value.labels)`,
		`doc    = jsonencode({ name = each.key, size = each.value.size, upstream = length(local.upstream_names) })`,
		`}`,
		`triggers_replace = [each.value.size]`,
		`}`, ``,
		`resource "terraform_data" "subnet" {`,
		`count = length(local.subnets)`,
		`input = {`,
		`cidr = local.subnets[count.index]`,
		`name = format("%s-net-%02d", local.prefix, count.index)`,
		`}`,
		`}`, ``)
	if mock {
		t.l(`resource "mock_thing" "firewall" {`,
			`for_each = local.big_items`, ``,
			`name = "${local.prefix}-${each.key}"`,
			`size = each.value.size`,
			`tags = local.tags`, ``,
			`dynamic "rule" {`,
			`for_each = [for rule in local.rules : rule if rule.item == each.key]`,
			`content {`,
			`port  = rule.value.port`,
			`proto = rule.value.proto`,
			`}`,
			`}`, ``,
			`dynamic "setting" {`,
			`for_each = each.value.labels`,
			`iterator = label`,
			`content {`,
			`name  = label.key`,
			`value = label.value`,
			`}`,
			`}`,
			`}`)
	} else {
		t.l(`resource "terraform_data" "firewall" {`,
			`for_each = local.big_items`,
			`input = {`,
			`name     = "${local.prefix}-${each.key}"`,
			`size     = each.value.size`,
			`tags     = local.tags`,
			`rules    = [for rule in local.rules : { port = rule.port, proto = rule.proto } if rule.item == each.key]`,
			`settings = [for name, value in each.value.labels : { name = name, value = value }]`,
			`}`,
			`}`)
	}
	firewall := "terraform_data.firewall"
	if mock {
		firewall = "mock_thing.firewall"
	}
	t.l(``, `resource "terraform_data" "summary" {`, `input = {`,
		`replicas  = terraform_data.replica[*].id`,
		`items     = keys(terraform_data.item)`,
		`firewalls = { for key, fw in `+firewall+` : key => fw.id }`,
		`}`, `}`)
	return t.hcl()
}

func componentOutputs() []byte {
	var t text
	t.l(`output "summary" {`,
		`value = {`,
		`name  = local.prefix`,
		`names = local.item_names`,
		`cidrs = local.subnets`,
		`}`,
		`}`, ``,
		`output "replica_ids" {`,
		`value = terraform_data.replica[*].id`,
		`}`)
	return t.hcl()
}
