package lang

import "testing"

// TestComputedAttribute: the aws table says what the aws provider's
// v5.100.0 schema makes of an attribute (each case checked against
// `terraform providers schema -json`, and the s3 bucket's with terraform
// test's mocks); a type or provider it has no table of is unknown.
func TestComputedAttribute(t *testing.T) {
	for _, tc := range []struct {
		source, mode, typ, name string
		want                    Computed
	}{
		{"hashicorp/aws", "resource", "aws_s3_bucket", "arn", ComputedString},
		{"hashicorp/aws", "resource", "aws_s3_bucket", "id", ComputedString},
		{"hashicorp/aws", "resource", "aws_s3_bucket", "hosted_zone_id", ComputedString},
		{"hashicorp/aws", "resource", "aws_s3_bucket", "object_lock_enabled", ComputedBool},
		{"hashicorp/aws", "resource", "aws_s3_bucket", "tags_all", ComputedOther},
		{"hashicorp/aws", "resource", "aws_s3_bucket", "force_destroy", NotComputed},
		{"hashicorp/aws", "resource", "aws_s3_bucket", "tags", NotComputed},
		{"hashicorp/aws", "resource", "aws_s3_bucket", "nosuch", NotAnAttribute},
		{"hashicorp/aws", "resource", "aws_instance", "cpu_core_count", ComputedNumber},
		{"hashicorp/aws", "resource", "aws_instance", "user_data_replace_on_change", NotComputed},
		// Names far down the dictionary: indices of two and three digits.
		{"hashicorp/aws", "resource", "aws_glue_dev_endpoint", "zeppelin_remote_spark_interpreter_port", ComputedNumber},
		{"hashicorp/aws", "resource", "aws_kms_custom_key_store", "xks_proxy_uri_path", NotComputed},
		{"hashicorp/aws", "resource", "aws_transcribe_vocabulary_filter", "words", NotComputed},
		// A data source's arguments are not computed, its results are.
		{"hashicorp/aws", "data", "aws_s3_bucket", "bucket", NotComputed},
		{"hashicorp/aws", "data", "aws_s3_bucket", "arn", ComputedString},
		{"hashicorp/aws", "data", "aws_s3_bucket", "force_destroy", NotAnAttribute},
		// The table is by mode.
		{"hashicorp/aws", "data", "aws_s3_bucket_versioning", "bucket", ComputedUnknown},
		{"hashicorp/aws", "resource", "aws_not_a_type", "arn", ComputedUnknown},
		{"hashicorp/google", "resource", "google_storage_bucket", "self_link", ComputedUnknown},
		{"example/aws", "resource", "aws_s3_bucket", "arn", ComputedUnknown},
	} {
		if got := ComputedAttribute(tc.source, tc.mode, tc.typ, tc.name); got != tc.want {
			t.Errorf("%s %s %s.%s: %d, want %d", tc.source, tc.mode, tc.typ, tc.name, got, tc.want)
		}
	}
}
