package tftest

import "testing"

// TestMockProviderDuringPlanNeedsMockResource: Terraform v1.15.9's mocked
// provider (internal/providers/mock.go, PlanResourceChange) fills a
// created resource's computed attributes while planning only when a
// mock_resource block of its type says override_during = plan, itself or
// by the mock_provider's default (which an override_resource in the
// mock_provider takes too); without one, the provider's
// override_during = plan leaves them unknown, and a plan run's assertion
// on them is an "Unknown condition value" error. terraform test v1.11.4
// gives the same for these cases with aws 5.100.0.
func TestMockProviderDuringPlanNeedsMockResource(t *testing.T) {
	main := `
resource "aws_s3_bucket" "b" {
  bucket = "x-bucket"
}
`
	cases := []struct {
		name, mock string
		want       Status
	}{
		{"no mock_resource", `override_during = plan`, Error},
		{"only a mock_data", "override_during = plan\n  mock_data \"aws_caller_identity\" {\n    defaults = { account_id = \"1\" }\n  }", Error},
		{"mock_resource of the type", "override_during = plan\n  mock_resource \"aws_s3_bucket\" {\n    defaults = { bucket_domain_name = \"d\" }\n  }", Pass},
		{"mock_resource's own override_during", "mock_resource \"aws_s3_bucket\" {\n    override_during = plan\n  }", Pass},
		{"an override_resource takes the provider's", "override_during = plan\n  override_resource {\n    target = aws_s3_bucket.b\n    values = { bucket_domain_name = \"d\" }\n  }", Pass},
		{"mock_resource says apply", "override_during = plan\n  mock_resource \"aws_s3_bucket\" {\n    override_during = apply\n  }", Error},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := mockedAssertion(t, main, c.mock, "plan", "length(aws_s3_bucket.b.arn) > 0")
			if r.Status != c.want {
				t.Fatalf("status %v, want %v (%v)", r.Status, c.want, r.Diagnostics)
			}
			if c.want == Error && (len(r.Diagnostics) == 0 || r.Diagnostics[0].Summary != "Unknown condition value") {
				t.Errorf("diagnostics %v", r.Diagnostics)
			}
		})
	}
}
