package conformance

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
)

// Expected is one dialect's recorded result for a case folder.
type Expected struct {
	Mode    string          `json:"mode"`
	Results []ConsoleResult `json:"results"`

	OK          bool                       `json:"ok"`
	Diagnostics []Diagnostic               `json:"diagnostics"`
	Outputs     map[string]json.RawMessage `json:"outputs"`
	Resources   []json.RawMessage          `json:"resources"`
}

// ConsoleResult is one recorded console expression.
type ConsoleResult struct {
	Expr     string       `json:"expr"`
	OK       bool         `json:"ok"`
	Out      string       `json:"out"`
	Errors   []Diagnostic `json:"errors"`
	Warnings []Diagnostic `json:"warnings"`
}

// Diagnostic is a recorded diagnostic.
type Diagnostic struct {
	Severity string `json:"severity"`
	Summary  string `json:"summary"`
	Detail   string `json:"detail"`
}

// Folder is what every case folder of the corpus holds beside its
// recorded expectations.
type Folder struct {
	Name    string
	Dir     string
	Args    []string // args.txt
	Env     []string // env.txt
	Schemas bool     // whether it has a providers-schema.json
}

// loadFolders reads every folder under root that holds file, in name
// order (os.ReadDir sorts), making each case from the folder and the
// file's bytes.
func loadFolders[C any](root, file string, newCase func(f Folder, expected []byte) (C, error)) ([]C, error) {
	entries, err := os.ReadDir(root)
	if err != nil {
		return nil, err
	}
	var cases []C
	for _, e := range entries {
		dir := filepath.Join(root, e.Name())
		b, err := os.ReadFile(filepath.Join(dir, file))
		if err != nil {
			continue
		}
		f := Folder{Name: e.Name(), Dir: dir, Args: readLines(filepath.Join(dir, "args.txt")), Env: readLines(filepath.Join(dir, "env.txt"))}
		_, err = os.Stat(filepath.Join(dir, "providers-schema.json"))
		f.Schemas = err == nil
		c, err := newCase(f, b)
		if err != nil {
			return nil, err
		}
		cases = append(cases, c)
	}
	return cases, nil
}

// Case is one folder of the corpus.
type Case struct {
	Folder
	Expected map[string]Expected // by dialect name
}

// LoadCases reads every case folder under root, sorted by name.
func LoadCases(root string) ([]*Case, error) {
	return loadFolders(root, "expected.json", func(f Folder, b []byte) (*Case, error) {
		c := &Case{Folder: f}
		return c, json.Unmarshal(b, &c.Expected)
	})
}

// readLines reads a case's args.txt or env.txt: blank lines and # comments skipped.
func readLines(path string) []string {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	var out []string
	for _, l := range strings.Split(string(b), "\n") {
		l = strings.TrimRight(l, "\r")
		if strings.TrimSpace(l) == "" || strings.HasPrefix(l, "#") {
			continue
		}
		out = append(out, l)
	}
	return out
}

var (
	ansi       = regexp.MustCompile(`\x1b\[[0-9;]*m`)
	boxPrefix  = regexp.MustCompile(`^[│╷╵] ?`)
	diagHeader = regexp.MustCompile(`^(Error|Warning): (.*)$`)
)

// Summaries extracts the diagnostic summaries of one severity ("error" or
// "warning") from human output, as compare.py does.
func Summaries(text, severity string) []string {
	var out []string
	for _, line := range strings.Split(ansi.ReplaceAllString(text, ""), "\n") {
		line = boxPrefix.ReplaceAllString(strings.TrimRight(line, "\r"), "")
		if m := diagHeader.FindStringSubmatch(line); m != nil && strings.ToLower(m[1]) == severity {
			out = append(out, Norm(m[2]))
		}
	}
	return out
}

// ErrorDetails extracts (summary, detail) pairs of the errors in human
// output: the detail is what follows the summary and the source excerpt, up
// to the next diagnostic.
func ErrorDetails(text string) [][2]string {
	var out [][2]string
	lines := strings.Split(ansi.ReplaceAllString(text, ""), "\n")
	for i := 0; i < len(lines); i++ {
		m := diagHeader.FindStringSubmatch(boxPrefix.ReplaceAllString(lines[i], ""))
		if m == nil {
			continue
		}
		var body []string
		for i+1 < len(lines) && !diagHeader.MatchString(boxPrefix.ReplaceAllString(lines[i+1], "")) {
			i++
			body = append(body, boxPrefix.ReplaceAllString(lines[i], ""))
		}
		var paras []string
		for _, p := range strings.Split(strings.Trim(strings.Join(body, "\n"), "\n"), "\n\n") {
			if !strings.HasPrefix(p, "  on ") {
				paras = append(paras, p)
			}
		}
		if m[1] == "Error" {
			out = append(out, [2]string{m[2], strings.Trim(strings.Join(paras, "\n\n"), "\n")})
		}
	}
	return out
}

// Norm normalises a summary: cycle reports list their members in no fixed order.
func Norm(summary string) string {
	if rest, ok := strings.CutPrefix(summary, "Cycle: "); ok {
		parts := strings.Split(rest, ", ")
		sort.Strings(parts)
		return "Cycle: " + strings.Join(parts, ", ")
	}
	return summary
}
