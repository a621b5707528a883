package app

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/git-memcite/git-memcite/internal/gitblame"
	"github.com/git-memcite/git-memcite/internal/gitrepo"
	"github.com/git-memcite/git-memcite/internal/prose"
	"github.com/git-memcite/git-memcite/internal/verify"
)

// ProseLevel is the configured level of prose references (prose:
// error, warn, block or off; docs/prose-references.md).
func (ws *Workspace) ProseLevel() string {
	if ws.Cfg == nil {
		return "error"
	}
	if v := ws.Cfg.Get("prose").First(); v != "" {
		return v
	}
	return "error"
}

// VerifyOptions returns what verify.Check judges the workspace's
// memories with: the run's verification cache and, unless the
// configuration turns prose off, a checker of the references in the
// prose of the memories, anchored where their words were written
// (prose.Checker). done saves git's answers and releases the history
// reader and what the checker read of history (once: a second call does
// nothing); the checker judges no prose after it.
func (ws *Workspace) VerifyOptions() (verify.Options, func(), error) {
	opt := verify.Options{Cache: ws.Cache()}
	if ws.ProseLevel() == "off" || ws.Store == nil {
		return opt, func() {}, nil
	}
	c := &prose.Checker{Dirs: ws.Store.Dirs, All: ws.Store.Memories, Cache: opt.Cache}
	done := func() {}
	if ws.Repo != nil {
		oid, ok, err := ws.Repo.Head()
		if err != nil {
			return opt, done, err
		}
		if ok {
			head, err := gitblame.ParseHash(oid.String())
			if err != nil {
				return opt, done, fmt.Errorf("HEAD is %q: %w", oid, err)
			}
			// the history is opened, and git's cached answers read, only
			// when a memory's judgment is not in the verification cache
			hist := &lazyHistory{repo: ws.Repo}
			cache := newCachingGit(ws.Repo.GitDir, head, hist)
			c.H, c.Log, c.Sym, c.Head = hist, cache, cache, head
			var once sync.Once
			done = func() {
				once.Do(func() {
					cache.save()
					hist.close()
					c.Release()
					cache, hist = nil, nil // (the closure keeps none of it)
				})
			}
		}
	}
	opt.Prose = c
	return opt, done, nil
}

// lazyHistory is the repository's history (gitblame.History, prose.Log,
// prose.Symbols), opened on first use.
type lazyHistory struct {
	repo *gitrepo.Repo
	once sync.Once
	h    *gitrepo.History
	err  error
}

func (l *lazyHistory) get() (*gitrepo.History, error) {
	l.once.Do(func() {
		if l.h, l.err = l.repo.History(); l.err != nil {
			l.err = fmt.Errorf("prose references are anchored in history: %w", l.err)
		}
	})
	if l.h == nil && l.err == nil {
		return nil, errors.New("prose references: the history is closed")
	}
	return l.h, l.err
}

// close closes the history if it was opened, and lets it go; nothing
// opens it after.
func (l *lazyHistory) close() {
	l.once.Do(func() {})
	if l.h != nil {
		l.h.Close()
		l.h = nil
	}
}

func (l *lazyHistory) Resolve(rev string) (gitblame.Hash, error) {
	h, err := l.get()
	if err != nil {
		return gitblame.ZeroHash, err
	}
	return h.Resolve(rev)
}

func (l *lazyHistory) Commit(x gitblame.Hash) (*gitblame.Commit, error) {
	h, err := l.get()
	if err != nil {
		return nil, err
	}
	return h.Commit(x)
}

func (l *lazyHistory) Entry(tree gitblame.Hash, p string) (gitblame.Hash, bool, error) {
	h, err := l.get()
	if err != nil {
		return gitblame.ZeroHash, false, err
	}
	return h.Entry(tree, p)
}

func (l *lazyHistory) Blob(x gitblame.Hash) ([]byte, error) {
	h, err := l.get()
	if err != nil {
		return nil, err
	}
	return h.Blob(x)
}

