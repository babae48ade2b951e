// Package address splits and builds the addresses Terraform writes for
// module instances and resource instances (`module.a["x"].aws_s3_bucket.b[0]`),
// for the packages that read them back.
package address
