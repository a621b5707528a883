package gitrepo

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/git-memcite/git-memcite/internal/gitblame"
)

// Empty tree object names: Changes from the zero hash compares with them
// (git knows the empty tree without storing it).
const (
	emptyTreeSHA1   = "4b825dc642cb6eb9a060e54bf8d69288fbee4904"
	emptyTreeSHA256 = "6ef19b41225c5369f1c104d45d8d85efa9b057b53b14b4b9b939dd74decc5321"
)

// gitHistory reads history through the git binary: commits, trees and
// blobs through the repository's git cat-file --batch process, the
// changes between two trees through long-running git diff-tree --stdin
// processes (one with rename detection at 50% similarity, one without),
// the files of a tree through git ls-tree. It caches commits and trees
// (a path is looked up through the cached trees on its way).
type gitHistory struct {
	repo      *Repo
	cat       *catFile
	size      int // raw object name size: 20 or 32
	emptyTree string
	diffs     map[bool]*diffTree // by rename detection

	commits map[gitblame.Hash]*gitblame.Commit
	trees   map[gitblame.Hash]gitTree
}

func newGitHistory(r *Repo, objs *objects) *gitHistory {
	h := &gitHistory{
		repo:      r,
		cat:       objs.cat,
		size:      gitblame.SHA1Size,
		emptyTree: emptyTreeSHA1,
		commits:   map[gitblame.Hash]*gitblame.Commit{},
		trees:     map[gitblame.Hash]gitTree{},
	}
	if r.ObjectFormat == "sha256" {
		h.size, h.emptyTree = gitblame.SHA256Size, emptyTreeSHA256
	}
	h.diffs = map[bool]*diffTree{
		true:  {cmd: r.cmd(), gitDir: r.GitDir, opt: "--find-renames=50%"},
		false: {cmd: r.cmd(), gitDir: r.GitDir, opt: "--no-renames"},
	}
	return h
}

// notFound marks an object or reference git does not have as
// gitblame.ErrNotFound.
func notFound(err error) error {
	if errors.Is(err, plumbing.ErrObjectNotFound) || errors.Is(err, plumbing.ErrReferenceNotFound) {
		return fmt.Errorf("%w: %v", gitblame.ErrNotFound, err)
	}
	return err
}

// Close stops the diff-tree processes (the cat-file process is the
// repository's: Repo.Close stops it).
func (g *gitHistory) Close() error {
	for _, d := range g.diffs {
		d.mu.Lock()
		d.stop()
		d.mu.Unlock()
	}
	return nil
}

// object reads an object of the given type.
func (g *gitHistory) object(h gitblame.Hash, typ string) ([]byte, error) {
	t, data, err := g.cat.object(h.String())
	if err != nil {
		return nil, fmt.Errorf("history: %s %s: %w", typ, h.Short(), notFound(err))
	}
	if t != typ {
		return nil, fmt.Errorf("history: %s %s: a %s: %w", typ, h.Short(), t, gitblame.ErrNotFound)
	}
	return data, nil
}

// Commit reads a commit object.
func (g *gitHistory) Commit(h gitblame.Hash) (*gitblame.Commit, error) {
	if c, ok := g.commits[h]; ok {
		return c, nil
	}
	data, err := g.object(h, "commit")
	if err != nil {
		return nil, err
	}
	c, err := parseCommit(h, data)
	if err != nil {
		return nil, fmt.Errorf("history: %w", err)
	}
	g.commits[h] = c
	return c, nil
}

func (g *gitHistory) tree(h gitblame.Hash) (gitTree, error) {
	if t, ok := g.trees[h]; ok {
		return t, nil
	}
	data, err := g.object(h, "tree")
	if err != nil {
		return gitTree{}, err
	}
	entries, err := parseTree(data, g.size)
	if err != nil {
		return gitTree{}, fmt.Errorf("history: tree %s: %w", h.Short(), err)
	}
	if len(g.trees) >= maxTrees {
		clear(g.trees)
	}
	t := newGitTree(entries)
	g.trees[h] = t
	return t, nil
}

