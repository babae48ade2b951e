package install

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync/atomic"
	"time"
)

// Git sources are fetched with the git binary, as Terraform and OpenTofu
// fetch them: the user's git configuration, credential helpers, SSH
// agent and known_hosts then work as they do for those tools, and the
// library does without go-git's large dependency tree. See doc.go.

// commitID is a full commit hash.
var commitID = regexp.MustCompile(`^[0-9a-f]{40}([0-9a-f]{24})?$`)

// shortCommit is what may be an abbreviated commit hash.
var shortCommit = regexp.MustCompile(`^[0-9a-f]{7,64}$`)

// gitEnv is the environment git runs in: Options.Env (the process's
// when that is nil, since git and ssh need PATH and HOME), without prompts.
func (f *fetcher) gitEnv() []string {
	base := f.env
	if base == nil {
		base = os.Environ()
	}
	env := append([]string(nil), base...)
	env = append(env, "GIT_TERMINAL_PROMPT=0", "GCM_INTERACTIVE=never")
	if lookup(base, "GIT_SSH_COMMAND") == "" && lookup(base, "GIT_SSH") == "" {
		env = append(env, "GIT_SSH_COMMAND=ssh -o BatchMode=yes")
	}
	return env
}

// runGit runs one git command; dir is where it runs, watch (when not "")
// a directory whose size is held to f.maxSize while it runs.
func (f *fetcher) runGit(dir, watch string, args ...string) (string, error) {
	ctx, cancel := context.WithCancel(f.ctx)
	defer cancel()
	sub := args[0]
	args = append([]string{"-c", "protocol.ext.allow=never", "-c", "core.hooksPath=/dev/null", "-c", "advice.detachedHead=false"}, args...)
	cmd := exec.CommandContext(ctx, f.git, args...)
	cmd.Dir = dir
	cmd.Env = f.gitEnv()
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	setProcessGroup(cmd)
	cmd.WaitDelay = 10 * time.Second
	var tooBig atomic.Bool
	done := make(chan struct{})
	if watch != "" {
		go func() {
			t := time.NewTicker(100 * time.Millisecond)
			defer t.Stop()
			for {
				select {
				case <-done:
					return
				case <-t.C:
					if dirSize(watch) > f.maxSize {
						tooBig.Store(true)
						cancel()
						return
					}
				}
			}
		}()
	}
	err := cmd.Run()
	close(done)
	if tooBig.Load() {
		return "", fmt.Errorf("the repository is larger than the limit of %s", sizeText(f.maxSize))
	}
	if err != nil {
		if errors.Is(err, exec.ErrNotFound) {
			return "", fmt.Errorf("git is needed to install this module and was not found (%s)", f.git)
		}
		if f.ctx.Err() != nil {
			return "", fmt.Errorf("git was stopped: %w", f.ctx.Err())
		}
		msg := strings.TrimSpace(stderr.String())
		if len(msg) > 2000 {
			msg = msg[len(msg)-2000:]
		}
		if msg == "" {
			msg = err.Error()
		}
		return "", fmt.Errorf("git %s failed: %s", sub, msg)
	}
	return stdout.String(), nil
}

// dirSize adds up the sizes of the files under dir.
func dirSize(dir string) int64 {
	var n int64
	filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			if info, err := d.Info(); err == nil {
				n += info.Size()
			}
		}
		return nil
	})
	return n
}

// resolveRef asks the repository which commit a ref names (HEAD when
// ref is ""); "" when it names none, as an abbreviated commit does not.
func (f *fetcher) resolveRef(s *source, workDir string) (string, error) {
	if commitID.MatchString(s.ref) {
		return s.ref, nil
	}
	want := s.ref
	if want == "" {
		want = "HEAD"
	}
	f.requests++
	out, err := f.runGit(workDir, "", "ls-remote", "--", s.url, want)
	if err != nil {
		return "", err
	}
	found := map[string]string{}
	for _, line := range strings.Split(out, "\n") {
		id, name, ok := strings.Cut(strings.TrimSpace(line), "\t")
		if ok {
			found[name] = id
		}
	}
	for _, name := range []string{want, "refs/heads/" + want, "refs/tags/" + want + "^{}", "refs/tags/" + want} {
		if id, ok := found[name]; ok {
			return id, nil
		}
	}
	if shortCommit.MatchString(s.ref) {
		return "", nil
	}
	return "", fmt.Errorf("the repository has no branch or tag named %q", s.ref)
}

// cloneGit clones the repository into dst (which must not exist), checks
// out the ref, fetches submodules, and drops the .git directory: the
// package is the work tree. It returns the commit checked out.
func (f *fetcher) cloneGit(s *source, dst string) (string, error) {
	parent := filepath.Dir(dst)
	args := []string{"clone", "--quiet"}
	commit := s.ref != "" && shortCommit.MatchString(s.ref)
	if s.depth > 0 && !commit {
		args = append(args, "--depth", fmt.Sprint(s.depth))
	}
	if s.ref != "" && !commit {
		args = append(args, "--branch", s.ref)
	}
	args = append(args, "--", s.url, dst)
	f.requests++
	if _, err := f.runGit(parent, dst, args...); err != nil {
		// A hexadecimal ref may be a branch after all.
		return "", err
	}
	if commit {
		if _, err := f.runGit(dst, dst, "checkout", "--quiet", "--detach", s.ref); err != nil {
			return "", err
		}
	}
	if _, err := os.Stat(filepath.Join(dst, ".gitmodules")); err == nil {
		f.requests++
		if _, err := f.runGit(dst, dst, "submodule", "update", "--init", "--recursive", "--quiet"); err != nil {
			return "", err
		}
	}
	out, err := f.runGit(dst, "", "rev-parse", "HEAD")
	if err != nil {
		return "", err
	}
	if err := removeGitDirs(dst); err != nil {
		return "", err
	}
	return strings.TrimSpace(out), nil
}

// removeGitDirs removes .git directories and files (submodules have the
// latter) from a checked-out tree.
func removeGitDirs(root string) error {
	var gits []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.Name() == ".git" {
			gits = append(gits, p)
			if d.IsDir() {
				return filepath.SkipDir
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	for _, g := range gits {
		if err := os.RemoveAll(g); err != nil {
			return err
		}
	}
	return nil
}
