package lang

import (
	"strings"
	"testing"

	"github.com/zclconf/go-cty/cty"
)

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

// TestTableSchema: the aws table gives each type's attributes with their
// types and computed flags, and its nested blocks with their nesting
// modes, as `terraform providers schema -json` of the aws provider
// v5.100.0 prints them (each case read there; the whole table was
// compared with that document when generated).
func TestTableSchema(t *testing.T) {
	rbd := cty.Object(map[string]cty.Type{
		"delete_on_termination": cty.Bool, "device_name": cty.String, "encrypted": cty.Bool, "iops": cty.Number,
		"kms_key_id": cty.String, "tags": cty.Map(cty.String), "tags_all": cty.Map(cty.String), "throughput": cty.Number,
		"volume_id": cty.String, "volume_size": cty.Number, "volume_type": cty.String,
	})
	dvo := cty.Set(cty.Object(map[string]cty.Type{
		"domain_name": cty.String, "resource_record_name": cty.String, "resource_record_type": cty.String, "resource_record_value": cty.String,
	}))
	for _, tc := range []struct {
		mode, typ, path string
		// want is the attribute's type, or the block's implied object
		// type; computed and nesting what the schema says.
		want     cty.Type
		computed bool
		nesting  NestingMode
	}{
		{"resource", "aws_instance", "ipv6_addresses", cty.List(cty.String), true, ""},
		{"resource", "aws_instance", "security_groups", cty.Set(cty.String), true, ""},
		{"resource", "aws_instance", "tags_all", cty.Map(cty.String), true, ""},
		{"resource", "aws_instance", "tags", cty.Map(cty.String), false, ""},
		{"resource", "aws_instance", "root_block_device", rbd, false, NestingList},
		{"resource", "aws_instance", "root_block_device.volume_id", cty.String, true, ""},
		{"resource", "aws_instance", "root_block_device.delete_on_termination", cty.Bool, false, ""},
		{"resource", "aws_instance", "ebs_block_device.snapshot_id", cty.String, true, ""},
		{"resource", "aws_instance", "timeouts.create", cty.String, false, ""},
		{"resource", "aws_acm_certificate", "domain_validation_options", dvo, true, ""},
		{"resource", "aws_lb_listener", "default_action.forward.target_group.weight", cty.Number, false, ""},
		{"resource", "aws_s3_bucket", "cors_rule.allowed_methods", cty.List(cty.String), false, ""},
		{"data", "aws_availability_zones", "names", cty.List(cty.String), true, ""},
		// Names far down the dictionary: indices of three digits.
		{"resource", "aws_kms_custom_key_store", "xks_proxy_uri_path", cty.String, false, ""},
	} {
		b := TableSchema("hashicorp/aws", tc.mode, tc.typ)
		if b == nil {
			t.Fatalf("%s %s: no schema", tc.mode, tc.typ)
		}
		names := strings.Split(tc.path, ".")
		for _, n := range names[:len(names)-1] {
			nb := b.BlockTypes[n]
			if nb == nil {
				t.Fatalf("%s.%s: no block %s", tc.typ, tc.path, n)
			}
			b = nb.Block
		}
		last := names[len(names)-1]
		if tc.nesting != "" {
			nb := b.BlockTypes[last]
			if nb == nil || nb.Nesting != tc.nesting || !nb.Block.ImpliedType().Equals(tc.want) {
				t.Errorf("%s.%s: block %+v, want %s of %#v", tc.typ, tc.path, nb, tc.nesting, tc.want)
			}
			continue
		}
		a := b.Attributes[last]
		if a == nil || !a.Type.Equals(tc.want) || a.Computed != tc.computed {
			t.Errorf("%s.%s: %+v, want %#v computed %v", tc.typ, tc.path, a, tc.want, tc.computed)
		}
	}
	if b := TableSchema("hashicorp/aws", "resource", "aws_instance"); b.BlockTypes["ebs_block_device"].Nesting != NestingSet || b.BlockTypes["timeouts"].Nesting != NestingSingle {
		t.Errorf("ebs_block_device, timeouts: %+v", b.BlockTypes)
	}
	for _, tc := range [][3]string{
		{"hashicorp/aws", "resource", "aws_not_a_type"},
		{"hashicorp/aws", "data", "aws_s3_bucket_versioning"},
		{"hashicorp/google", "resource", "google_storage_bucket"},
	} {
		if b := TableSchema(tc[0], tc[1], tc[2]); b != nil {
			t.Errorf("%v: a schema", tc)
		}
	}
}

// TestTableSchemaSensitive: the aws table carries the schema's sensitive
// flags (each case read in `terraform providers schema -json` of the aws
// provider v5.100.0), top-level and in nested blocks, computed or
// not, of any type; SensitiveTableSchema gives a type's table only when it
// has one, and never for an ephemeral resource.
func TestTableSchemaSensitive(t *testing.T) {
	for _, tc := range []struct {
		mode, typ, path string
		want            bool
	}{
		{"resource", "aws_db_instance", "password", true},
		{"resource", "aws_db_instance", "password_wo", true},
		{"resource", "aws_db_instance", "username", false},
		{"resource", "aws_iam_access_key", "secret", true},
		{"resource", "aws_iam_access_key", "ses_smtp_password_v4", true},
		{"resource", "aws_iam_access_key", "encrypted_secret", false},
		{"resource", "aws_secretsmanager_secret_version", "secret_string", true},
		{"resource", "aws_elasticache_user", "passwords", true},
		{"resource", "aws_elasticache_user", "authentication_mode.passwords", true},
		{"resource", "aws_elasticache_user", "authentication_mode.type", false},
		{"resource", "aws_glue_connection", "connection_properties", true},
		{"resource", "aws_ssm_parameter", "value", true},
		{"data", "aws_secretsmanager_secret_version", "secret_string", true},
		{"data", "aws_secretsmanager_secret_version", "secret_id", false},
		{"data", "aws_kms_secrets", "plaintext", true},
		{"data", "aws_ssm_parameters_by_path", "values", true},
		{"data", "aws_ssm_parameter", "value", true},
	} {
		b := TableSchema("hashicorp/aws", tc.mode, tc.typ)
		if b == nil {
			t.Fatalf("%s %s: no schema", tc.mode, tc.typ)
		}
		names := strings.Split(tc.path, ".")
		for _, n := range names[:len(names)-1] {
			b = b.BlockTypes[n].Block
		}
		a := b.Attributes[names[len(names)-1]]
		if a == nil || a.Sensitive != tc.want {
			t.Errorf("%s %s.%s: %+v, want sensitive %v", tc.mode, tc.typ, tc.path, a, tc.want)
		}
		if SensitiveTableSchema("hashicorp/aws", tc.mode, tc.typ) == nil {
			t.Errorf("%s %s: no sensitive table schema", tc.mode, tc.typ)
		}
	}
	for _, tc := range [][3]string{
		{"hashicorp/aws", "resource", "aws_s3_bucket"},
		{"hashicorp/aws", "data", "aws_region"},
		{"hashicorp/aws", "ephemeral", "aws_secretsmanager_secret_version"},
		{"hashicorp/aws", "resource", "aws_not_a_type"},
		{"hashicorp/google", "resource", "google_sql_user"},
	} {
		if b := SensitiveTableSchema(tc[0], tc[1], tc[2]); b != nil {
			t.Errorf("%v: a sensitive table schema", tc)
		}
	}
}
