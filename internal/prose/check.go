package prose

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"hash/maphash"
	"path"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/git-memcite/git-memcite/internal/gitblame"
	"github.com/git-memcite/git-memcite/internal/memfile"
	"github.com/git-memcite/git-memcite/internal/source"
	"github.com/git-memcite/git-memcite/internal/store"
	"github.com/git-memcite/git-memcite/internal/symdef"
	"github.com/git-memcite/git-memcite/internal/trace"
	"github.com/git-memcite/git-memcite/internal/vcache"
	"github.com/git-memcite/git-memcite/internal/verify"
	"github.com/git-memcite/git-memcite/internal/workers"
)

// FileChange is one file a commit of a Log changed: git log --raw's
// status (A, M, D, R, C, T) with the paths and blobs on each side.
type FileChange struct {
	Status           byte
	From, To         string
	FromBlob, ToBlob gitblame.Hash
}

// LogCommit is one commit of a Log and the files it changed.
type LogCommit struct {
	Hash    gitblame.Hash
	Changes []FileChange
}

// Log is the history the checker asks git for (internal/gitrepo).
type Log interface {
	// PathLog lists the first-parent history from head of the files below
	// dirs, newest first, renames paired.
	PathLog(ctx context.Context, head gitblame.Hash, dirs []string) ([]LogCommit, error)
	// Moves lists the first-parent commits from head, newest first, and
	// the deletions and renames (paired) of the whole tree among them.
	Moves(ctx context.Context, head gitblame.Hash) (order []gitblame.Hash, log []LogCommit, err error)
}

// Checker judges the references of memories' prose where their words
// were written (verify.ProseChecker):
//
//  1. Extract the references of the memory file.
//  2. Find the commit that wrote each reference's line of the memory file:
//     the oldest version of the file, back from HEAD through its renames,
//     of the newest run of versions that all hold the line. A line HEAD's
//     version does not hold is not committed: it is judged against the
//     content checked, as written now.
//  3. Resolve the reference in that commit's tree: a path (exactly, by a
//     unique path suffix, or a bare file name naming exactly one tracked
//     file), a memory, the cited lines. What did not resolve there is
//     unresolved: information, never stale.
//  4. Judge it now: a path that is gone was moved (git's rename pairing
//     between the commit and HEAD) or deleted, with the commit that did
//     it; lines are checked with the text they had then as the snippet;
//     a memory link whose memory is gone was renamed or deleted.
//
// Without history (no commits), every reference is judged as written now.
type Checker struct {
	H    gitblame.History // nil without commits
	Log  Log              // nil without commits
	Sym  Symbols          // nil without commits: symbols are judged now only
	Head gitblame.Hash
	Dirs []string        // the memory directories
	All  []*store.Memory // every memory of the store, for memory names
	Opt  Options
	// Cache is the verification cache (internal/vcache) judgments and
	// references are kept in; nil: none.
	Cache *vcache.Cache

	once     sync.Once
	logErr   error
	versions map[string][]version // memory path at HEAD → versions, newest first
	trees    map[gitblame.Hash]gitblame.Hash
	// the first-parent history's renames and deletions (fate)
	movesOnce sync.Once
	movesErr  error
	order     map[gitblame.Hash]int // commit → position, HEAD first
	moves     []LogCommit
	gone      *tracked // the paths of moves' deletions and renames
	renamesMu sync.Mutex
	renames   map[gitblame.Hash]*commitRenames // the commits asked for their renames (renamedIn)
	lines     map[gitblame.Hash][]string
	logRead   bool          // the history of the memory directories lists commits
	vc        *vcache.Cache // the cache trees and their files are kept in (CheckProse)
	// missing counts the objects found missing from the repository: a
	// memory whose judgment met one is not cached
	missing int
	// the logs asked for ahead (prefetch)
	prefetchOnce sync.Once
	prefetched   sync.WaitGroup
	// the newest versions of the memories judged, read ahead
	// (readAhead): a memory's are read when ahead[path] is closed
	aheadMu      sync.Mutex
	ahead        map[string]chan struct{}
	renamesAhead bool // startRenamesAhead ran
	// refs are the references of the memories judged, by memory, as
	// extracted by the judging or ahead of it (renamesAhead)
	refs sync.Map
	// noWait: a judgment that needs the log of renames and deletions
	// fails with errMovesNotRead instead of waiting for it
	noWait bool
	// released: Release let go of the history
	released bool
}

// errReleased: CheckProse after Release.
var errReleased = errors.New("prose: the checker's history was released")

// Release lets go of what the checker read of history (the versions of
// the memory files, the logs, the trees and lines of old commits) and of
// the history itself, once its last CheckProse is done (and the symbols
// of its CheckProseLater judged): the memory is then the collector's while
// the caller goes on (line identity). The checker judges nothing after.
func (c *Checker) Release() {
	c.released = true
	c.H, c.Log, c.Sym = nil, nil, nil
	c.versions, c.trees, c.lines = nil, nil, nil
	c.refs.Clear()
	c.order, c.moves, c.gone, c.renames = nil, nil, nil, nil
}

// errMovesNotRead: a judgment needs the log of renames and deletions
// (Checker.noWait).
var errMovesNotRead = errors.New("prose: the renames and deletions are needed")

// prefetch asks git for both logs (the history of the memory directories
// and the renames and deletions) at once, each in its own goroutine, when
// the run will read both: the git processes run side by side, and beside
// the judging. Once a run; wait waits for them.
func (c *Checker) prefetch(ctx context.Context) {
	if c.H == nil || c.Log == nil {
		return
	}
	c.prefetchOnce.Do(func() {
		c.prefetched.Add(2)
		go func() {
			defer c.prefetched.Done()
			_ = c.loadLog(ctx) // the error is kept for the first to ask
		}()
		go func() {
			defer c.prefetched.Done()
			c.loadMoves(ctx)
		}()
	})
}

// version is one version of a memory file in its history.
type version struct {
	commit gitblame.Hash // the commit that wrote it
	blob   gitblame.Hash
	lines  lineSet // nil until read
	// missing: its blob is not in the repository (a partial clone)
	missing bool
}

// lineSet is the set of a text's lines, each kept as a 64-bit hash
// (sorted): a store's thousands of memory versions cost 8 bytes a line,
// and nothing the collector has to scan. Two lines that differ have the
// same hash with a chance of one in 2^64.
type lineSet []uint64

var lineSeed = maphash.MakeSeed()

