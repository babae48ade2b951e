// Package dialect names the two configuration languages tfeval understands:
// Terraform's and OpenTofu's. They share almost everything; the few places
// where they differ (function table, file extensions, diagnostic texts) ask
// the dialect.
package dialect
