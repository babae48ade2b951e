# Every provider is mocked: the file runs without credentials, and with
# tfeval without the provider either.
mock_provider "aws" {
  mock_resource "aws_s3_bucket" {
    defaults = {
      arn = "arn:aws:s3:::example-logs"
    }
  }
}

variables {
  name = "example"
}

run "names_the_bucket" {
  command = plan

  assert {
    condition     = aws_s3_bucket.logs.bucket == "example-logs"
    error_message = "The bucket is named ${aws_s3_bucket.logs.bucket}."
  }
}

run "versioning_can_be_turned_off" {
  command = plan

  variables {
    versioning = false
  }

  assert {
    condition     = length(aws_s3_bucket_versioning.logs) == 0
    error_message = "Versioning is configured although turned off."
  }
}

run "rejects_a_bad_name" {
  command = plan

  variables {
    name = "Not A Name"
  }

  expect_failures = [var.name]
}

run "exports_the_arn" {
  assert {
    condition     = output.bucket_arn == "arn:aws:s3:::example-logs"
    error_message = "The ARN output is ${output.bucket_arn}."
  }
}