// newLineSet reads the lines of data (without their "\r\n" or "\n").
func newLineSet(data []byte) lineSet {
	set := make(lineSet, 0, bytes.Count(data, []byte{'\n'})+1)
	for {
		l, rest, found := bytes.Cut(data, []byte{'\n'})
		set = append(set, maphash.Bytes(lineSeed, bytes.TrimRight(l, "\r")))
		if !found {
			break
		}
		data = rest
	}
	slices.Sort(set)
	return slices.Compact(set)
}

// has reports whether the set holds line.
func (s lineSet) has(line string) bool {
	_, ok := slices.BinarySearch(s, maphash.String(lineSeed, line))
	return ok
}

// startReadAhead reads the newest versions of the memories mems, which
// the judging of every one of them reads one memory after the other
// (writtenAt), ahead, in that order, in batches of many memories
// (readAhead), in a goroutine of the prefetch (once the log of the
// memory directories is read).
func (c *Checker) startReadAhead(ctx context.Context, mems []*store.Memory) {
	if c.H == nil || c.Log == nil || c.ahead != nil {
		return
	}
	c.ahead = make(map[string]chan struct{}, len(mems))
	for _, m := range mems {
		if m.File != nil {
			c.ahead[m.Path] = make(chan struct{})
		}
	}
	c.prefetched.Add(1)
	go func() {
		defer c.prefetched.Done()
		if c.loadLog(ctx) == nil { // (an error is kept for the first to ask)
			c.readAhead(ctx, mems)
		}
		c.aheadMu.Lock()
		for p, ch := range c.ahead {
			close(ch) // (not read: the judging reads it)
			delete(c.ahead, p)
		}
		c.aheadMu.Unlock()
	}()
}

// refsOf returns the references of a memory (extractCached), extracted
// once a run.
func (c *Checker) refsOf(m *store.Memory) []Ref {
	if v, ok := c.refs.Load(m); ok {
		return v.([]Ref)
	}
	refs := extractCached(c.Cache, m.File.Src, c.Opt)
	c.refs.Store(m, refs)
	return refs
}

// maxRenamesAhead bounds the commits startRenamesAhead asks for their
// renames.
const maxRenamesAhead = 512

// startRenamesAhead asks git, in a goroutine of the prefetch, for the
// renames of the commits that deleted a path the memories mems name and
// the content checked (now) does not have, once the log of renames and
// deletions is read: the judging of those references, which asks for
// them one after the other (fate, renamedIn), then finds them asked, in
// the order it meets them. It asks for every such commit of every path
// that may be the one a reference named where it was written (the path,
// or a path ending in it), a few more than the judging needs.
func (c *Checker) startRenamesAhead(ctx context.Context, mems []*store.Memory, now *tracked) {
	if c.renamesAhead {
		return
	}
	c.renamesAhead = true
	if _, ok := c.Log.(commitChanger); !ok {
		if _, ok := c.Sym.(commitChanger); !ok {
			return
		}
	}
	c.prefetched.Add(1)
	go func() {
		defer c.prefetched.Done()
		// the names the memories give paths the content does not have, in
		// the order the judging meets them
		var missing []string
		seen := map[string]bool{}
		for _, m := range mems {
			if ctx.Err() != nil {
				return
			}
			if m.File == nil {
				continue
			}
			for _, r := range c.refsOf(m) {
				if r.Kind != KindPath {
					continue
				}
				for _, cand := range candidates(m, r) {
					n := strings.TrimPrefix(cand, "./")
					if p, cands := now.resolve(cand, !strings.Contains(r.Target, "/")); p == "" && len(cands) <= 1 && !seen[n] {
						seen[n] = true
						missing = append(missing, n)
					}
				}
			}
		}
		c.loadMoves(ctx)
		if c.movesErr != nil || len(missing) == 0 {
			return
		}
		// the deletions, by the base name of the path, oldest first
		type deletion struct {
			commit gitblame.Hash
			path   string
		}
		dels := map[string][]deletion{}
		for i := len(c.moves) - 1; i >= 0; i-- {
			for _, ch := range c.moves[i].Changes {
				if ch.To == "" {
					b := path.Base(ch.From)
					dels[b] = append(dels[b], deletion{c.moves[i].Hash, ch.From})
				}
			}
		}
		asked := map[gitblame.Hash]bool{}
		for _, n := range missing {
			ds := dels[path.Base(n)]
			if !strings.Contains(n, "/") && slices.ContainsFunc(ds, func(d deletion) bool { return d.path != ds[0].path }) {
				continue // a bare name of several deleted files: left to the judging
			}
			for _, d := range ds {
				if asked[d.commit] || !(d.path == n || strings.HasSuffix(d.path, "/"+n) || !strings.Contains(n, "/")) {
					continue
				}
				if _, known := c.renameFromLog(d.commit, d.path); known {
					continue // git need not be asked
				}
				if len(asked) == maxRenamesAhead || ctx.Err() != nil {
					return
				}
				asked[d.commit] = true // (one request answers every path of the commit)
				if _, err := c.renamedIn(ctx, d.commit, d.path); err != nil {
					return
				}
			}
		}
	}()
}

// aheadBatch is how many versions readAhead asks git for at once.
const aheadBatch = 256

// readAhead reads the first versionsRead versions of each memory of mems,
// in order, aheadBatch versions a round trip, and tells writtenAt each
// memory it has read (closing its ahead channel). It writes only those
// versions, and only before it tells.
func (c *Checker) readAhead(ctx context.Context, mems []*store.Memory) {
	var batch []*version
	var blobs []gitblame.Hash
	var done []string
	flush := func() {
		gitblame.ReadBlobs(c.H, blobs, func(k int, data []byte, err error) {
			if err != nil {
				batch[k].missing = true
				return
			}
			batch[k].lines = newLineSet(data)
		})
		c.aheadMu.Lock()
		for _, p := range done {
			if ch, ok := c.ahead[p]; ok {
				close(ch)
				delete(c.ahead, p)
			}
		}
		c.aheadMu.Unlock()
		batch, blobs, done = batch[:0], blobs[:0], done[:0]
	}
	for _, m := range mems {
		if ctx.Err() != nil {
			return
		}
		if _, ok := c.ahead[m.Path]; !ok || slices.Contains(done, m.Path) {
			continue
		}
		vs := c.versions[m.Path]
		for i := range vs[:min(versionsRead, len(vs))] {
			batch = append(batch, &vs[i])
			blobs = append(blobs, vs[i].blob)
		}
		done = append(done, m.Path)
		if len(blobs) >= aheadBatch {
			flush()
		}
	}
	flush()
}

