package config

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	hcljson "github.com/hashicorp/hcl/v2/json"
	"github.com/tfeval/tfeval/dialect"
	"github.com/tfeval/tfeval/internal/limit"
	"github.com/tfeval/tfeval/internal/parallel"
	"github.com/tfeval/tfeval/internal/sandbox"
)

// resolve turns a path as Terraform shows it (relative to the working
// directory) into one the process can open without depending on its own cwd.
func resolve(workDir, p string) string {
	if workDir == "" || filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(workDir, p)
}

// configFile is one configuration file found in a module directory.
type configFile struct {
	Path     string // dir joined with the file name, as used in diagnostics
	JSON     bool
	Override bool
}

// configExtension returns the configuration extension of name (".tf",
// ".tf.json", and in the tofu dialect ".tofu", ".tofu.json"), or "".
func configExtension(name string, d dialect.Dialect) string {
	exts := []string{".tf.json", ".tf"}
	if d == dialect.Tofu {
		exts = []string{".tofu.json", ".tofu", ".tf.json", ".tf"}
	}
	for _, ext := range exts {
		if strings.HasSuffix(name, ext) {
			return ext
		}
	}
	return ""
}

// IsConfigFile reports whether a file named name is one of the
// configuration files a module directory is read from in dialect d: a
// .tf or .tf.json file (and .tofu, .tofu.json in OpenTofu) that editors
// and the operating system did not leave behind.
func IsConfigFile(name string, d dialect.Dialect) bool {
	return !ignoredFile(name) && configExtension(name, d) != ""
}

// ignoredFile reports whether an editor or OS leaves files like name behind.
func ignoredFile(name string) bool {
	return strings.HasPrefix(name, ".") ||
		strings.HasSuffix(name, "~") ||
		(strings.HasPrefix(name, "#") && strings.HasSuffix(name, "#"))
}

// isOverrideName reports whether a file whose name without extension is stem
// is an override file.
func isOverrideName(stem string) bool {
	return stem == "override" || strings.HasSuffix(stem, "_override")
}

// moduleFiles lists the configuration files of dir, primaries first and then
// overrides, each group in lexical order. In the tofu dialect a .tofu(.json)
// file hides the .tf(.json) file of the same stem.
func moduleFiles(box sandbox.Dir, workDir, dir string, d dialect.Dialect) ([]configFile, hcl.Diagnostics) {
	entries, err := box.ReadDir(resolve(workDir, dir))
	if err != nil {
		return nil, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Failed to read module directory",
			Detail:   fmt.Sprintf("Module directory %s does not exist or cannot be read.", dir),
		}}
	}
	type candidate struct {
		name, stem, ext string
	}
	var cands []candidate
	tofuStems := map[string]bool{} // stem+json-ness of .tofu files, which shadow .tf files
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || ignoredFile(name) {
			continue
		}
		ext := configExtension(name, d)
		if ext == "" {
			continue
		}
		stem := strings.TrimSuffix(name, ext)
		cands = append(cands, candidate{name, stem, ext})
		switch ext {
		case ".tofu":
			tofuStems[stem] = true
		case ".tofu.json":
			tofuStems[stem+".json"] = true
		}
	}
	var primary, override []configFile
	for _, c := range cands {
		switch c.ext {
		case ".tf":
			if tofuStems[c.stem] {
				continue
			}
		case ".tf.json":
			if tofuStems[c.stem+".json"] {
				continue
			}
		}
		f := configFile{
			Path:     filepath.Join(dir, c.name),
			JSON:     strings.HasSuffix(c.ext, ".json"),
			Override: isOverrideName(c.stem),
		}
		if f.Override {
			override = append(override, f)
		} else {
			primary = append(primary, f)
		}
	}
	sort.Slice(primary, func(i, j int) bool { return primary[i].Path < primary[j].Path })
	sort.Slice(override, func(i, j int) bool { return override[i].Path < override[j].Path })
	return append(primary, override...), nil
}

// parseFile parses one configuration file from its source, or reports
// why it could not be read (readErr). The body is never nil.
func parseFile(f configFile, src []byte, readErr error) parsedFile {
	body, diags := parseBody(f, src, readErr)
	return parsedFile{body: body, diags: diags}
}

