// Package tfvars collects and prepares values for input variables exactly as
// terraform plan does, without running Terraform.
//
// Values come, lowest precedence first, from TF_VAR_<name> environment
// variables, terraform.tfvars, terraform.tfvars.json, *.auto.tfvars and
// *.auto.tfvars.json in lexical order, then -var and -var-file options in
// command-line order, then Go API overrides. Collect gathers them into raw
// Values that remember where they came from (Source); Prepare turns one raw
// value into the variable's final value the way Terraform core does (type
// defaults, conversion, nullability, sensitive and ephemeral marks); Resolve
// does both for a whole root module with Terraform's error staging; Describe
// lists the result for `tfeval vars`.
//
// Module authors testing a module from Go build raw values with FromCty,
// FromGo, FromHCL or FromString and pass them to Prepare.
//
// Custom validation blocks are not checked here: the evaluator does that,
// because conditions may refer to other objects.
package tfvars
