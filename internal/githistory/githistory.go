// Package githistory implements gitblame.History over a git repository
// with go-git. It is the only package of the relocation code that imports
// go-git. It reads objects directly (no go-git Log or Blame, which do not
// finish on long histories) and caches commits, trees and path lookups, so
// that following a path through thousands of commits decodes each changed
// tree once.
package githistory

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/go-git/go-billy/v5"
	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/cache"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/plumbing/storer"
	"github.com/go-git/go-git/v5/storage/filesystem"

	"github.com/git-memcite/git-memcite/internal/gitblame"
)

// maxTrees bounds the decoded-tree cache; it is cleared when full.
const maxTrees = 50000

// Repo reads history from a git repository. It is not safe for concurrent
// use.
type Repo struct {
	repo    *git.Repository
	store   storer.EncodedObjectStorer
	commits map[plumbing.Hash]*gitblame.Commit
	trees   map[plumbing.Hash]*object.Tree
	entries map[entryKey]entryVal
	closer  interface{ Close() error }
	gitDir  string   // for the cat-file accelerator; empty when unknown
	cat     *catFile // started on first Blob; nil when off
	catOff  bool
}

type entryKey struct {
	tree plumbing.Hash
	path string
}

type entryVal struct {
	h  plumbing.Hash
	ok bool
}

var _ gitblame.History = (*Repo)(nil)

// Open opens the repository containing dir (it looks for .git upwards,
// and follows .git files of linked worktrees). Pack files stay open until
// Close.
func Open(dir string) (*Repo, error) {
	r, err := git.PlainOpenWithOptions(dir, &git.PlainOpenOptions{DetectDotGit: true, EnableDotGitCommonDir: true})
	if err != nil {
		return nil, fmt.Errorf("githistory: open %s: %w", dir, err)
	}
	// Reopen the object storage keeping pack file descriptors: go-git
	// otherwise reopens the pack for every object read.
	if fs, ok := r.Storer.(*filesystem.Storage); ok {
		st := filesystem.NewStorageWithOptions(fs.Filesystem(), cache.NewObjectLRUDefault(), filesystem.Options{KeepDescriptors: true})
		wt, err := r.Worktree()
		var wfs billy.Filesystem
		if err == nil {
			wfs = wt.Filesystem
		}
		if r2, err := git.Open(st, wfs); err == nil {
			rp := New(r2)
			rp.closer = st
			if osfs, ok := fs.Filesystem().(interface{ Root() string }); ok {
				rp.gitDir = osfs.Root()
			}
			return rp, nil
		}
	}
	return New(r), nil
}

// Close releases the pack files held open by Open and stops the git
// cat-file process, if one was started.
func (r *Repo) Close() error {
	var err error
	if r.cat != nil {
		r.cat.close()
		r.cat = nil
	}
	if r.closer != nil {
		err = r.closer.Close()
	}
	return err
}

// New wraps an open go-git repository (for example an in-memory one).
func New(r *git.Repository) *Repo {
	return &Repo{
		repo:    r,
		store:   r.Storer,
		commits: map[plumbing.Hash]*gitblame.Commit{},
		trees:   map[plumbing.Hash]*object.Tree{},
		entries: map[entryKey]entryVal{},
	}
}

func notFound(err error) error {
	if errors.Is(err, plumbing.ErrObjectNotFound) || errors.Is(err, plumbing.ErrReferenceNotFound) {
		return fmt.Errorf("%w: %v", gitblame.ErrNotFound, err)
	}
	return err
}

// Resolve returns the commit a revision names, as git rev-parse does.
func (r *Repo) Resolve(rev string) (gitblame.Hash, error) {
	h, err := r.repo.ResolveRevision(plumbing.Revision(rev))
	if err != nil {
		return gitblame.ZeroHash, fmt.Errorf("githistory: resolve %q: %w", rev, notFound(err))
	}
	return gitblame.Hash(*h), nil
}

// Commit reads a commit object.
func (r *Repo) Commit(h gitblame.Hash) (*gitblame.Commit, error) {
	ph := plumbing.Hash(h)
	if c, ok := r.commits[ph]; ok {
		return c, nil
	}
	c, err := object.GetCommit(r.store, ph)
	if err != nil {
		return nil, fmt.Errorf("githistory: commit %s: %w", h.Short(), notFound(err))
	}
	gc := &gitblame.Commit{
		Hash:        h,
		Tree:        gitblame.Hash(c.TreeHash),
		Author:      c.Author.Name,
		AuthorEmail: c.Author.Email,
		AuthorDate:  c.Author.When,
		CommitDate:  c.Committer.When,
	}
	gc.Subject, _, _ = strings.Cut(strings.TrimSpace(c.Message), "\n")
	for _, p := range c.ParentHashes {
		gc.Parents = append(gc.Parents, gitblame.Hash(p))
	}
	r.commits[ph] = gc
	return gc, nil
}

func (r *Repo) tree(h plumbing.Hash) (*object.Tree, error) {
	if t, ok := r.trees[h]; ok {
		return t, nil
	}
	t, err := object.GetTree(r.store, h)
	if err != nil {
		return nil, fmt.Errorf("githistory: tree %s: %w", h.String()[:7], notFound(err))
	}
	if len(r.trees) >= maxTrees {
		clear(r.trees)
	}
	r.trees[h] = t
	return t, nil
}

