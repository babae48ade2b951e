project = "shop"

network = {
  cidr    = "10.20.0.0/16"
  subnets = 3
  tags    = { Owner = "platform" }
}

servers = {
  web = { public = true, replicas = 2 }
  api = { size = "medium" }
}
