// Command benchgen writes a synthetic Terraform module tree for benchmarks:
//
//	go run ./internal/benchgen/cmd/benchgen -size=small|medium|large [-roots=N] -out=DIR
package main