// Entry returns the blob of the regular file at path in tree. Symbolic
// links and submodules are not regular files. Each tree on the way is
// read once (the trees are cached) and searched by name.
func (g *gitHistory) Entry(tree gitblame.Hash, path string) (gitblame.Hash, bool, error) {
	for {
		t, err := g.tree(tree)
		if err != nil {
			return gitblame.ZeroHash, false, err
		}
		name, rest, sub := strings.Cut(path, "/")
		e, ok := t.find(name, sub)
		switch {
		case !ok:
			return gitblame.ZeroHash, false, nil
		case sub && e.mode == modeDir:
			tree, path = e.hash, rest
		case !sub && regularMode(e.mode):
			return e.hash, true, nil
		default:
			return gitblame.ZeroHash, false, nil
		}
	}
}

// gitTree is a tree's entries, with the names git sorts them by (a
// directory's as if it ended in "/") and whether they are sorted so (a
// tree git wrote always is).
type gitTree struct {
	entries []treeEntry
	keys    []string
	sorted  bool
}

func newGitTree(entries []treeEntry) gitTree {
	t := gitTree{entries: entries, keys: make([]string, len(entries)), sorted: true}
	for i, e := range entries {
		t.keys[i] = e.name
		if e.mode == modeDir {
			t.keys[i] += "/"
		}
		if i > 0 && t.keys[i-1] >= t.keys[i] {
			t.sorted = false
		}
	}
	return t
}

// find returns the entry named name (a directory's only when dir): a
// binary search in a sorted tree, once for a file and once for a
// directory; the first entry of that name in one that is not.
func (t gitTree) find(name string, dir bool) (treeEntry, bool) {
	if strings.IndexByte(name, '/') >= 0 {
		return treeEntry{}, false // (no entry's name holds one)
	}
	if !t.sorted {
		for _, e := range t.entries {
			if e.name == name {
				return e, !dir || e.mode == modeDir
			}
		}
		return treeEntry{}, false
	}
	if !dir {
		if i, ok := slices.BinarySearch(t.keys, name); ok {
			return t.entries[i], true
		}
	}
	if i, ok := slices.BinarySearchFunc(t.keys, name, cmpDirKey); ok {
		return t.entries[i], true
	}
	return treeEntry{}, false
}

// cmpDirKey compares a sort key with name+"/", the key of a directory
// named name, without making that string.
func cmpDirKey(k, name string) int {
	m := min(len(k), len(name))
	if c := strings.Compare(k[:m], name[:m]); c != 0 {
		return c
	}
	if len(k) <= len(name) {
		return -1 // k is name or a prefix of it: before name+"/"
	}
	return strings.Compare(k[len(name):], "/")
}

// Blob returns the content of a blob.
func (g *gitHistory) Blob(h gitblame.Hash) ([]byte, error) {
	return g.object(h, "blob")
}

// Changes returns the regular-file changes between two commits (from may
// be zero for the empty tree), as git diff-tree -r with -M50% or
// --no-renames lists them.
func (g *gitHistory) Changes(from, to gitblame.Hash, renames bool) ([]gitblame.Change, error) {
	a := g.emptyTree
	if !from.IsZero() {
		c, err := g.Commit(from)
		if err != nil {
			return nil, err
		}
		a = c.Tree.String()
	}
	c, err := g.Commit(to)
	if err != nil {
		return nil, err
	}
	recs, err := g.diffs[renames].diff(a, c.Tree.String())
	if err != nil {
		return nil, fmt.Errorf("history: diff %s..%s: %w", from.Short(), to.Short(), err)
	}
	// by the source path, the destination's for an addition (git lists
	// renames under their destination): a change's place does not depend
	// on whether renames were detected
	sort.SliceStable(recs, func(i, j int) bool { return recs[i].name() < recs[j].name() })
	out := make([]gitblame.Change, 0, len(recs))
	for _, rc := range recs {
		var ch gitblame.Change
		src := rc.dst
		if rc.src != "" {
			src = rc.src
		}
		if regularMode(rc.srcMode) {
			ch.From, ch.FromBlob = src, rc.srcHash
		}
		if regularMode(rc.dstMode) {
			ch.To, ch.ToBlob = rc.dst, rc.dstHash
		}
		if ch.From == "" && ch.To == "" {
			continue
		}
		out = append(out, ch)
	}
	return out, nil
}

