package gitrepo

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os/exec"
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

	trees map[gitblame.Hash]gitTree
}

func newGitHistory(r *Repo, objs *objects) *gitHistory {
	h := &gitHistory{
		repo:      r,
		cat:       objs.cat,
		size:      gitblame.SHA1Size,
		emptyTree: emptyTreeSHA1,
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

// Commit reads a commit object, once for every history reader of the
// repository (Repo.commits).
func (g *gitHistory) Commit(h gitblame.Hash) (*gitblame.Commit, error) {
	cc := &g.repo.commits
	if c, ok := cc.get(h); ok {
		return c, nil
	}
	if g.prefetchCommits(h) {
		if c, ok := cc.get(h); ok {
			return c, nil
		}
	}
	data, err := g.object(h, "commit")
	if err != nil {
		return nil, err
	}
	c, err := parseCommit(h, data)
	if err != nil {
		return nil, fmt.Errorf("history: %w", err)
	}
	cc.put(h, c)
	return c, nil
}

// ReadCommits reads the commits of hs not read yet through one cat-file
// request (gitblame.CommitsReader); one that cannot be read is left for
// Commit, which reports the error.
func (g *gitHistory) ReadCommits(hs []gitblame.Hash) {
	cc := &g.repo.commits
	var want []gitblame.Hash
	for _, h := range hs {
		if _, ok := cc.get(h); !ok {
			want = append(want, h)
		}
	}
	g.readCommits(want)
}

// readCommits reads want through one cat-file request.
func (g *gitHistory) readCommits(want []gitblame.Hash) {
	if len(want) == 0 {
		return
	}
	oids := make([]string, len(want))
	for i, c := range want {
		oids[i] = c.String()
	}
	g.cat.objects(oids, func(i int, t string, data []byte, err error) {
		if err != nil || t != "commit" {
			return // asked again alone, with its error
		}
		if c, err := parseCommit(want[i], data); err == nil {
			g.repo.commits.put(want[i], c)
		}
	})
}

// commitsAhead is how many commits of the first-parent chain the
// history reads at once when asked for one of them (prefetchCommits).
const commitsAhead = 256

// prefetchCommits reads, when h is on the first-parent chain whose log
// the repository keeps (Moves) and the commit before it on the chain was
// read (a walk toward the head, which asks for the commits in turn), the
// commits of the chain from h to commitsAhead newer ones, pipelined
// through one cat-file process: one round trip for them all. A reader
// that asks for commits here and there (a walk that reads a commit only
// where it needs its tree) reads each alone.
func (g *gitHistory) prefetchCommits(h gitblame.Hash) bool {
	ix := g.repo.paths.Load()
	cc := &g.repo.commits
	if ix == nil || cc.full() {
		return false
	}
	var want []gitblame.Hash
	ix.mu.RLock()
	k, on := ix.pos[h]
	if on && int(k)+1 < len(ix.order) {
		_, on = cc.get(ix.order[k+1])
	}
	if on {
		for i := int(k); i >= max(0, int(k)-commitsAhead+1); i-- {
			if _, ok := cc.get(ix.order[i]); !ok {
				want = append(want, ix.order[i])
			}
		}
	}
	ix.mu.RUnlock()
	if len(want) == 0 {
		return false
	}
	g.readCommits(want)
	return true
}

func (g *gitHistory) tree(h gitblame.Hash) (gitTree, error) {
	if t, ok := g.trees[h]; ok {
		return t, nil
	}
	data, err := g.object(h, "tree")
	if err != nil {
		return gitTree{}, err
	}
	t, err := newGitTree(data, g.size)
	if err != nil {
		return gitTree{}, fmt.Errorf("history: tree %s: %w", h.Short(), err)
	}
	if len(g.trees) >= maxTrees {
		clear(g.trees)
	}
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
		k, ok := t.find(name, sub)
		if !ok {
			return gitblame.ZeroHash, false, nil
		}
		_, mode, hash := t.entry(k)
		switch {
		case sub && mode == modeDir:
			tree, path = hash, rest
		case !sub && regularMode(mode):
			return hash, true, nil
		default:
			return gitblame.ZeroHash, false, nil
		}
	}
}

// gitTree is a tree object as read, with where each entry starts and
// whether the entries are in git's order (a directory's name sorting as
// if it ended in "/"; a tree git wrote always is). An entry is decoded
// when looked up: the caches hold many trees, and bytes without pointers
// cost the collector nothing to keep.
type gitTree struct {
	data   []byte
	offs   []uint32 // the start of each entry in data
	size   int      // the object names' length
	sorted bool
}

// newGitTree reads a tree object (parseTree's format).
func newGitTree(data []byte, size int) (gitTree, error) {
	t := gitTree{data: data, size: size, sorted: true}
	var prev []byte
	prevDir := false
	err := scanTree(data, size, func(off int, mode uint32, name, _ []byte) {
		dir := canonicalMode(mode) == modeDir
		if len(t.offs) > 0 && t.sorted && cmpKey(prev, prevDir, string(name), dir) >= 0 {
			t.sorted = false
		}
		t.offs = append(t.offs, uint32(off))
		prev, prevDir = name, dir
	})
	if err != nil {
		return gitTree{}, err
	}
	if len(data) > math.MaxUint32 {
		return gitTree{}, errors.New("tree object past 4 GiB")
	}
	return t, nil
}

// entry decodes entry k: its name, canonical mode and object name.
func (t gitTree) entry(k int) (name []byte, mode uint32, hash gitblame.Hash) {
	e := t.data[t.offs[k]:]
	sp := bytes.IndexByte(e, ' ')
	m, _ := octal(e[:sp])
	e = e[sp+1:]
	nul := bytes.IndexByte(e, 0)
	return e[:nul], canonicalMode(m), gitblame.NewHash(e[nul+1 : nul+1+t.size])
}

// nameOf is entry k's name and whether it is a directory.
func (t gitTree) nameOf(k int) ([]byte, bool) {
	e := t.data[t.offs[k]:]
	sp := bytes.IndexByte(e, ' ')
	m, _ := octal(e[:sp])
	isDir := canonicalMode(m) == modeDir
	e = e[sp+1:]
	return e[:bytes.IndexByte(e, 0)], isDir
}

// cmpKey compares the sort key of an entry (name, and "/" after it for a
// directory) with that of name (dir: a directory's), making no string.
func cmpKey(entry []byte, entryDir bool, name string, dir bool) int {
	at := func(s []byte, d bool, i int) int {
		switch {
		case i < len(s):
			return int(s[i])
		case i == len(s) && d:
			return '/'
		}
		return -1
	}
	bt := func(i int) int {
		switch {
		case i < len(name):
			return int(name[i])
		case i == len(name) && dir:
			return '/'
		}
		return -1
	}
	for i := 0; ; i++ {
		x, y := at(entry, entryDir, i), bt(i)
		if x != y {
			if x < y {
				return -1
			}
			return 1
		}
		if x == -1 {
			return 0
		}
	}
}

// find returns the index of the entry named name (a directory's only when
// dir): a binary search in a sorted tree, once for a file and once for a
// directory; the first entry of that name in one that is not.
func (t gitTree) find(name string, dir bool) (int, bool) {
	if strings.IndexByte(name, '/') >= 0 {
		return 0, false // (no entry's name holds one)
	}
	if !t.sorted {
		for k := range t.offs {
			n, isDir := t.nameOf(k)
			if string(n) == name {
				return k, !dir || isDir
			}
		}
		return 0, false
	}
	for _, wantDir := range []bool{false, true} {
		if dir && !wantDir {
			continue // a directory's key only
		}
		lo, hi := 0, len(t.offs)
		for lo < hi {
			mid := int(uint(lo+hi) >> 1)
			n, isDir := t.nameOf(mid)
			c := cmpKey(n, isDir, name, wantDir)
			switch {
			case c == 0:
				return mid, true
			case c < 0:
				lo = mid + 1
			default:
				hi = mid
			}
		}
	}
	return 0, false
}

// Blob returns the content of a blob.
func (g *gitHistory) Blob(h gitblame.Hash) ([]byte, error) {
	return g.object(h, "blob")
}

// Blobs reads several blobs through one cat-file process, pipelined (one
// round trip to git for them all), calling f with each in order; data is
// valid only until f returns (one buffer serves them all).
func (g *gitHistory) Blobs(hs []gitblame.Hash, f func(i int, data []byte, err error)) {
	oids := make([]string, len(hs))
	for i, h := range hs {
		oids[i] = h.String()
	}
	g.cat.objects(oids, func(i int, t string, data []byte, err error) {
		switch {
		case err != nil:
			err = fmt.Errorf("history: blob %s: %w", hs[i].Short(), notFound(err))
		case t != "blob":
			data, err = nil, fmt.Errorf("history: blob %s: a %s: %w", hs[i].Short(), t, gitblame.ErrNotFound)
		}
		f(i, data, err)
	})
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
		proc, in, out, err := d.cmd.start("--git-dir", d.gitDir, "-c", treeDiffCache, "diff-tree", "--stdin", "-r", "-z", d.opt)
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

// commitCache holds the commits a repository's history readers parsed,
// for all of them (a commit object never changes): the prose checker's and
// line identity's, which walk the same first-parent chain. Safe for
// concurrent use; bounded by maxTrees (cleared when full).
type commitCache struct {
	mu sync.RWMutex
	m  map[gitblame.Hash]*gitblame.Commit
}

func (cc *commitCache) get(h gitblame.Hash) (*gitblame.Commit, bool) {
	cc.mu.RLock()
	c, ok := cc.m[h]
	cc.mu.RUnlock()
	return c, ok
}

func (cc *commitCache) put(h gitblame.Hash, c *gitblame.Commit) {
	cc.mu.Lock()
	if cc.m == nil || len(cc.m) >= maxTrees {
		cc.m = map[gitblame.Hash]*gitblame.Commit{}
	}
	cc.m[h] = c
	cc.mu.Unlock()
}

// full reports whether the cache holds as many commits as it keeps.
func (cc *commitCache) full() bool {
	cc.mu.RLock()
	defer cc.mu.RUnlock()
	return len(cc.m) >= maxTrees
}
