// Package numtext writes cty numbers as decimal text exactly as go-cty
// does (big.Float's Text('f', -1), the form of number-to-string conversion
// and of jsonencode), with a fast path for the whole numbers that dominate
// configurations: count indexes, ports, sizes. go-cty's general conversion
// runs big.Float's shortest-decimal search, which allocates several times
// for every number.
package numtext
