// Command computedgen writes lang's table of a provider's resource types
// and data sources: their attributes, with each one's type, whether the
// provider computes it and whether it is sensitive, and their nested
// blocks (lang/computed_*.go), from the provider's schema as
// `terraform providers schema -json` prints it:
//
//	go run ./internal/computedgen -provider hashicorp/aws -version 5.100.0 schemas.json > lang/computed_aws.go
//
// -from names where the document was published, for the file's header
// (the other providers' tables: see docs/testing-offline.md).
//
// A nested attribute type (nested_type) is written as the type it implies:
// an object of its attributes' types, alone or in a list, set or map. One
// in which anything is computed is left out of a type's block (the table
// does not decide it: what Terraform's mocks make of such values was not
// checked), and stops the generator in a nested block; so does one in
// which an attribute is sensitive (Terraform marks that attribute's path,
// which the table's flags cannot say).
//
// Only names, types, the computed and sensitive flags and nesting modes
// are taken from the schema. The table lets tfeval tell, for a provider it
// usually has no schema for, what Terraform's mocks make of an object of a
// mocked provider (see tftest's fillOpen and tableValue): they fill only
// computed attributes, each of its type, and a nested block not written
// is an empty collection of the block's objects. The sensitive flags let
// it mark those attributes' values sensitive in objects it plans or mocks
// without the schema, as Terraform marks them from the schema.
//
// The table is one string constant, so that it costs nothing until it is
// read: a dictionary of the names (of attributes, blocks and object type
// attributes), most used first; then one line a distinct nested block,
// "b REFS", numbered from 0 in order; then one line a type,
// "MODE TYPE REFS", where MODE is r (resource) or d (data source). REFS
// are a block's attributes and nested block types in name order, each its
// name's dictionary index followed by a mark. An index is written in base
// 64 over the alphabet of lang.computedDigits in one to three digits (see
// index). The marks:
//
//   - s, n, b, d: a computed attribute of type string, number, bool or
//     dynamic; S, N, B, D the same not computed;
//   - t followed by a type: a computed attribute of that type; T the same
//     not computed. A type is s, n, b or d; l (list), e (set) or m (map)
//     followed by the element type; an object, "(", each attribute's
//     dictionary index and type, ")"; or a tuple, "[", the element types,
//     "]";
//   - L (list), E (set), O (single), G (group) or M (map) followed by a
//     nested block's number (written as an index): a nested block type;
//   - "!" before an attribute's mark: the attribute is sensitive (its
//     values are marked so, as Terraform marks them from the schema);
//   - "~" before an attribute's mark (after any "!"): the attribute is
//     write-only (its value is never planned or stored: null, as
//     Terraform has it).
package main
