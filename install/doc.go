// Package install installs the module sources of a configuration the way
// `terraform init` does, without providers: every module call of the
// tree, recursively, and the module blocks of the test files' run blocks
// (Options.TestModules, under the keys the test command looks them up
// by), into .terraform/modules/KEY of the root module, with a
// modules.json that Terraform, OpenTofu and package config read as their
// own. Nothing else in tfeval touches the network; this package
// does only when Modules is called.
//
// Sources (source.go): local paths (read in place, recorded only),
// module registry addresses (registry.go: service discovery, version
// listing, the X-Terraform-Get download location, TF_TOKEN_<host> and
// CLI configuration credentials in credentials.go, the CLI configuration's
// host blocks in hosts.go), git (git.go:
// git::https, git::ssh, git::file, user@host:path, github.com/ORG/REPO,
// ?ref=, ?depth=), HTTP(S) archives and pages naming their location
// (http.go, archive.go: zip, tar, tar.gz, tar.bz2, ?archive=) and
// absolute paths, each with an optional //SUBDIR (* patterns allowed).
// The OpenTofu dialect's default registry is registry.opentofu.org.
// Versions are chosen as Terraform chooses them (version.go): the newest
// that satisfies the constraint, a pre-release only when named exactly.
//
// Git is run as the git binary, not through go-git: Terraform and OpenTofu
// do the same, so a user's git configuration, credential helpers, SSH
// agent and known_hosts behave as they do for those tools, and the library
// keeps a small go.mod (go-git would bring some twenty modules). The
// binary is needed only for git sources; a missing one is a diagnostic.
// Git runs without prompts, without hooks, with the ext transport
// refused, and is killed (with its helpers) past the size limit.
//
// A shared cache (Options.CacheDir, cache.go) keeps every fetched package
// by content hash, with small ref files naming the content of a registry
// module version, a git commit or an archive URL; later runs and other
// root modules copy from it instead of downloading. A second run in the
// same root keeps what modules.json says is installed and still satisfies
// each call, without any request; Offline installs from the cache alone.
//
// Untrusted input is expected: archive entries with absolute names or
// "..", symbolic links (in archives and repositories) that resolve
// outside the package or to nothing, special files, packages beyond a
// size or file-count limit, redirect loops and registries answering
// garbage are each a diagnostic naming the module call and its source
// range. Downloads are staged under .terraform/modules and moved into
// place, so nothing is written outside the install directory and the
// cache; a .terraform that is a symbolic link is refused.
package install
