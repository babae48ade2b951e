package tablegen

import (
	"flag"
	"fmt"
	"io"
	"os"
)

// Generate writes the Go file of provider's table from the schema
// document src (`terraform providers schema -json`), of the provider's
// version (for the file's header).
type Generate func(w io.Writer, src []byte, provider, version string) error

// Main runs the generator tool (its name, for the usage line) with the
// process's arguments and exits on an error.
func Main(tool string, generate Generate) {
	provider := flag.String("provider", "hashicorp/aws", "the provider's source, as tfeval keys it")
	version := flag.String("version", "", "the provider's version the schema is of, for the header")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintf(os.Stderr, "usage: %s -provider SOURCE SCHEMAS.json\n", tool)
		os.Exit(2)
	}
	src, err := os.ReadFile(flag.Arg(0))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if err := generate(os.Stdout, src, *provider, *version); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

// Schemas is the part of a schema document the tables are made from: each
// provider's resource and data source schemas, each read as a B.
type Schemas[B any] struct {
	ProviderSchemas map[string]struct {
		ResourceSchemas   map[string]B `json:"resource_schemas"`
		DataSourceSchemas map[string]B `json:"data_source_schemas"`
	} `json:"provider_schemas"`
}
