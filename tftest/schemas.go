package tftest

import (
	_ "embed"
	"sync"

	"github.com/tfeval/tfeval/lang"
)

// Test files mock small utility providers without a second thought
// (mock_provider "random" {}), and what a mock generates depends on the
// types the provider's schema gives. tfeval knows the schemas of two such
// providers, written from their documentation (every type's arguments and
// computed attributes, with their types), and uses them when the schemas
// given have none for them: hashicorp/random (a mocked random_uuid's result
// is a generated string, as with Terraform) and hashicorp/external (its one
// data source, whose computed result a mock_data's defaults give).

//go:embed schemas/random.json
var randomSchema []byte

//go:embed schemas/external.json
var externalSchema []byte

// builtinSchemas are the schemas tfeval knows, parsed once.
var builtinSchemas = sync.OnceValue(func() *lang.ProviderSchemas {
	out := &lang.ProviderSchemas{Providers: map[string]*lang.ProviderSchema{}}
	for _, src := range [][]byte{randomSchema, externalSchema} {
		s, err := lang.ParseProviderSchemas(src)
		if err != nil {
			panic("tftest: the built-in provider schemas do not parse: " + err.Error())
		}
		for k, ps := range s.Providers {
			// Written from documentation: a newer provider may have more
			// types (random_password became an ephemeral resource too).
			ps.Partial = true
			out.Providers[k] = ps
		}
	}
	return out
})

// withBuiltinSchemas is given with tfeval's own schemas for the providers
// it has none for; given is not changed.
func withBuiltinSchemas(given *lang.ProviderSchemas) *lang.ProviderSchemas {
	builtin := builtinSchemas()
	out := &lang.ProviderSchemas{Providers: map[string]*lang.ProviderSchema{}}
	for k, v := range builtin.Providers {
		out.Providers[k] = v
	}
	if given != nil {
		for k, v := range given.Providers {
			out.Providers[k] = v
		}
	}
	return out
}
