package address

import "strings"

// Steps splits an address at its dots outside instance keys:
// `module.a["x.y"].b[0]` is `module`, `a["x.y"]`, `b[0]`.
func Steps(addr string) []string {
	if addr == "" {
		return nil
	}
	var out []string
	depth, quoted, start := 0, false, 0
	for i := 0; i < len(addr); i++ {
		switch c := addr[i]; {
		case quoted && c == '\\':
			i++
		case quoted:
			quoted = c != '"'
		case c == '"':
			quoted = true
		case c == '[':
			depth++
		case c == ']':
			depth--
		case c == '.' && depth == 0:
			out = append(out, addr[start:i])
			start = i + 1
		}
	}
	return append(out, addr[start:])
}

// ModulePrefix is what a module's path puts before the addresses in it:
// "module.a.module.b." for the path a, b; "" for the root module.
func ModulePrefix(path []string) string {
	if len(path) == 0 {
		return ""
	}
	n := 0
	for _, p := range path {
		n += len("module.") + len(p) + 1
	}
	var b strings.Builder
	b.Grow(n)
	for _, p := range path {
		b.WriteString("module.")
		b.WriteString(p)
		b.WriteByte('.')
	}
	return b.String()
}

// AppendModulePrefix appends ModulePrefix(path) to b, for callers that
// write it into a longer string or only look it up in a map.
func AppendModulePrefix(b []byte, path []string) []byte {
	for _, p := range path {
		b = append(b, "module."...)
		b = append(b, p...)
		b = append(b, '.')
	}
	return b
}
