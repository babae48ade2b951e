variable "project" {
  type        = string
  description = "Short project name used in every resource name."
}

variable "environment" {
  type    = string
  default = "dev"

  validation {
    condition     = contains(["dev", "staging", "prod"], var.environment)
    error_message = "The environment must be dev, staging or prod."
  }
}

variable "network" {
  description = "Address space and subnets of the network."
  type = object({
    cidr    = string
    subnets = optional(number, 2)
    tags    = optional(map(string), {})
  })
}

variable "servers" {
  description = "Servers to create, keyed by name."
  type = map(object({
    size     = optional(string, "small")
    replicas = optional(number, 1)
    public   = optional(bool, false)
  }))
  default = {}
}

variable "admin_password" {
  type      = string
  sensitive = true
  default   = "change-me"
}
