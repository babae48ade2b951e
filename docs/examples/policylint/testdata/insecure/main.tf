variable "public" {
  default = true
}

variable "open_ports" {
  default = [22, 443]
}

resource "mock_bucket" "logs" {
  acl = "private"
}

resource "mock_bucket" "site" {
  acl = var.public ? "public-read" : "private"
}

resource "mock_firewall" "web" {
  ingress {
    port        = 80
    cidr_blocks = ["10.0.0.0/8"]
  }

  dynamic "ingress" {
    for_each = var.open_ports
    content {
      port        = ingress.value
      cidr_blocks = ["10.1.0.0/16", "0.0.0.0/0"]
    }
  }
}
