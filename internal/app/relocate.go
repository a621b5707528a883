package app

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/git-memcite/git-memcite/internal/gitblame"
	"github.com/git-memcite/git-memcite/internal/gitrepo"
	"github.com/git-memcite/git-memcite/internal/hookrun"
	"github.com/git-memcite/git-memcite/internal/relocate"
	"github.com/git-memcite/git-memcite/internal/source"
	"github.com/git-memcite/git-memcite/internal/store"
	"github.com/git-memcite/git-memcite/internal/vcache"
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
	Write         bool // write the planned edits (the caller holds the lock; RelocateStore takes it)
	// Progress, when set, is called as the history walk advances.
	Progress func(done, total int)
	// Each, when set, receives the citations followed and the memory-file
	// edits planned (written, with Write), a batch at a time (about 25,000
	// citations), and Relocation.Items and Files stay empty: a caller that
	// prints them as they come holds one batch at a time.
	Each func(items []relocate.Item, files []relocate.File) error
	// Source, when set, is where memories found but not loaded
	// (store.Find) are read from: a batch at a time, each dropped once it
	// is written and printed, so that a large store is never held whole.
	// (Memories loaded by the caller are kept.)
	Source source.Source
	// Cache is the verification cache the memories read from Source are
	// parsed with (nil: none; RelocateStore sets the workspace's).
	Cache *vcache.Cache
}

// Relocation is the outcome of a relocation run: every citation followed
// (Items, unless RelocateOptions.Each took them), how many of each action
// (Counts), and the memory-file edits planned (Files, unless Each took
// them; Edited counts them), written when RelocateOptions.Write was set.
type Relocation struct {
	Items   []relocate.Item
	Counts  map[relocate.Action]int
	Files   []relocate.File
	Edited  int
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
	if opt.Source != nil {
		// the store is read a batch at a time: parses are not kept for
		// the cache (which would hold them all until it is saved)
		opt.Cache.DropFilePuts()
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
		cited, err := citedPaths(ctx, opt.Source, opt.Cache, mems, relocateBatch)
		if err != nil {
			return nil, err
		}
		target.CrossFiles = relocate.CrossFiles(relocate.TrackedIn(target.View), cited)
	}
	plan := relocate.Options{AcceptChanged: opt.AcceptChanged, Commit: head.String(),
		Verified: Now(), Dirty: Dirty(hist, head, target.View)}
	r := &Relocation{Counts: map[relocate.Action]int{}}
	tracker := gitblame.New(hist) // shared: the texts and diffs it caches serve every batch
	tracker.Progress = opt.Progress
	err = eachBatch(ctx, opt.Source, opt.Cache, mems, relocateBatch, func(batch []*store.Memory) error {
		items, err := relocate.Track(ctx, hist, tracker, head, target, batch)
		if err != nil {
			return err
		}
		files, err := relocate.Plan(items, plan)
		if err != nil {
			return err
		}
		if opt.Write {
			if err := WriteFiles(repo, files); err != nil {
				return err
			}
		}
		r.Edited += len(files)
		for i := range items {
			it := &items[i]
			r.Counts[it.Action]++
			relocated := it.Action == relocate.Move || it.Action == relocate.Accept
			r.stale = r.stale || it.Stale() || (relocated && !opt.Write)
		}
		if opt.Each != nil {
			return opt.Each(items, files)
		}
		r.Items = append(r.Items, items...)
		r.Files = append(r.Files, files...)
		return nil
	})
	if err != nil {
		return r, err
	}
	r.Written = opt.Write
	return r, nil
}

// loadChunk is how many memories found but not loaded are read at a time
// (in parallel): enough to keep the readers busy, few enough to hold. A
// batch being followed holds its own memories and at most one chunk
// more.
var loadChunk = 1024 // a variable for the tests

// unloaded reports whether m was found but not loaded (store.Find).
func unloaded(m *store.Memory) bool { return m.File == nil && m.Err == nil }

