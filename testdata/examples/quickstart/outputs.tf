output "subnet_cidrs" {
  description = "CIDR blocks of the subnets."
  value       = module.network.subnet_cidrs
}

output "server_names" {
  value = sort([for s in terraform_data.server : s.input.name])
}

output "public_servers" {
  value = local.public_servers
}

output "replica_count" {
  value = length(terraform_data.replica)
}

output "server_ids" {
  description = "Known only after apply."
  value       = { for k, s in terraform_data.server : k => s.id }
}

output "admin_password" {
  value     = var.admin_password
  sensitive = true
}
