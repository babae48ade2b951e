package tftest

import (
	"fmt"
	"testing"

	"github.com/tfeval/tfeval/dialect"
)

// tableAssertion runs one assert of a plan or apply of main with
// provider name mocked (mock_provider NAME {}).
func tableAssertion(t *testing.T, files map[string]string, provider, command, condition string) *RunResult {
	t.Helper()
	all := map[string]string{"tests/a.tftest.hcl": fmt.Sprintf(`
mock_provider %q {}
run "r" {
  command = %s
  assert {
    condition     = %s
    error_message = "r"
  }
}
`, provider, command, condition)}
	for name, text := range files {
		all[name] = text
	}
	return runOf(t, runFiles(t, all, dialect.Terraform), "tests/a.tftest.hcl::r")
}

// TestProviderTables: each provider tfeval holds a table of besides aws
// (lang.TableVersions) decides a mocked object without a schema by the
// rules checked on aws (TestMockedObjectsByTable): an argument not set
// that the provider does not compute is null; one it computes is unknown
// in the plan and generated once applied; a nested block not written is
// an empty collection, a nested attribute type without computed
// attributes is of its object type. Each attribute's flags are the
// schema document's of the table's version. Before, each of these runs
// was skipped for want of the provider's schema.
func TestProviderTables(t *testing.T) {
	for _, tc := range []struct {
		provider, source, version, resource string
		command, condition                  string
		status                              Status
	}{
		{"azurerm", "hashicorp/azurerm", ">= 4.0, < 5.0", `resource "azurerm_resource_group" "x" {
  name     = "rg"
  location = "westeurope"
}`, "plan", `azurerm_resource_group.x.managed_by == null`, Pass},
		{"azurerm", "hashicorp/azurerm", "~> 4.1", `resource "azurerm_storage_account" "x" {
  name                     = "sa"
  resource_group_name      = "rg"
  location                 = "westeurope"
  account_tier             = "Standard"
  account_replication_type = "LRS"
}`, "apply", `azurerm_storage_account.x.primary_blob_endpoint != "" && azurerm_storage_account.x.min_tls_version == null && length(azurerm_storage_account.x.network_rules) == 0`, Pass},
		{"azapi", "Azure/azapi", "~> 2.0", `resource "azapi_resource" "x" {
  type      = "Microsoft.Storage/storageAccounts@2023-01-01"
  name      = "sa"
  parent_id = "/subscriptions/0/resourceGroups/rg"
}`, "plan", `azapi_resource.x.update_headers == null && azapi_resource.x.locks == null`, Pass},
		{"google", "hashicorp/google", ">= 7.0, < 8.0", `resource "google_storage_bucket" "x" {
  name     = "b"
  location = "EU"
}`, "apply", `google_storage_bucket.x.self_link != "" && google_storage_bucket.x.storage_class == null && google_storage_bucket.x.project_number == 0`, Pass},
		{"google", "hashicorp/google", "", `resource "google_storage_bucket" "x" {
  name     = "b"
  location = "EU"
}`, "plan", `google_storage_bucket.x.self_link != ""`, Error},
		{"kubernetes", "hashicorp/kubernetes", ">= 2.0.0", `resource "kubernetes_namespace_v1" "x" {
  metadata {
    name = "n"
  }
}`, "plan", `kubernetes_namespace_v1.x.wait_for_default_service_account == null && kubernetes_namespace_v1.x.timeouts == null`, Pass},
		{"azuread", "hashicorp/azuread", ">= 3.0.0, < 4.0.0", `data "azuread_client_config" "x" {}`,
			"plan", `data.azuread_client_config.x.object_id != ""`, Pass},
		{"github", "integrations/github", "~> 6.0", `resource "github_repository" "x" {
  name = "r"
}`, "apply", `github_repository.x.full_name != "" && github_repository.x.description == null`, Pass},
		{"helm", "hashicorp/helm", "~> 3.0", `resource "helm_release" "x" {
  name  = "r"
  chart = "c"
}`, "plan", `helm_release.x.repository == null && helm_release.x.postrender == null && helm_release.x.set_list == null`, Pass},
		{"vault", "hashicorp/vault", "~> 4.4", `resource "vault_mount" "x" {
  path = "kv"
  type = "kv-v2"
}`, "apply", `vault_mount.x.accessor != "" && vault_mount.x.description == null && vault_mount.x.seal_wrap == false`, Pass},
		{"vault", "hashicorp/vault", "~> 4.4", `resource "vault_mount" "x" {
  path = "kv"
  type = "kv-v2"
}`, "plan", `vault_mount.x.accessor != ""`, Error},
		// No table of vault 5.x: the run waits for the schema.
		{"vault", "hashicorp/vault", "~> 5.0", `resource "vault_mount" "x" {
  path = "kv"
  type = "kv-v2"
}`, "apply", `vault_mount.x.accessor != ""`, Skip},
		{"postgresql", "cyrilgdn/postgresql", ">= 1", `resource "postgresql_database" "x" {
  name = "db"
}`, "apply", `postgresql_database.x.owner != "" && postgresql_database.x.connection_limit == null && postgresql_database.x.is_template == false`, Pass},
		{"datadog", "DataDog/datadog", "~> 3.0", `resource "datadog_monitor" "x" {
  name    = "m"
  type    = "metric alert"
  message = "m"
  query   = "avg(last_5m):avg:system.cpu.user{*} > 90"
}`, "apply", `datadog_monitor.x.enable_samples == false && datadog_monitor.x.priority == null && length(datadog_monitor.x.monitor_thresholds) == 0`, Pass},
		{"cloudflare", "cloudflare/cloudflare", "~> 5.0", `resource "cloudflare_dns_record" "x" {
  zone_id = "z"
  name    = "www"
  type    = "A"
  ttl     = 1
}`, "apply", `cloudflare_dns_record.x.created_on != "" && cloudflare_dns_record.x.comment == null && cloudflare_dns_record.x.proxiable == false`, Pass},
		// cloudflare 4.x is another schema: no table.
		{"cloudflare", "cloudflare/cloudflare", "< 5", `resource "cloudflare_dns_record" "x" {
  zone_id = "z"
  name    = "www"
  type    = "A"
  ttl     = 1
}`, "apply", `cloudflare_dns_record.x.created_on != ""`, Skip},
	} {
		t.Run(tc.provider+" "+tc.condition, func(t *testing.T) {
			version := ""
			if tc.version != "" {
				version = fmt.Sprintf(", version = %q", tc.version)
			}
			main := fmt.Sprintf(`terraform {
  required_providers {
    %s = { source = %q%s }
  }
}
%s
`, tc.provider, tc.source, version, tc.resource)
			r := tableAssertion(t, map[string]string{"main.tf": main}, tc.provider, tc.command, tc.condition)
			if r.Status != tc.status {
				t.Fatalf("%s needing %q (%s), diagnostics %v, want %s", r.Status, r.NeedsProvider, r.SkipReason, r.Diagnostics, tc.status)
			}
			if tc.status == Error && (len(r.Diagnostics) != 1 || r.Diagnostics[0].Summary != "Unknown condition value") {
				t.Errorf("diagnostics %v, want one Unknown condition value", r.Diagnostics)
			}
		})
	}
}

