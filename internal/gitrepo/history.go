package gitrepo

import (
	"context"
	"fmt"
	"strings"
	"sync"

	"github.com/git-memcite/git-memcite/internal/gitblame"
)

// maxTrees bounds the decoded-tree caches; they are cleared when full.
const maxTrees = 50000

// treeDiffCache is the cache of delta bases for the git processes that
// compare the trees of many commits (the logs of the chain and of the
// memory directories, diff-tree): git's default, 96 MiB, fills with trees
// that are seldom asked for again, and memory touched once costs a page
// fault each 4 KiB. On a chain of 2,600 commits, git log --raw took 0.45
// to 1.2 s of CPU with the default (23,000 to 30,000 page faults where
// glibc gave it no huge pages), and 0.31 to 0.40 s and 1,700 to 5,300
// faults with 4 MiB (docs/performance.md).
const treeDiffCache = "core.deltaBaseCacheLimit=4m"

// History implements gitblame.History through the git binary, in every
// object format: git cat-file --batch for commits, trees and blobs, git
// diff-tree --stdin for the changes between two trees, git ls-tree for a
// tree's files, and git log and rev-list for the first-parent chain and
// the commits that touch paths (docs/repositories.md). It is not safe for
// concurrent use.
type History struct {
	*gitHistory
	repo *Repo
	// owned: OpenHistory opened the repository, so Close closes it too
	owned bool
	// log.follow may be on (WordsChangedIn)
	followOnce sync.Once
	follow     bool
	// the diff drivers that convert or call content binary, asked once
	// (plainDiff); nil: git could not be asked
	driversOnce sync.Once
	drivers     map[string]bool
	// touched is the changed files of every commit of a range, kept by
	// Touching when it asked for them all
	touchedMu sync.Mutex
	touched   *touchLog
	// chain is the log of every file every commit of chainHead's
	// first-parent chain changes, read after chainAsks questions
	// (FileCommits, FirstParents)
	chainMu   sync.Mutex
	chainHead gitblame.Hash
	chainAsks int
	chain     *touchLog
}

var _ gitblame.History = (*History)(nil)

// OpenHistory opens the history of the repository containing dir; Close
// closes the repository too.
func OpenHistory(dir string) (*History, error) {
	r, err := Discover(dir)
	if err != nil {
		return nil, err
	}
	h, err := r.History()
	if err != nil {
		return nil, err
	}
	h.owned = true
	return h, nil
}

// Close stops the git processes the history reader started (and those
// of the repository, when OpenHistory opened it) and waits for them.
func (h *History) Close() error {
	err := h.gitHistory.Close()
	if h.owned {
		if cerr := h.repo.Close(); err == nil {
			err = cerr
		}
	}
	return err
}

// History opens the repository's history. Its git processes stay open
// until Close. From then on the repository's git processes are asked
// for huge pages (Cmd.environ).
func (r *Repo) History() (*History, error) {
	objs, err := r.objects()
	if err != nil {
		return nil, err
	}
	r.hugePages.Store(true)
	return &History{gitHistory: newGitHistory(r, objs), repo: r}, nil
}

// Repo returns the repository h reads.
func (h *History) Repo() *Repo { return h.repo }

// Resolve returns the commit a revision names, exactly as git rev-parse
// does (Repo.ResolveCommit).
func (h *History) Resolve(rev string) (gitblame.Hash, error) {
	oid, err := h.repo.ResolveCommit(context.Background(), rev)
	if err != nil {
		return gitblame.ZeroHash, fmt.Errorf("%w: %v", gitblame.ErrNotFound, err)
	}
	x, err := gitblame.ParseHash(string(oid))
	if err != nil {
		return gitblame.ZeroHash, fmt.Errorf("revision %q is %q: %w", rev, oid, err)
	}
	return x, nil
}

