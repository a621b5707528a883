package gitrepo

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/plumbing/storer"

	"github.com/git-memcite/git-memcite/internal/gitblame"
)

// goGitHistory reads history in-process with go-git's storage (SHA-1
// repositories). It reads objects directly (no go-git Log or Blame, which
// do not finish on long histories) and caches commits, trees and path
// lookups, so that following a path through thousands of commits decodes
// each changed tree once. Blobs come through the repository's git cat-file
// process (git's own object reader is several times faster on long delta
// chains), go-git's storage after any failure of it.
type goGitHistory struct {
	store   storer.EncodedObjectStorer
	commits map[plumbing.Hash]*gitblame.Commit
	trees   map[plumbing.Hash]*object.Tree
	entries map[plumbing.Hash]map[string]entryVal // the entries of the trees indexed, by name
	nentry  int                                   // the names in entries
	closer  interface{ Close() error }
	cat     *catFile // nil: go-git only
	catOff  bool
}

type entryVal struct {
	h    plumbing.Hash
	mode filemode.FileMode
	ok   bool
}

// maxEntries bounds the names remembered (then all are forgotten).
const maxEntries = 1 << 21

func newGoGitHistory(r *Repo, objs *objects) *goGitHistory {
	st := openStorage(r.GitDir, r.CommonDir, true, objs.cat)
	return &goGitHistory{
		store:   st,
		commits: map[plumbing.Hash]*gitblame.Commit{},
		trees:   map[plumbing.Hash]*object.Tree{},
		entries: map[plumbing.Hash]map[string]entryVal{},
		closer:  st,
		cat:     objs.cat,
	}
}

// toPlumbing and fromPlumbing convert SHA-1 object names.
func toPlumbing(h gitblame.Hash) (p plumbing.Hash) {
	copy(p[:], h.Bytes())
	return p
}

func fromPlumbing(p plumbing.Hash) gitblame.Hash { return gitblame.NewHash(p[:]) }

