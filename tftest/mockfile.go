package tftest

import (
	"errors"
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	hcljson "github.com/hashicorp/hcl/v2/json"
	"github.com/zclconf/go-cty/cty/function"

	"github.com/tfeval/tfeval/dialect"
	"github.com/tfeval/tfeval/internal/limit"
	"github.com/tfeval/tfeval/internal/sandbox"
)

// mockFileSchema is the content of a .tfmock.hcl or .tfmock.json file.
var mockFileSchema = &hcl.BodySchema{Blocks: []hcl.BlockHeaderSchema{
	{Type: "mock_resource", LabelNames: []string{"type"}},
	{Type: "mock_data", LabelNames: []string{"type"}},
	{Type: "override_resource"}, {Type: "override_data"},
}}

// loadMockSource reads the mock data files in a mock provider's source
// directory (relative to workDir) into it; the blocks the mock_provider
// block itself has take precedence over the files'.
func loadMockSource(box sandbox.Dir, workDir string, pr *Provider, d dialect.Dialect, fns map[string]function.Function) hcl.Diagnostics {
	dir := filepath.Join(workDir, filepath.FromSlash(pr.Source))
	entries, err := box.ReadDir(dir)
	if err != nil {
		// Terraform's words, pointing at the mock_provider block.
		detail := fmt.Sprintf("Mock data directory %s does not exist or cannot be read.", pr.Source)
		if errors.Is(err, sandbox.ErrOutside) {
			detail = fmt.Sprintf("Mock data directory %s is outside the directory this evaluation may read (-sandbox).", pr.Source)
		}
		return hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Failed to read mock data directory", Detail: detail, Subject: pr.DeclRange.Ptr()}}
	}
	var names []string
	for _, e := range entries {
		// Hidden files (.x.tfmock.hcl) are not read, as Terraform ignores
		// them among configuration files.
		if !e.IsDir() && !strings.HasPrefix(e.Name(), ".") && (strings.HasSuffix(e.Name(), ".tfmock.hcl") || strings.HasSuffix(e.Name(), ".tfmock.json")) {
			names = append(names, e.Name())
		}
	}
	sort.Strings(names)
	var diags hcl.Diagnostics
	own := &Provider{Resources: pr.Resources, Data: pr.Data}
	from := &Provider{Resources: map[string]*MockValues{}, Data: map[string]*MockValues{}}
	for _, name := range names {
		path := filepath.Join(dir, name)
		rel := filepath.ToSlash(filepath.Join(pr.Source, name))
		src, err := limit.ReadSource(box, path, 0, false)
		if err != nil {
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Failed to load mock data", Detail: fmt.Sprintf("Cannot read %s: %s.", rel, readError(err)), Subject: pr.SourceRange.Ptr()})
			continue
		}
		var f *hcl.File
		var pDiags hcl.Diagnostics
		if strings.HasSuffix(name, ".json") {
			if pDiags = limit.CheckJSONSource(src, rel, 0); !pDiags.HasErrors() {
				f, pDiags = hcljson.Parse(src, rel)
			}
		} else if pDiags = limit.CheckSource(src, rel, hcl.InitialPos, limit.Config, 0); !pDiags.HasErrors() {
			f, pDiags = limit.ParseConfig(src, rel)
		}
		diags = append(diags, pDiags...)
		if f == nil || pDiags.HasErrors() {
			continue
		}
		content, cDiags := f.Body.Content(mockFileSchema)
		diags = append(diags, cDiags...)
		p := &parser{d: d, fns: fns}
		p.mockBlocks(content.Blocks, from)
		diags = append(diags, p.diags...)
	}
	for typ, m := range from.Resources {
		if _, ok := own.Resources[typ]; !ok {
			pr.Resources[typ] = m
		}
	}
	for typ, m := range from.Data {
		if _, ok := own.Data[typ]; !ok {
			pr.Data[typ] = m
		}
	}
	for _, o := range from.Overrides {
		o.FromMockFile = true
		pr.Overrides = append(pr.Overrides, o)
	}
	return diags
}
