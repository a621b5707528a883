package gitrepo

import (
	"context"
	"fmt"
	"os"
	"sort"
	"strings"

	"github.com/go-git/go-git/v5/plumbing/filemode"

	"github.com/git-memcite/git-memcite/internal/source"
	"github.com/git-memcite/git-memcite/internal/trace"
)

// StagedPaths lists the paths where the index being committed (the one
// GIT_INDEX_FILE names, as git sets it for commit hooks, or the
// worktree's own) differs from HEAD, sorted: added, modified, deleted,
// type-changed, and both sides of a rename (renames are not detected, so
// a renamed file is its old path deleted and its new path added). A
// submodule whose recorded commit changes is its path. One 'git
// diff-index --cached' against HEAD; nothing is written. It fails when
// there is no HEAD.
func (r *Repo) StagedPaths(ctx context.Context) ([]string, error) {
	return r.ChangedSince(ctx, "HEAD")
}

// ChangedSince is StagedPaths against base, a commit or tree, instead of
// HEAD.
func (r *Repo) ChangedSince(ctx context.Context, base string) ([]string, error) {
	c := r.cmd()
	if os.Getenv("GIT_INDEX_FILE") != "" {
		// the index Index reads, whatever directory a relative name meant
		c.Env = []string{"GIT_INDEX_FILE=" + r.IndexPath()}
	}
	out, err := c.Run(ctx, "diff-index", "--cached", "-z", "--name-only", "--no-renames", "--ignore-submodules=none", base, "--")
	if err != nil {
		return nil, fmt.Errorf("paths staged against %s: %w", base, err)
	}
	return sortedNames(out), nil
}

// sortedNames splits git's -z --name-only output, sorted.
func sortedNames(out []byte) []string {
	var paths []string
	for _, p := range strings.Split(string(out), "\x00") {
		if p != "" {
			paths = append(paths, p)
		}
	}
	sort.Strings(paths)
	return paths
}

// ChangedBetween lists the paths where the trees of the commits old and
// new differ, sorted, as StagedPaths lists them (no rename detection, a
// submodule's path when its recorded commit changes), as 'git diff-tree'
// does: in-process where objects are read in-process (only the trees
// that differ are read), else with git.
func (r *Repo) ChangedBetween(ctx context.Context, old, new OID) ([]string, error) {
	if paths, ok := r.commitDiff(ctx, old, new); ok {
		trace.Printf("%s against %s: %d paths differ (in-process)", old.Short(), new.Short(), len(paths))
		return paths, nil
	}
	return r.changedBetweenGit(ctx, old, new)
}

// TreesChanged lists the paths where the trees a and b differ, as
// ChangedBetween lists them for two commits.
func (r *Repo) TreesChanged(ctx context.Context, a, b OID) ([]string, error) {
	if paths, ok := r.treeDiff(a, b); ok {
		trace.Printf("tree %s against tree %s: %d paths differ (in-process)", a.Short(), b.Short(), len(paths))
		return paths, nil
	}
	return r.changedBetweenGit(ctx, a, b)
}

// changedBetweenGit is ChangedBetween by git diff-tree (of two commits or
// two trees).
func (r *Repo) changedBetweenGit(ctx context.Context, old, new OID) ([]string, error) {
	out, err := r.cmd().Run(ctx, "diff-tree", "-r", "-z", "--name-only", "--no-renames", "--ignore-submodules=none", "--no-commit-id", string(old), string(new), "--")
	if err != nil {
		return nil, fmt.Errorf("paths changed from %s to %s: %w", old.Short(), new.Short(), err)
	}
	return sortedNames(out), nil
}

// Symlinks lists the symbolic links of an index or commit source this
// package returned (Index, Commit, CommitFiles), sorted; ok is false for
// any other source (a working tree), whose links it cannot list cheaply.
func Symlinks(src source.Source) (links []string, ok bool) {
	return withMode(src, filemode.Symlink)
}

// Gitlinks lists the submodules (gitlinks) of an index or commit source
// this package returned, sorted; ok is false for any other source.
func Gitlinks(src source.Source) (links []string, ok bool) {
	return withMode(src, filemode.Submodule)
}

func withMode(src source.Source, mode filemode.FileMode) (paths []string, ok bool) {
	t, ok := src.(*table)
	if !ok {
		return nil, false
	}
	for _, e := range t.entries {
		if e.mode == mode {
			paths = append(paths, e.path)
		}
	}
	return paths, true
}

// Stage adds the working-tree content of paths (repository-relative) to
// the index being committed (git add), as the pre-commit hook's fix mode
// needs: the index GIT_INDEX_FILE names in a hook, else the repository's.
func (r *Repo) Stage(ctx context.Context, paths []string) error {
	if len(paths) == 0 {
		return nil
	}
	c := r.cmd()
	if os.Getenv("GIT_INDEX_FILE") != "" {
		c.Env = []string{"GIT_INDEX_FILE=" + r.IndexPath()}
	}
	args := append([]string{"add", "--"}, paths...)
	if _, err := c.Run(ctx, args...); err != nil {
		return fmt.Errorf("git add %s: %w", strings.Join(paths, " "), err)
	}
	return nil
}
