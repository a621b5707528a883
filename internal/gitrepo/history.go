package gitrepo

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/plumbing/storer"

	"github.com/git-memcite/git-memcite/internal/gitblame"
)

// maxTrees bounds the decoded-tree cache; it is cleared when full.
const maxTrees = 50000

// ErrNoHistory is returned by History for repositories whose history
// git-memcite cannot follow yet (the SHA-256 object format).
var ErrNoHistory = errors.New("following lines through history needs a SHA-1 repository")

// History implements gitblame.History. It reads objects directly (no
// go-git Log or Blame, which do not finish on long histories) and caches
// commits, trees and path lookups, so that following a path through
// thousands of commits decodes each changed tree once. Blobs come through
// the repository's git cat-file process (git's own object reader is several
// times faster on long delta chains), go-git's storage after any failure
// of it. It is not safe for concurrent use.
type History struct {
	repo    *Repo
	store   storer.EncodedObjectStorer
	commits map[plumbing.Hash]*gitblame.Commit
	trees   map[plumbing.Hash]*object.Tree
	entries map[entryKey]entryVal
	closer  interface{ Close() error }
	cat     *catFile // nil: go-git only
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

var _ gitblame.History = (*History)(nil)

// OpenHistory opens the history of the repository containing dir.
func OpenHistory(dir string) (*History, error) {
	r, err := Discover(dir)
	if err != nil {
		return nil, err
	}
	return r.History()
}

// History opens the repository's history. Pack files stay open until
// Close.
func (r *Repo) History() (*History, error) {
	objs, err := r.objects()
	if err != nil {
		return nil, err
	}
	if objs.store == nil {
		return nil, fmt.Errorf("%w (this one uses %s)", ErrNoHistory, r.ObjectFormat)
	}
	st := openStorage(r.GitDir, r.CommonDir, true)
	h := &History{
		repo:    r,
		store:   &fallbackStorer{Storage: st, cat: objs.cat},
		commits: map[plumbing.Hash]*gitblame.Commit{},
		trees:   map[plumbing.Hash]*object.Tree{},
		entries: map[entryKey]entryVal{},
		closer:  st,
		cat:     objs.cat,
	}
	return h, nil
}

// Repo returns the repository h reads.
func (r *History) Repo() *Repo { return r.repo }

// Close releases the pack files held open.
func (r *History) Close() error {
	if r.closer != nil {
		return r.closer.Close()
	}
	return nil
}

func notFound(err error) error {
	if errors.Is(err, plumbing.ErrObjectNotFound) || errors.Is(err, plumbing.ErrReferenceNotFound) {
		return fmt.Errorf("%w: %v", gitblame.ErrNotFound, err)
	}
	return err
}

// Resolve returns the commit a revision names, exactly as git rev-parse
// does (Repo.ResolveCommit).
func (r *History) Resolve(rev string) (gitblame.Hash, error) {
	oid, err := r.repo.ResolveCommit(context.Background(), rev)
	if err != nil {
		return gitblame.ZeroHash, fmt.Errorf("%w: %v", gitblame.ErrNotFound, err)
	}
	h, ok := oid.Hash()
	if !ok {
		return gitblame.ZeroHash, fmt.Errorf("revision %q: %w", rev, ErrNoHistory)
	}
	return h, nil
}

// Commit reads a commit object.
func (r *History) Commit(h gitblame.Hash) (*gitblame.Commit, error) {
	ph := plumbing.Hash(h)
	if c, ok := r.commits[ph]; ok {
		return c, nil
	}
	c, err := object.GetCommit(r.store, ph)
	if err != nil {
		return nil, fmt.Errorf("history: commit %s: %w", h.Short(), notFound(err))
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

func (r *History) tree(h plumbing.Hash) (*object.Tree, error) {
	if t, ok := r.trees[h]; ok {
		return t, nil
	}
	t, err := object.GetTree(r.store, h)
	if err != nil {
		return nil, fmt.Errorf("history: tree %s: %w", h.String()[:7], notFound(err))
	}
	if len(r.trees) >= maxTrees {
		clear(r.trees)
	}
	r.trees[h] = t
	return t, nil
}

// Entry returns the blob of the regular file at path in tree. Symbolic
// links and submodules are not regular files.
func (r *History) Entry(tree gitblame.Hash, path string) (gitblame.Hash, bool, error) {
	v, err := r.entry(plumbing.Hash(tree), path)
	return gitblame.Hash(v.h), v.ok, err
}

func (r *History) entry(tree plumbing.Hash, path string) (entryVal, error) {
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

// Blob returns the content of a blob: through the repository's git
// cat-file process, or go-git after any failure of that process.
func (r *History) Blob(h gitblame.Hash) ([]byte, error) {
	if r.cat != nil && !r.catOff {
		typ, b, err := r.cat.object(h.String())
		if err == nil && typ == "blob" {
			return b, nil
		}
		r.catOff = true // the protocol is out of step, or no git: stop using it
	}
	return r.goGitBlob(h)
}

func (r *History) goGitBlob(h gitblame.Hash) ([]byte, error) {
	b, err := object.GetBlob(r.store, plumbing.Hash(h))
	if err != nil {
		return nil, fmt.Errorf("history: blob %s: %w", h.Short(), notFound(err))
	}
	rd, err := b.Reader()
	if err != nil {
		return nil, fmt.Errorf("history: blob %s: %w", h.Short(), err)
	}
	defer rd.Close()
	buf, err := io.ReadAll(rd)
	if err != nil {
		return nil, fmt.Errorf("history: reading blob %s: %w", h.Short(), err)
	}
	return buf, nil
}

func (r *History) commitTree(h gitblame.Hash) (*object.Tree, error) {
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
func (r *History) Changes(from, to gitblame.Hash, renames bool) ([]gitblame.Change, error) {
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
		return nil, fmt.Errorf("history: diff %s..%s: %w", from.Short(), to.Short(), err)
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
func (r *History) Files(tree gitblame.Hash) (map[string]gitblame.Hash, error) {
	t, err := r.tree(plumbing.Hash(tree))
	if err != nil {
		return nil, err
	}
	out := map[string]gitblame.Hash{}
	err = walkTree(context.Background(), r.store, t, "", func(name string, e object.TreeEntry) {
		if regular(e.Mode) {
			out[name] = gitblame.Hash(e.Hash)
		}
	})
	if err != nil {
		return nil, fmt.Errorf("history: listing tree %s: %w", tree.Short(), err)
	}
	return out, nil
}