// Close releases the pack files held open.
func (r *goGitHistory) Close() error {
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

// Commit reads a commit object.
func (r *goGitHistory) Commit(h gitblame.Hash) (*gitblame.Commit, error) {
	ph := toPlumbing(h)
	if c, ok := r.commits[ph]; ok {
		return c, nil
	}
	c, err := object.GetCommit(r.store, ph)
	if err != nil {
		return nil, fmt.Errorf("history: commit %s: %w", h.Short(), notFound(err))
	}
	gc := &gitblame.Commit{
		Hash:        h,
		Tree:        fromPlumbing(c.TreeHash),
		Author:      c.Author.Name,
		AuthorEmail: c.Author.Email,
		AuthorDate:  c.Author.When,
		CommitDate:  c.Committer.When,
	}
	gc.Subject, _, _ = strings.Cut(strings.TrimSpace(c.Message), "\n")
	for _, p := range c.ParentHashes {
		gc.Parents = append(gc.Parents, fromPlumbing(p))
	}
	r.commits[ph] = gc
	return gc, nil
}

func (r *goGitHistory) tree(h plumbing.Hash) (*object.Tree, error) {
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
func (r *goGitHistory) Entry(tree gitblame.Hash, path string) (gitblame.Hash, bool, error) {
	v, err := r.entry(toPlumbing(tree), path)
	return fromPlumbing(v.h), v.ok, err
}

func (r *goGitHistory) entry(tree plumbing.Hash, path string) (entryVal, error) {
	for {
		name, rest, sub := strings.Cut(path, "/")
		v, err := r.child(tree, name)
		if err != nil || !v.ok {
			return entryVal{}, err
		}
		if !sub {
			if v.mode == filemode.Regular || v.mode == filemode.Executable || v.mode == filemode.Deprecated {
				return entryVal{h: v.h, ok: true}, nil
			}
			return entryVal{}, nil
		}
		if v.mode != filemode.Dir {
			return entryVal{}, nil
		}
		tree, path = v.h, rest
	}
}

// child returns the entry name of tree. A tree's names are indexed all at
// once, the first time one is asked for: a path through thousands of
// commits meets the same few trees (and a store of memories, the same
// directory) again and again.
func (r *goGitHistory) child(tree plumbing.Hash, name string) (entryVal, error) {
	names, ok := r.entries[tree]
	if !ok {
		names, ok = r.catTree(tree)
		if !ok {
			t, err := r.tree(tree)
			if err != nil {
				return entryVal{}, err
			}
			// one map a tree, of its size: no growing, names alone as keys
			names = make(map[string]entryVal, len(t.Entries))
			for _, e := range t.Entries {
				if _, dup := names[e.Name]; !dup { // (a damaged tree: the first one)
					names[e.Name] = entryVal{h: e.Hash, mode: e.Mode, ok: true}
				}
			}
		}
		if r.nentry+len(names) > maxEntries {
			clear(r.entries)
			r.nentry = 0
		}
		r.entries[tree] = names
		r.nentry += len(names)
	}
	return names[name], nil
}

// catTree reads the names of a tree through the repository's git cat-file
// process (git's object reader is several times faster than go-git's on
// the long delta chains of trees), decoded as go-git decodes them. ok is
// false when that process cannot give the tree: go-git reads it.
func (r *goGitHistory) catTree(tree plumbing.Hash) (map[string]entryVal, bool) {
	if r.cat == nil || r.catOff {
		return nil, false
	}
	typ, data, err := r.cat.object(tree.String())
	if err != nil || typ != "tree" {
		return nil, false
	}
	obj := &plumbing.MemoryObject{}
	obj.SetType(plumbing.TreeObject)
	if _, err := obj.Write(data); err != nil {
		return nil, false
	}
	var t object.Tree
	if err := t.Decode(obj); err != nil {
		return nil, false
	}
	names := make(map[string]entryVal, len(t.Entries))
	for _, e := range t.Entries {
		if _, dup := names[e.Name]; !dup { // (a damaged tree: the first one)
			names[e.Name] = entryVal{h: e.Hash, mode: e.Mode, ok: true}
		}
	}
	return names, true
}

// Blob returns the content of a blob: through the repository's git
// cat-file process, or go-git after any failure of that process.
func (r *goGitHistory) Blob(h gitblame.Hash) ([]byte, error) {
	if r.cat != nil && !r.catOff {
		typ, b, err := r.cat.object(h.String())
		if err == nil && typ == "blob" {
			return b, nil
		}
		r.catOff = true // the protocol is out of step, or no git: stop using it
	}
	return r.goGitBlob(h)
}

func (r *goGitHistory) goGitBlob(h gitblame.Hash) ([]byte, error) {
	b, err := object.GetBlob(r.store, toPlumbing(h))
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

func (r *goGitHistory) commitTree(h gitblame.Hash) (*object.Tree, error) {
	if h.IsZero() {
		return &object.Tree{}, nil
	}
	c, err := r.Commit(h)
	if err != nil {
		return nil, err
	}
	return r.tree(toPlumbing(c.Tree))
}

// Changes returns the regular-file changes between two commits (from may
// be zero for the empty tree). With renames it pairs deletions and
// additions at git diff -M's default 50% similarity; go-git's own default
// is 60%, and plain DiffTree detects none.
//
// Without renames the trees are compared here, through the decoded-tree
// cache, skipping equal subtrees (diffTrees), in DiffTree's order; go-git
// compares them only where a name is a file on one side and a directory
// on the other.
func (r *goGitHistory) Changes(from, to gitblame.Hash, renames bool) ([]gitblame.Change, error) {
	if !renames {
		a, err := r.commitTreeHash(from)
		if err != nil {
			return nil, err
		}
		b, err := r.commitTreeHash(to)
		if err != nil {
			return nil, err
		}
		out, ok, err := r.diffTrees(a, b, "", []gitblame.Change{})
		if err != nil {
			return nil, fmt.Errorf("history: diff %s..%s: %w", from.Short(), to.Short(), err)
		}
		if ok {
			return out, nil
		}
	}
	return r.goGitChanges(from, to, renames)
}

// goGitChanges is Changes through go-git's DiffTree.
func (r *goGitHistory) goGitChanges(from, to gitblame.Hash, renames bool) ([]gitblame.Change, error) {
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
			g.From, g.FromBlob = c.From.Name, fromPlumbing(c.From.TreeEntry.Hash)
		}
		if c.To.Name != "" && regular(c.To.TreeEntry.Mode) {
			g.To, g.ToBlob = c.To.Name, fromPlumbing(c.To.TreeEntry.Hash)
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
func (r *goGitHistory) Files(tree gitblame.Hash) (map[string]gitblame.Hash, error) {
	t, err := r.tree(toPlumbing(tree))
	if err != nil {
		return nil, err
	}
	out := map[string]gitblame.Hash{}
	err = walkTree(context.Background(), r.store, t, "", func(name string, e object.TreeEntry) {
		if regular(e.Mode) {
			out[name] = fromPlumbing(e.Hash)
		}
	})
	if err != nil {
		return nil, fmt.Errorf("history: listing tree %s: %w", tree.Short(), err)
	}
	return out, nil
}

// commitTreeHash returns the tree of commit h; the zero hash (the empty
// tree) for the zero commit.
func (r *goGitHistory) commitTreeHash(h gitblame.Hash) (plumbing.Hash, error) {
	if h.IsZero() {
		return plumbing.ZeroHash, nil
	}
	c, err := r.Commit(h)
	if err != nil {
		return plumbing.ZeroHash, err
	}
	return toPlumbing(c.Tree), nil
}

// sorted returns the entries of tree h (none for the zero hash) sorted by
// name, as go-git's DiffTree walks them (git's own order puts a directory
// after a file whose name extends the directory's: "a.txt" before "a").
func (r *goGitHistory) sorted(h plumbing.Hash) ([]object.TreeEntry, error) {
	if h.IsZero() {
		return nil, nil
	}
	t, err := r.tree(h)
	if err != nil {
		return nil, err
	}
	es := t.Entries
	if !slices.IsSortedFunc(es, entryByName) {
		// rare (a directory "a" beside "a.txt"): sorted again when asked
		es = slices.Clone(es)
		slices.SortStableFunc(es, entryByName)
	}
	return es, nil
}

func entryByName(a, b object.TreeEntry) int { return strings.Compare(a.Name, b.Name) }

// diffTrees appends the regular-file changes from tree a to tree b (below
// the directory prefix) to out, in the order of go-git's DiffTree without
// rename detection: by path, each directory's names in byte order, depth
// first. ok is false where a name is a directory on one side and not on
// the other (DiffTree's order there is its own).
func (r *goGitHistory) diffTrees(a, b plumbing.Hash, prefix string, out []gitblame.Change) ([]gitblame.Change, bool, error) {
	ea, err := r.sorted(a)
	if err != nil {
		return nil, false, err
	}
	eb, err := r.sorted(b)
	if err != nil {
		return nil, false, err
	}
	i, j := 0, 0
	for i < len(ea) || j < len(eb) {
		c := 0
		switch {
		case i == len(ea):
			c = 1
		case j == len(eb):
			c = -1
		default:
			c = strings.Compare(ea[i].Name, eb[j].Name)
		}
		switch {
		case c < 0:
			if out, err = r.allFiles(ea[i], prefix, out, true); err != nil {
				return nil, false, err
			}
			i++
		case c > 0:
			if out, err = r.allFiles(eb[j], prefix, out, false); err != nil {
				return nil, false, err
			}
			j++
		default:
			x, y := ea[i], eb[j]
			i, j = i+1, j+1
			if x.Hash == y.Hash && x.Mode == y.Mode {
				continue
			}
			dx, dy := x.Mode == filemode.Dir, y.Mode == filemode.Dir
			switch {
			case dx && dy:
				var ok bool
				if out, ok, err = r.diffTrees(x.Hash, y.Hash, prefix+x.Name+"/", out); err != nil || !ok {
					return nil, ok, err
				}
			case dx || dy:
				return nil, false, nil
			default:
				var g gitblame.Change
				if regular(x.Mode) {
					g.From, g.FromBlob = prefix+x.Name, fromPlumbing(x.Hash)
				}
				if regular(y.Mode) {
					g.To, g.ToBlob = prefix+y.Name, fromPlumbing(y.Hash)
				}
				if g.From != "" || g.To != "" {
					out = append(out, g)
				}
			}
		}
	}
	return out, true, nil
}

// allFiles appends the deletion (del) or addition of entry e below
// prefix, every regular file below it for a directory, to out.
func (r *goGitHistory) allFiles(e object.TreeEntry, prefix string, out []gitblame.Change, del bool) ([]gitblame.Change, error) {
	p := prefix + e.Name
	if e.Mode == filemode.Dir {
		es, err := r.sorted(e.Hash)
		if err != nil {
			return nil, err
		}
		for _, c := range es {
			if out, err = r.allFiles(c, p+"/", out, del); err != nil {
				return nil, err
			}
		}
		return out, nil
	}
	if !regular(e.Mode) {
		return out, nil
	}
	if del {
		return append(out, gitblame.Change{From: p, FromBlob: fromPlumbing(e.Hash)}), nil
	}
	return append(out, gitblame.Change{To: p, ToBlob: fromPlumbing(e.Hash)}), nil
}