// waitAhead waits until readAhead has read memPath's newest versions, or
// will not.
func (c *Checker) waitAhead(memPath string) {
	c.aheadMu.Lock()
	ch, ok := c.ahead[memPath]
	c.aheadMu.Unlock()
	if ok {
		<-ch
	}
}

// versionsRead is how many versions of a memory are read at once, from
// the first one a line needs back (one round trip to git for them all):
// most memories have fewer.
const versionsRead = 16

// readVersions reads the lines of the versions not read yet.
func (c *Checker) readVersions(vs []version) {
	var blobs []gitblame.Hash
	var at []int
	for i := range vs {
		if vs[i].lines == nil && !vs[i].missing {
			blobs = append(blobs, vs[i].blob)
			at = append(at, i)
		}
	}
	gitblame.ReadBlobs(c.H, blobs, func(k int, data []byte, err error) {
		if err != nil {
			vs[at[k]].missing = true
			return
		}
		vs[at[k]].lines = newLineSet(data)
	})
}

// maxVersions bounds how far back a memory's history is read.
const maxVersions = 200

var _ verify.ProseChecker = (*Checker)(nil)

// recalled is a memory's key and the judgment the cache holds under it.
type recalled struct {
	k    vcache.Key
	pcs  []verify.ProseCitation
	syms []symRef
	ok   bool
}

// CheckProse implements verify.ProseChecker: CheckProseLater, then its
// symbols, each memory's after its other references.
func (c *Checker) CheckProse(ctx context.Context, src source.Source, mems []*store.Memory) ([][]verify.ProseCitation, error) {
	out, later, err := c.CheckProseLater(ctx, src, mems)
	if err != nil {
		return nil, err
	}
	syms, err := later()
	if err != nil {
		return nil, err
	}
	for i := range syms {
		out[i] = append(out[i], syms[i]...)
	}
	return out, nil
}

var _ verify.LaterProseChecker = (*Checker)(nil)

// CheckProseLater implements verify.LaterProseChecker: it judges every
// reference but the symbols, and returns them with later, which judges
// the symbol references (the longest part of a cold run, and the last)
// and returns them by memory. later is to be called once, and always:
// the git processes the run started end with it.
func (c *Checker) CheckProseLater(ctx context.Context, src source.Source, mems []*store.Memory) (_ [][]verify.ProseCitation, later func() ([][]verify.ProseCitation, error), err error) {
	if c.released {
		return nil, nil, errReleased
	}
	vc := c.Cache
	hist := c.H != nil && c.Log != nil
	var anchors map[string]string
	if vc != nil && hist {
		if anchors = c.cachedAnchors(vc, c.anchorsKey()); anchors == nil {
			// the anchors are not cached: both logs will be read, from now
			c.prefetch(ctx)
		}
	}
	var j *judge
	defer func() {
		if err != nil {
			if j != nil && j.code != nil {
				j.code.stop()
			}
			c.prefetched.Wait() // no git process outlives the run
		}
	}()
	trace.Printf("prose: listing the %s", src.Name())
	digest, paths, listed, err := listKey(vc, src)
	if err != nil {
		return nil, nil, fmt.Errorf("prose: listing %s: %w", src.Name(), err)
	}
	if listed {
		trace.Printf("prose: %d paths listed; judging %d memories", len(paths), len(mems))
	}
	j = &judge{c: c, src: src, cache: vc}
	if listed {
		j.now = newTracked(paths)
	}
	out := make([][]verify.ProseCitation, len(mems))
	if vc != nil && c.H != nil && c.vc == nil {
		// the trees of commits and the files in them, from the cache
		c.vc, c.H = vc, cachedEntries{History: c.H, vc: vc}
	}
	run := ""
	// late: no run kept judgments of these memories in the cache (a cold
	// run, markSeen), so no judgment is looked for in it and the anchors,
	// which need the whole log of renames and deletions, are found after
	// the judging, for the keys the judgments are kept under. The
	// memories that need that log are judged after the others: the log,
	// the longest git process, is read while the others are judged.
	late := false
	if vc != nil {
		run = c.runKey(src, digest)
		if anchors == nil && hist && !c.seen(vc) {
			late = true
			c.startReadAhead(ctx, mems)
		} else if anchors == nil {
			if anchors, err = c.anchors(ctx, vc); err != nil {
				return nil, nil, err
			}
		}
	} else if hist {
		c.startReadAhead(ctx, mems) // (without a cache every memory is judged)
	}
	if (late || vc == nil) && hist && j.now != nil {
		c.startRenamesAhead(ctx, mems, j.now)
	}
	sameList := true // the judgments are of the list the run's key names
	type judged struct {
		i      int
		pcs    []verify.ProseCitation
		syms   []symRef
		probes []probe
	}
	var keep []judged // late: the judgments to keep once the anchors are known
	// one judges memory i afresh; false when it needs the log of renames
	// and deletions and c.noWait is set
	one := func(i int, m *store.Memory, k vcache.Key) (bool, error) {
		if j.now == nil { // the cache vouched for the list: list now
			paths, err := listPaths(src)
			if err != nil {
				return false, err
			}
			j.now, sameList = newTracked(paths), listDigest(paths) == digest
		}
		if j.mems == nil { // (built for the first memory the cache does not judge)
			j.mems = newMemIndex(c.All)
		}
		j.mem = i
		rec := &recorder{Source: src}
		j.src = rec
		missing, nsyms := c.missing, len(j.syms)
		pcs, err := j.memory(ctx, m)
		j.src = src
		if errors.Is(err, errMovesNotRead) {
			j.syms = j.syms[:nsyms]
			return false, nil
		}
		if err != nil {
			return false, fmt.Errorf("%s: %w", m.Path, err)
		}
		out[i] = pcs
		j.startCode(src)
		if vc != nil && c.missing == missing && sameList {
			if late {
				keep = append(keep, judged{i: i, pcs: pcs, syms: slices.Clone(j.syms[nsyms:]), probes: rec.probes})
			} else {
				remember(vc, k, pcs, j.syms[nsyms:], rec.probes)
			}
		}
		return true, nil
	}
	key := func(m *store.Memory) vcache.Key {
		anchor, ok := anchors[m.Path]
		if !ok {
			anchor = "head " + c.Head.String()
		}
		return memoKey(run, anchor, m)
	}
	// the judgments the cache holds, looked for in parallel before any
	// memory is judged afresh (j.src is still src)
	var found []recalled
	if vc != nil && !late {
		found = make([]recalled, len(mems))
		workers.Ranges(len(mems), func(lo, hi int) {
			for i := lo; i < hi; i++ {
				if m := mems[i]; m.File != nil {
					r := &found[i]
					r.k = key(m)
					r.pcs, r.syms, r.ok = j.recall(vc, r.k, m, i)
				}
			}
		})
	}
	hits := 0
	var after []int // the memories judged after the others
	c.noWait = late
	for i, m := range mems {
		if err := ctx.Err(); err != nil {
			return nil, nil, err
		}
		if m.File == nil {
			continue
		}
		j.mem = i
		var k vcache.Key
		if found != nil {
			k = found[i].k
			if found[i].ok {
				out[i] = found[i].pcs
				j.syms = append(j.syms, found[i].syms...)
				hits++
				continue
			}
		}
		done, err := one(i, m, k)
		if err != nil {
			return nil, nil, err
		}
		if !done {
			after = append(after, i)
		}
	}
	c.noWait = false
	if len(after) > 0 {
		trace.Printf("prose: %d memories judged once renames and deletions are read", len(after))
		for _, i := range after {
			if _, err := one(i, mems[i], vcache.Key{}); err != nil {
				return nil, nil, err
			}
		}
		// the symbol references in the memories' order, as without
		slices.SortStableFunc(j.syms, func(a, b symRef) int { return a.mem - b.mem })
	}
	if late {
		if anchors, err = c.anchors(ctx, vc); err != nil {
			return nil, nil, err
		}
		for _, e := range keep {
			remember(vc, key(mems[e.i]), e.pcs, e.syms, e.probes)
		}
	}
	if vc != nil {
		c.markSeen(vc)
	}
	trace.Printf("prose: %d of %d memories judged from the cache", hits, len(mems))
	trace.Printf("prose: memories judged; %d symbol references", len(j.syms))
	if j.now == nil && len(j.syms) > 0 { // the symbols are looked up in every file listed
		if paths, err = listPaths(src); err != nil {
			return nil, nil, err
		}
		j.now = newTracked(paths)
	}
	later = func() ([][]verify.ProseCitation, error) {
		defer c.prefetched.Wait() // no git process outlives the run
		defer func() {
			if j.code != nil {
				j.code.stop() // (when no symbol reference is left)
			}
		}()
		syms := make([][]verify.ProseCitation, len(mems))
		if err := j.symbols(ctx, j.syms, syms); err != nil {
			return nil, err
		}
		trace.Printf("prose: symbols judged")
		return syms, nil
	}
	return out, later, nil
}

