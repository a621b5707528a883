package gitrepo

import (
	"github.com/git-memcite/git-memcite/internal/gitblame"
)

// UsesCatFile reports whether objects are read through the repository's
// git cat-file process.
func (r *History) UsesCatFile() bool {
	if r.cat == nil {
		return false
	}
	p := &r.cat.procs[0]
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.proc != nil
}

// TouchingByPathspecForTest is Touching with the paths always given to
// git as pathspecs.
func (r *History) TouchingByPathspecForTest(oldest, head gitblame.Hash, paths []string) ([]gitblame.Touch, error) {
	return r.touchingByPathspec(oldest, head, paths)
}

// TouchLogForTest lists the files git log --no-renames --name-only
// gives for every commit of head's first-parent chain after oldest.
func (r *History) TouchLogForTest(oldest, head gitblame.Hash) ([]gitblame.Touch, error) {
	t, err := r.touchLog(oldest, head)
	if err != nil {
		return nil, err
	}
	return t.commits, nil
}

// KeptTouchLogForTest is the list of changed files the log of renames and
// deletions kept for Touching (nil: none) and the head it is of.
func (r *Repo) KeptTouchLogForTest() (gitblame.Hash, []gitblame.Touch) {
	r.touchMu.Lock()
	defer r.touchMu.Unlock()
	if r.touched == nil {
		return gitblame.ZeroHash, nil
	}
	return r.touched.head, r.touched.commits
}

// ParsePathLogForTest is parsePathLog.
func ParsePathLogForTest(out []byte) ([]LogCommit, error) { return parsePathLog(out) }

// ChainLogReadForTest reports whether FileCommits and FirstParents answer
// from the log of a whole chain.
func (r *History) ChainLogReadForTest() bool {
	r.chainMu.Lock()
	defer r.chainMu.Unlock()
	return r.chain != nil
}