// FileCommits lists the commits of head's first-parent chain that change
// path against their first parent, its creation included, newest first
// (git rev-list --first-parent HEAD -- path): where a file's versions
// begin, without walking every commit. From the chainLogAfter-th call
// with one head on (relocate asks it for every memory file), the answer
// comes from one log of every file every commit of the chain changes
// (chainLog), read once: one git rev-list per path costs as much as that
// log in a long history (0.27 s against 0.79 s on 2,600 commits).
func (h *History) FileCommits(head gitblame.Hash, path string) ([]gitblame.Hash, error) {
	t, err := h.chainLog(head)
	if err != nil {
		return nil, err
	}
	if t != nil {
		return t.fileCommits(path), nil
	}
	out, err := h.repo.Run(context.Background(), "rev-list", "--first-parent", head.String(), "--", ":(literal)"+path)
	if err != nil {
		return nil, fmt.Errorf("history of %s: %w", path, err)
	}
	return parseHashes(out)
}

// FirstParents lists head's first-parent chain down to oldest, both
// included, newest first; oldest must be on that chain.
func (h *History) FirstParents(oldest, head gitblame.Hash) ([]gitblame.Hash, error) {
	if oldest == head {
		return []gitblame.Hash{head}, nil
	}
	t, err := h.chainLog(head)
	if err != nil {
		return nil, err
	}
	if t != nil {
		if list, ok := t.firstParents(oldest); ok {
			return list, nil
		}
	}
	out, err := h.repo.Run(context.Background(), "rev-list", "--first-parent", head.String(), "^"+oldest.String())
	if err != nil {
		return nil, fmt.Errorf("commits from %s to %s: %w", oldest.Short(), head.Short(), err)
	}
	list, err := parseHashes(out)
	if err != nil {
		return nil, err
	}
	return append(list, oldest), nil
}

// chainLogAfter is the call of FileCommits or FirstParents with one head
// from which they read the whole chain's log.
const chainLogAfter = 3

// chainLog returns the log of every file every commit of head's
// first-parent chain changes, once FileCommits and FirstParents were
// asked about head chainLogAfter times, and nil before (or where git may
// see other parents than the object reader: rewritesParents). A log of
// the whole chain the repository already keeps (the prose checker's
// renames and deletions) serves without a git process.
func (h *History) chainLog(head gitblame.Hash) (*touchLog, error) {
	h.chainMu.Lock()
	defer h.chainMu.Unlock()
	if h.chain != nil && h.chain.head == head {
		return h.chain, nil
	}
	if h.chainHead != head {
		h.chainHead, h.chainAsks = head, 0
	}
	if h.chainAsks++; h.chainAsks < chainLogAfter || h.rewritesParents() {
		return nil, nil
	}
	h.repo.touchMu.Lock()
	t := h.repo.touched
	h.repo.touchMu.Unlock()
	if t == nil || t.head != head || !t.oldest.IsZero() {
		var err error
		if t, err = h.touchLog(gitblame.ZeroHash, head); err != nil {
			return nil, err
		}
	}
	h.chain = t
	return t, nil
}

// fileCommits is FileCommits from a log of the whole chain: the commits
// that change path, or a file below it (indexed by path at the first
// question).
func (t *touchLog) fileCommits(path string) []gitblame.Hash {
	t.indexOnce.Do(func() {
		t.byPath = map[string][]int{}
		for i, c := range t.commits {
			for _, name := range c.Paths {
				for p := name; ; {
					if l := t.byPath[p]; len(l) == 0 || l[len(l)-1] != i {
						t.byPath[p] = append(l, i)
					}
					j := strings.LastIndexByte(p, '/')
					if j < 0 {
						break
					}
					p = p[:j]
				}
			}
		}
	})
	var list []gitblame.Hash
	for _, i := range t.byPath[path] {
		list = append(list, t.commits[i].Commit)
	}
	return list
}

// firstParents is FirstParents from a log of the whole chain, and false
// when oldest is not on it.
func (t *touchLog) firstParents(oldest gitblame.Hash) ([]gitblame.Hash, bool) {
	if !t.has[oldest] {
		return nil, false
	}
	var list []gitblame.Hash
	for _, c := range t.commits {
		list = append(list, c.Commit)
		if c.Commit == oldest {
			return list, true
		}
	}
	return nil, false
}

func parseHashes(out string) ([]gitblame.Hash, error) {
	var list []gitblame.Hash
	for _, l := range strings.Fields(out) {
		x, err := gitblame.ParseHash(l)
		if err != nil {
			return nil, fmt.Errorf("rev-list printed %q: %w", l, err)
		}
		list = append(list, x)
	}
	return list, nil
}