func (l *lazyHistory) EntryAt(commit gitblame.Hash, p string) (gitblame.Hash, bool, bool, error) {
	h, err := l.get()
	if err != nil {
		return gitblame.ZeroHash, false, false, err
	}
	return h.EntryAt(commit, p)
}

func (l *lazyHistory) FilesAtEach(commits []gitblame.Hash, keep func(string) bool) ([]map[string]gitblame.Hash, error) {
	h, err := l.get()
	if err != nil {
		return nil, err
	}
	return h.FilesAtEach(commits, keep)
}

func (l *lazyHistory) Blobs(xs []gitblame.Hash, f func(i int, data []byte, err error)) {
	h, err := l.get()
	if err != nil {
		for i := range xs {
			f(i, nil, err)
		}
		return
	}
	h.Blobs(xs, f)
}

func (l *lazyHistory) Changes(from, to gitblame.Hash, renames bool) ([]gitblame.Change, error) {
	h, err := l.get()
	if err != nil {
		return nil, err
	}
	return h.Changes(from, to, renames)
}

func (l *lazyHistory) Files(tree gitblame.Hash) (map[string]gitblame.Hash, error) {
	h, err := l.get()
	if err != nil {
		return nil, err
	}
	return h.Files(tree)
}

func (l *lazyHistory) PathLog(ctx context.Context, head gitblame.Hash, dirs []string) ([]prose.LogCommit, error) {
	h, err := l.get()
	if err != nil {
		return nil, err
	}
	return proseLog{h}.PathLog(ctx, head, dirs)
}

func (l *lazyHistory) Moves(ctx context.Context, head gitblame.Hash) ([]gitblame.Hash, []prose.LogCommit, error) {
	h, err := l.get()
	if err != nil {
		return nil, nil, err
	}
	return proseLog{h}.Moves(ctx, head)
}

func (l *lazyHistory) GrepWordFiles(ctx context.Context, commit gitblame.Hash, names, pathspecs []string) (map[string][]string, error) {
	h, err := l.get()
	if err != nil {
		return nil, err
	}
	return h.GrepWordFiles(ctx, commit, names, pathspecs)
}

// RenamesFromLog is gitrepo.History's (it is asked once the log of
// renames and deletions was read, through the history).
func (l *lazyHistory) RenamesFromLog(commit gitblame.Hash) (map[string]string, bool) {
	h, err := l.get()
	if err != nil {
		return nil, false
	}
	return h.RenamesFromLog(commit)
}

func (l *lazyHistory) CommitChanges(ctx context.Context, commit gitblame.Hash) ([]prose.FileChange, error) {
	h, err := l.get()
	if err != nil {
		return nil, err
	}
	return proseGit{proseLog{h}, h}.CommitChanges(ctx, commit)
}
func (l *lazyHistory) PathLogSince(ctx context.Context, old, head gitblame.Hash, dirs []string) ([]prose.LogCommit, error) {
	h, err := l.get()
	if err != nil {
		return nil, err
	}
	log, err := h.PathLogSince(ctx, old, head, dirs)
	if err != nil {
		return nil, err
	}
	return convertLog(log), nil
}

func (l *lazyHistory) MovesSince(ctx context.Context, old, head gitblame.Hash) ([]gitblame.Hash, []prose.LogCommit, error) {
	h, err := l.get()
	if err != nil {
		return nil, nil, err
	}
	order, log, err := h.MovesSince(ctx, old, head)
	if err != nil {
		return nil, nil, err
	}
	return order, convertLog(log), nil
}

func (l *lazyHistory) ChangesAnyOf(ctx context.Context, from, head gitblame.Hash, words, pathspecs []string) (bool, error) {
	h, err := l.get()
	if err != nil {
		return false, err
	}
	return h.ChangesAnyOf(ctx, from, head, words, pathspecs)
}

func (l *lazyHistory) Chain(head gitblame.Hash, until func(gitblame.Hash) bool) ([]gitblame.Hash, error) {
	h, err := l.get()
	if err != nil {
		return nil, err
	}
	return h.Chain(head, until)
}

