package install

import (
	"strings"
	"testing"

	"github.com/tfeval/tfeval/dialect"
)

func TestParseSource(t *testing.T) {
	tests := []struct {
		addr    string
		d       dialect.Dialect
		kind    kind
		url     string // url, or the registry address
		ref     string
		depth   int
		subdir  string
		text    string
		archive string
		err     string
	}{
		{addr: "./modules/a", kind: localKind, url: "./modules/a", text: "./modules/a"},
		{addr: "../x", kind: localKind, url: "../x", text: "../x"},
		{addr: "hashicorp/consul/aws", kind: registryKind, url: "registry.terraform.io/hashicorp/consul/aws", text: "registry.terraform.io/hashicorp/consul/aws"},
		{addr: "hashicorp/consul/aws", d: dialect.Tofu, kind: registryKind, url: "registry.opentofu.org/hashicorp/consul/aws", text: "registry.opentofu.org/hashicorp/consul/aws"},
		{addr: "app.terraform.io/corp/k8s/azurerm//modules/x", kind: registryKind, url: "app.terraform.io/corp/k8s/azurerm", subdir: "modules/x", text: "app.terraform.io/corp/k8s/azurerm//modules/x"},
		{addr: "Registry.Example.com:8443/a/b/c", kind: registryKind, url: "registry.example.com:8443/a/b/c", text: "registry.example.com:8443/a/b/c"},
		{addr: "github.com/hashicorp/example", kind: gitKind, url: "https://github.com/hashicorp/example.git", text: "git::https://github.com/hashicorp/example.git"},
		{addr: "github.com/hashicorp/example//sub?ref=v1.2.0", kind: gitKind, url: "https://github.com/hashicorp/example.git", ref: "v1.2.0", subdir: "sub", text: "git::https://github.com/hashicorp/example.git//sub?ref=v1.2.0"},
		{addr: "git@github.com:hashicorp/example.git", kind: gitKind, url: "ssh://git@github.com/hashicorp/example.git", text: "git::ssh://git@github.com/hashicorp/example.git"},
		{addr: "git::https://example.com/vpc.git?ref=v1.2.0&depth=1", kind: gitKind, url: "https://example.com/vpc.git", ref: "v1.2.0", depth: 1, text: "git::https://example.com/vpc.git?ref=v1.2.0&depth=1"},
		{addr: "git::ssh://username@example.com/storage.git//modules/s3", kind: gitKind, url: "ssh://username@example.com/storage.git", subdir: "modules/s3", text: "git::ssh://username@example.com/storage.git//modules/s3"},
		{addr: "git::username@example.com:storage.git", kind: gitKind, url: "ssh://username@example.com/storage.git", text: "git::ssh://username@example.com/storage.git"},
		{addr: "git::file:///srv/repo.git?ref=main", kind: gitKind, url: "file:///srv/repo.git", ref: "main", text: "git::file:///srv/repo.git?ref=main"},
		{addr: "https://example.com/vpc-module.zip", kind: httpKind, url: "https://example.com/vpc-module.zip", archive: "zip", text: "https://example.com/vpc-module.zip"},
		{addr: "https://example.com/vpc-module?archive=tgz", kind: httpKind, url: "https://example.com/vpc-module", archive: "tar.gz", text: "https://example.com/vpc-module?archive=tgz"},
		{addr: "https://example.com/m.tar.gz//sub/*", kind: httpKind, url: "https://example.com/m.tar.gz", archive: "tar.gz", subdir: "sub/*", text: "https://example.com/m.tar.gz//sub/*"},
		{addr: "https://example.com/page", kind: httpKind, url: "https://example.com/page", text: "https://example.com/page"},
		{addr: "/srv/modules/vpc", kind: fileKind, url: "/srv/modules/vpc", text: "/srv/modules/vpc"},
		{addr: "hg::http://example.com/vpc.hg", err: "not supported"},
		{addr: "s3::https://s3-eu-west-1.amazonaws.com/bucket/vpc.zip", err: "not supported"},
		{addr: "gcs::https://www.googleapis.com/storage/v1/modules/foo.zip", err: "not supported"},
		{addr: "bogus::https://x", err: "not a source type"},
		{addr: "ftp://example.com/x.zip", err: "scheme"},
		{addr: "modules/a", err: "neither a local path"},
		{addr: "a/b/c/d/e", err: "neither a local path"},
		{addr: "git::https://example.com/x.git//../..", err: "leaves the package"},
		{addr: "git::https://example.com/x.git?ref=-upload-pack=evil", err: "ref"},
		{addr: "git::https://example.com/x.git?sshkey=abc", err: "sshkey"},
		{addr: "git::example.com:22/x.git", err: "must start with"},
		{addr: "git::git@example.com:22/x.git", err: "port number"},
		{addr: "git::ftp://example.com/x.git", err: "must start with"},
		{addr: "github.com/hashicorp", err: "must name a repository"},
	}
	for _, tt := range tests {
		t.Run(tt.addr, func(t *testing.T) {
			s, err := parseSource(tt.addr, tt.d)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("err = %v, want %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			url := s.url
			if s.kind == registryKind {
				url = s.registryAddr()
			}
			if s.kind != tt.kind || url != tt.url || s.ref != tt.ref || s.depth != tt.depth || s.subdir != tt.subdir || s.text != tt.text || s.archive != tt.archive {
				t.Errorf("got kind %d url %q ref %q depth %d subdir %q text %q archive %q", s.kind, url, s.ref, s.depth, s.subdir, s.text, s.archive)
			}
		})
	}
}