// judge is one CheckProse run.
type judge struct {
	c    *Checker
	src  source.Source
	now  *tracked
	mems *memIndex
	mem  int      // the memory being read
	syms []symRef // symbol references, judged together at the end

	cache *vcache.Cache               // nil: none
	blobs map[vcache.Key][]symdef.Def // definitions of the blobs of history read this run
	code  *codeParse                  // the code files read for the symbol index, from the first symbol reference
}

func (j *judge) memory(ctx context.Context, m *store.Memory) ([]verify.ProseCitation, error) {
	refs := j.c.refsOf(m)
	if len(refs) == 0 {
		return nil, nil
	}
	lines := strings.Split(string(m.File.Src), "\n")
	var out []verify.ProseCitation
	seen := map[string]bool{}
	// a file the frontmatter cites is judged by its citations, the
	// stricter form (adopt pins prose to them)
	cited := map[string]bool{}
	for _, c := range m.File.Citations {
		cited[c.Path] = true
	}
	for _, r := range refs {
		text := ""
		if r.MemLine-1 < len(lines) {
			text = strings.TrimRight(lines[r.MemLine-1], "\r")
		}
		written, err := j.c.writtenAt(ctx, m.Path, text)
		if err != nil {
			return nil, err
		}
		if r.Kind == KindSymbol && isName(r.Target) && j.mems.find(m, Ref{Kind: KindMemory, Form: FormName, Target: r.Target}) != "" {
			// the name of a memory of the store, in backticks (Serena
			// names its memories in snake_case: `project_overview`)
			r.Kind, r.Form = KindMemory, FormName
		}
		if r.Kind == KindSymbol {
			if name := symbolName(r.Target); len(name) >= 3 {
				j.syms = append(j.syms, symRef{mem: j.mem, memPath: m.Path, ref: r, written: written, name: name, files: filesOnLine(refs, r.MemLine)})
			}
			continue
		}
		pc, ok, err := j.ref(ctx, m, r, written)
		if err != nil {
			return nil, err
		}
		if !ok {
			continue
		}
		if (pc.Ref.Kind == "path" || pc.Ref.Kind == "lines") && cited[pc.Citation.Path] {
			continue
		}
		key := pc.Ref.Kind + "\x00" + pc.Citation.Location()
		if seen[key] {
			continue // the same reference twice in one memory counts once
		}
		seen[key] = true
		out = append(out, pc)
	}
	return out, nil
}

// ref judges one reference written at commit written (zero: not
// committed). ok is false for what is left out: a bare or backticked name
// that names nothing, which is prose, not a reference.
func (j *judge) ref(ctx context.Context, m *store.Memory, r Ref, written gitblame.Hash) (verify.ProseCitation, bool, error) {
	pc := verify.ProseCitation{Ref: verify.ProseRef{Kind: r.Kind.String(), Form: r.Form, Text: r.Target, Line: r.MemLine, Start: r.Start, Stop: r.Stop}}
	if !written.IsZero() {
		pc.Ref.Written = written.String()
	}
	// a citation of the prose is never rewritten as a frontmatter one: a
	// string, which --record leaves alone
	pc.Citation = memfile.Citation{Path: r.Target, SrcLine: r.MemLine, Commit: pc.Ref.Written, Form: memfile.FormString}
	if r.Line > 0 {
		pc.Ref.Kind = "lines"
		pc.Citation.HasLine, pc.Citation.Line, pc.Citation.LineEnd = true, r.Line, r.End
	}
	if r.Kind == KindMemory {
		return j.memoryRef(ctx, m, r, written, pc)
	}
	return j.pathRef(ctx, m, r, written, pc)
}

