package gitrepo

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/git-memcite/git-memcite/internal/gitblame"
)

// FileChange is one file changed by a commit of a PathLog: git log --raw's
// status (A, M, D, R, C, T) with the paths and blobs on each side.
type FileChange struct {
	Status           byte
	From, To         string
	FromBlob, ToBlob gitblame.Hash
}

// LogCommit is one commit of a PathLog and the files it changed below
// the pathspecs.
type LogCommit struct {
	Hash    gitblame.Hash
	Changes []FileChange
}

// PathLog lists the first-parent history from head of the files below
// dirs, newest first, with renames paired (as git log --first-parent -M
// --raw -- dirs). A commit that changed nothing below dirs is left out.
func (h *History) PathLog(ctx context.Context, head gitblame.Hash, dirs []string) ([]LogCommit, error) {
	return h.PathLogSince(ctx, gitblame.ZeroHash, head, dirs)
}

// PathLogSince is PathLog of the commits after old (zero: all). With old
// on head's first-parent chain (OnFirstParents), PathLog of head is
// PathLogSince(old, head) followed by PathLog of old.
func (h *History) PathLogSince(ctx context.Context, old, head gitblame.Hash, dirs []string) ([]LogCommit, error) {
	args := []string{"log", "--first-parent", "-M", "--root", "--raw", "-z", "--no-abbrev", "--no-color", "--format=%x01%H", revRange(old, head), "--"}
	args = append(args, dirs...)
	out, err := h.repo.cmd().Run(ctx, args...)
	if err != nil {
		return nil, fmt.Errorf("log of %s: %w", strings.Join(dirs, ", "), err)
	}
	return parsePathLog(out)
}

// parsePathLog reads the output of PathLog's git log: "\x01<hash>" and
// then, after a NUL-separated newline, raw records
// ":<mode> <mode> <blob> <blob> <status>\0<path>\0[<path>\0]".
func parsePathLog(out []byte) ([]LogCommit, error) {
	var log []LogCommit
	err := scanPathLog(out, func(h gitblame.Hash) {
		log = append(log, LogCommit{Hash: h})
	}, func(r logRecord) {
		last := &log[len(log)-1]
		last.Changes = append(last.Changes, r.FileChange)
	})
	return log, err
}

// logRecord is one raw record of a log, with the modes on each side.
type logRecord struct {
	FileChange
	fromMode, toMode uint32
}

// scanPathLog reads parsePathLog's format, calling commit at each commit
// and change at each of its records (none before the first commit).
func scanPathLog(out []byte, commit func(gitblame.Hash), change func(logRecord)) error {
	fields := bytes.Split(out, []byte{0})
	seen := false
	for i := 0; i < len(fields); i++ {
		f := bytes.TrimLeft(fields[i], "\n")
		if len(f) == 0 {
			continue
		}
		if f[0] == 1 {
			hs := strings.TrimSpace(string(f[1:]))
			if j := strings.IndexByte(hs, '\n'); j >= 0 {
				// the header and the first raw record share a field
				rest := []byte(hs[j+1:])
				hs = hs[:j]
				fields[i] = rest
				i--
			}
			hh, err := gitblame.ParseHash(hs)
			if err != nil {
				return fmt.Errorf("log: %q: %w", hs, err)
			}
			commit(hh)
			seen = true
			continue
		}
		if f[0] != ':' || !seen {
			continue
		}
		meta := strings.Fields(string(f[1:]))
		if len(meta) < 5 || i+1 >= len(fields) {
			return fmt.Errorf("log: bad record %q", f)
		}
		var r logRecord
		ch := &r.FileChange
		ch.Status = meta[4][0]
		fm, _ := strconv.ParseUint(meta[0], 8, 32)
		tm, _ := strconv.ParseUint(meta[1], 8, 32)
		r.fromMode, r.toMode = uint32(fm), uint32(tm)
		from, _ := gitblame.ParseHash(meta[2])
		to, _ := gitblame.ParseHash(meta[3])
		i++
		first := string(fields[i])
		switch ch.Status {
		case 'R', 'C':
			if i+1 >= len(fields) {
				return fmt.Errorf("log: bad rename record %q", f)
			}
			i++
			ch.From, ch.To = first, string(fields[i])
			ch.FromBlob, ch.ToBlob = from, to
		case 'A':
			ch.To, ch.ToBlob = first, to
		case 'D':
			ch.From, ch.FromBlob = first, from
		default:
			ch.From, ch.To, ch.FromBlob, ch.ToBlob = first, first, from, to
		}
		change(r)
	}
	return nil
}

