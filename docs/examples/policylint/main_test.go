package main

import (
	"slices"
	"testing"
)

// TestLint checks the findings in the two example modules: each at the
// expression that produced the value, inside the dynamic block's content
// for the rules it makes, and none where variables make the module safe.
func TestLint(t *testing.T) {
	tests := []struct {
		dir  string
		want []string
	}{
		{"testdata/insecure", []string{
			"main.tf:14:9: mock_bucket.site.acl: bucket is readable by anyone",
			"main.tf:27:37: mock_firewall.web.ingress[1].cidr_blocks[1]: rule is open to the whole internet",
			"main.tf:27:37: mock_firewall.web.ingress[2].cidr_blocks[1]: rule is open to the whole internet",
		}},
		{"testdata/secure", nil},
	}
	for _, tt := range tests {
		got, err := lint(tt.dir)
		if err != nil {
			t.Fatalf("%s: %v", tt.dir, err)
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("%s: findings\n%q\nwant\n%q", tt.dir, got, tt.want)
		}
	}
	if _, err := lint("testdata/does-not-exist"); err == nil {
		t.Error("a missing module gave no error")
	}
}
