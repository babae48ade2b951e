// Command setblockgen writes lang's table of the nested block types a
// provider declares with nesting mode set (lang/setblocks_*.go), from the
// provider's schema as `terraform providers schema -json` prints it:
//
//	go run ./internal/setblockgen -provider hashicorp/aws -version 5.100.0 schemas.json > lang/setblocks_aws.go
//
// Only names are taken from the schema. The table lets tfeval know, for a
// provider it usually has no schema for, which blocks cannot be indexed by
// number (see tftest's blockIndexed).
package main
