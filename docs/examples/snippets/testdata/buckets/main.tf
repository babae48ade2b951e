resource "aws_s3_bucket" "logs" {
  acl = "private"
}

resource "aws_s3_bucket" "site" {
  acl = "public-read"
}
