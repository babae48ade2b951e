// Command defaultsgen writes lang's table of what the older plugin SDK
// plans for the arguments a configuration leaves unset (lang/defaults_*.go),
// from observations of the provider planning them and the provider's
// schema document:
//
//	python3 scripts/probe_aws_defaults.py --schemas schemas.json --depth 1 \
//	    --plugin-dir /opt/tf-plugins --work /tmp/probe --out observations.json
//	go run ./internal/defaultsgen -version 5.100.0 -observations observations.json \
//	    schemas.json > lang/defaults_aws.go
//
// (The probe may be run in shares, --shard 0/2 and 1/2 in two work
// directories; -observations then names both files, comma-separated.)
//
// The probe plans, for every resource type of the older SDK, resources that
// set only their required arguments, several times (other values, and each
// nested block type written with its required arguments), and records what
// each unset optional attribute and each nested block type not written was
// planned as. The table keeps only what is the same whatever else the
// configuration says:
//
//   - an attribute the provider does not compute (optional, not computed,
//     not a nested attribute), planned as the same known value (null, a
//     default, a zero value, an empty collection) in every resource that
//     left it unset: the SDK plans a static default, and a provider's plan
//     customisation may change only computed attributes;
//   - a nested block type planned as an empty list in every resource that
//     did not write it (the provider does not compute it).
//
// An attribute the provider computes, one any probe planned as unknown or
// as two different values, and a type the probe could not plan are left
// out: tfeval leaves them unknown. The table also holds a fingerprint of
// the schema's resource types (lang.ProviderSchema.ResourcesFingerprint: names, attributes'
// flags, nested blocks' nesting), so that it is used with that version's
// schema only.
//
// The table is one string constant, decoded on first use: a line "=TYPE"
// starts a resource type; each line after it is "PATH" (planned null) or
// "PATH JSON" (the planned value), PATH the attribute's or block type's
// name after the names of the blocks it is in, joined by dots.
package main
