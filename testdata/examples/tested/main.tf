terraform {
  required_providers {
    aws = {
      source = "hashicorp/aws"
    }
  }
}

variable "name" {
  type = string

  validation {
    condition     = can(regex("^[a-z0-9-]+$", var.name))
    error_message = "The name must be lowercase letters, digits and dashes."
  }
}

variable "versioning" {
  type    = bool
  default = true
}

resource "aws_s3_bucket" "logs" {
  bucket = "${var.name}-logs"

  tags = {
    Name = var.name
  }
}

resource "aws_s3_bucket_versioning" "logs" {
  count  = var.versioning ? 1 : 0
  bucket = aws_s3_bucket.logs.id

  versioning_configuration {
    status = "Enabled"
  }
}

output "bucket_arn" {
  value = aws_s3_bucket.logs.arn
}
