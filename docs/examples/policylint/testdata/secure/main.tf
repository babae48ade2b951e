variable "public" {
  default = false
}

resource "mock_bucket" "site" {
  acl = var.public ? "public-read" : "private"
}

resource "mock_firewall" "web" {
  ingress {
    port        = 443
    cidr_blocks = [var.public ? "0.0.0.0/0" : "10.0.0.0/8"]
  }
}
