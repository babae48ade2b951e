package main

import "testing"

func TestPaceGC(t *testing.T) {
	for _, tt := range []struct {
		env  map[string]string
		pace bool
	}{
		{map[string]string{}, true},
		{map[string]string{"GOGC": "100"}, false},
		{map[string]string{"GOGC": "off"}, false},
		{map[string]string{"GOMEMLIMIT": "2GiB"}, false},
	} {
		p := paceGC(func(k string) string { return tt.env[k] })
		if (p != nil) != tt.pace {
			t.Errorf("environment %v: paced %v, want %v", tt.env, p != nil, tt.pace)
		}
		if p != nil {
			p.Stop()
		}
	}
}
