package longtest

import "testing"

func TestEnabled(t *testing.T) {
	for _, c := range []struct {
		value string
		want  bool
	}{
		{"", false}, {"0", false}, {"false", false}, {"1", !testing.Short()}, {"true", !testing.Short()},
	} {
		t.Setenv(Env, c.value)
		if got := Enabled(); got != c.want {
			t.Errorf("%s=%q: Enabled() = %v, want %v", Env, c.value, got, c.want)
		}
		if got, want := Pick(1, 2), map[bool]int{false: 1, true: 2}[c.want]; got != want {
			t.Errorf("%s=%q: Pick(1, 2) = %d, want %d", Env, c.value, got, want)
		}
	}
}

func TestSkip(t *testing.T) {
	t.Setenv(Env, "")
	ran := false
	t.Run("short", func(t *testing.T) {
		Skip(t, "a long case")
		ran = true
	})
	if ran {
		t.Error("Skip did not skip without " + Env)
	}
}