func (l *lazyHistory) OnFirstParents(ctx context.Context, old, head gitblame.Hash) (bool, error) {
	h, err := l.get()
	if err != nil {
		return false, err
	}
	return h.OnFirstParents(ctx, old, head)
}

func (l *lazyHistory) WordChangedIn(ctx context.Context, from, head gitblame.Hash, word string, pathspecs []string) (gitblame.Hash, error) {
	h, err := l.get()
	if err != nil {
		return gitblame.ZeroHash, err
	}
	return h.WordChangedIn(ctx, from, head, word, pathspecs)
}

func (l *lazyHistory) WordsChangedIn(ctx context.Context, from, head gitblame.Hash, words []string, pathspecs [][]string) ([]gitblame.Hash, error) {
	h, err := l.get()
	if err != nil {
		return nil, err
	}
	return h.WordsChangedIn(ctx, from, head, words, pathspecs)
}

// proseLog adapts gitrepo's history to prose.Log.
type proseLog struct{ h *gitrepo.History }

func (l proseLog) PathLog(ctx context.Context, head gitblame.Hash, dirs []string) ([]prose.LogCommit, error) {
	log, err := l.h.PathLog(ctx, head, dirs)
	if err != nil {
		if gitrepo.ExitCode(err) > 0 {
			// git could not read the history (objects missing from a
			// partial clone or a snapshot): nothing is anchored, every
			// reference is judged as written now
			return nil, nil
		}
		return nil, err
	}
	return convertLog(log), nil
}

func (l proseLog) Moves(ctx context.Context, head gitblame.Hash) ([]gitblame.Hash, []prose.LogCommit, error) {
	order, log, err := l.h.Moves(ctx, head)
	if err != nil {
		if gitrepo.ExitCode(err) > 0 {
			return nil, nil, nil // as for PathLog: nothing is known to have moved
		}
		return nil, nil, err
	}
	return order, convertLog(log), nil
}

// CommitChanges lists the files a commit changed, renames paired: the
// prose checker asks it of the commits that deleted a path it follows
// (the log of Moves lists a rename as a deletion).
func (l proseLog) CommitChanges(ctx context.Context, commit gitblame.Hash) ([]prose.FileChange, error) {
	chs, err := l.h.CommitChanges(ctx, commit)
	if err != nil {
		return nil, err
	}
	out := make([]prose.FileChange, len(chs))
	for i, ch := range chs {
		out[i] = prose.FileChange(ch)
	}
	return out, nil
}

func convertLog(log []gitrepo.LogCommit) []prose.LogCommit {
	out := make([]prose.LogCommit, len(log))
	for i, c := range log {
		out[i].Hash = c.Hash
		out[i].Changes = make([]prose.FileChange, len(c.Changes))
		for j, ch := range c.Changes {
			out[i].Changes[j] = prose.FileChange(ch)
		}
	}
	return out
}

// proseGit is what the prose checker asks git, from an open history: the
// logs (proseLog) and the symbol searches (gitrepo.History); adopt uses it.
type proseGit struct {
	proseLog
	*gitrepo.History
}

// the logs are proseLog's (gitrepo.History has methods of the same names
// with its own types)
func (g proseGit) PathLog(ctx context.Context, head gitblame.Hash, dirs []string) ([]prose.LogCommit, error) {
	return g.proseLog.PathLog(ctx, head, dirs)
}

func (g proseGit) CommitChanges(ctx context.Context, commit gitblame.Hash) ([]prose.FileChange, error) {
	return g.proseLog.CommitChanges(ctx, commit)
}

func (g proseGit) Moves(ctx context.Context, head gitblame.Hash) ([]gitblame.Hash, []prose.LogCommit, error) {
	return g.proseLog.Moves(ctx, head)
}

var (
	_ prose.Log     = proseGit{}
	_ prose.Symbols = proseGit{}
)