// parseEach sets parsed[i] to parse(i) for each i of todo, the files
// parsed at once on the CPUs there are, the largest first (size(i) is the
// i-th file's size in bytes). Nothing can be done with a module before
// its files are parsed, and the roots of a scan that call it wait for
// it: parsed one after the other, one large file (a variables.tf holding
// 100 KB of descriptions) kept one CPU busy while the others waited.
func parseEach(parsed []parsedFile, todo []int, size func(i int) int64, parse func(i int) parsedFile) {
	slices.SortStableFunc(todo, func(a, b int) int { return cmp.Compare(size(b), size(a)) })
	parallel.Each(len(todo), func(k int) {
		parsed[todo[k]] = parse(todo[k])
	})
}

// indexes are 0, 1, ..., n-1.
func indexes(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}

// parsedFile is a configuration file as parsed, before it is decoded.
type parsedFile struct {
	body  hcl.Body
	diags hcl.Diagnostics
}

// parseBody parses a configuration file read into src (or failed with
// readErr).
func parseBody(f configFile, src []byte, readErr error) (hcl.Body, hcl.Diagnostics) {
	if readErr != nil {
		detail := fmt.Sprintf("The configuration file %q could not be read.", f.Path)
		if reason := DescribeReadError(readErr); reason != "" {
			detail = fmt.Sprintf("The configuration file %q could not be read: %s.", f.Path, reason)
		}
		return hcl.EmptyBody(), hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Failed to read file",
			Detail:   detail,
		}}
	}
	if diags := checkSource(src, f); diags.HasErrors() {
		return hcl.EmptyBody(), diags
	}
	var file *hcl.File
	var diags hcl.Diagnostics
	if f.JSON {
		file, diags = hcljson.Parse(src, f.Path)
	} else {
		file, diags = limit.ParseConfig(src, f.Path)
	}
	if file == nil || file.Body == nil {
		return hcl.EmptyBody(), diags
	}
	return file.Body, diags
}

// parseFileWithin is parseFile that returns as soon as ctx is done: the
// parse goes on in the background and its result is dropped, since hcl's
// parser cannot be stopped (a file of the largest size it is given takes
// about a second).
func parseFileWithin(ctx context.Context, f configFile, src []byte, readErr error) parsedFile {
	if ctx == nil || ctx.Done() == nil {
		return parseFile(f, src, readErr)
	}
	if d := cancelled(ctx); d != nil {
		return parsedFile{hcl.EmptyBody(), hcl.Diagnostics{d}}
	}
	type parsed struct {
		parsedFile
		panic any // what parsing panicked with, panicked again here
	}
	done := make(chan parsed, 1)
	go func() {
		defer func() {
			if v := recover(); v != nil {
				done <- parsed{panic: v}
			}
		}()
		done <- parsed{parsedFile: parseFile(f, src, readErr)}
	}()
	select {
	case p := <-done:
		if p.panic != nil {
			panic(p.panic)
		}
		return p.parsedFile
	case <-ctx.Done():
		return parsedFile{hcl.EmptyBody(), hcl.Diagnostics{cancelled(ctx)}}
	}
}

// DescribeReadError says why a file was refused without reading it: it is
// outside the sandbox, not a regular file, or too large; "" for other
// errors, whose text may name more than the user should see.
func DescribeReadError(err error) string {
	switch {
	case errors.Is(err, sandbox.ErrOutside):
		return "it is outside the directory this evaluation may read (-sandbox), following symbolic links"
	case errors.Is(err, sandbox.ErrNotRegular):
		return "it is not a regular file"
	case errors.Is(err, sandbox.ErrTooLarge):
		return fmt.Sprintf("it is larger than %d bytes", limit.DefaultMaxSourceSize)
	}
	return ""
}

// checkSource refuses a file nested too deeply for hcl's recursive parser
// or holding a number too large to write out.
func checkSource(src []byte, f configFile) hcl.Diagnostics {
	if f.JSON {
		return limit.CheckJSONSource(src, f.Path, 0)
	}
	return limit.CheckSource(src, f.Path, hcl.InitialPos, limit.Config, 0)
}