func unresolved(pc verify.ProseCitation, why string) (verify.ProseCitation, bool, error) {
	pc.Ref.Unresolved = true
	pc.Status, pc.Reason = verify.Skipped, "unresolved: "+why
	return pc, true, nil
}

// candidates are the paths a written path may name, most likely first: a
// markdown link's target relative to the memory's folder, then the
// repository root.
func candidates(m *store.Memory, r Ref) []string {
	t := strings.TrimPrefix(r.Target, "./")
	var out []string
	if r.Form == FormLink || strings.HasPrefix(r.Target, "../") || strings.HasPrefix(r.Target, "./") {
		out = append(out, path.Join(path.Dir(m.Path), t))
	}
	if c, err := source.Clean(t); err == nil {
		out = append(out, c)
	}
	return out
}

// pathRef judges a reference to a file.
func (j *judge) pathRef(ctx context.Context, m *store.Memory, r Ref, written gitblame.Hash, pc verify.ProseCitation) (verify.ProseCitation, bool, error) {
	weak := r.Bare || (r.Form == FormBackticked && !strings.Contains(r.Target, "/")) // a name, not a path
	p, cands, written0 := "", []string(nil), ""
	for _, cand := range candidates(m, r) {
		if p, cands = j.now.resolve(cand, !strings.Contains(r.Target, "/")); p != "" || len(cands) > 1 {
			written0 = cand
			break
		}
	}
	if p == "" && len(cands) > 1 {
		// a path that now only ends several longer ones but named that
		// very path when written: the file it named is gone from there
		if ok, err := j.namedThen(written, r, written0); err != nil {
			return pc, false, err
		} else if ok {
			pc.Citation.Path, pc.Ref.Target = written0, written0
			return j.gone(ctx, pc, written0, written, verify.KindPathMoved, verify.KindPathDeleted, "file")
		}
		if weak && r.Line == 0 {
			return pc, false, nil // an ambiguous bare name is no reference
		}
		return unresolved(pc, fmt.Sprintf("%d tracked files are named %s", len(cands), path.Base(r.Target)))
	}
	if p != "" {
		pc.Citation.Path, pc.Ref.Target = p, p
		if !written.IsZero() {
			if _, ok, err := j.c.entryAt(written, p); err != nil {
				return pc, false, err
			} else if !ok && weak {
				return pc, false, nil // the name meant no file of ours when written
			}
			// a path that names a file now only as the end of a longer
			// one (modules/a.ts, now src/modules/a.ts) but named that
			// very path when written: the file it named is gone from there
			if p != written0 {
				if ok, err := j.namedThen(written, r, written0); err != nil {
					return pc, false, err
				} else if ok {
					pc.Citation.Path, pc.Ref.Target = written0, written0
					return j.gone(ctx, pc, written0, written, verify.KindPathMoved, verify.KindPathDeleted, "file")
				}
			}
		}
		return j.lines(ctx, pc, p, written)
	}
	// nothing of that name now: what did it name where it was written?
	if written.IsZero() {
		if weak {
			return pc, false, nil
		}
		return unresolved(pc, "no tracked file "+r.Target)
	}
	q, err := j.resolveAt(ctx, written, m, r)
	if err != nil {
		return pc, false, err
	}
	if q == "" {
		if weak {
			return pc, false, nil
		}
		return unresolved(pc, fmt.Sprintf("no tracked file %s in %s, where it was written", r.Target, written.Short()))
	}
	pc.Citation.Path, pc.Ref.Target = q, q
	return j.gone(ctx, pc, q, written, verify.KindPathMoved, verify.KindPathDeleted, "file")
}

// namedThen reports whether a path written with a folder (r) named the
// file at exactly p in the tree of the commit that wrote it.
func (j *judge) namedThen(written gitblame.Hash, r Ref, p string) (bool, error) {
	if written.IsZero() || p == "" || !strings.Contains(r.Target, "/") {
		return false, nil
	}
	_, ok, err := j.c.entryAt(written, p)
	return ok, err
}

// resolveAt resolves a written path in the tree of commit c. A file
// that was there and is not in the content checked now was deleted or
// renamed since, so only the paths that history deleted or renamed away
// are looked up, never the whole tree.
func (j *judge) resolveAt(ctx context.Context, c gitblame.Hash, m *store.Memory, r Ref) (string, error) {
	gone, err := j.c.goneIndex(ctx)
	if err != nil || gone == nil {
		return "", err
	}
	bare := !strings.Contains(r.Target, "/")
	for _, cand := range candidates(m, r) {
		_, cands := gone.resolve(cand, bare)
		if p, _ := gone.resolve(cand, bare); p != "" {
			cands = []string{p}
		}
		var hits []string
		for _, q := range cands {
			if _, ok, err := j.c.entryAt(c, q); err != nil {
				return "", err
			} else if ok {
				hits = append(hits, q)
			}
		}
		if len(hits) == 1 {
			return hits[0], nil
		}
		if len(hits) > 1 {
			return "", nil // ambiguous then
		}
	}
	return "", nil
}

// goneIndex indexes the paths history renamed or deleted away.
func (c *Checker) goneIndex(ctx context.Context) (*tracked, error) {
	if err := c.waitMoves(ctx); err != nil {
		return nil, err
	}
	if c.gone == nil {
		seen := map[string]bool{}
		var paths []string
		for _, lc := range c.moves {
			for _, ch := range lc.Changes {
				if ch.From != "" && !seen[ch.From] {
					seen[ch.From] = true
					paths = append(paths, ch.From)
				}
			}
		}
		c.gone = newTracked(paths)
	}
	return c.gone, nil
}

