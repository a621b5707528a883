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
	// Each, when set, receives the citations followed, a batch at a time
	// (about 25,000 citations), and Relocation.Items stays empty: a caller that
	// prints them as they come holds one batch at a time.
	Each func(items []relocate.Item) error
}

// Relocation is the outcome of a relocation run: every citation followed
// (Items, unless RelocateOptions.Each took them), how many of each action
// (Counts), and the memory-file edits planned (Files), written when
// RelocateOptions.Write was set.
type Relocation struct {
	Items   []relocate.Item
	Counts  map[relocate.Action]int
	Files   []relocate.File
	Written bool
	stale   bool
}

// Stale reports whether a citation is left stale: lost, edited without
// AcceptChanged, or relocated but not written.
func (r *Relocation) Stale() bool { return r.stale }

// relocateBatch is the most citations Relocate follows at a time. A store
// with more is taken in groups of memories (in path order) of about this
// many citations, each followed, planned and written before the next:
// memory stays bounded (followed at once, 250,000 citations took 746 MB
// resident: scripts/bench-cache.sh with RELOCATE=1, at commit 3e6b5bc).
// One tracker serves all groups, so a file's texts and diffs are read
// once; each group walks the history again.
var relocateBatch = 25000 // a variable for the tests

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
	plan := relocate.Options{AcceptChanged: opt.AcceptChanged, Commit: head.String(),
		Verified: Now(), Dirty: Dirty(hist, head, target.View)}
	r := &Relocation{Counts: map[relocate.Action]int{}}
	tracker := gitblame.New(hist) // shared: the texts and diffs it caches serve every batch
	tracker.Progress = opt.Progress
	for _, batch := range batches(mems, relocateBatch) {
		items, err := relocate.Track(ctx, hist, tracker, head, target, batch)
		if err != nil {
			return nil, err
		}
		files, err := relocate.Plan(items, plan)
		if err != nil {
			return nil, err
		}
		if opt.Write {
			if err := WriteFiles(repo, files); err != nil {
				return r, err
			}
		}
		r.Files = append(r.Files, files...)
		for i := range items {
			it := &items[i]
			r.Counts[it.Action]++
			relocated := it.Action == relocate.Move || it.Action == relocate.Accept
			r.stale = r.stale || it.Stale() || (relocated && !opt.Write)
		}
		if opt.Each != nil {
			if err := opt.Each(items); err != nil {
				return r, err
			}
		} else {
			r.Items = append(r.Items, items...)
		}
	}
	r.Written = opt.Write
	return r, nil
}

// batches cuts mems into groups of about size citations (at least one
// memory each).
func batches(mems []*store.Memory, size int) [][]*store.Memory {
	var out [][]*store.Memory
	start, n := 0, 0
	for i, m := range mems {
		if m.File != nil {
			n += len(m.File.Citations)
		}
		if n >= size {
			out = append(out, mems[start:i+1])
			start, n = i+1, 0
		}
	}
	if start < len(mems) || len(out) == 0 {
		out = append(out, mems[start:])
	}
	return out
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
