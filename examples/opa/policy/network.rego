# A policy over the plan document `terraform show -json` writes, as a
# conftest or OPA policy reads it: input is the whole document.
package tfeval.network

import rego.v1

# Every resource instance the plan creates.
creates contains rc.address if {
	some rc in input.resource_changes
	"create" in rc.change.actions
}

# Subnets must hold at least 128 addresses.
deny contains msg if {
	some rc in input.resource_changes
	rc.type == "terraform_data"
	size := rc.change.after.input.size
	size < 128
	msg := sprintf("%s: subnet of %d addresses, fewer than 128", [rc.address, size])
}

# Every tagged resource names its owner.
deny contains msg if {
	some rc in input.resource_changes
	tags := rc.change.after.input.tags
	not tags.Owner
	msg := sprintf("%s: no Owner tag", [rc.address])
}

# Outputs known only after apply, in whole or in part.
warn contains msg if {
	some name, oc in input.output_changes
	oc.after_unknown != false
	msg := sprintf("output %s is known only after apply", [name])
}

# The name the configuration was given.
name := input.variables.name.value
