package gitrepo

import "github.com/git-memcite/git-memcite/internal/source"

// RulelessForTest reports whether the working tree src (from Worktree)
// answers for paths without asking git check-ignore.
func RulelessForTest(src source.Source, paths []string) bool {
	w := src.(*guardedWorktree)
	if err := w.load(); err != nil {
		return false
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.ruleless(paths)
}
