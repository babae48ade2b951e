package benchgen

func (p *plan) rootVariables() []byte {
	var t text
	t.l(`variable "project" {`,
		`type        = string`,
		`description = "Short project name used in every resource name."`,
		`}`, ``,
		`variable "environments" {`,
		`type = map(object({`,
		`cidr     = string`,
		`replicas = optional(number, 1)`,
		`tier     = optional(string, "standard")`,
		`tags     = optional(map(string), {})`,
		`}))`,
		`}`, ``,
		`variable "primary_env" {`,
		`type    = string`,
		`default = "prod"`,
		`validation {`,
		`condition     = contains(["prod", "staging"], var.primary_env)`,
		`error_message = "The primary environment must be prod or staging."`,
		`}`,
		`}`, ``,
		`variable "zones" {`,
		`type    = list(string)`,
		`default = ["zone-a", "zone-b"]`,
		`}`, ``,
		`variable "default_tags" {`,
		`type    = map(string)`,
		`default = {}`,
		`}`)
	return t.hcl()
}

// rootTfvars must list exactly the environments and zones the plan counts.
func (p *plan) rootTfvars(project string) []byte {
	var t text
	t.f(`project = %q`, project)
	t.l(``,
		`environments = {`,
		`prod = {`,
		`cidr     = "10.0.0.0/8"`,
		`replicas = 3`,
		`tier     = "premium"`,
		`tags     = { critical = "yes" }`,
		`}`,
		`staging = {`,
		`cidr = "172.16.0.0/12"`,
		`}`,
		`}`, ``)
	t.f(`zones = [%q, %q]`, zones[0], zones[1])
	t.l(``, `default_tags = {`, `owner       = "platform"`, `cost_center = "cc-1234"`, `}`)
	return t.hcl()
}

func (p *plan) rootLocals() []byte {
	var t text
	t.l(`locals {`,
		`common_tags = merge(var.default_tags, { project = var.project, managed_by = "terraform" })`,
		`primary     = var.environments[var.primary_env]`,
		`env_names   = sort(keys(var.environments))`,
		`service_names = [`)
	for _, s := range p.services {
		t.f(`%q,`, s.name)
	}
	t.l(`]`, `}`)
	return t.hcl()
}

// serviceRef is how other root-level code reads a service's outputs: a
// for_each call is indexed by the primary environment.
func serviceRef(s *service) string {
	if s.perEnv {
		return "module." + s.call + "[var.primary_env]"
	}
	return "module." + s.call
}

// rootMain is the root's main.tf, calling the services below modules (a
// local source prefix: "./modules").
func (p *plan) rootMain(modules string) []byte {
	var t text
	t.l(`resource "terraform_data" "environment" {`,
		`for_each = var.environments`,
		`input = {`,
		`name     = format("%s-%s", var.project, each.key)`,
		`cidr     = each.value.cidr`,
		`tier     = each.value.tier`,
		`replicas = each.value.replicas`,
		`tags     = merge(local.common_tags, each.value.tags)`,
		`}`,
		`}`, ``,
		`resource "terraform_data" "inventory" {`,
		`input            = jsonencode({ services = local.service_names, environments = local.env_names })`,
		`triggers_replace = [var.project]`,
		`}`)
	for _, s := range p.services {
		t.l(``)
		t.f(`module %q {`, s.call)
		t.f(`source = "%s/services/%s"`, modules, s.name)
		if s.perEnv {
			t.l(`for_each = var.environments`, ``)
			t.f(`name = %q`, s.name)
			t.l(`env  = each.key`, `network = {`)
			t.f(`cidr  = cidrsubnet(each.value.cidr, 8, %d)`, s.index)
			t.l(`zones = var.zones`, `}`, `tags = merge(local.common_tags, each.value.tags)`)
		} else {
			t.f(`name = %q`, s.name)
			t.l(`env  = var.primary_env`, `network = {`)
			t.f(`cidr  = cidrsubnet(local.primary.cidr, 8, %d)`, s.index)
			t.l(`zones = var.zones`, `}`, `tags = local.common_tags`)
		}
		if s.index > 0 {
			t.f(`upstream = %s.endpoint`, serviceRef(p.services[(s.index-1)/2]))
		}
		t.l(`}`)
	}
	return t.hcl()
}

func (p *plan) rootOutputs() []byte {
	var t text
	t.l(`output "endpoints" {`, `value = {`)
	for _, s := range p.services {
		if s.perEnv {
			t.f(`%s = { for env, svc in module.%s : env => svc.endpoint.url }`, s.call, s.call)
		} else {
			t.f(`%s = module.%s.endpoint.url`, s.call, s.call)
		}
	}
	t.l(`}`, `}`, ``,
		`output "environment_ids" {`,
		`value = { for name, env in terraform_data.environment : name => env.id }`,
		`}`, ``,
		`output "service_count" {`,
		`value = length(local.service_names)`,
		`}`)
	return t.hcl()
}