// loadFrom loads the memories of mems that were found but not loaded,
// from src with cache; it returns those it loaded, for release. With a
// nil src nothing is loaded.
func loadFrom(ctx context.Context, src source.Source, cache *vcache.Cache, mems []*store.Memory) ([]*store.Memory, error) {
	if src == nil {
		return nil, nil
	}
	var todo []*store.Memory
	for _, m := range mems {
		if unloaded(m) {
			todo = append(todo, m)
		}
	}
	if len(todo) == 0 {
		return nil, nil
	}
	return todo, store.LoadAll(ctx, src, todo, cache)
}

// release drops what loadFrom loaded (a load error is kept: it is what
// loading gives again).
func release(mems []*store.Memory) {
	for _, m := range mems {
		m.File = nil
	}
}

// eachBatch calls fn with groups of mems, in order, of about size
// citations each (at least one memory each). Memories found but not
// loaded are loaded from src as the groups reach them, and dropped once
// fn returns.
func eachBatch(ctx context.Context, src source.Source, cache *vcache.Cache, mems []*store.Memory, size int, fn func([]*store.Memory) error) error {
	ours := make([]bool, len(mems)) // loaded here: dropped after their batch
	start, n := 0, 0
	flush := func(end int) error {
		err := fn(mems[start:end])
		for i := start; i < end; i++ {
			if ours[i] {
				mems[i].File = nil
			}
		}
		start, n = end, 0
		return err
	}
	for i := 0; i < len(mems); i++ {
		if i%loadChunk == 0 && src != nil {
			chunk := mems[i:min(i+loadChunk, len(mems))]
			for k, m := range chunk {
				ours[i+k] = unloaded(m)
			}
			if _, err := loadFrom(ctx, src, cache, chunk); err != nil {
				return err
			}
		}
		if m := mems[i]; m.File != nil {
			n += len(m.File.Citations)
		}
		if n >= size {
			if err := flush(i + 1); err != nil {
				return err
			}
		}
	}
	if start < len(mems) || len(mems) == 0 {
		return flush(len(mems))
	}
	return nil
}

// citedPaths returns every path a citation of mems names (clean), loading
// memories found but not loaded from src a chunk at a time. They stay
// loaded while all of them hold no more than keep citations (a store
// followed in one batch is read once); past that, every one loaded here
// is dropped.
func citedPaths(ctx context.Context, src source.Source, cache *vcache.Cache, mems []*store.Memory, keep int) (map[string]bool, error) {
	cited := map[string]bool{}
	var held []*store.Memory
	n := 0
	for i := 0; i < len(mems); i += loadChunk {
		chunk := mems[i:min(i+loadChunk, len(mems))]
		loaded, err := loadFrom(ctx, src, cache, chunk)
		if err != nil {
			return nil, err
		}
		held = append(held, loaded...)
		for _, m := range chunk {
			if m.File != nil {
				n += len(m.File.Citations)
			}
		}
		for p := range relocate.CitedPaths(chunk) {
			cited[strings.Clone(p)] = true // (not the memory file's text, maybe dropped)
		}
		if n > keep {
			release(held)
			held = held[:0]
		}
	}
	return cited, nil
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

// RelocateStore is the whole of `git memcite relocate` over a workspace
// whose configuration is read (Open): with opt.Write it takes
// the rewrite lock for the whole run, not only the writes (Lock: a run
// that waited reads the memory files the other has just fixed); it finds
// the memories, every one found now and loaded a batch at a time as it is
// followed (names empty), or the named ones loaded; and it relocates
// them (Relocate). notFound are the names that select nothing; the
// others still run.
func RelocateStore(ctx context.Context, ws *Workspace, names []string, opt RelocateOptions) (r *Relocation, notFound []error, err error) {
	if ws.Repo == nil {
		return nil, nil, ErrNoRepository
	}
	if opt.Write {
		unlock, err := Lock(ctx, ws.Repo)
		if err != nil {
			return nil, nil, err
		}
		defer unlock()
	}
	if len(names) == 0 {
		opt.Source, opt.Cache = ws.Src, ws.Cache() // where memories found but not loaded are read from
		err = ws.FindStore(ctx)
	} else {
		err = ws.LoadStore(ctx)
	}
	if err != nil {
		return nil, nil, err
	}
	mems, notFound := ws.Select(ctx, names)
	r, err = Relocate(ctx, ws.Repo, mems, opt)
	return r, notFound, err
}
