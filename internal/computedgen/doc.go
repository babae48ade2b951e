// Command computedgen writes lang's table of which attributes of a
// provider's resource types and data sources the provider computes
// (lang/computed_*.go), from the provider's schema as `terraform providers
// schema -json` prints it:
//
//	go run ./internal/computedgen -provider hashicorp/aws -version 5.100.0 schemas.json > lang/computed_aws.go
//
// Only names, the computed flag and, for a computed attribute, whether its
// type is a string, number or bool are taken from the schema. The table
// lets tfeval tell, for a provider it usually has no schema for, which of
// the values a test file's mock or override gives the mocked provider
// uses: Terraform's mocks fill only computed attributes (see tftest's
// fillOpen).
//
// The table is one string constant, so that it costs nothing until it is
// read: a dictionary of the attribute names, most used first, then one
// line a type, "MODE TYPE REFS", where MODE is r (resource) or d (data
// source) and REFS are the type's top-level attributes as dictionary
// indices. An index is written in base 64 over the alphabet of
// lang.computedDigits in one to three digits (see index), followed by one
// mark:
// '.' not computed, 's' computed string, 'n' computed number, 'b' computed
// bool, 'o' computed of another type.
package main