// gone judges a file that resolved at commit written and is not in the
// content checked: moved (renamed, its content mostly kept, maybe in
// several steps) or deleted, with the commit that did it.
func (j *judge) gone(ctx context.Context, pc verify.ProseCitation, q string, written gitblame.Hash, moved, deleted verify.Kind, what string) (verify.ProseCitation, bool, error) {
	pc.Status = verify.Stale
	to, at, last, movedAt, err := j.c.fate(ctx, q, written)
	if err != nil {
		return pc, false, err
	}
	in := " in the " + j.src.Name()
	if !at.IsZero() {
		pc.Ref.Changed = at.String()
		in = " in " + at.Short()
	}
	if to == q {
		if _, err := j.src.Stat(q); err == nil {
			pc.Status, pc.Reason = verify.Valid, ""
			return pc, true, nil
		}
	}
	if to != "" && to != q {
		if _, err := j.src.Stat(to); err == nil {
			pc.Kind, pc.Ref.Now = moved, to
			verb := "moved"
			if what == "memory" {
				verb = "renamed"
			}
			pc.Reason = fmt.Sprintf("%s %s %s to %s%s", titleWhat(what), q, verb, to, in)
			return pc, true, nil
		}
	}
	pc.Kind = deleted
	pc.Reason = fmt.Sprintf("%s %s deleted%s", titleWhat(what), q, in)
	if to == "" && last != q && last != "" {
		// renamed on the way, then deleted under its new name
		verb := "moved"
		if what == "memory" {
			verb = "renamed"
		}
		pc.Reason = fmt.Sprintf("%s %s %s to %s in %s, then deleted%s", titleWhat(what), q, verb, last, movedAt.Short(), in)
	}
	return pc, true, nil
}

// fate follows a path from commit from to HEAD through the renames and
// deletions of the first-parent history: where it went ("" when deleted)
// and the commit that moved or deleted it last (zero: HEAD still has it,
// only the content checked does not). last is its name before that
// commit, and movedAt the commit that gave it that name (zero when it was
// never renamed).
func (c *Checker) fate(ctx context.Context, p string, from gitblame.Hash) (to string, at gitblame.Hash, last string, movedAt gitblame.Hash, err error) {
	if err := c.waitMoves(ctx); err != nil {
		return "", gitblame.ZeroHash, "", gitblame.ZeroHash, err
	}
	start, ok := c.order[from]
	if !ok {
		return "", gitblame.ZeroHash, "", gitblame.ZeroHash, nil
	}
	cur := p
	for i := len(c.moves) - 1; i >= 0; i-- { // oldest first
		lc := c.moves[i]
		if pos, ok := c.order[lc.Hash]; !ok || pos >= start {
			continue // before the sentence was written
		}
		for _, ch := range lc.Changes {
			if ch.From != cur || ch.To == cur {
				continue
			}
			if ch.To == "" {
				// a deletion: a rename when the commit added the file
				// under another name (git's pairing of that commit)
				to, err := c.renamedIn(ctx, lc.Hash, cur)
				if err != nil {
					return "", gitblame.ZeroHash, "", gitblame.ZeroHash, err
				}
				if to == "" {
					return "", lc.Hash, cur, at, nil
				}
				ch.To = to
			}
			at = lc.Hash
			cur = ch.To
			break
		}
	}
	if cur == p {
		return p, gitblame.ZeroHash, p, gitblame.ZeroHash, nil // HEAD has it
	}
	return cur, at, cur, at, nil
}

// commitChanger lists the files a commit changed against its first
// parent, renames paired (Symbols has it, and a Log may).
type commitChanger interface {
	CommitChanges(ctx context.Context, commit gitblame.Hash) ([]FileChange, error)
}

// renamedIn is where commit renamed p to, "" when it deleted it: the log
// of the whole history lists deletions (a rename is a deletion and an
// addition there, which costs git no rename detection of every commit),
// and the few commits that deleted a path a sentence names are asked for
// their renames, each once. Without a way to ask, a deletion stays one.
func (c *Checker) renamedIn(ctx context.Context, commit gitblame.Hash, p string) (string, error) {
	if to, known := c.renameFromLog(commit, p); known {
		return to, nil
	}
	cc, ok := c.Log.(commitChanger)
	if !ok {
		if cc, ok = c.Sym.(commitChanger); !ok {
			return "", nil
		}
	}
	r := c.commitRenames(commit)
	r.once.Do(func() {
		chs, err := cc.CommitChanges(ctx, commit)
		if err != nil {
			if ctx.Err() != nil {
				r.err = err
			}
			return // a commit git cannot diff: its deletions stay deletions
		}
		r.to = map[string]string{}
		for _, ch := range chs {
			if ch.Status == 'R' && ch.From != "" && ch.To != "" {
				r.to[ch.From] = ch.To
			}
		}
	})
	return r.to[p], r.err
}

// renameLogger is what a Log may add: where a commit renamed the paths
// it deleted, those the log of the whole chain tells of as git's rename
// detection would (gitrepo.History.RenamesFromLog); git is asked of the
// others.
type renameLogger interface {
	RenamesFromLog(commit gitblame.Hash) (map[string]string, bool)
}

// renameFromLog is where commit renamed p ("" deleted it) when the log
// tells, read once a commit.
func (c *Checker) renameFromLog(commit gitblame.Hash, p string) (string, bool) {
	rl, ok := c.Log.(renameLogger)
	if !ok {
		if rl, ok = c.Sym.(renameLogger); !ok {
			return "", false
		}
	}
	r := c.commitRenames(commit)
	r.logOnce.Do(func() { r.log, _ = rl.RenamesFromLog(commit) })
	to, known := r.log[p]
	return to, known
}

// commitRenames returns the record of commit's renames, made once.
func (c *Checker) commitRenames(commit gitblame.Hash) *commitRenames {
	c.renamesMu.Lock()
	defer c.renamesMu.Unlock()
	if c.renames == nil {
		c.renames = map[gitblame.Hash]*commitRenames{}
	}
	r := c.renames[commit]
	if r == nil {
		r = &commitRenames{}
		c.renames[commit] = r
	}
	return r
}

// commitRenames are a commit's renames, asked for once: of git, and
// those the whole chain's log tells of (renameFromLog).
type commitRenames struct {
	once sync.Once
	to   map[string]string // old path → new
	err  error

	logOnce sync.Once
	log     map[string]string // deleted path → new path, "" for none
}

// loadMoves reads the renames and deletions of the first-parent history
// once.
func (c *Checker) loadMoves(ctx context.Context) {
	c.movesOnce.Do(func() {
		order, log, err := c.Log.Moves(ctx, c.Head)
		if err != nil {
			c.movesErr = err
			return
		}
		c.order = make(map[gitblame.Hash]int, len(order))
		for i, h := range order {
			c.order[h] = i
		}
		c.moves = log
	})
}

// waitMoves reads the renames and deletions, or waits for them, unless
// noWait is set (errMovesNotRead).
func (c *Checker) waitMoves(ctx context.Context) error {
	if c.noWait {
		return errMovesNotRead
	}
	c.loadMoves(ctx)
	return c.movesErr
}

