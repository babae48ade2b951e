package tfvars

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
)

// SourceKind says which mechanism supplied a variable's value.
type SourceKind int

const (
	// SourceNone means no value was given at all (the declaration's default applies, if any).
	SourceNone SourceKind = iota
	// SourceDefault is the default argument of the variable block.
	SourceDefault
	// SourceEnv is a TF_VAR_<name> environment variable.
	SourceEnv
	// SourceAutoFile is terraform.tfvars, terraform.tfvars.json or a *.auto.tfvars[.json] file.
	SourceAutoFile
	// SourceVarFlag is a -var command-line option.
	SourceVarFlag
	// SourceVarFile is a file named by a -var-file command-line option.
	SourceVarFile
	// SourceModuleArg is an argument in the module block that calls the module.
	SourceModuleArg
	// SourceGo is a value handed over through the Go API.
	SourceGo
)

var sourceKindNames = map[SourceKind]string{
	SourceNone:      "none",
	SourceDefault:   "default",
	SourceEnv:       "env",
	SourceAutoFile:  "auto-file",
	SourceVarFlag:   "var",
	SourceVarFile:   "var-file",
	SourceModuleArg: "module-argument",
	SourceGo:        "go",
}

// String is a short stable name for the kind, used in listings and JSON.
func (k SourceKind) String() string {
	if s, ok := sourceKindNames[k]; ok {
		return s
	}
	return fmt.Sprintf("SourceKind(%d)", int(k))
}

// Source is the provenance of one variable value.
type Source struct {
	Kind SourceKind
	// Name is the variable's name, needed for Terraform's wording of CLI and env sources.
	Name string
	// File is the variables file as Terraform names it (relative to the working
	// directory unless given absolute), for SourceAutoFile and SourceVarFile.
	File string
	// Range is the value expression's range in a file or module block, or the
	// declaration's range for SourceDefault; zero for CLI, env and Go sources.
	Range hcl.Range
	// Index is the position of the -var or -var-file option among Inputs.Args.
	Index int
}

// HasRange reports whether the value has its own place in a source file,
// which decides between Terraform's two styles of "Invalid value" messages.
func (s Source) HasRange() bool {
	switch s.Kind {
	case SourceAutoFile, SourceVarFile, SourceModuleArg, SourceDefault:
		return s.Range.Filename != ""
	}
	return false
}

// String describes the source in Terraform's words where Terraform has some,
// e.g. `set using -var="NAME=..."` or `set using the TF_VAR_NAME environment variable`.
func (s Source) String() string {
	switch s.Kind {
	case SourceNone:
		return "not set"
	case SourceDefault:
		if s.Range.Filename != "" {
			return "default value declared at " + s.Range.String()
		}
		return "default value"
	case SourceEnv:
		return fmt.Sprintf("set using the TF_VAR_%s environment variable", s.Name)
	case SourceVarFlag:
		return fmt.Sprintf("set using -var=\"%s=...\"", s.Name)
	case SourceAutoFile:
		return "set in " + s.rangeOrFile()
	case SourceVarFile:
		return fmt.Sprintf("set using -var-file=%q at %s", s.File, s.rangeOrFile())
	case SourceModuleArg:
		return "set by the module call argument at " + s.Range.String()
	}
	return "set from outside of the configuration"
}

func (s Source) rangeOrFile() string {
	if s.Range.Filename != "" {
		return s.Range.String()
	}
	return s.File
}

// nonFileSource is the phrase Terraform puts after the variable's address in
// "Unsuitable value for ..." details when the value has no source range.
func (s Source) nonFileSource() string {
	switch s.Kind {
	case SourceVarFlag:
		return fmt.Sprintf("set using -var=\"%s=...\"", s.Name)
	case SourceEnv:
		return fmt.Sprintf("set using the TF_VAR_%s environment variable", s.Name)
	}
	return "set from outside of the configuration"
}