// Moves lists the first-parent commits from head, newest first, and the
// deletions of the whole tree among them (git log --first-parent
// --no-renames --diff-filter=D --raw). A rename is a deletion there (and
// an addition): CommitChanges pairs the renames of a commit, for the few
// deletions a caller follows; the log itself asks git for no rename
// detection, which over a long history costs more than the rest of it,
// nor for any blob.
func (h *History) Moves(ctx context.Context, head gitblame.Hash) (order []gitblame.Hash, log []LogCommit, err error) {
	return h.MovesSince(ctx, gitblame.ZeroHash, head)
}

// MovesSince is Moves of the commits after old (zero: all).
func (h *History) MovesSince(ctx context.Context, old, head gitblame.Hash) (order []gitblame.Hash, log []LogCommit, err error) {
	// the commits' order and the log are asked for at once: two git
	// processes, the log the longer
	var (
		revs   []byte
		revErr error
		wg     sync.WaitGroup
	)
	wg.Add(1)
	go func() {
		defer wg.Done()
		revs, revErr = h.repo.cmd().Run(ctx, "rev-list", "--first-parent", revRange(old, head))
	}()
	args := []string{"log", "--first-parent", "--no-renames", "--diff-filter=D", "--raw", "-z", "--no-abbrev", "--no-color", "--format=%x01%H", revRange(old, head)}
	// the whole chain's log lists every change (no --diff-filter, which
	// costs git nothing: it filters after the diff); the deletions are
	// kept from it here, and the files each commit changes are kept for
	// Touching (line identity), which then asks git for no log of its own
	all := old.IsZero()
	if all {
		args = slices.Delete(args, 3, 4)
	}
	out, err := h.repo.cmd().Run(ctx, args...)
	wg.Wait()
	if revErr != nil {
		return nil, nil, fmt.Errorf("rev-list: %w", revErr)
	}
	for _, l := range strings.Fields(string(revs)) {
		hh, err := gitblame.ParseHash(l)
		if err != nil {
			return nil, nil, fmt.Errorf("rev-list: %q: %w", l, err)
		}
		order = append(order, hh)
	}
	if err != nil {
		return nil, nil, fmt.Errorf("log of deletions: %w", err)
	}
	var ix *pathIndex
	if all {
		ix = newPathIndex(order)
	}
	err = scanPathLog(out, func(c gitblame.Hash) {
		log = append(log, LogCommit{Hash: c})
		ix.commit(c)
	}, func(r logRecord) {
		last := &log[len(log)-1]
		last.Changes = append(last.Changes, r.FileChange)
		ix.change(r)
	})
	if err != nil {
		return nil, nil, err
	}
	if all {
		if c, err := h.commitObject(head); err == nil {
			ix.headTree = c.Tree
			h.repo.paths.Store(ix)
		}
		t := touchLogOf(head, log)
		h.repo.touchMu.Lock()
		h.repo.touched, h.repo.chain = t, order
		h.repo.touchMu.Unlock()
		log = deletionsAndRenames(log)
	}
	return order, log, nil
}

// deletionsAndRenames keeps, of a log, the deletions and renames and the
// commits that make any (git log --diff-filter=DR).
func deletionsAndRenames(log []LogCommit) []LogCommit {
	out := log[:0]
	for _, c := range log {
		var keep []FileChange
		for _, ch := range c.Changes {
			if ch.Status == 'D' || ch.Status == 'R' {
				keep = append(keep, ch)
			}
		}
		if len(keep) > 0 {
			out = append(out, LogCommit{Hash: c.Hash, Changes: keep})
		}
	}
	return out
}

// revRange is head, or old..head when old is set.
func revRange(old, head gitblame.Hash) string {
	if old.IsZero() {
		return head.String()
	}
	return old.String() + ".." + head.String()
}

func regexpQuote(s string) string {
	var b strings.Builder
	for _, c := range s {
		if strings.ContainsRune(`\.+*?()|[]{}^$`, c) {
			b.WriteByte('\\')
		}
		b.WriteRune(c)
	}
	return b.String()
}

