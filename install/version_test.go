package install

import "testing"

func TestConstraintChoose(t *testing.T) {
	available := []string{"0.9.0", "1.0.0", "1.0.1", "1.1.0", "1.2.0-rc.1", "1.2.0-rc.2", "2.0.0-beta", "v2.1.0", "garbage", ""}
	tests := []struct {
		constraint, want, newest string
	}{
		{"", "2.1.0", "2.1.0"},
		{"~> 1.0", "1.1.0", "2.1.0"},
		{"~> 1.0.0", "1.0.1", "2.1.0"},
		{">= 1.0, < 1.1", "1.0.1", "2.1.0"},
		{"1.0.0", "1.0.0", "2.1.0"},
		{"= 1.0.0", "1.0.0", "2.1.0"},
		{"!= 2.1.0, > 1.0.0", "1.1.0", "2.1.0"},
		{"1.2.0-rc.1", "1.2.0-rc.1", "2.1.0"},
		{"= 2.0.0-beta", "2.0.0-beta", "2.1.0"},
		{">= 1.2.0-rc.1, < 2.0.0", "", "2.1.0"},
		{"~> 1.2.0-rc.1", "", "2.1.0"},
		{"> 3", "", "2.1.0"},
	}
	for _, tt := range tests {
		t.Run(tt.constraint, func(t *testing.T) {
			c, err := parseConstraint(tt.constraint)
			if err != nil {
				t.Fatal(err)
			}
			chosen, newest := c.choose(available)
			got := ""
			if chosen != nil {
				got = chosen.String()
			}
			if got != tt.want || newest.String() != tt.newest {
				t.Errorf("chose %q (newest %s), want %q (newest %s)", got, newest, tt.want, tt.newest)
			}
		})
	}
}

func TestConstraintMalformed(t *testing.T) {
	for _, text := range []string{"~> banana", ">>= 1.0", "1.0 ||| 2.0", "=", ", ,"} {
		if _, err := parseConstraint(text); err == nil {
			t.Errorf("%q parsed", text)
		}
	}
}
