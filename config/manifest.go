package config

import (
	"encoding/json"
	"errors"
	"fmt"
	"path"
	"path/filepath"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/tfeval/tfeval/internal/limit"
	"github.com/tfeval/tfeval/internal/sandbox"
)

// manifestPath is where `terraform init` records the modules it installed,
// relative to the root module directory.
var manifestPath = filepath.Join(".terraform", "modules", "modules.json")

// manifest maps a module path key ("a.b" for module.a.module.b) to the
// directory, relative to the root module, where init installed it.
type manifest map[string]string

// readManifest reads the root module's modules.json; a missing file is an
// empty manifest because local modules need no installation.
func readManifest(box sandbox.Dir, workDir, rootDir string) (manifest, hcl.Diagnostics) {
	src, err := box.ReadFile(resolve(workDir, filepath.Join(rootDir, manifestPath)), limit.DefaultMaxSourceSize)
	if errors.Is(err, sandbox.ErrOutside) || errors.Is(err, sandbox.ErrNotRegular) || errors.Is(err, sandbox.ErrTooLarge) {
		return manifest{}, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Failed to read module manifest",
			Detail:   fmt.Sprintf("The module manifest file %s cannot be read: %s.", filepath.ToSlash(filepath.Join(rootDir, manifestPath)), DescribeReadError(err)),
		}}
	}
	if err != nil {
		return manifest{}, nil
	}
	var doc struct {
		Modules []struct {
			Key string `json:"Key"`
			Dir string `json:"Dir"`
		} `json:"Modules"`
	}
	if err := json.Unmarshal(src, &doc); err != nil {
		return manifest{}, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Failed to read module manifest",
			Detail:   fmt.Sprintf("The module manifest file %s is not valid JSON: %s.", filepath.ToSlash(filepath.Join(rootDir, manifestPath)), err),
		}}
	}
	m := manifest{}
	for _, rec := range doc.Modules {
		m[rec.Key] = path.Clean(filepath.ToSlash(rec.Dir))
	}
	return m, nil
}

// IsLocalSource reports whether a module source is a relative path, which
// Terraform reads in place instead of installing.
func IsLocalSource(src string) bool {
	return strings.HasPrefix(src, "./") || strings.HasPrefix(src, "../") ||
		src == "." || src == ".." ||
		strings.HasPrefix(src, `.\`) || strings.HasPrefix(src, `..\`)
}

// InstalledModuleDir finds where `terraform init` installed the module
// with the given manifest key ("vpc", or test.tests.a.setup for a test
// file's run block) in the manifest of opts.ManifestDir (relative to
// opts.WorkDir): the directory relative to WorkDir, with forward slashes.
func InstalledModuleDir(opts Options, key string) (string, bool, hcl.Diagnostics) {
	opts = opts.inFS()
	box, diags := sandboxOf(opts)
	if diags.HasErrors() {
		return "", false, diags
	}
	m, diags := readManifest(box, opts.WorkDir, opts.ManifestDir)
	dir, ok := m[key]
	if !ok {
		return "", false, diags
	}
	if !path.IsAbs(dir) {
		dir = path.Join(sourceDirOf(opts.ManifestDir), dir)
	}
	return dir, true, diags
}
