package lang

import (
	"fmt"
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/tfeval/tfeval/internal/numtext"
)

func TestInstanceAddr(t *testing.T) {
	for _, k := range []cty.Value{
		cty.NilVal, cty.NumberIntVal(0), cty.NumberIntVal(12), cty.StringVal("a"), cty.StringVal(""),
		cty.StringVal(`q"b\s`), cty.StringVal("tab\tnl\n"), cty.StringVal("ünï ✓"), cty.StringVal("\x7f"),
		cty.StringVal("with space-and_dash.dot"),
	} {
		want := "aws_x.y"
		if k != cty.NilVal {
			if k.Type() == cty.Number {
				want += "[" + numtext.String(k) + "]"
			} else {
				want += fmt.Sprintf("[%q]", k.AsString())
			}
		}
		if got := instanceAddr("aws_x.y", k); got != want {
			t.Errorf("instanceAddr(%#v) = %s, want %s", k, got, want)
		}
	}
}