// Entry returns the blob of the regular file at path in tree. Symbolic
// links and submodules are not regular files.
func (r *Repo) Entry(tree gitblame.Hash, path string) (gitblame.Hash, bool, error) {
	v, err := r.entry(plumbing.Hash(tree), path)
	return gitblame.Hash(v.h), v.ok, err
}

func (r *Repo) entry(tree plumbing.Hash, path string) (entryVal, error) {
	k := entryKey{tree, path}
	if v, ok := r.entries[k]; ok {
		return v, nil
	}
	t, err := r.tree(tree)
	if err != nil {
		return entryVal{}, err
	}
	name, rest, sub := strings.Cut(path, "/")
	var v entryVal
	for _, e := range t.Entries {
		if e.Name != name {
			continue
		}
		switch {
		case sub && e.Mode == filemode.Dir:
			if v, err = r.entry(e.Hash, rest); err != nil {
				return entryVal{}, err
			}
		case !sub && (e.Mode == filemode.Regular || e.Mode == filemode.Executable || e.Mode == filemode.Deprecated):
			v = entryVal{e.Hash, true}
		}
		break
	}
	r.entries[k] = v
	return v, nil
}

// Blob returns the content of a blob. When the repository was opened
// with Open and a git binary is available, blobs are read through one
// `git cat-file --batch` process (much faster on long delta chains);
// otherwise, or after any failure of that process, through go-git.
func (r *Repo) Blob(h gitblame.Hash) ([]byte, error) {
	if r.cat == nil && !r.catOff && r.gitDir != "" {
		c, err := startCatFile(r.gitDir)
		if err != nil {
			r.catOff = true
		} else {
			r.cat = c
		}
	}
	if r.cat != nil {
		if b, err := r.cat.blob(h); err == nil {
			return b, nil
		}
		r.cat.close() // the protocol is out of step: stop using it
		r.cat, r.catOff = nil, true
	}
	return r.goGitBlob(h)
}

func (r *Repo) goGitBlob(h gitblame.Hash) ([]byte, error) {
	b, err := object.GetBlob(r.store, plumbing.Hash(h))
	if err != nil {
		return nil, fmt.Errorf("githistory: blob %s: %w", h.Short(), notFound(err))
	}
	rd, err := b.Reader()
	if err != nil {
		return nil, fmt.Errorf("githistory: blob %s: %w", h.Short(), err)
	}
	defer rd.Close()
	buf, err := io.ReadAll(rd)
	if err != nil {
		return nil, fmt.Errorf("githistory: reading blob %s: %w", h.Short(), err)
	}
	return buf, nil
}

func (r *Repo) commitTree(h gitblame.Hash) (*object.Tree, error) {
	if h.IsZero() {
		return &object.Tree{}, nil
	}
	c, err := r.Commit(h)
	if err != nil {
		return nil, err
	}
	return r.tree(plumbing.Hash(c.Tree))
}

// Changes returns the regular-file changes between two commits (from may
// be zero for the empty tree). With renames it pairs deletions and
// additions at git diff -M's default 50% similarity; go-git's own default
// is 60%, and plain DiffTree detects none.
func (r *Repo) Changes(from, to gitblame.Hash, renames bool) ([]gitblame.Change, error) {
	a, err := r.commitTree(from)
	if err != nil {
		return nil, err
	}
	b, err := r.commitTree(to)
	if err != nil {
		return nil, err
	}
	opts := &object.DiffTreeOptions{DetectRenames: renames, RenameScore: 50}
	if !renames {
		opts = nil
	}
	chs, err := object.DiffTreeWithOptions(context.Background(), a, b, opts)
	if err != nil {
		return nil, fmt.Errorf("githistory: diff %s..%s: %w", from.Short(), to.Short(), err)
	}
	out := make([]gitblame.Change, 0, len(chs))
	for _, c := range chs {
		var g gitblame.Change
		if c.From.Name != "" && regular(c.From.TreeEntry.Mode) {
			g.From, g.FromBlob = c.From.Name, gitblame.Hash(c.From.TreeEntry.Hash)
		}
		if c.To.Name != "" && regular(c.To.TreeEntry.Mode) {
			g.To, g.ToBlob = c.To.Name, gitblame.Hash(c.To.TreeEntry.Hash)
		}
		if g.From == "" && g.To == "" {
			continue
		}
		out = append(out, g)
	}
	return out, nil
}

func regular(m filemode.FileMode) bool {
	return m == filemode.Regular || m == filemode.Executable || m == filemode.Deprecated
}

// Files lists the regular files of a tree with their blobs, like git
// ls-tree -r.
func (r *Repo) Files(tree gitblame.Hash) (map[string]gitblame.Hash, error) {
	t, err := r.tree(plumbing.Hash(tree))
	if err != nil {
		return nil, err
	}
	out := map[string]gitblame.Hash{}
	w := object.NewTreeWalker(t, true, nil)
	defer w.Close()
	for {
		name, e, err := w.Next()
		if err != nil {
			if errors.Is(err, io.EOF) {
				return out, nil
			}
			return nil, fmt.Errorf("githistory: listing tree %s: %w", tree.Short(), err)
		}
		if regular(e.Mode) {
			out[name] = gitblame.Hash(e.Hash)
		}
	}
}
