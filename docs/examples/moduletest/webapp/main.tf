variable "name" {
  type = string
}

variable "instances" {
  type    = number
  default = 1

  validation {
    condition     = var.instances >= 1 && var.instances <= 10
    error_message = "Between 1 and 10 instances, not ${var.instances}."
  }
}

variable "tags" {
  type    = map(string)
  default = {}
}

variable "api_key" {
  type      = string
  sensitive = true
  default   = null
}

# A data source: tfeval never calls providers, so its computed attributes
# are unknown, exactly as when Terraform defers the read to apply.
data "mock_lookup" "image" {
  key = "image-${var.name}"
}

resource "mock_thing" "web" {
  count  = var.instances
  name   = format("%s-%02d", var.name, count.index + 1)
  size   = data.mock_lookup.image.length
  secret = var.api_key
  tags   = merge({ App = var.name }, var.tags)
}

output "names" {
  value = mock_thing.web[*].name
}

output "image" {
  value = data.mock_lookup.image.value
}
