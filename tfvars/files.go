package tfvars

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"
	hcljson "github.com/hashicorp/hcl/v2/json"

	"github.com/tfeval/tfeval/dialect"
	"github.com/tfeval/tfeval/internal/limit"
	"github.com/tfeval/tfeval/internal/sandbox"
)

// Names of the variables files Terraform loads without being asked.
const (
	DefaultVarsFile     = "terraform.tfvars"
	DefaultVarsFileJSON = "terraform.tfvars.json"
)

// IsAutoVarsFile reports whether a file name is loaded automatically as a
// *.auto.tfvars or *.auto.tfvars.json file.
func IsAutoVarsFile(name string) bool {
	return strings.HasSuffix(name, ".auto.tfvars") || strings.HasSuffix(name, ".auto.tfvars.json")
}

// autoVarsFiles lists the automatically loaded files present in dir, in
// Terraform's order, as Terraform names them (relative to dir).
func autoVarsFiles(box sandbox.Dir, dir string) []string {
	var out []string
	for _, name := range []string{DefaultVarsFile, DefaultVarsFileJSON} {
		if _, err := box.Stat(filepath.Join(dir, name)); err == nil {
			out = append(out, name)
		}
	}
	// ReadDir sorts by file name, which is the lexical order Terraform uses.
	entries, err := box.ReadDir(dir)
	if err != nil {
		return out
	}
	for _, e := range entries {
		if IsAutoVarsFile(e.Name()) {
			out = append(out, e.Name())
		}
	}
	return out
}

// ParseAutoFiles parses the variables files in in.Dir that Terraform
// loads without being asked (none outside in.Sandbox) and returns only the
// problems of reading and parsing them: what OpenTofu's validate reports
// of them. The other fields of in are not used.
func ParseAutoFiles(in Inputs) hcl.Diagnostics {
	dir := in.Dir
	if dir == "" {
		dir = "."
	}
	box, err := sandbox.NewFS(in.FS, in.Sandbox, dir)
	if err != nil {
		return hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Invalid sandbox directory", Detail: fmt.Sprintf("The directory given as the sandbox cannot be used: %s.", err)}}
	}
	var diags hcl.Diagnostics
	for _, name := range autoVarsFiles(box, dir) {
		_, more := readVarsFile(box, false, dir, name, in.Dialect)
		diags = append(diags, more...)
	}
	return diags
}

// fileAttr is one assignment read from a variables file.
type fileAttr struct {
	name string
	expr hcl.Expression
}

// readVarsFile parses one variables file. filename is what diagnostics and
// sources show; dir is where relative names are resolved. A file outside
// box is not read, and a pipe only when named (-var-file=<(script)):
// nothing else that is not a regular file.
func readVarsFile(box sandbox.Dir, named bool, dir, filename string, d dialect.Dialect) ([]fileAttr, hcl.Diagnostics) {
	path := filename
	if !filepath.IsAbs(path) {
		path = filepath.Join(dir, filename)
	}
	src, err := limit.ReadSource(box, path, 0, named)
	if err != nil {
		detail := fmt.Sprintf("Error while reading %s: %s.", filename, err)
		if errors.Is(err, fs.ErrNotExist) {
			detail = fmt.Sprintf("Given variables file %s does not exist.", filename)
		}
		return nil, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Failed to read variables file",
			Detail:   detail,
		}}
	}

	isJSON := strings.HasSuffix(filename, ".json")
	// OpenTofu sniffs JSON content when the name does not say, for files
	// such as -var-file=<(script) that have no meaningful suffix.
	if !isJSON && d == dialect.Tofu && !strings.HasSuffix(filename, ".tfvars") &&
		strings.HasPrefix(strings.TrimSpace(string(src)), "{") {
		isJSON = true
	}
	if diags := checkSource(src, filename, isJSON); diags.HasErrors() {
		return nil, diags
	}
	var f *hcl.File
	var diags hcl.Diagnostics
	if isJSON {
		f, diags = hcljson.Parse(src, filename)
	} else {
		f, diags = limit.ParseConfig(src, filename)
	}
	if f == nil || f.Body == nil {
		return nil, diags
	}

	// Variable blocks are a common beginner's mistake and get a dedicated
	// message before JustAttributes would give a vaguer one.
	content, _, _ := f.Body.PartialContent(&hcl.BodySchema{
		Blocks: []hcl.BlockHeaderSchema{{Type: "variable", LabelNames: []string{"name"}}},
	})
	declErr := false
	for _, block := range content.Blocks {
		name := block.Labels[0]
		rng := block.TypeRange
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Variable declaration in .tfvars file",
			Detail: fmt.Sprintf("A .tfvars file is used to assign values to variables that have already been declared in .tf files, not to declare new variables. To declare variable %q, place this block in one of your .tf files, such as variables.tf.\n\nTo set a value for this variable in %s, use the definition syntax instead:\n    %s = <value>",
				name, rng.Filename, name),
			Subject: &rng,
		})
		declErr = true
	}
	if declErr || diags.HasErrors() {
		return nil, diags
	}

	attrs, attrDiags := f.Body.JustAttributes()
	diags = append(diags, attrDiags...)
	out := make([]fileAttr, 0, len(attrs))
	for name, attr := range attrs {
		out = append(out, fileAttr{name: name, expr: attr.Expr})
	}
	// Source order keeps diagnostics deterministic (JustAttributes returns a map).
	slices.SortFunc(out, func(a, b fileAttr) int { return a.expr.Range().Start.Byte - b.expr.Range().Start.Byte })
	return out, diags
}

// checkSource refuses a file nested too deeply for hcl's recursive parser
// or holding a number too large to write out.
func checkSource(src []byte, filename string, isJSON bool) hcl.Diagnostics {
	if isJSON {
		return limit.CheckJSONSource(src, filename, 0)
	}
	return limit.CheckSource(src, filename, hcl.InitialPos, limit.Config, 0)
}
