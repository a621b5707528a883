package app

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"

	"github.com/git-memcite/git-memcite/internal/gitblame"
	"github.com/git-memcite/git-memcite/internal/gitrepo"
	"github.com/git-memcite/git-memcite/internal/hookrun"
	"github.com/git-memcite/git-memcite/internal/relocate"
	"github.com/git-memcite/git-memcite/internal/source"
	"github.com/git-memcite/git-memcite/internal/store"
)

// ErrNoRepository: relocation follows history, which needs a repository.
var ErrNoRepository = errors.New("relocate needs a git repository")

// RelocateOptions are the choices of one relocation run.
type RelocateOptions struct {
	// To is the revision to relocate to; "" is HEAD, then the working
	// tree (or the index with Staged).
	To            string
	Staged        bool
	AcceptChanged bool // also relocate citations whose text was edited
	Write         bool // write the planned edits (the caller holds the lock)
	// Progress, when set, is called as the history walk advances.
	Progress func(done, total int)
}

// Relocation is the outcome of a relocation run: every citation followed
// (Items) and the memory-file edits planned (Files), written when
// RelocateOptions.Write was set.
type Relocation struct {
	Items   []relocate.Item
	Files   []relocate.File
	Written bool
}

// Stale reports whether a citation is left stale: lost, edited without
// AcceptChanged, or relocated but not written.
func (r *Relocation) Stale() bool {
	for i := range r.Items {
		it := &r.Items[i]
		relocated := it.Action == relocate.Move || it.Action == relocate.Accept
		if it.Stale() || (relocated && !r.Written) {
			return true
		}
	}
	return false
}

// Relocate follows the citations of mems from their bases through the
// history of repo to the target (relocate.Track), plans the edits
// (relocate.Plan) and, with opt.Write, writes them. It is the pipeline
// of `git memcite relocate`.
func Relocate(ctx context.Context, repo *gitrepo.Repo, mems []*store.Memory, opt RelocateOptions) (*Relocation, error) {
	if repo == nil {
		return nil, ErrNoRepository
	}
	hist, err := repo.History()
	if err != nil {
		return nil, err
	}
	defer hist.Close()
	rev := "HEAD"
	if opt.To != "" {
		rev = opt.To
	}
	head, err := hist.Resolve(rev)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", rev, err)
	}
	target := gitblame.Target{Commit: head}
	switch {
	case opt.Staged:
		if target.View, err = repo.Index(ctx); err != nil {
			return nil, err
		}
	case opt.To == "":
		if target.View, err = repo.Worktree(); err != nil {
			return nil, err
		}
		idx, err := repo.Index(ctx)
		if err != nil {
			return nil, err
		}
		target.CrossFiles = relocate.CrossFiles(idx, mems)
	}
	tracker := gitblame.New(hist)
	tracker.Progress = opt.Progress
	items, err := relocate.Track(ctx, hist, tracker, head, target, mems)
	if err != nil {
		return nil, err
	}
	files, err := relocate.Plan(items, relocate.Options{AcceptChanged: opt.AcceptChanged, Commit: head.String(),
		Verified: Now(), Dirty: Dirty(hist, head, target.View)})
	if err != nil {
		return nil, err
	}
	r := &Relocation{Items: items, Files: files}
	if opt.Write {
		if err := WriteFiles(repo, files); err != nil {
			return r, err
		}
		r.Written = true
	}
	return r, nil
}

// WriteFiles writes planned memory-file edits, each only when the file
// still holds what the plan was made from. Callers hold the rewrite lock.
func WriteFiles(repo *gitrepo.Repo, files []relocate.File) error {
	for _, f := range files {
		if err := WriteMemory(repo, repo.Top, f.Memory.Path, f.Old, f.New); err != nil {
			return err
		}
	}
	return nil
}

// Dirty returns a function that reports whether a path's content in view
// differs from the commit head (nil for a nil view: nothing is dirty). A
// citation valid only in such a file must not be recorded at head.
func Dirty(h *gitrepo.History, head gitblame.Hash, view source.Source) func(string) bool {
	if view == nil {
		return nil
	}
	return func(p string) bool {
		c, err := h.Commit(head)
		if err != nil {
			return true
		}
		want, ok, err := h.Entry(c.Tree, p)
		if err != nil || !ok {
			return true
		}
		b, err := view.ReadFile(p)
		return err != nil || gitblame.BlobHash(b, want) != want
	}
}

// ApplyRelocations writes the memory files a post-* hook planned into the
// working tree (never the index), each only if it still holds the checked
// bytes, under the rewrite lock (memcite.postMerge=apply). It returns the
// files written and those that could not be (failed), or why none were
// (skipped: an operation in progress, the lock).
func ApplyRelocations(ctx context.Context, repo *gitrepo.Repo, in hookrun.Invocation, files []relocate.File) (done []string, skipped string, failed []error) {
	if why := hookrun.ApplyBlocked(repo.GitDir, in); why != "" {
		return nil, why, nil
	}
	unlock, err := Lock(ctx, repo)
	if err != nil {
		return nil, err.Error(), nil
	}
	defer unlock()
	for _, f := range files {
		if err := WriteMemory(repo, repo.Top, f.Memory.Path, f.Old, f.New); err != nil {
			failed = append(failed, err)
			continue
		}
		done = append(done, f.Memory.Path)
	}
	return done, "", failed
}

// AgentTop is the directory whose .claude/ holds the agent hook's
// settings: the root of the repository at dir, or dir itself outside a
// repository.
func AgentTop(dir string) (string, error) {
	repo, err := gitrepo.Discover(dir)
	switch {
	case err == nil:
		return repo.Top, nil
	case errors.Is(err, gitrepo.ErrNotRepo):
		return filepath.Abs(dir)
	}
	return "", err
}

// LockAt takes the rewrite lock of the repository at dir for a whole run
// (Lock), so that a run that waited reads what the other run wrote; no
// repository there: nothing to lock.
func LockAt(ctx context.Context, dir string) (unlock func(), err error) {
	repo, err := gitrepo.Discover(dir)
	if err != nil {
		return func() {}, nil
	}
	return Lock(ctx, repo)
}