// Files lists the regular files of a tree with their blobs (git ls-tree
// -r).
func (g *gitHistory) Files(tree gitblame.Hash) (map[string]gitblame.Hash, error) {
	out, err := g.repo.cmd().Run(context.Background(), "--git-dir", g.repo.GitDir, "ls-tree", "-r", "-z", "--full-tree", tree.String())
	if err != nil {
		return nil, fmt.Errorf("history: listing tree %s: %w", tree.Short(), err)
	}
	files := map[string]gitblame.Hash{}
	var bad error
	parseLsTree(out, regularMode, func(path, oid string, _ uint32) {
		h, err := gitblame.ParseHash(oid)
		if err != nil {
			bad = fmt.Errorf("history: listing tree %s: %s: %w", tree.Short(), path, err)
			return
		}
		files[path] = h
	})
	if bad != nil {
		return nil, bad
	}
	return files, nil
}

// diffEnd is written after every request to git diff-tree --stdin: git
// echoes a line that is not an object name, so it marks the end of the
// answer.
const diffEnd = "memcite-end"

// diffTree compares trees through one long-running `git diff-tree --stdin
// -r -z` process, started on first use. Any failure of the process stops
// it; the next request starts a new one.
type diffTree struct {
	cmd    Cmd
	gitDir string
	opt    string // rename detection option

	mu   sync.Mutex
	proc *exec.Cmd
	in   io.WriteCloser
	out  *bufio.Reader
}

// diff returns the records of git diff-tree -r between trees a and b. A
// tree git cannot read is plumbing.ErrObjectNotFound.
func (d *diffTree) diff(a, b string) ([]rawChange, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.proc == nil {
		proc, in, out, err := d.cmd.start("--git-dir", d.gitDir, "diff-tree", "--stdin", "-r", "-z", d.opt)
		if err != nil {
			return nil, err
		}
		d.proc, d.in, d.out = proc, in, bufio.NewReaderSize(out, 1<<16)
	}
	recs, err := d.read(a, b)
	if err != nil && !errors.Is(err, plumbing.ErrObjectNotFound) {
		d.stop() // out of step: start afresh next time
	}
	return recs, err
}

func (d *diffTree) read(a, b string) ([]rawChange, error) {
	if _, err := io.WriteString(d.in, a+" "+b+"\n"+diffEnd+"\n"); err != nil {
		return nil, fmt.Errorf("git diff-tree: %w", err)
	}
	// git prints "A B" before the records, nothing when it cannot read a
	// tree
	recs, header, err := readDiffRecords(d.out)
	switch {
	case err != nil:
		return nil, err
	case header == diffEnd && len(recs) == 0:
		return nil, fmt.Errorf("tree %s or %s: %w", a, b, plumbing.ErrObjectNotFound)
	case header != a+" "+b || len(recs) > 0:
		return nil, fmt.Errorf("git diff-tree: unexpected answer %q", header)
	}
	recs, end, err := readDiffRecords(d.out)
	if err != nil {
		return nil, err
	}
	if end != diffEnd {
		return nil, fmt.Errorf("git diff-tree: unexpected line %q", end)
	}
	return recs, nil
}

func (d *diffTree) stop() {
	if d.proc == nil {
		return
	}
	d.in.Close()
	_ = d.proc.Wait()
	d.proc, d.in, d.out = nil, nil, nil
}
