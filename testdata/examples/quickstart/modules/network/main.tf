variable "name" {
  type = string
}

variable "cidr" {
  type = string
}

variable "subnets" {
  type    = number
  default = 2
}

locals {
  subnet_cidrs = [for i in range(var.subnets) : cidrsubnet(var.cidr, 8, i)]
}

resource "terraform_data" "subnet" {
  count = var.subnets
  input = {
    name = "${var.name}-subnet-${count.index}"
    cidr = local.subnet_cidrs[count.index]
  }
}

output "subnet_cidrs" {
  value = local.subnet_cidrs
}
