locals {
  name_prefix = "${var.project}-${var.environment}"
  common_tags = merge(var.network.tags, {
    Project     = var.project
    Environment = var.environment
  })
  public_servers = [for name, s in var.servers : name if s.public]
}

module "network" {
  source  = "./modules/network"
  name    = local.name_prefix
  cidr    = var.network.cidr
  subnets = var.network.subnets
}

resource "terraform_data" "server" {
  for_each = var.servers

  input = {
    name   = "${local.name_prefix}-${each.key}"
    size   = each.value.size
    subnet = module.network.subnet_cidrs[0]
    tags   = local.common_tags
  }
}

resource "terraform_data" "replica" {
  count = sum([for s in values(var.servers) : s.replicas])
  input = format("%s-replica-%02d", local.name_prefix, count.index)
}
