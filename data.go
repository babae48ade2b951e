package tfeval

import (
	"fmt"
	"path/filepath"

	"github.com/hashicorp/hcl/v2"
	hcljson "github.com/hashicorp/hcl/v2/json"
	"github.com/zclconf/go-cty/cty"

	"github.com/tfeval/tfeval/funcs"
	"github.com/tfeval/tfeval/internal/limit"
	"github.com/tfeval/tfeval/internal/sandbox"
)

// A data source results file (the CLI's -data=FILE, Options.DataFiles)
// is a JSON object from data resource addresses to their results:
//
//	{
//	  "data.aws_availability_zones.available": {"names": ["eu-west-1a", "eu-west-1b"]},
//	  "module.vpc.data.aws_region.current": {"name": "eu-west-1"},
//	  "data.aws_ami.image[\"web\"]": {"id": "ami-123"}
//	}
//
// Strings are taken literally (no ${} templates), numbers exactly.

// dataResults gathers the data source results opts gives: the files in
// order, then Options.DataSources, each later one replacing an earlier
// result for the same address.
func dataResults(opts Options, workDir string) (map[string]cty.Value, map[string]hcl.Range, hcl.Diagnostics) {
	if len(opts.DataFiles) == 0 && len(opts.DataSources) == 0 {
		return nil, nil, nil
	}
	values := map[string]cty.Value{}
	ranges := map[string]hcl.Range{}
	var diags hcl.Diagnostics
	// Named by the user, so read wherever they are (from the FS, when there is one).
	box, _ := sandbox.NewFS(opts.FS, "", workDir)
	for _, name := range opts.DataFiles {
		path := name
		if !filepath.IsAbs(path) {
			path = filepath.Join(workDir, path)
		}
		src, err := limit.ReadSource(box.Unconfined(), path, 0, true)
		if err != nil {
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Failed to read data source results", Detail: fmt.Sprintf("Cannot read the file %s given with -data: %s.", name, err)})
			continue
		}
		vals, rngs, moreDiags := parseDataResults(src, name, opts.Limits.Funcs())
		diags = append(diags, moreDiags...)
		for k, v := range vals {
			values[k] = v
			ranges[k] = rngs[k]
		}
	}
	for k, v := range opts.DataSources {
		values[k] = v
		delete(ranges, k)
	}
	return values, ranges, diags
}

// parseDataResults reads a data source results file: one JSON object whose
// attributes are addresses and whose values are objects. Each result comes
// back with the range of its address. The file is held to the limits on
// JSON documents (funcs.CheckJSONDocument) before it is parsed.
func parseDataResults(src []byte, filename string, limits funcs.Limits) (map[string]cty.Value, map[string]hcl.Range, hcl.Diagnostics) {
	if err := funcs.CheckJSONDocument(string(src), limits); err != nil {
		// The whole document is at fault: its first byte stands for it.
		first := hcl.Range{Filename: filename, Start: hcl.InitialPos, End: hcl.Pos{Line: 1, Column: 2, Byte: 1}}
		return nil, nil, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Data source results too large", Detail: fmt.Sprintf("The file %s cannot be used: %s.", filename, err), Subject: &first}}
	}
	f, diags := hcljson.Parse(src, filename)
	if diags.HasErrors() {
		return nil, nil, diags
	}
	attrs, moreDiags := f.Body.JustAttributes()
	diags = append(diags, moreDiags...)
	values := map[string]cty.Value{}
	ranges := map[string]hcl.Range{}
	for _, name := range sortedNames(attrs) {
		a := attrs[name]
		rng := a.Expr.Range()
		v, err := decodeResult(string(src[rng.Start.Byte:rng.End.Byte]), limits)
		if err != nil {
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid data source result", Detail: fmt.Sprintf("The result for %s is not usable: %s.", name, err), Subject: rng.Ptr()})
			continue
		}
		values[name] = v
		ranges[name] = a.NameRange
	}
	return values, ranges, diags
}

// decodeResult decodes one result as jsondecode decodes a document:
// strings literal, numbers exact.
func decodeResult(raw string, limits funcs.Limits) (cty.Value, error) {
	v, err := funcs.DecodeJSON(raw, limits)
	if err != nil {
		return cty.NilVal, err
	}
	if ty := v.Type(); !ty.IsObjectType() && !ty.IsMapType() {
		return cty.NilVal, fmt.Errorf("a data source's result must be a JSON object of its attributes")
	}
	return v, nil
}
