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
		{"hashicorp/consul", "resource", "consul_key_prefix", "id", ComputedUnknown},
		{"example/aws", "resource", "aws_s3_bucket", "arn", ComputedUnknown},
		// The other providers' tables, each case read in the schema
		// document of the table's version.
		{"hashicorp/azurerm", "resource", "azurerm_resource_group", "managed_by", NotComputed},
		{"hashicorp/azurerm", "resource", "azurerm_resource_group", "id", ComputedString},
		{"hashicorp/azurerm", "resource", "azurerm_storage_account", "primary_blob_endpoint", ComputedString},
		{"hashicorp/azurerm", "resource", "azurerm_storage_account", "large_file_share_enabled", ComputedBool},
		{"hashicorp/azurerm", "data", "azurerm_client_config", "tenant_id", ComputedString},
		{"azure/azapi", "resource", "azapi_resource", "update_headers", NotComputed},
		{"azure/azapi", "resource", "azapi_resource", "output", ComputedOther},
		{"azure/azapi", "resource", "azapi_resource", "tags", ComputedOther},
		{"hashicorp/google", "resource", "google_storage_bucket", "self_link", ComputedString},
		{"hashicorp/google", "resource", "google_storage_bucket", "project_number", ComputedNumber},
		{"hashicorp/google", "resource", "google_storage_bucket", "storage_class", NotComputed},
		{"hashicorp/kubernetes", "resource", "kubernetes_namespace_v1", "wait_for_default_service_account", NotComputed},
		{"hashicorp/azuread", "data", "azuread_client_config", "object_id", ComputedString},
		{"hashicorp/azuread", "resource", "azuread_group", "onpremises_sync_enabled", ComputedBool},
		{"integrations/github", "resource", "github_repository", "full_name", ComputedString},
		{"integrations/github", "resource", "github_repository", "description", NotComputed},
		{"hashicorp/helm", "resource", "helm_release", "max_history", ComputedNumber},
		{"hashicorp/helm", "resource", "helm_release", "repository", NotComputed},
		{"hashicorp/vault", "resource", "vault_mount", "accessor", ComputedString},
		{"hashicorp/vault", "resource", "vault_mount", "default_lease_ttl_seconds", ComputedNumber},
		{"hashicorp/vault", "resource", "vault_mount", "description", NotComputed},
		{"cyrilgdn/postgresql", "resource", "postgresql_database", "owner", ComputedString},
		{"cyrilgdn/postgresql", "resource", "postgresql_grant", "with_grant_option", NotComputed},
		{"datadog/datadog", "resource", "datadog_monitor", "enable_samples", ComputedBool},
		{"datadog/datadog", "resource", "datadog_monitor", "priority", NotComputed},
		{"cloudflare/cloudflare", "resource", "cloudflare_dns_record", "created_on", ComputedString},
		{"cloudflare/cloudflare", "resource", "cloudflare_dns_record", "proxied", ComputedBool},
		{"cloudflare/cloudflare", "resource", "cloudflare_dns_record", "comment", NotComputed},
	} {
		if got := ComputedAttribute(tc.source, testVersion(tc.source), tc.mode, tc.typ, tc.name); got != tc.want {
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
		b := TableSchema("hashicorp/aws", "5.100.0", tc.mode, tc.typ)
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
	if b := TableSchema("hashicorp/aws", "5.100.0", "resource", "aws_instance"); b.BlockTypes["ebs_block_device"].Nesting != NestingSet || b.BlockTypes["timeouts"].Nesting != NestingSingle {
		t.Errorf("ebs_block_device, timeouts: %+v", b.BlockTypes)
	}
	for _, tc := range [][3]string{
		{"hashicorp/aws", "resource", "aws_not_a_type"},
		{"hashicorp/aws", "data", "aws_s3_bucket_versioning"},
		{"hashicorp/consul", "resource", "consul_key_prefix"},
	} {
		if b := TableSchema(tc[0], testVersion(tc[0]), tc[1], tc[2]); b != nil {
			t.Errorf("%v: a schema", tc)
		}
	}
}

// testVersion is the version of source's table the cases are read in:
// aws's 5.100.0 (checked against its provider), the one table of the
// others.
func testVersion(source string) string {
	if source == "hashicorp/aws" {
		return "5.100.0"
	}
	if vs := TableVersions(source); len(vs) > 0 {
		return vs[0]
	}
	return ""
}

// TestTableVersions: tfeval holds tables of these provider versions,
// newest first, and each version listed has its table; a provider without
// a table has none.
func TestTableVersions(t *testing.T) {
	for source, want := range map[string]string{
		"hashicorp/aws":         "6.47.0 5.100.0",
		"hashicorp/azurerm":     "4.79.0 3.116.0",
		"azure/azapi":           "2.5.0",
		"hashicorp/google":      "7.9.0",
		"hashicorp/kubernetes":  "2.38.0",
		"hashicorp/azuread":     "3.7.0",
		"integrations/github":   "6.13.0",
		"hashicorp/helm":        "3.2.0",
		"hashicorp/vault":       "4.4.0",
		"cyrilgdn/postgresql":   "1.22.0",
		"datadog/datadog":       "3.37.0",
		"cloudflare/cloudflare": "5.22.0",
		"hashicorp/consul":      "",
		"":                      "",
	} {
		got := TableVersions(source)
		if strings.Join(got, " ") != want {
			t.Errorf("%q: %q, want %q", source, got, want)
		}
		for _, v := range got {
			if computedTable(source, v) == "" {
				t.Errorf("%s %s: no table", source, v)
			}
		}
	}
}

// TestTableOfVersion: the two aws tables are each of their version's
// schema (read in each document): aws 6 adds region to data.aws_region
// and to resources; a type whose document the 6.47.0 table was made
// without has no schema there.
func TestTableOfVersion(t *testing.T) {
	for _, tc := range []struct {
		version, mode, typ, name string
		want                     Computed
	}{
		{"6.47.0", "data", "aws_region", "region", ComputedString},
		{"5.100.0", "data", "aws_region", "region", NotAnAttribute},
		{"6.47.0", "resource", "aws_instance", "region", ComputedString},
		{"5.100.0", "resource", "aws_instance", "region", NotAnAttribute},
		{"6.47.0", "resource", "aws_s3_bucket", "arn", ComputedString},
		{"6.47.0", "resource", "aws_quicksight_dashboard", "arn", ComputedUnknown},
		{"5.100.0", "resource", "aws_quicksight_dashboard", "arn", ComputedString},
		{"6.0.0", "resource", "aws_s3_bucket", "arn", ComputedUnknown},
	} {
		if got := ComputedAttribute("hashicorp/aws", tc.version, tc.mode, tc.typ, tc.name); got != tc.want {
			t.Errorf("%s %s %s.%s: %d, want %d", tc.version, tc.mode, tc.typ, tc.name, got, tc.want)
		}
	}
}

// TestAzurermTables: the azurerm tables are each of their version's
// schema (read in each document): 3.x computes storage accounts'
// enable_https_traffic_only and its successor https_traffic_only_enabled,
// 4.x has only the second and does not compute it; 3.x subnets have the
// enforce_private_link_* attributes 4.0 removed.
func TestAzurermTables(t *testing.T) {
	for _, tc := range []struct {
		version, mode, typ, name string
		want                     Computed
	}{
		{"3.116.0", "resource", "azurerm_storage_account", "enable_https_traffic_only", ComputedBool},
		{"4.79.0", "resource", "azurerm_storage_account", "enable_https_traffic_only", NotAnAttribute},
		{"3.116.0", "resource", "azurerm_storage_account", "https_traffic_only_enabled", ComputedBool},
		{"4.79.0", "resource", "azurerm_storage_account", "https_traffic_only_enabled", NotComputed},
		{"3.116.0", "resource", "azurerm_storage_account", "primary_blob_endpoint", ComputedString},
		{"3.116.0", "resource", "azurerm_subnet", "enforce_private_link_endpoint_network_policies", ComputedBool},
		{"4.79.0", "resource", "azurerm_subnet", "enforce_private_link_endpoint_network_policies", NotAnAttribute},
		{"3.116.0", "resource", "azurerm_resource_group", "managed_by", NotComputed},
		{"3.116.0", "data", "azurerm_client_config", "tenant_id", ComputedString},
		{"3.0.0", "resource", "azurerm_resource_group", "id", ComputedUnknown},
	} {
		if got := ComputedAttribute("hashicorp/azurerm", tc.version, tc.mode, tc.typ, tc.name); got != tc.want {
			t.Errorf("%s %s %s.%s: %d, want %d", tc.version, tc.mode, tc.typ, tc.name, got, tc.want)
		}
	}
}

// TestTableNestedAttributes: a nested attribute type is of the object
// type it implies where nothing in it is computed (helm_release's
// postrender, a single object; set_list, a list of them); one with a
// computed attribute (set: its type is computed) is not in the table,
// which leaves it undecided.
func TestTableNestedAttributes(t *testing.T) {
	b := TableSchema("hashicorp/helm", "3.2.0", "resource", "helm_release")
	if b == nil {
		t.Fatal("no helm_release")
	}
	post := cty.Object(map[string]cty.Type{"args": cty.List(cty.String), "binary_path": cty.String})
	setList := cty.List(cty.Object(map[string]cty.Type{"name": cty.String, "value": cty.List(cty.String)}))
	if a := b.Attributes["postrender"]; a == nil || a.Computed || !a.Type.Equals(post) {
		t.Errorf("postrender: %+v", a)
	}
	if a := b.Attributes["set_list"]; a == nil || a.Computed || !a.Type.Equals(setList) {
		t.Errorf("set_list: %+v", a)
	}
	for _, name := range []string{"set", "metadata"} {
		if a, ok := b.Attributes[name]; ok {
			t.Errorf("%s: %+v", name, a)
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
		b := TableSchema("hashicorp/aws", "5.100.0", tc.mode, tc.typ)
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
		if SensitiveTableSchema("hashicorp/aws", "5.100.0", tc.mode, tc.typ) == nil {
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
		if b := SensitiveTableSchema(tc[0], "5.100.0", tc[1], tc[2]); b != nil {
			t.Errorf("%v: a sensitive table schema", tc)
		}
	}
}

// TestComputedDictionaries: every table's dictionary is its names joined
// by single spaces, none empty and none holding a space of another kind,
// so that cutting it at each space (readComputedTable) gives what
// strings.Fields gives.
func TestComputedDictionaries(t *testing.T) {
	for _, source := range []string{"hashicorp/aws", "hashicorp/azurerm", "azure/azapi", "hashicorp/google",
		"hashicorp/kubernetes", "hashicorp/azuread", "integrations/github", "hashicorp/helm", "hashicorp/vault",
		"cyrilgdn/postgresql", "datadog/datadog", "cloudflare/cloudflare"} {
		versions := TableVersions(source)
		if len(versions) == 0 {
			t.Errorf("%s: no table", source)
		}
		for _, version := range versions {
			dict, _, _ := strings.Cut(computedTable(source, version), "\n")
			got, want := readComputedTable(computedTable(source, version)).names, strings.Fields(dict)
			if len(got) != len(want) {
				t.Errorf("%s %s: %d names, strings.Fields gives %d", source, version, len(got), len(want))
				continue
			}
			for i := range got {
				if got[i] != want[i] {
					t.Errorf("%s %s: name %d is %q, strings.Fields gives %q", source, version, i, got[i], want[i])
					break
				}
			}
		}
	}
}
