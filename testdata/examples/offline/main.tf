# A root module as a pull request checkout has it: a registry module that
# `terraform init` would install, data sources only a provider can read,
# and resources whose provider schema tfeval is not given.

variable "name" {
  type    = string
  default = "shop"
}

module "vpc" {
  source  = "terraform-aws-modules/vpc/aws"
  version = "~> 6.0"

  name = var.name
  cidr = "10.0.0.0/16"
}

data "aws_availability_zones" "available" {
  state = "available"
}

resource "aws_subnet" "app" {
  count             = length(data.aws_availability_zones.available.names)
  vpc_id            = module.vpc.vpc_id
  availability_zone = data.aws_availability_zones.available.names[count.index]
  cidr_block        = cidrsubnet("10.0.0.0/16", 8, count.index)
  tags              = { Name = "${var.name}-app-${count.index}" }
}

resource "aws_lb" "app" {
  name    = "${var.name}-app"
  subnets = aws_subnet.app[*].id
}

output "subnet_cidrs" {
  value = aws_subnet.app[*].cidr_block
}

output "lb_dns_name" {
  value = aws_lb.app.dns_name
}
