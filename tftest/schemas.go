package tftest

import (
	_ "embed"
	"sync"

	"github.com/tfeval/tfeval/lang"
)

// Test files mock small utility providers without a second thought
// (mock_provider "random" {}), and what a mock generates depends on the
// types the provider's schema gives. tfeval knows the schema of one such
// provider, hashicorp/random, written from its documentation (every
// resource type's arguments and computed attributes, with their types),
// and uses it when the schemas given have none for it: a mocked
// random_uuid's result is then a generated string, as with Terraform.

//go:embed schemas/random.json
var randomSchema []byte

// builtinSchemas are the schemas tfeval knows, parsed once.
var builtinSchemas = sync.OnceValue(func() *lang.ProviderSchemas {
	s, err := lang.ParseProviderSchemas(randomSchema)
	if err != nil {
		panic("tftest: the built-in provider schemas do not parse: " + err.Error())
	}
	for _, ps := range s.Providers {
		// Written from documentation: a newer provider may have more
		// types (random_password became an ephemeral resource too).
		ps.Partial = true
	}
	return s
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
