// Package hookinstall installs, removes and inspects the git-memcite hook
// scripts (package hooks) in a repository's hooks directory.
//
// Every entry point returns a value describing what it found and what it
// did or would do; nothing here prints. The CLI renders those values.
//
// The hooks directory is the one git itself uses: 'git rev-parse
// --git-path hooks', which honours core.hooksPath (relative values resolve
// against each worktree's root), linked worktrees (the common directory)
// and submodules (.git/modules/<name>/hooks).
//
// An existing hook file is classified before anything is written:
//   - ours (carries the versioned marker): upgraded in place, idempotently;
//   - missing, empty, or a copy of git's sample: replaced;
//   - anything else is foreign and is refused unless the caller chose
//     ModeChain (moved to <hook>.memcite-prev, which our script runs first),
//     ModeForce (moved to <hook>.memcite-bak, then replaced) or ModeManual
//     (nothing written; snippets for the hook manager in charge).
//
// A core.hooksPath outside the repository (a global or shared directory)
// is refused unless ModeForce.
//
// Where a hook manager owns the hooks (Detect: husky through
// core.hooksPath, lefthook or pre-commit through their hook scripts or
// configuration files), git-memcite goes into the manager's configuration
// instead (route.go): lines in the .husky/<hook> scripts, commands in
// lefthook.yml, an entry in .pre-commit-config.yaml, each a block of whole
// lines spliced in without re-encoding the file (internal/yamledit), then the
// manager's own installer. ModeChain and ModeForce are refused for a
// manager's hooks, which would stop running or be rewritten over ours.
// Uninstall takes out exactly what was added. GetStatus follows each hook
// the way git runs it, through the manager's configuration, to tell
// whether git-memcite actually runs.
package hookinstall

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/git-memcite/git-memcite/internal/gitrepo"
)

// ErrBare is returned for a repository without a working tree.
var ErrBare = errors.New("bare repository: hooks for commits need a working tree")

// Repo describes where a repository keeps its hooks.
type Repo struct {
	Top       string // worktree root, absolute
	GitDir    string // this worktree's git directory, absolute
	CommonDir string // the common git directory, absolute
	HooksDir  string // the directory git runs hooks from, absolute

	// HooksPath is the raw core.hooksPath value ("" when unset) and
	// HooksPathScope the config scope it comes from (local, global,
	// system, worktree, command).
	HooksPath      string
	HooksPathScope string
	// HooksPathOutside is true when HooksDir lies outside both the
	// worktree and the git directory: hooks there run for other
	// repositories too.
	HooksPathOutside bool

	GitVersion string // "2.39.5"

	// Managers lists the other hook managers found in the repository
	// (configuration files, core.hooksPath, existing hook files).
	Managers []Manager
}

// Husky reports whether core.hooksPath is husky's directory.
func (r Repo) Husky() bool {
	p := strings.TrimRight(filepath.ToSlash(r.HooksPath), "/")
	return strings.HasSuffix(p, ".husky/_") || p == ".husky" || strings.HasSuffix(p, "/.husky")
}

// Locate resolves the hooks directory and related facts for the
// repository containing dir.
func Locate(ctx context.Context, dir string) (Repo, error) {
	// one process where there is a working tree; git refuses
	// --show-toplevel in a bare repository, and is asked again without it
	out, err := git(ctx, dir, "rev-parse", "--is-bare-repository", "--git-dir", "--git-common-dir", "--git-path", "hooks", "--show-toplevel")
	f := lines(out)
	if err != nil {
		if out, err = git(ctx, dir, "rev-parse", "--is-bare-repository", "--git-dir", "--git-common-dir", "--git-path", "hooks"); err != nil {
			return Repo{}, err
		}
		if f = lines(out); len(f) == 4 && f[0] == "true" {
			return Repo{}, ErrBare
		}
		top, err := git(ctx, dir, "rev-parse", "--show-toplevel")
		if err != nil {
			return Repo{}, err
		}
		f = append(f, strings.TrimSpace(top))
	}
	if len(f) != 5 {
		return Repo{}, fmt.Errorf("git rev-parse: unexpected output %q", out)
	}
	if f[0] == "true" {
		return Repo{}, ErrBare
	}
	r := Repo{
		Top:       realPath(f[4]),
		GitDir:    realPath(abs(dir, f[1])),
		CommonDir: realPath(abs(dir, f[2])),
		HooksDir:  realPath(abs(dir, f[3])),
	}
	if val, scope, err := gitrepo.ConfigScoped(ctx, dir, "core.hooksPath"); err == nil {
		r.HooksPath, r.HooksPathScope = val, scope
	}
	r.HooksPathOutside = !within(r.HooksDir, r.Top) && !within(r.HooksDir, r.CommonDir) && !within(r.HooksDir, r.GitDir)
	if out, err := git(ctx, dir, "version"); err == nil {
		r.GitVersion = strings.TrimPrefix(strings.TrimSpace(out), "git version ")
	}
	r.Managers = detectManagers(r)
	return r, nil
}

// git runs a git command in dir and returns its stdout.
func git(ctx context.Context, dir string, args ...string) (string, error) {
	return gitrepo.Git(ctx, dir, append([]string{"-C", dir}, args...)...)
}

func lines(s string) []string {
	return strings.Split(strings.TrimRight(s, "\n"), "\n")
}

func abs(dir, p string) string {
	if filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	if d, err := filepath.Abs(dir); err == nil {
		dir = d
	}
	return filepath.Join(dir, p)
}

// realPath resolves symlinks in p, or in its longest existing prefix, so
// that paths can be compared.
func realPath(p string) string {
	rest := ""
	for cur := p; ; {
		if r, err := filepath.EvalSymlinks(cur); err == nil {
			return filepath.Join(r, rest)
		}
		parent := filepath.Dir(cur)
		if parent == cur {
			return p
		}
		rest = filepath.Join(filepath.Base(cur), rest)
		cur = parent
	}
}

// within reports whether p is dir or below it.
func within(p, dir string) bool {
	rel, err := filepath.Rel(dir, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

func exists(p string) bool {
	_, err := os.Lstat(p)
	return err == nil
}
