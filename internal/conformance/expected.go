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

// Case is one folder of the corpus.
type Case struct {
	Name     string
	Dir      string
	Expected map[string]Expected // by dialect name
	Args     []string
	Env      []string
	Schemas  bool
}

// LoadCases reads every case folder under root, sorted by name.
func LoadCases(root string) ([]*Case, error) {
	entries, err := os.ReadDir(root)
	if err != nil {
		return nil, err
	}
	var cases []*Case
	for _, e := range entries {
		dir := filepath.Join(root, e.Name())
		b, err := os.ReadFile(filepath.Join(dir, "expected.json"))
		if err != nil {
			continue
		}
		c := &Case{Name: e.Name(), Dir: dir}
		if err := json.Unmarshal(b, &c.Expected); err != nil {
			return nil, err
		}
		c.Args = readLines(filepath.Join(dir, "args.txt"))
		c.Env = readLines(filepath.Join(dir, "env.txt"))
		_, err = os.Stat(filepath.Join(dir, "providers-schema.json"))
		c.Schemas = err == nil
		cases = append(cases, c)
	}
	sort.Slice(cases, func(i, j int) bool { return cases[i].Name < cases[j].Name })
	return cases, nil
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
