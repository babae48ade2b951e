// Package providerfuncs holds the pure functions of well-known providers,
// computed as the providers compute them, so that a configuration or test
// file calling provider::LOCAL::NAME gets the value Terraform would get
// from the real provider (which Terraform runs for its functions even
// under mock_provider), with no provider installed.
//
// Lookup finds a function by the provider's source address, in whichever
// form a required_providers block writes it ("Azure/azapi",
// "registry.terraform.io/azure/azapi", "registry.opentofu.org/azure/azapi"
// are one provider), so a module naming the provider by any local name gets
// them; Names lists a provider's functions. Each function has the
// provider's signature: its parameters take neither null (a call with one
// fails as Terraform fails it, "argument must not be null") nor unknown
// values (an argument that is not wholly known gives an unknown result, as
// Terraform answers without calling the provider). Marks on the arguments
// go to the result. An error is the provider's: a plain error, which hcl
// reports as "Error in function call" (Call to function "provider::..."
// failed: TEXT.), or, where the provider blames an argument, a
// function.ArgError, reported as "Invalid function argument" (Invalid value
// for "PARAM" parameter: TEXT.), which is how Terraform and OpenTofu turn a
// provider's function errors into diagnostics.
//
// Where the provider's answer depends on something only the provider holds,
// the result is unknown and carries the Undetermined mark, never a guess.
// Functions not in the table stay with the caller (package lang gives them
// unknown stand-ins).
//
// # The functions
//
// Each provider's documentation pages give the signatures, examples and
// result attributes; where they are silent (error texts, edge cases), the
// behaviour and texts were learned from the providers' function tests and
// sources (v2.12.0 of azapi, and the arm package it vendors), and are
// written here anew.
//
// Azure/azapi (azapi.go, armid.go), as versions 2.9 to 2.12 compute them,
// from its docs/functions/*.md pages; the IDs are read as the Azure SDK for
// Go's arm package reads them (ParseResourceID and ParseResourceType, which
// the provider uses):
//
//   - parse_resource_id(resource_type, resource_id): an object of id, type,
//     name, parent_id, parts (the ID's segments in pairs, a later key
//     replacing an earlier one), provider_namespace, resource_group_id,
//     resource_group_name and subscription_id ("" where the ID has none).
//     The ID's type must equal resource_type, ignoring case, or the call
//     fails: failed to parse resource ID(resourceType: T@latest,
//     resourceId: ID): `resource_id` and `type` are not matched, expect
//     `type` to be ID_TYPE, but got T. The result's type is resource_type
//     as written. resource_group_id appeared in 2.9.
//   - build_resource_id(parent_id, resource_type, name)
//   - resource_group_resource_id(subscription_id, resource_group_name,
//     resource_type, resource_names)
//   - subscription_resource_id(subscription_id, resource_type,
//     resource_names)
//   - tenant_resource_id(resource_type, resource_names)
//   - management_group_resource_id(management_group_name, resource_type,
//     resource_names)
//   - extension_resource_id(base_resource_id, resource_type,
//     resource_names)
//
// A resource type may carry an API version (TYPE@VERSION); without one the
// provider uses "latest". For a resource type of a single name (NAMESPACE/
// TYPE) given with an explicit API version, parse_resource_id and the
// *_resource_id functions check the parent's scope against the scopes the
// provider's built-in Azure API definitions allow for that version:
// tfeval does not carry those definitions, so such a call is Undetermined
// (an error before that point, such as a type mismatch, is still reported).
// With "latest" the provider finds no definition and checks nothing, so
// the usual calls are exact. build_resource_id never checks the scope. A
// nested type (NAMESPACE/A/B) needs a parent of the enclosing type, or
// fails with "`parent_id is invalid`: expect ID of `NAMESPACE/A`".
// unique_string (ARM's uniqueString hash, whose algorithm Microsoft does
// not document) and snake2camel (whose handling of maps, lists and unusual
// keys its documentation leaves open) are not in the table.
//
// hashicorp/aws (aws.go), from the provider's website/docs/functions pages
// (arn_parse and arn_build came in 5.40, user_agent in 6.27);
// ARNs are read as the AWS SDK for Go's arn.Parse reads them
// (arn:PARTITION:SERVICE:REGION:ACCOUNT:RESOURCE, the resource keeping any
// further colons; "arn: invalid prefix", "arn: not enough sections"):
//
//   - arn_parse(arn): an object of partition, service, region, account_id
//     and resource.
//   - arn_build(partition, service, region, account_id, resource)
//   - trim_iam_role_path(arn): the role ARN without its path; the ARN must
//     be of service "iam", with no region and a resource "role/...".
//   - user_agent(product_name, product_version, comment): NAME/VERSION
//     (COMMENT), the empty parts left out; product_name must be set.
//
// iam_policy_split and iam_statements_distribute are not in the table.
//
// hashicorp/google and hashicorp/google-beta (google.go), from the
// provider's website/docs/functions pages: each *_from_id function takes a
// resource's ID, self link or full resource name and returns the first
// element after locations/, projects/, regions/ or zones/ that a "/"
// follows, or the last segment (name_from_id); without one the argument is
// invalid: The input string "ID" doesn't contain the expected pattern
// "locations/{location}/".
//
//   - location_from_id(id), name_from_id(id), project_from_id(id),
//     region_from_id(id), zone_from_id(id)
//   - region_from_zone(zone): the zone without its last "-" part
//     ("us-central1-b" is in "us-central1"); an empty zone or one of fewer
//     than three parts is invalid.
//
// hashicorp/assert (assert.go), as version 0.16 computes its checks, from
// its docs/functions pages and function tests; each answers a bool:
//
//   - cidr(prefix), cidrv4(prefix), cidrv6(prefix), ip(ip_address),
//     ipv4(ip_address), ipv6(ip_address): whether the string parses as Go's
//     net.ParseCIDR or net.ParseIP parses it, of that family (an IPv4
//     address written in its IPv6 form is IPv4); a string that does not
//     parse is false.
//   - empty(s), not_empty(s): whether s is "" (blanks are not empty);
//     starts_with(prefix, string), ends_with(suffix, string).
//   - lowercased(string), uppercased(string): whether no letter is of the
//     other case (a string without letters is both).
//   - regex(pattern, s): whether Go's regexp finds pattern anywhere in s;
//     a pattern it cannot compile fails with regexp's message.
//   - valid_json(json): true for a JSON object; anything else (an array
//     too) fails with encoding/json's message, never false.
//   - equal(compare_against, number), not_equal(compare_against, number),
//     greater(compare_against, number),
//     greater_or_equal(compare_against, number),
//     less(compare_against, number), less_or_equal(compare_against,
//     number): number compared with compare_against (greater(100, x) is
//     x > 100); between(begin, end, number), both ends included;
//     positive(number), negative(number), zero being neither.
//   - true(bool), false(bool); null(argument), not_null(argument), of any
//     type, null allowed.
//   - contains(list, element), key(key, map), value(value, map): the list
//     and map are of strings, numbers and bools converted as Terraform
//     converts them to the parameter's type.
//
// expired (which depends on the clock), valid_yaml (on the YAML reader's
// leniency) and the http_* checks (on the list of named status codes of the
// Go release the provider is built with) are not in the table.
//
// # Versions and schemas
//
// The table follows the newest releases named above. A caller given the
// provider's schema (terraform providers schema -json) should use a
// table function only where the schema lists it with the same signature,
// and otherwise keep to the schema: another signature is another version
// of the provider, whose answers the table does not know.
package providerfuncs
