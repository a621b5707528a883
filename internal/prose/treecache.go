package prose

import (
	"github.com/git-memcite/git-memcite/internal/gitblame"
	"github.com/git-memcite/git-memcite/internal/vcache"
)

// cachedEntries is a history whose answers to Entry (the blob of a path
// in a tree) are kept in the verification cache: a tree never changes, so
// a warm run looks the files of old commits up without reading the
// history. Errors (an object missing from the repository) are not kept.
type cachedEntries struct {
	gitblame.History
	vc *vcache.Cache
}

func (h cachedEntries) Entry(tree gitblame.Hash, p string) (gitblame.Hash, bool, error) {
	k := vcache.KeyOf("tree-entry", tree.String(), p)
	if v, ok := h.vc.Verdict(k); ok {
		if v.Reason == "" {
			return gitblame.ZeroHash, false, nil
		}
		if b, err := gitblame.ParseHash(v.Reason); err == nil {
			return b, true, nil
		}
	}
	b, ok, err := h.History.Entry(tree, p)
	if err != nil {
		return b, ok, err
	}
	r := ""
	if ok {
		r = b.String()
	}
	h.vc.PutVerdict(k, vcache.Verdict{Reason: r})
	return b, ok, nil
}

// EntryAt passes EntryAt on to the history when it has it.
func (h cachedEntries) EntryAt(commit gitblame.Hash, p string) (gitblame.Hash, bool, bool, error) {
	if ea, ok := h.History.(gitblame.EntryAter); ok {
		return ea.EntryAt(commit, p)
	}
	return gitblame.ZeroHash, false, false, nil
}

// FilesAtEach passes FilesAtEach on to the history when it has it.
func (h cachedEntries) FilesAtEach(commits []gitblame.Hash, keep func(string) bool) ([]map[string]gitblame.Hash, error) {
	if fa, ok := h.History.(filesAter); ok {
		return fa.FilesAtEach(commits, keep)
	}
	return nil, nil
}

// filesAter is what a history may add: Files of the trees of commits
// from the log of the whole first-parent chain (a nil map for a commit
// it does not know; nil when it knows none), of the paths keep names (all
// when it is nil).
type filesAter interface {
	FilesAtEach(commits []gitblame.Hash, keep func(path string) bool) ([]map[string]gitblame.Hash, error)
}

// entryAt is the blob of the regular file at path p in commit's tree, and
// whether there is one: from the history's log of the whole chain when
// it can tell (most commits' trees are then never read), else from the
// tree.
func (c *Checker) entryAt(commit gitblame.Hash, p string) (gitblame.Hash, bool, error) {
	if ea, ok := c.H.(gitblame.EntryAter); ok {
		if b, ok, known, err := ea.EntryAt(commit, p); known || err != nil {
			return b, ok, err
		}
	}
	tree, err := c.tree(commit)
	if err != nil {
		return gitblame.ZeroHash, false, err
	}
	return c.H.Entry(tree, p)
}

// Blobs passes Blobs on to the history (gitblame.ReadBlobs).
func (h cachedEntries) Blobs(bs []gitblame.Hash, f func(i int, data []byte, err error)) {
	gitblame.ReadBlobs(h.History, bs, f)
}

// treeOf is the tree of a commit, kept in the verification cache.
func (c *Checker) treeOf(commit gitblame.Hash) (gitblame.Hash, error) {
	k := vcache.KeyOf("commit-tree", commit.String())
	if c.vc != nil {
		if v, ok := c.vc.Verdict(k); ok {
			if t, err := gitblame.ParseHash(v.Reason); err == nil {
				return t, nil
			}
		}
	}
	cm, err := c.H.Commit(commit)
	if err != nil {
		return gitblame.ZeroHash, err
	}
	if c.vc != nil {
		c.vc.PutVerdict(k, vcache.Verdict{Reason: cm.Tree.String()})
	}
	return cm.Tree, nil
}
