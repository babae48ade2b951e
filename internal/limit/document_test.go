package limit

import (
	"strings"
	"testing"
)

// TestJSONShape: the scan finds the nesting exactly and never fewer
// values than a document holds, whatever its strings hold.
func TestJSONShape(t *testing.T) {
	for _, tt := range []struct {
		doc           string
		depth, values int
	}{
		{`1`, 0, 1},
		{`[]`, 1, 2},
		{`[1, 2, 3]`, 1, 4},
		{`{"a": [1, {"b": 2}], "c": null}`, 3, 6},
		{`["[[[", "{,,}", "\"]]"]`, 1, 4},
		{`"unterminated [[[`, 0, 1},
		{strings.Repeat("[", 1000) + strings.Repeat("]", 1000), 1000, 1001},
	} {
		depth, values := JSONShape(tt.doc)
		if depth != tt.depth || values != tt.values {
			t.Errorf("JSONShape(%.30q) = %d, %d; want %d, %d", tt.doc, depth, values, tt.depth, tt.values)
		}
		if d, v := JSONShape([]byte(tt.doc)); d != depth || v != values {
			t.Errorf("JSONShape of the bytes of %.30q = %d, %d", tt.doc, d, v)
		}
	}
}
