locals {
  a = local.missing
}
