package address

import (
	"reflect"
	"testing"
)

func TestSteps(t *testing.T) {
	for addr, want := range map[string][]string{
		"":                              nil,
		"aws_s3_bucket.b":               {"aws_s3_bucket", "b"},
		`module.a["x.y"].b[0]`:          {"module", `a["x.y"]`, "b[0]"},
		`module.a["q\"]."].data.x.y[1]`: {"module", `a["q\"]."]`, "data", "x", "y[1]"},
	} {
		if got := Steps(addr); !reflect.DeepEqual(got, want) {
			t.Errorf("Steps(%q) = %q, want %q", addr, got, want)
		}
	}
}

func TestModulePrefix(t *testing.T) {
	if got := ModulePrefix(nil); got != "" {
		t.Errorf("root: %q", got)
	}
	if got := ModulePrefix([]string{"a", "b"}); got != "module.a.module.b." {
		t.Errorf("a, b: %q", got)
	}
}
