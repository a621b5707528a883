package gitrepo

import (
	"github.com/go-git/go-git/v5/plumbing"

	"github.com/git-memcite/git-memcite/internal/gitblame"
)

// UsesCatFile reports whether blobs are read in-process through git
// cat-file.
func (r *History) UsesCatFile() bool {
	g, ok := r.historyReader.(*goGitHistory)
	return ok && g.cat != nil && !g.catOff && g.cat.proc != nil
}

// GoGitBlobForTest reads a blob of r through go-git only.
func (*History) GoGitBlobForTest(r *History, h gitblame.Hash) ([]byte, error) {
	return r.historyReader.(*goGitHistory).goGitBlob(h)
}

// GitHistoryForTest opens the repository's history through the git binary
// whatever its object format.
func (r *Repo) GitHistoryForTest() (*History, error) {
	objs, err := r.objects()
	if err != nil {
		return nil, err
	}
	return &History{historyReader: newGitHistory(r, objs), repo: r}, nil
}

// BackendForTest names the reader of h.
func (r *History) BackendForTest() Backend {
	if _, ok := r.historyReader.(*gitHistory); ok {
		return GitBinary
	}
	return GoGit
}

// GoGitEntryForTest looks a path up in a tree of r through go-git only.
func (*History) GoGitEntryForTest(r *History, tree gitblame.Hash, p string) (gitblame.Hash, bool, error) {
	g := *r.historyReader.(*goGitHistory)
	g.cat = nil
	g.entries = map[plumbing.Hash]map[string]entryVal{}
	g.nentry = 0
	return g.Entry(tree, p)
}

// GoGitChangesForTest lists the changes between two commits through
// go-git's DiffTree only.
func (r *History) GoGitChangesForTest(from, to gitblame.Hash, renames bool) ([]gitblame.Change, error) {
	return r.historyReader.(*goGitHistory).goGitChanges(from, to, renames)
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