// inDirs reports whether a path is below a memory directory.
func (c *Checker) inDirs(p string) bool {
	for _, d := range c.Dirs {
		if d == "." || d == "" || strings.HasPrefix(p, strings.TrimSuffix(d, "/")+"/") {
			return true
		}
	}
	return false
}

func titleWhat(w string) string {
	if w == "" {
		return ""
	}
	return strings.ToUpper(w[:1]) + w[1:]
}

// lines judges the cited lines of a file that exists: they must have
// existed where the sentence was written, and are then checked with
// the text they had (their most distinctive line) as the snippet.
func (j *judge) lines(ctx context.Context, pc verify.ProseCitation, p string, written gitblame.Hash) (verify.ProseCitation, bool, error) {
	if !pc.Citation.HasLine {
		pc.Status = verify.Valid
		return pc, true, nil
	}
	var then []string
	if written.IsZero() {
		data, err := j.src.ReadFile(p)
		if err != nil {
			return unresolved(pc, fmt.Sprintf("%s cannot be read", p))
		}
		then = splitLines(string(data))
	} else {
		l, err := j.c.fileLines(written, p)
		if err != nil {
			return pc, false, err
		}
		then = l
	}
	end := max(pc.Citation.Line, pc.Citation.LineEnd)
	if end > len(then) {
		where := "now"
		if !written.IsZero() {
			where = "in " + written.Short() + ", where it was written"
		}
		return unresolved(pc, fmt.Sprintf("%s had no line %d %s", p, end, where))
	}
	check := memfile.Citation{Path: p, HasLine: true, Line: pc.Citation.Line, LineEnd: pc.Citation.LineEnd, Commit: pc.Citation.Commit}
	if s, at := distinctiveAt(then[pc.Citation.Line-1:end], then); s != "" {
		check.Snippet, check.HasSnippet = s, true
		if end > pc.Citation.Line {
			pc.LinesAt = pc.Citation.Line + at // a range: its snippet is held at this line
		}
	}
	pc.Lines = &check
	pc.Status = verify.Valid
	return pc, true, nil
}

// memoryRef judges a reference to another memory.
func (j *judge) memoryRef(ctx context.Context, m *store.Memory, r Ref, written gitblame.Hash, pc verify.ProseCitation) (verify.ProseCitation, bool, error) {
	weak := r.Form == FormName
	if mm := j.mems.find(m, r); mm != "" {
		if mm == m.Path && weak {
			return pc, false, nil
		}
		pc.Citation.Path, pc.Ref.Target, pc.Status = mm, mm, verify.Valid
		return pc, true, nil
	}
	// a link to a document that is not a memory is a path
	if r.Form != FormName && (strings.Contains(r.Target, "/") || strings.HasSuffix(strings.ToLower(r.Target), ".md")) {
		for _, cand := range candidates(m, r) {
			if p, _ := j.now.resolve(cand, false); p != "" {
				pc.Ref.Kind = KindPath.String()
				pc.Citation.Path, pc.Ref.Target, pc.Status = p, p, verify.Valid
				return pc, true, nil
			}
		}
	}
	if written.IsZero() {
		if weak {
			return pc, false, nil
		}
		return unresolved(pc, "no memory "+r.Target)
	}
	for _, cand := range memoryCandidates(m, r, j.c.Dirs) {
		if _, ok, err := j.c.entryAt(written, cand); err != nil {
			return pc, false, err
		} else if ok {
			pc.Citation.Path, pc.Ref.Target = cand, cand
			if !j.c.inDirs(cand) {
				pc.Ref.Kind = KindPath.String()
				return j.gone(ctx, pc, cand, written, verify.KindPathMoved, verify.KindPathDeleted, "file")
			}
			return j.gone(ctx, pc, cand, written, verify.KindMemoryRenamed, verify.KindMemoryDeleted, "memory")
		}
	}
	if weak {
		return pc, false, nil
	}
	return unresolved(pc, fmt.Sprintf("no memory %s in %s, where it was written", r.Target, written.Short()))
}

// memoryCandidates are the files a memory reference may have named.
func memoryCandidates(m *store.Memory, r Ref, dirs []string) []string {
	t := strings.TrimPrefix(r.Target, "./")
	withMD := t
	if !strings.HasSuffix(strings.ToLower(t), ".md") {
		withMD = t + ".md"
	}
	var out []string
	if r.Form == FormLink {
		out = append(out, path.Join(path.Dir(m.Path), t))
	}
	out = append(out, path.Join(path.Dir(m.Path), withMD))
	for _, d := range append([]string{m.Dir}, dirs...) {
		out = append(out, path.Join(d, withMD))
	}
	if c, err := source.Clean(withMD); err == nil {
		out = append(out, c)
	}
	return out
}

// writtenAt returns the commit that wrote a line of a memory file (step 2
// of Checker); zero when it is not committed.
func (c *Checker) writtenAt(ctx context.Context, memPath, line string) (gitblame.Hash, error) {
	if c.H == nil || c.Log == nil {
		return gitblame.ZeroHash, nil
	}
	if err := c.loadLog(ctx); err != nil {
		return gitblame.ZeroHash, err
	}
	c.waitAhead(memPath)
	vs := c.versions[memPath]
	var oldest gitblame.Hash
	for i := range vs {
		v := &vs[i]
		if v.lines == nil && !v.missing {
			c.readVersions(vs[i:min(i+versionsRead, len(vs))])
		}
		if v.missing {
			// an object missing from the repository (a partial clone):
			// the versions before it are not known
			c.missing++
			break
		}
		if !v.lines.has(line) {
			break
		}
		oldest = v.commit
	}
	return oldest, nil
}

// loadLog reads the history of the memory directories once and builds
// the chain of versions of every memory of the store, newest first,
// following renames back to the commit that added it.
func (c *Checker) loadLog(ctx context.Context) error {
	c.once.Do(func() {
		c.versions = map[string][]version{}
		log, err := c.Log.PathLog(ctx, c.Head, c.Dirs)
		if err != nil {
			c.logErr = err
			return
		}
		c.logRead = len(log) > 0
		alias := map[string]string{} // path as of the commit being read → path now
		for _, m := range c.All {
			alias[m.Path] = m.Path
		}
		for _, lc := range log {
			for _, ch := range lc.Changes {
				head, ok := alias[ch.To]
				if ch.To == "" || !ok {
					continue
				}
				delete(alias, ch.To)
				if len(c.versions[head]) >= maxVersions {
					continue
				}
				c.versions[head] = append(c.versions[head], version{commit: lc.Hash, blob: ch.ToBlob})
				if ch.Status != 'A' {
					alias[ch.From] = head
				}
			}
		}
	})
	return c.logErr
}