// OnFirstParents reports whether old is on head's first-parent chain
// (old itself included): then the first-parent history of head is the
// commits of old..head along first parents, then old's.
func (h *History) OnFirstParents(ctx context.Context, old, head gitblame.Hash) (bool, error) {
	if old == head {
		return true, nil
	}
	out, err := h.repo.cmd().Run(ctx, "rev-list", "--first-parent", "--parents", head.String(), "^"+old.String())
	if err != nil {
		return false, fmt.Errorf("rev-list %s..%s: %w", old.Short(), head.Short(), err)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	last := strings.Fields(lines[len(lines)-1])
	return len(last) >= 2 && last[1] == old.String(), nil
}

// ChangesAnyOf reports whether a first-parent commit of from..head adds
// or removes a line with any of words in the files matching pathspecs
// (every file without any): git log -G'\b(w1|w2|…)\b' -- pathspecs. When
// none does, WordChangedIn in that range is zero for each of them and any
// of those pathspecs.
func (h *History) ChangesAnyOf(ctx context.Context, from, head gitblame.Hash, words, pathspecs []string) (bool, error) {
	if len(words) == 0 {
		return false, nil
	}
	q := make([]string, len(words))
	for i, w := range words {
		q[i] = regexpQuote(w)
	}
	args := []string{"log", "--first-parent", "-1", "--format=%H", "-G", `\b(` + strings.Join(q, "|") + `)\b`, from.String() + ".." + head.String(), "--"}
	out, err := h.repo.cmd().Run(ctx, append(args, pathspecs...)...)
	if err != nil {
		return false, fmt.Errorf("log -G: %w", err)
	}
	return strings.TrimSpace(string(out)) != "", nil
}

// pathIndex is what the whole first-parent chain's log says of each
// path: the commits that changed it, each with the file as it was before
// (in the commit's first parent). The file at any commit of the chain is
// then as it was before the oldest change made after that commit, or as
// at the head when none was: EntryAt answers without reading a tree.
type pathIndex struct {
	pos      map[gitblame.Hash]int32 // a commit's place on the chain, 0 the head
	headTree gitblame.Hash
	byPath   map[string][]pathChange // each path's changes, newest first
	at       int32                   // the place of the commit being read (-1: not on the chain)
	// the head's files, listed once (FilesAt)
	headOnce  sync.Once
	headFiles map[string]gitblame.Hash
	headErr   error
}

// pathChange is a change of a path, and the path before it.
type pathChange struct {
	pos     int32
	present bool // a regular file before
	blob    gitblame.Hash
}

func newPathIndex(order []gitblame.Hash) *pathIndex {
	ix := &pathIndex{pos: make(map[gitblame.Hash]int32, len(order)), byPath: map[string][]pathChange{}}
	for i, c := range order {
		ix.pos[c] = int32(i)
	}
	return ix
}

func (ix *pathIndex) commit(c gitblame.Hash) {
	if ix == nil {
		return
	}
	p, ok := ix.pos[c]
	if !ok {
		p = -1
	}
	ix.at = p
}

func (ix *pathIndex) change(r logRecord) {
	if ix == nil || ix.at < 0 {
		return
	}
	before := pathChange{pos: ix.at, present: r.From != "" && regularMode(canonicalMode(r.fromMode)), blob: r.FromBlob}
	if r.Status == 'A' {
		before.present = false
	}
	p := r.From
	if p == "" {
		p = r.To
	}
	ix.byPath[p] = append(ix.byPath[p], before)
}

// EntryAt is Entry of the tree of a commit on the first-parent chain of
// the head Moves last read the whole log of: the blob of the regular
// file at path p there, and whether there is one; known is false when
// there is no such log or commit is not on its chain (ask Entry then).
func (h *History) EntryAt(commit gitblame.Hash, p string) (blob gitblame.Hash, ok, known bool, err error) {
	ix := h.repo.paths.Load()
	if ix == nil {
		return gitblame.ZeroHash, false, false, nil
	}
	k, on := ix.pos[commit]
	if !on {
		return gitblame.ZeroHash, false, false, nil
	}
	chs := ix.byPath[p] // newest first: their places ascend
	i := sort.Search(len(chs), func(i int) bool { return chs[i].pos >= k }) - 1
	if i < 0 {
		// no commit since changed it: as at the head
		blob, ok, err = h.Entry(ix.headTree, p)
		return blob, ok, err == nil, err
	}
	if !chs[i].present {
		return gitblame.ZeroHash, false, true, nil
	}
	return chs[i].blob, true, true, nil
}

// FilesAt is Files of the tree of a commit on the chain EntryAt knows
// (known false otherwise): the head's files, with those a commit since
// changed as they were at commit. Only the head's tree is listed (once),
// however many commits are asked for.
func (h *History) FilesAt(commit gitblame.Hash) (files map[string]gitblame.Hash, known bool, err error) {
	ix := h.repo.paths.Load()
	if ix == nil {
		return nil, false, nil
	}
	k, on := ix.pos[commit]
	if !on {
		return nil, false, nil
	}
	ix.headOnce.Do(func() { ix.headFiles, ix.headErr = h.Files(ix.headTree) })
	if ix.headErr != nil {
		return nil, false, ix.headErr
	}
	files = make(map[string]gitblame.Hash, len(ix.headFiles))
	for p, b := range ix.headFiles {
		if _, changed := ix.byPath[p]; !changed {
			files[p] = b
		}
	}
	for p, chs := range ix.byPath {
		i := sort.Search(len(chs), func(i int) bool { return chs[i].pos >= k }) - 1
		switch {
		case i >= 0 && chs[i].present:
			files[p] = chs[i].blob
		case i < 0:
			if b, ok := ix.headFiles[p]; ok {
				files[p] = b // no commit since changed it
			}
		}
	}
	return files, true, nil
}
