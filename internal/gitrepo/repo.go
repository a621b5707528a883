// Package gitrepo is git-memcite's access to git: it finds the repository,
// reads configuration, and offers the index and commits as source.Source
// views. Worktree-only runs never open the object database.
package gitrepo

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"

	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"

	"github.com/git-memcite/git-memcite/internal/trace"
)

// ErrNotRepo is returned when no git repository contains the directory.
var ErrNotRepo = errors.New("not a git repository (or any of the parent directories)")

// Repo is a git repository with a working tree.
type Repo struct {
	Top       string // working tree root (absolute)
	GitDir    string // this worktree's git dir (absolute)
	CommonDir string // the shared git dir (absolute)

	once sync.Once
	repo *git.Repository
	err  error
}

// Discover finds the repository containing dir, the way git does: GIT_DIR
// (with GIT_WORK_TREE or the current directory as the top) when set, else
// the nearest parent with a .git directory or gitfile.
func Discover(dir string) (*Repo, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	if gd := os.Getenv("GIT_DIR"); gd != "" {
		top := os.Getenv("GIT_WORK_TREE")
		if top == "" {
			top = abs
		}
		return newRepo(absFrom(top, abs), absFrom(gd, abs))
	}
	for d := abs; ; {
		p := filepath.Join(d, ".git")
		if fi, err := os.Stat(p); err == nil {
			if fi.IsDir() {
				return newRepo(d, p)
			}
			gd, err := readGitfile(p)
			if err != nil {
				return nil, err
			}
			return newRepo(d, gd)
		}
		parent := filepath.Dir(d)
		if parent == d {
			return nil, fmt.Errorf("%s: %w", abs, ErrNotRepo)
		}
		d = parent
	}
}

func absFrom(p, base string) string {
	if filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	return filepath.Join(base, p)
}

func readGitfile(p string) (string, error) {
	b, err := os.ReadFile(p)
	if err != nil {
		return "", fmt.Errorf("read %s: %w", p, err)
	}
	line := strings.TrimSpace(string(b))
	rest, ok := strings.CutPrefix(line, "gitdir:")
	if !ok {
		return "", fmt.Errorf("%s: not a gitfile", p)
	}
	return absFrom(strings.TrimSpace(rest), filepath.Dir(p)), nil
}

func newRepo(top, gitDir string) (*Repo, error) {
	r := &Repo{Top: top, GitDir: gitDir, CommonDir: gitDir}
	if b, err := os.ReadFile(filepath.Join(gitDir, "commondir")); err == nil {
		r.CommonDir = absFrom(strings.TrimSpace(string(b)), gitDir)
	}
	return r, nil
}

// Git opens the repository with go-git (once).
func (r *Repo) Git() (*git.Repository, error) {
	r.once.Do(func() {
		r.repo, r.err = git.PlainOpenWithOptions(r.Top, &git.PlainOpenOptions{EnableDotGitCommonDir: true})
		if r.err != nil {
			r.err = fmt.Errorf("open repository %s: %w", r.Top, r.err)
		}
	})
	return r.repo, r.err
}

// ResolveCommit resolves a revision (HEAD, a branch, a tag, a hash,
// HEAD~2 …) to a commit hash. It asks git itself when go-git cannot parse
// the revision.
func (r *Repo) ResolveCommit(ctx context.Context, rev string) (plumbing.Hash, error) {
	repo, err := r.Git()
	if err != nil {
		return plumbing.ZeroHash, err
	}
	if h, err := repo.ResolveRevision(plumbing.Revision(rev)); err == nil {
		if _, err := repo.CommitObject(*h); err == nil {
			return *h, nil
		}
	}
	out, err := r.Run(ctx, "rev-parse", "--verify", "--quiet", "--end-of-options", rev+"^{commit}")
	if err != nil {
		return plumbing.ZeroHash, fmt.Errorf("unknown revision %q", rev)
	}
	return plumbing.NewHash(strings.TrimSpace(out)), nil
}

// Head returns the commit HEAD points at, and false on an unborn branch.
func (r *Repo) Head() (plumbing.Hash, bool, error) {
	repo, err := r.Git()
	if err != nil {
		return plumbing.ZeroHash, false, err
	}
	ref, err := repo.Head()
	if errors.Is(err, plumbing.ErrReferenceNotFound) {
		return plumbing.ZeroHash, false, nil
	}
	if err != nil {
		return plumbing.ZeroHash, false, fmt.Errorf("read HEAD: %w", err)
	}
	return ref.Hash(), true, nil
}

// Run runs git in the top directory with the inherited environment
// (GIT_DIR, GIT_INDEX_FILE …) plus GIT_OPTIONAL_LOCKS=0, and returns stdout.
func (r *Repo) Run(ctx context.Context, args ...string) (string, error) {
	trace.Printf("run git %s", strings.Join(args, " "))
	cmd := exec.CommandContext(ctx, "git", args...)
	cmd.Dir = r.Top
	cmd.Env = append(os.Environ(), "GIT_OPTIONAL_LOCKS=0")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		msg := strings.TrimSpace(stderr.String())
		if msg == "" {
			msg = err.Error()
		}
		return stdout.String(), fmt.Errorf("git %s: %s", strings.Join(args, " "), msg)
	}
	return stdout.String(), nil
}

// ConfigAll returns every value of a git config key, with git's own rules
// (-c, includes, worktree config). A missing key is no values, no error.
func (r *Repo) ConfigAll(ctx context.Context, key string) ([]string, error) {
	out, err := r.Run(ctx, "config", "--get-all", key)
	if err != nil {
		var ee *exec.ExitError
		if errors.As(errors.Unwrap(err), &ee) || strings.Contains(err.Error(), "exit status 1") || out == "" {
			return nil, nil
		}
		return nil, err
	}
	return strings.Split(strings.TrimRight(out, "\n"), "\n"), nil
}