// TestTableVersionAdmitted: a provider's table is used only where every
// version constraint of the configuration, its modules' too, admits the
// table's version: the tables of azurerm 4.x and 3.x do not describe the
// 2.x a configuration asking for "~> 2.0" gets, and the run waits for the
// schema as without a table. A constraint that does not parse rules the
// tables out.
func TestTableVersionAdmitted(t *testing.T) {
	child := func(version string) string {
		return fmt.Sprintf(`terraform {
  required_providers {
    azurerm = { source = "hashicorp/azurerm", version = %q }
  }
}
resource "azurerm_resource_group" "x" {
  name     = "rg"
  location = "westeurope"
}
output "managed_by" {
  value = azurerm_resource_group.x.managed_by
}
`, version)
	}
	root := func(version string) string {
		return fmt.Sprintf(`terraform {
  required_providers {
    azurerm = { source = "hashicorp/azurerm", version = %q }
  }
}
module "m" {
  source = "./m"
}
`, version)
	}
	for _, tc := range []struct {
		name, root, child string
		status            Status
	}{
		{"both admit", ">= 3.0", "~> 4.0", Pass},
		{"both admit 3.x", "~> 3.0", ">= 3.0", Pass},
		{"the root rules it out", "~> 2.0", ">= 2.0", Skip},
		{"a module rules it out", ">= 2.0", "~> 2.99", Skip},
		{"an exact other version", ">= 3.0", "4.1.0", Skip},
		{"a constraint that does not parse", "four", ">= 3.0", Skip},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := tableAssertion(t, map[string]string{"main.tf": root(tc.root), "m/main.tf": child(tc.child)},
				"azurerm", "plan", "module.m.managed_by == null")
			if r.Status != tc.status {
				t.Fatalf("%s needing %q (%s), diagnostics %v, want %s", r.Status, r.NeedsProvider, r.SkipReason, r.Diagnostics, tc.status)
			}
			if tc.status == Skip && r.NeedsProvider != "hashicorp/azurerm" {
				t.Errorf("needs %q (%s), want hashicorp/azurerm", r.NeedsProvider, r.SkipReason)
			}
		})
	}
}

