package gitrepo

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
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
	args := []string{"-c", treeDiffCache, "log", "--first-parent", "-M", "--root", "--raw", "-z", "--no-abbrev", "--no-color", "--format=%x01%H", revRange(old, head), "--"}
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
	return readPathLog(bytes.NewReader(out), commit, change)
}

// readPathLog is scanPathLog reading as git writes (Cmd.Stream): a
// caller may use each commit's records while git goes on.
func readPathLog(r io.Reader, commit func(gitblame.Hash), change func(logRecord)) error {
	fr := fieldReader{r: bufio.NewReaderSize(r, 1<<16)}
	seen := false
	var pending []byte // a field read but not used yet
	next := func() ([]byte, error) {
		if pending != nil {
			f := pending
			pending = nil
			return f, nil
		}
		return fr.next()
	}
	for {
		raw, err := next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		f := bytes.TrimLeft(raw, "\n")
		if len(f) == 0 {
			continue
		}
		if f[0] == 1 {
			hs := bytes.TrimSpace(f[1:])
			if j := bytes.IndexByte(hs, '\n'); j >= 0 {
				// the header and the first raw record share a field
				pending = slices.Clone(hs[j+1:])
				hs = hs[:j]
			}
			hh, err := gitblame.ParseHash(string(hs))
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
		rec, err := rawRecord(f, next)
		if err != nil {
			return err
		}
		change(rec)
	}
}

// rawRecord reads one record of git's -z --raw output: f is its
// ":modes ids status" field, next gives its path (two for a rename or a
// copy).
func rawRecord(f []byte, next func() ([]byte, error)) (logRecord, error) {
	var rec logRecord
	meta := strings.Fields(string(f[1:]))
	if len(meta) < 5 {
		return rec, fmt.Errorf("log: bad record %q", f)
	}
	ch := &rec.FileChange
	ch.Status = meta[4][0]
	fm, _ := strconv.ParseUint(meta[0], 8, 32)
	tm, _ := strconv.ParseUint(meta[1], 8, 32)
	rec.fromMode, rec.toMode = uint32(fm), uint32(tm)
	from, _ := gitblame.ParseHash(meta[2])
	to, _ := gitblame.ParseHash(meta[3])
	// (f is next's buffer: the messages below name the record by meta)
	p1, err := next()
	if err != nil {
		return rec, fmt.Errorf("log: bad record %q", ":"+strings.Join(meta, " "))
	}
	first := string(p1)
	switch ch.Status {
	case 'R', 'C':
		p2, err := next()
		if err != nil {
			return rec, fmt.Errorf("log: bad rename record %q", ":"+strings.Join(meta, " "))
		}
		ch.From, ch.To = first, string(p2)
		ch.FromBlob, ch.ToBlob = from, to
	case 'A':
		ch.To, ch.ToBlob = first, to
	case 'D':
		ch.From, ch.FromBlob = first, from
	default:
		ch.From, ch.To, ch.FromBlob, ch.ToBlob = first, first, from, to
	}
	return rec, nil
}

// fieldReader reads NUL-separated fields as bytes.Split cuts them: n
// NULs make n+1 fields, the last one what follows the last NUL (empty
// after a final NUL).
type fieldReader struct {
	r    *bufio.Reader
	buf  []byte
	done bool // the last field was returned
}

// next returns the next field, valid until the next call; io.EOF after
// the last.
func (f *fieldReader) next() ([]byte, error) {
	if f.done {
		return nil, io.EOF
	}
	f.buf = f.buf[:0]
	for {
		b, err := f.r.ReadSlice(0)
		switch {
		case err == nil:
			if len(f.buf) == 0 {
				return b[:len(b)-1], nil
			}
			f.buf = append(f.buf, b[:len(b)-1]...)
			return f.buf, nil
		case errors.Is(err, bufio.ErrBufferFull):
			f.buf = append(f.buf, b...)
		case err == io.EOF:
			f.done = true
			return append(f.buf, b...), nil
		default:
			return nil, err
		}
	}
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
	args := []string{"-c", treeDiffCache, "log", "--first-parent", "--no-renames", "--diff-filter=D", "--raw", "-z", "--no-abbrev", "--no-color", "--format=%x01%H", revRange(old, head)}
	// the whole chain's log lists every change and every commit (no
	// --diff-filter, which costs git nothing: it filters after the
	// diff): the chain's order is its commits', the deletions are kept
	// from it here, and the files each commit changes are kept for
	// Touching (line identity), which then asks git for no log of its own
	all := old.IsZero()
	// a range's log lists only the commits that delete: its order is asked
	// of git rev-list at once
	var (
		revs   []byte
		revErr error
		wg     sync.WaitGroup
	)
	if all {
		args = slices.Delete(args, 5, 6) // --diff-filter=D
	} else {
		wg.Add(1)
		go func() {
			defer wg.Done()
			revs, revErr = h.repo.cmd().Run(ctx, "rev-list", "--first-parent", revRange(old, head))
		}()
	}
	// the whole chain's log is kept by path as git writes it (EntryAt,
	// FilesAtEach answer for a commit once git has written it: the commits
	// are written newest first, so every change since that commit is in)
	var ix *pathIndex
	if all {
		if c, err := h.commitObject(head); err == nil {
			ix = &pathIndex{headTree: c.Tree, pos: map[gitblame.Hash]int32{}, byPath: map[string][]pathChange{}}
			h.repo.paths.Store(ix)
			// the head's files, which EntryAt answers most paths from, are
			// listed beside the log (Files keeps nothing of h's), before
			// MovesSince returns: no git process outlives the run
			wg.Add(1)
			go func() {
				defer wg.Done()
				_ = ix.listHead(h)
			}()
		}
	}
	err = h.repo.cmd().Stream(ctx, func(r io.Reader) error {
		return readPathLog(r, func(c gitblame.Hash) {
			log = append(log, LogCommit{Hash: c})
			ix.commit(c)
		}, func(r logRecord) {
			last := &log[len(log)-1]
			last.Changes = append(last.Changes, r.FileChange)
			ix.change(r)
		})
	}, args...)
	wg.Wait()
	if err != nil {
		return nil, nil, fmt.Errorf("log of deletions: %w", err)
	}
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
	if all {
		for _, c := range log {
			order = append(order, c.Hash)
		}
		t := touchLogOf(head, log)
		h.repo.touchMu.Lock()
		h.repo.touched, h.repo.chain = t, order
		h.repo.touchMu.Unlock()
		log = deletions(log)
	}
	return order, log, nil
}

// deletions keeps, of a log, the deletions and the commits that make any
// (git log --diff-filter=D).
func deletions(log []LogCommit) []LogCommit {
	out := log[:0]
	for _, c := range log {
		var keep []FileChange
		for _, ch := range c.Changes {
			if ch.Status == 'D' {
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
	headTree gitblame.Hash
	mu       sync.RWMutex
	pos      map[gitblame.Hash]int32 // a commit's place on the chain, 0 the head, as the log came
	order    []gitblame.Hash         // the chain so far, newest first
	byPath   map[string][]pathChange // each path's changes, newest first
	// the head's files, listed once (listHead)
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

// listHead lists the head's files (headFiles) once.
func (ix *pathIndex) listHead(h *History) error {
	ix.headOnce.Do(func() { ix.headFiles, ix.headErr = h.Files(ix.headTree) })
	return ix.headErr
}

// commit adds the next commit of the log (a nil index keeps nothing).
func (ix *pathIndex) commit(c gitblame.Hash) {
	if ix == nil {
		return
	}
	ix.mu.Lock()
	ix.pos[c] = int32(len(ix.order))
	ix.order = append(ix.order, c)
	ix.mu.Unlock()
}

// change adds a change of the commit added last.
func (ix *pathIndex) change(r logRecord) {
	if ix == nil {
		return
	}
	p := r.From
	if p == "" {
		p = r.To
	}
	ix.mu.Lock()
	before := pathChange{pos: int32(len(ix.order) - 1), present: r.Status != 'A' && r.From != "" && regularMode(canonicalMode(r.fromMode)), blob: r.FromBlob}
	ix.byPath[p] = append(ix.byPath[p], before)
	ix.mu.Unlock()
}

// before is the change of p the file at place k is as it was before: the
// oldest change since; false when none changed it since (it is as at
// the head).
func (ix *pathIndex) before(p string, k int32) (pathChange, bool) {
	return beforeIn(ix.byPath[p], k)
}

// beforeIn is before of a path's changes (newest first: their places
// ascend).
func beforeIn(chs []pathChange, k int32) (pathChange, bool) {
	i := sort.Search(len(chs), func(i int) bool { return chs[i].pos >= k }) - 1
	if i < 0 {
		return pathChange{}, false
	}
	return chs[i], true
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
	ix.mu.RLock()
	k, on := ix.pos[commit]
	ch, changed := ix.before(p, k)
	ix.mu.RUnlock()
	switch {
	case !on:
		return gitblame.ZeroHash, false, false, nil
	case !changed:
		// as at the head: from its files, listed once (FilesAtEach lists them
		// too), not a tree read for each folder asked about
		if ix.listHead(h) == nil {
			blob, ok = ix.headFiles[p]
			return blob, ok, true, nil
		}
		blob, ok, err = h.Entry(ix.headTree, p)
		return blob, ok, err == nil, err
	case !ch.present:
		return gitblame.ZeroHash, false, true, nil
	}
	return ch.blob, true, true, nil
}

// FilesAtEach is Files of the tree of each of commits on the chain
// EntryAt knows (a nil map for one it does not): the head's files, with
// those a commit since changed as they were at that commit. Only the
// head's tree is listed (once), however many commits are asked for, and
// each path is tested by keep once for them all. keep, when set, names
// the paths wanted: the others are left out (a tree's code files cost a
// map of thousands of entries less). It returns nil when there is no log
// of the whole chain.
func (h *History) FilesAtEach(commits []gitblame.Hash, keep func(path string) bool) ([]map[string]gitblame.Hash, error) {
	ix := h.repo.paths.Load()
	if ix == nil {
		return nil, nil
	}
	if err := ix.listHead(h); err != nil {
		return nil, err
	}
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	out := make([]map[string]gitblame.Hash, len(commits))
	var ks []int32 // the places of the commits known
	var at []int   // and their index in commits
	for i, c := range commits {
		if k, on := ix.pos[c]; on {
			if keep == nil {
				out[i] = make(map[string]gitblame.Hash, len(ix.headFiles))
			} else {
				out[i] = map[string]gitblame.Hash{}
			}
			ks, at = append(ks, k), append(at, i)
		}
	}
	if len(ks) == 0 {
		return out, nil
	}
	for p, b := range ix.headFiles {
		if _, changed := ix.byPath[p]; !changed && (keep == nil || keep(p)) {
			for _, i := range at {
				out[i][p] = b // no commit ever changed it
			}
		}
	}
	for p, chs := range ix.byPath {
		if keep != nil && !keep(p) {
			continue
		}
		for n, k := range ks {
			ch, changed := beforeIn(chs, k)
			switch {
			case changed && ch.present:
				out[at[n]][p] = ch.blob
			case !changed:
				if b, ok := ix.headFiles[p]; ok {
					out[at[n]][p] = b // no commit since changed it
				}
			}
		}
	}
	return out, nil
}

// Changes is gitblame.History's Changes. Without rename detection, between
// two commits of the first-parent chain whose whole log was read (Moves),
// from older than to, it is answered from that log: the paths the commits
// after from up to to change, each as EntryAt finds it at both ends; a
// path whose blob is the same at both (changed and changed back, or only
// its mode) is no change. Otherwise git diff-tree is asked.
func (h *History) Changes(from, to gitblame.Hash, renames bool) ([]gitblame.Change, error) {
	if !renames {
		if ch, ok := h.changesFromLog(from, to); ok {
			return ch, nil
		}
	}
	return h.gitHistory.Changes(from, to, renames)
}

// changesFromLog is Changes from the whole chain's log; false when it
// cannot answer.
func (h *History) changesFromLog(from, to gitblame.Hash) ([]gitblame.Change, bool) {
	if from.IsZero() {
		return nil, false
	}
	ix, t, unlock := h.wholeLog()
	if ix == nil {
		return nil, false
	}
	defer unlock()
	kf, onF := ix.pos[from]
	kt, onT := ix.pos[to]
	if !onF || !onT || kt > kf || int(kf) >= len(t.commits) || t.commits[kf].Commit != from || t.commits[kt].Commit != to {
		return nil, false // not both on the chain the log and the index hold, in order
	}
	var paths []string
	for k := kt; k < kf; k++ {
		paths = append(paths, t.commits[k].Paths...)
	}
	slices.Sort(paths)
	paths = slices.Compact(paths)
	out := []gitblame.Change{}
	for _, p := range paths {
		a, inFrom := ix.fileAt(kf, p)
		b, inTo := ix.fileAt(kt, p)
		if inFrom == inTo && a == b {
			continue
		}
		var ch gitblame.Change
		if inFrom {
			ch.From, ch.FromBlob = p, a
		}
		if inTo {
			ch.To, ch.ToBlob = p, b
		}
		out = append(out, ch)
	}
	return out, true
}

// wholeLog returns the whole chain's log as the repository keeps it (by
// path, and the files of each commit), with the head's files listed and
// the index read-locked until unlock; nil when there is no such log.
func (h *History) wholeLog() (ix *pathIndex, t *touchLog, unlock func()) {
	ix = h.repo.paths.Load()
	h.repo.touchMu.Lock()
	t = h.repo.touched
	h.repo.touchMu.Unlock()
	if ix == nil || t == nil || ix.listHead(h) != nil {
		return nil, nil, nil
	}
	ix.mu.RLock()
	return ix, t, ix.mu.RUnlock
}

// fileAt is the blob of the regular file q at the commit at place k of
// the chain, and whether there is one (ix.mu held): as the oldest change
// since left it, or as at the head.
func (ix *pathIndex) fileAt(k int32, q string) (gitblame.Hash, bool) {
	ch, changed := ix.before(q, k)
	if !changed {
		b, ok := ix.headFiles[q]
		return b, ok
	}
	return ch.blob, ch.present
}

// RenamesFromLog tells, of the regular files commit deleted, where it
// renamed those the whole chain's log (Moves) can tell it of as git's
// rename detection (git diff-tree -M) would: "" for each when the commit
// added no file (nothing to rename to); the added file for one whose
// content exactly one added file holds, when no other deleted file held
// it (an exact rename, which git pairs before it compares contents). The
// others are left out, for git to be asked: another added file may hold
// one's content edited, or several the same. ok is false when the log
// cannot answer for the commit (not on the chain it read, the root, or a
// file that is not a regular one changed, which git may pair).
func (h *History) RenamesFromLog(commit gitblame.Hash) (renamed map[string]string, ok bool) {
	ix, t, unlock := h.wholeLog()
	if ix == nil {
		return nil, false
	}
	defer unlock()
	k, on := ix.pos[commit]
	if !on || int(k)+1 >= len(ix.order) || int(k) >= len(t.commits) || t.commits[k].Commit != commit {
		return nil, false
	}
	type deletion struct {
		path string
		blob gitblame.Hash
	}
	var deleted []deletion
	goneWith := map[gitblame.Hash]int{}       // deleted files by content
	addedWith := map[gitblame.Hash][]string{} // added files by content
	for _, q := range t.commits[k].Paths {
		a, before := ix.fileAt(k+1, q)
		b, after := ix.fileAt(k, q)
		switch {
		case !before && !after:
			return nil, false // a file that is not a regular one changed
		case !before:
			addedWith[b] = append(addedWith[b], q)
		case !after:
			deleted = append(deleted, deletion{q, a})
			goneWith[a]++
		}
	}
	renamed = make(map[string]string, len(deleted))
	for _, d := range deleted {
		switch {
		case len(addedWith) == 0:
			renamed[d.path] = ""
		case len(addedWith[d.blob]) == 1 && goneWith[d.blob] == 1:
			renamed[d.path] = addedWith[d.blob][0]
		}
	}
	return renamed, true
}
