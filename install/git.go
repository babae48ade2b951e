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
	"strconv"
	"strings"
	"sync/atomic"
	"time"
)

// Git sources are fetched with the git binary, as Terraform and OpenTofu
// fetch them: the user's git configuration, credential helpers, SSH
// agent and known_hosts then work as they do for those tools, and the
// library does without go-git's large dependency tree. See doc.go.

// commitID reports whether s is a full commit hash: 40 or 64 lower-case
// hexadecimal digits. It and shortCommit are checked byte by byte rather
// than with regular expressions (kept in git_test.go), whose counted
// repetitions every process compiled at start.
func commitID(s string) bool {
	return (len(s) == 40 || len(s) == 64) && lowerHex(s)
}

// shortCommit reports whether s may be an abbreviated commit hash: 7 to
// 64 lower-case hexadecimal digits.
func shortCommit(s string) bool {
	return len(s) >= 7 && len(s) <= 64 && lowerHex(s)
}

// lowerHex reports whether every byte of s is 0-9 or a-f.
func lowerHex(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}

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

// maxGitOutput bounds what tfeval reads of one git command's output (a
// repository that lists millions of refs, a tree of millions of files).
const maxGitOutput = 16 << 20

// runGit runs one git command; dir is where it runs, watch (when not "")
// a directory whose size and number of files are held to the package
// limits while it runs. The command ends with the installation's context,
// after the request timeout, or once its output passes maxGitOutput.
func (f *fetcher) runGit(dir, watch string, args ...string) (string, error) {
	ctx, cancel := context.WithCancel(f.ctx)
	defer cancel()
	if f.timeout > 0 {
		ctx, cancel = context.WithTimeout(ctx, f.timeout)
		defer cancel()
	}
	sub := args[0]
	args = append([]string{"-c", "protocol.ext.allow=never", "-c", "core.hooksPath=/dev/null", "-c", "advice.detachedHead=false"}, args...)
	cmd := exec.CommandContext(ctx, f.git, args...)
	cmd.Dir = dir
	cmd.Env = f.gitEnv()
	stdout := &cappedBuffer{max: maxGitOutput, full: cancel}
	var stderr cappedBuffer
	stderr.max = 1 << 20
	cmd.Stdout, cmd.Stderr = stdout, &stderr
	setProcessGroup(cmd)
	cmd.WaitDelay = 10 * time.Second
	var tooBig atomic.Value // the limit a watched directory passed
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
					if err := f.checkGrowing(watch); err != nil {
						tooBig.Store(err)
						cancel()
						return
					}
				}
			}
		}()
	}
	err := cmd.Run()
	close(done)
	if e, ok := tooBig.Load().(error); ok {
		return "", e
	}
	if stdout.over {
		return "", fmt.Errorf("the answer of git %s is larger than %s", sub, sizeText(maxGitOutput))
	}
	if err != nil {
		if errors.Is(err, exec.ErrNotFound) {
			return "", fmt.Errorf("git is needed to install this module and was not found (%s)", f.git)
		}
		if f.ctx.Err() != nil {
			return "", fmt.Errorf("git was stopped: %w", f.ctx.Err())
		}
		if ctx.Err() != nil {
			return "", fmt.Errorf("git %s did not finish within %s", sub, f.timeout)
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

// checkGrowing reports the package limit a directory being written has
// passed: its files' bytes or their number. The walk stops at the limit.
func (f *fetcher) checkGrowing(dir string) error {
	var size int64
	files := 0
	var over error
	filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if files++; files > f.maxFile {
			over = fmt.Errorf("the repository has more than %d files and directories", f.maxFile)
			return filepath.SkipAll
		}
		if d.Type().IsRegular() {
			if info, err := d.Info(); err == nil {
				if size += info.Size(); size > f.maxSize {
					over = fmt.Errorf("the repository is larger than the limit of %s", sizeText(f.maxSize))
					return filepath.SkipAll
				}
			}
		}
		return nil
	})
	return over
}

// cappedBuffer keeps at most max bytes of what is written to it; past
// them it notes it, calls full (which stops the writer), and drops the
// rest. It has Write alone: a bytes.Buffer's ReadFrom would let io.Copy
// read past the cap.
type cappedBuffer struct {
	buf  bytes.Buffer
	max  int
	over bool
	full func()
}

func (b *cappedBuffer) Write(p []byte) (int, error) {
	if b.buf.Len()+len(p) > b.max {
		if !b.over && b.full != nil {
			b.full()
		}
		b.over = true
		return len(p), nil
	}
	return b.buf.Write(p)
}

func (b *cappedBuffer) String() string { return b.buf.String() }

// resolveRef asks the repository which commit a ref names (HEAD when
// ref is ""); "" when it names none, as an abbreviated commit does not.
func (f *fetcher) resolveRef(s *source, workDir string) (string, error) {
	if commitID(s.ref) {
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
	if shortCommit(s.ref) {
		return "", nil
	}
	return "", fmt.Errorf("the repository has no branch or tag named %q", s.ref)
}

// cloneGit clones the repository into dst (which must not exist), checks
// out the ref, fetches submodules, and drops the .git directory: the
// package is the work tree. It returns the commit checked out. The
// clone is made without a work tree, which is written only once the
// tree's listing shows it within the package limits: a repository of a
// few kilobytes can name millions of files.
func (f *fetcher) cloneGit(s *source, dst string) (string, error) {
	parent := filepath.Dir(dst)
	args := []string{"clone", "--quiet", "--no-checkout"}
	commit := s.ref != "" && shortCommit(s.ref)
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
	target := "HEAD"
	if commit {
		target = s.ref
	}
	if err := f.checkTreeListing(dst, target); err != nil {
		return "", err
	}
	if _, err := f.runGit(dst, dst, "checkout", "--quiet", "--detach", target); err != nil {
		return "", err
	}
	if _, err := os.Stat(filepath.Join(dst, ".gitmodules")); err == nil {
		f.requests++
		// A submodule's URL is the repository's to choose: no file://
		// ones (git allows them only when asked by the user anyway).
		if _, err := f.runGit(dst, dst, "-c", "protocol.file.allow=never", "submodule", "update", "--init", "--recursive", "--quiet"); err != nil {
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

// checkTreeListing refuses a commit whose tree, as git lists it, holds
// more entries or more bytes than a package may.
func (f *fetcher) checkTreeListing(repo, rev string) error {
	out, err := f.runGit(repo, "", "ls-tree", "-r", "-t", "-l", "-z", rev, "--")
	if err != nil {
		return err
	}
	var total int64
	for i, entry := range strings.Split(strings.TrimSuffix(out, "\x00"), "\x00") {
		if entry == "" {
			continue
		}
		if i >= f.maxFile {
			return fmt.Errorf("the repository has more than %d files and directories", f.maxFile)
		}
		// "MODE TYPE OBJECT SIZE\tPATH", SIZE "-" for trees and submodules.
		meta, _, _ := strings.Cut(entry, "\t")
		fields := strings.Fields(meta)
		if len(fields) == 4 {
			if n, err := strconv.ParseInt(fields[3], 10, 64); err == nil {
				if total += n; total > f.maxSize {
					return fmt.Errorf("the repository is larger than the limit of %s", sizeText(f.maxSize))
				}
			}
		}
	}
	return nil
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