// TestTableVersionChosen: of a provider's tables, the newest whose version
// the configuration admits decides: aws "~> 6.0" gets the 6.47.0 table,
// in which data.aws_region has a computed region (generated once
// applied); "~> 5.0" the 5.100.0 one, without it (the run waits for the
// schema); ">= 6.48" neither.
func TestTableVersionChosen(t *testing.T) {
	for _, tc := range []struct {
		version string
		status  Status
	}{
		{"~> 6.0", Pass},
		{">= 5.0", Pass},
		{"~> 5.0", Skip},
		{">= 6.48", Skip},
	} {
		t.Run(tc.version, func(t *testing.T) {
			main := fmt.Sprintf(`terraform {
  required_providers {
    aws = { source = "hashicorp/aws", version = %q }
  }
}
data "aws_region" "x" {}
`, tc.version)
			r := tableAssertion(t, map[string]string{"main.tf": main}, "aws", "apply", `data.aws_region.x.region != ""`)
			if r.Status != tc.status {
				t.Fatalf("%s needing %q (%s), diagnostics %v, want %s", r.Status, r.NeedsProvider, r.SkipReason, r.Diagnostics, tc.status)
			}
		})
	}
}

// TestAzurermTableVersions: a configuration asking for azurerm "~> 3.0"
// gets the 3.116.0 table (before, its runs waited for the schema), in
// which a storage account's enable_https_traffic_only and
// https_traffic_only_enabled are computed: unknown in the plan, generated
// once applied; one asking for ">= 4" still gets the 4.79.0 table, in
// which only the second exists, not computed: null when not set.
func TestAzurermTableVersions(t *testing.T) {
	const account = `resource "azurerm_storage_account" "x" {
  name                     = "sa"
  resource_group_name      = "rg"
  location                 = "westeurope"
  account_tier             = "Standard"
  account_replication_type = "LRS"
}`
	for _, tc := range []struct {
		version, command, condition string
		status                      Status
	}{
		{"~> 3.0", "apply", `azurerm_storage_account.x.enable_https_traffic_only == false && azurerm_storage_account.x.https_traffic_only_enabled == false && azurerm_storage_account.x.primary_blob_endpoint != ""`, Pass},
		{"~> 3.0", "plan", `azurerm_storage_account.x.https_traffic_only_enabled == null`, Error},
		{">= 3.0, < 4.0", "apply", `azurerm_storage_account.x.min_tls_version == null && length(azurerm_storage_account.x.network_rules) == 0`, Pass},
		{">= 4", "apply", `azurerm_storage_account.x.https_traffic_only_enabled == null && azurerm_storage_account.x.primary_blob_endpoint != ""`, Pass},
		{"~> 4.0", "plan", `azurerm_storage_account.x.https_traffic_only_enabled == null`, Pass},
	} {
		t.Run(tc.version+" "+tc.command, func(t *testing.T) {
			main := fmt.Sprintf(`terraform {
  required_providers {
    azurerm = { source = "hashicorp/azurerm", version = %q }
  }
}
%s
`, tc.version, account)
			r := tableAssertion(t, map[string]string{"main.tf": main}, "azurerm", tc.command, tc.condition)
			if r.Status != tc.status {
				t.Fatalf("%s needing %q (%s), diagnostics %v, want %s", r.Status, r.NeedsProvider, r.SkipReason, r.Diagnostics, tc.status)
			}
			if tc.status == Error && (len(r.Diagnostics) != 1 || r.Diagnostics[0].Summary != "Unknown condition value") {
				t.Errorf("diagnostics %v, want one Unknown condition value", r.Diagnostics)
			}
		})
	}
}