func (c *Checker) tree(commit gitblame.Hash) (gitblame.Hash, error) {
	if t, ok := c.trees[commit]; ok {
		return t, nil
	}
	t, err := c.treeOf(commit)
	if err != nil {
		return gitblame.ZeroHash, err
	}
	if c.trees == nil {
		c.trees = map[gitblame.Hash]gitblame.Hash{}
	}
	c.trees[commit] = t
	return t, nil
}

// fileLines reads a file's lines at a commit (cached by blob).
func (c *Checker) fileLines(commit gitblame.Hash, p string) ([]string, error) {
	blob, ok, err := c.entryAt(commit, p)
	if err != nil || !ok {
		return nil, err
	}
	if l, ok := c.lines[blob]; ok {
		return l, nil
	}
	data, err := c.H.Blob(blob)
	if err != nil {
		c.missing++
		return nil, nil // a missing object: the lines are not known
	}
	l := splitLines(string(data))
	if c.lines == nil {
		c.lines = map[gitblame.Hash][]string{}
	}
	c.lines[blob] = l
	return l, nil
}

// splitLines splits at LF, CRLF or CR; a final break starts no line.
func splitLines(s string) []string {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	s = strings.ReplaceAll(s, "\r", "\n")
	s = strings.TrimSuffix(s, "\n")
	if s == "" {
		return nil
	}
	return strings.Split(s, "\n")
}

// Distinctive returns the most distinctive line of a range, trimmed: of
// the lines that are not blank or punctuation only, the one that occurs
// least often in the whole file (the longest of those). "" when every
// line is trivial.
func Distinctive(rng, file []string) string {
	s, _ := distinctiveAt(rng, file)
	return s
}

// distinctiveAt is Distinctive with the index in rng of the line it
// returns (-1 with "").
func distinctiveAt(rng, file []string) (string, int) {
	count := map[string]int{}
	for _, l := range file {
		count[strings.TrimSpace(l)]++
	}
	best, bestN, at := "", 0, -1
	for i, l := range rng {
		t := strings.TrimSpace(l)
		if trivial(t) {
			continue
		}
		n := count[t]
		if best == "" || n < bestN || (n == bestN && len(t) > len(best)) {
			best, bestN, at = t, n, i
		}
	}
	return best, at
}

// trivial: blank, punctuation only, or a bare keyword that closes a block.
func trivial(t string) bool {
	if strings.Trim(t, " \t{}()[];,.:") == "" {
		return true
	}
	switch t {
	case "end", "else", "fi", "done", "esac", "*/", "/*", "//", "#", "--", "}else{", "} else {", "return", "break", "continue", "pass":
		return true
	}
	return false
}

// tracked is a set of paths with lookups by file name.
type tracked struct {
	paths  map[string]bool
	byBase map[string][]string
}

func newTracked(paths []string) *tracked {
	t := &tracked{paths: make(map[string]bool, len(paths)), byBase: map[string][]string{}}
	for _, p := range paths {
		t.paths[p] = true
		b := path.Base(p)
		t.byBase[b] = append(t.byBase[b], p)
	}
	return t
}

// resolve finds the tracked file a written path names: itself; else the
// only tracked path ending in "/"+p; else, for a bare name, the only file
// of that name. A name several files have is ambiguous (cands), even when
// one of them is at the root.
func (t *tracked) resolve(p string, bare bool) (string, []string) {
	p = strings.TrimPrefix(p, "./")
	if bare {
		hits := t.byBase[p]
		if len(hits) == 1 {
			return hits[0], nil
		}
		return "", hits
	}
	if t.paths[p] {
		return p, nil
	}
	var hits []string
	for _, q := range t.byBase[path.Base(p)] {
		if strings.HasSuffix(q, "/"+p) {
			hits = append(hits, q)
		}
	}
	if len(hits) == 1 {
		return hits[0], nil
	}
	return "", hits
}

// memIndex finds memories by path, id, stem and path below their folder.
type memIndex struct {
	byKey map[string][]string
}

func newMemIndex(all []*store.Memory) *memIndex {
	x := &memIndex{byKey: map[string][]string{}}
	add := func(k, p string) {
		k = strings.ToLower(k)
		for _, q := range x.byKey[k] {
			if q == p {
				return
			}
		}
		x.byKey[k] = append(x.byKey[k], p)
	}
	for _, m := range all {
		add(m.Path, m.Path)
		add(m.Stem(), m.Path)
		add(m.RelID(), m.Path)
		if m.ID != "" {
			add(m.ID, m.Path)
		}
	}
	return x
}

// find returns the path of the memory a reference names now, or "".
func (x *memIndex) find(from *store.Memory, r Ref) string {
	t := strings.TrimPrefix(r.Target, "./")
	keys := []string{}
	if r.Form == FormLink || strings.HasPrefix(r.Target, "../") {
		keys = append(keys, path.Join(path.Dir(from.Path), t))
	}
	keys = append(keys, t, strings.TrimSuffix(t, ".md"), path.Join(path.Dir(from.Path), strings.TrimSuffix(t, ".md")+".md"))
	for _, k := range keys {
		if hits := x.byKey[strings.ToLower(k)]; len(hits) == 1 {
			return hits[0]
		}
	}
	return ""
}

// extractCached is Extract, remembered in the verification cache (when
// there is one) by the memory file's content and the options: a warm run
// reads no memory's text again.
func extractCached(c *vcache.Cache, src []byte, o Options) []Ref {
	if c == nil {
		return Extract(src, o)
	}
	key := extractKey(src, o)
	if v, ok := c.Verdict(key); ok {
		var refs []Ref
		if json.Unmarshal([]byte(v.Reason), &refs) == nil {
			return refs
		}
	}
	refs := Extract(src, o)
	if b, err := json.Marshal(refs); err == nil {
		c.PutVerdict(key, vcache.Verdict{Reason: string(b)})
	}
	return refs
}

// extractKey is the cache key of the references of a memory file.
func extractKey(src []byte, o Options) vcache.Key {
	sum := sha256.Sum256(src)
	return vcache.KeyOf("prose-refs", extractVersion, strconv.FormatBool(o.Fences), string(sum[:]))
}

// extractVersion names the extractor's rules in cache keys: change it
// when Extract would find other references in the same text.
const extractVersion = "3"
