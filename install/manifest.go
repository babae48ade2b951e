package install

import (
	"encoding/json"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/tfeval/tfeval/internal/limit"
	"github.com/tfeval/tfeval/internal/sandbox"
)

// Record is one entry of modules.json, in the format Terraform and
// OpenTofu write and read: Key is the module path ("a.b" for
// module.a.module.b, "" for the root), Source the source address (a
// registry address with its host), Version the registry version chosen,
// and Dir the module's directory relative to the root module, with
// forward slashes.
type Record struct {
	Key     string `json:"Key"`
	Source  string `json:"Source"`
	Version string `json:"Version,omitempty"`
	Dir     string `json:"Dir"`
}

// manifestFile is where modules.json is, relative to the root module.
const manifestFile = ".terraform/modules/modules.json"

// readManifestFile reads an earlier installation's records by key; a
// missing or malformed file is an empty manifest, since every module is
// then installed afresh.
func readManifestFile(root string) map[string]Record {
	out := map[string]Record{}
	b, err := sandbox.Dir{}.ReadFile(filepath.Join(root, filepath.FromSlash(manifestFile)), limit.DefaultMaxSourceSize)
	if err != nil {
		return out
	}
	var doc struct {
		Modules []Record `json:"Modules"`
	}
	if json.Unmarshal(b, &doc) != nil {
		return out
	}
	for _, r := range doc.Modules {
		out[r.Key] = r
	}
	return out
}

// writeManifestFile writes modules.json, records in key order, through a
// temporary file so that a reader sees the old file or the new one.
func writeManifestFile(installDir string, records []Record) error {
	sorted := append([]Record(nil), records...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].Key < sorted[j].Key })
	b, err := json.Marshal(struct {
		Modules []Record `json:"Modules"`
	}{sorted})
	if err != nil {
		return err
	}
	f, err := os.CreateTemp(installDir, ".modules-*.json")
	if err != nil {
		return err
	}
	_, err = f.Write(append(b, '\n'))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(f.Name(), 0o644)
	}
	if err == nil {
		err = os.Rename(f.Name(), filepath.Join(installDir, "modules.json"))
	}
	if err != nil {
		os.Remove(f.Name())
	}
	return err
}

// installedDir is where a module key's package goes, relative to the
// root module: .terraform/modules/KEY, as terraform init names it.
func installedDir(key string) string {
	return ".terraform/modules/" + key
}

// keptDir reports whether an earlier record's Dir is one this installer
// could have written for key: inside .terraform/modules/KEY.
func keptDir(key, dir string) bool {
	d := path.Clean(strings.ReplaceAll(dir, `\`, "/"))
	base := installedDir(key)
	return d == base || strings.HasPrefix(d, base+"/")
}
