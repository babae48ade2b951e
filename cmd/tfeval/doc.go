// Command tfeval evaluates Terraform and OpenTofu configurations as the real
// tools would, without running them: see `tfeval -help`.
package main
