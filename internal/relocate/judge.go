package relocate

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/git-memcite/git-memcite/internal/gitblame"
	"github.com/git-memcite/git-memcite/internal/memfile"
	"github.com/git-memcite/git-memcite/internal/source"
	"github.com/git-memcite/git-memcite/internal/store"
	"github.com/git-memcite/git-memcite/internal/trace"
	"github.com/git-memcite/git-memcite/internal/vcache"
	"github.com/git-memcite/git-memcite/internal/verify"
)

// Judge gives verification the verdict of line identity
// (docs/citation-schema.md, "Line identity"): a citation of lines whose
// base commit is known (Prepare: its commit field, or the commit that
// wrote it, through renames of the memory file) is judged by where its
// lines are at the target, with the tracker relocate follows them with.
// So verify calls a citation valid exactly when relocate would keep it.
//
//   - A citation without a snippet that verification called valid, or
//     stale for a reason its lines can explain (past the end of the file,
//     file not found), becomes: valid when its lines are unchanged and in
//     place; stale with kind moved (and where they are now), edited,
//     deleted or ambiguous otherwise, with the step that did it.
//   - A citation with a snippet keeps the snippet check's verdict; when it
//     is stale, the answer also carries where its lines went.
//   - A citation with no base (never committed, history cut by a shallow
//     clone) keeps its verdict and is marked Unanchored.
type Judge struct {
	H      gitblame.History
	T      *gitblame.Tracker
	Head   gitblame.Hash   // the commit the target follows
	Target gitblame.Target // the content verification checked
	// IDs names the target's content without reading it (the
	// verification source, when it is a source.Identifier); nil: nothing
	// is named, so nothing is cached and no file is taken as unchanged.
	IDs source.Identifier
	// Cache, when not nil, holds the bases of citations and the verdicts
	// that depend only on what their keys name.
	Cache *vcache.Cache
	// View names the target's kind in cache keys ("working tree",
	// "index", "commit").
	View string

	// Record, when not nil, receives the result of every citation
	// judged out of place (moved, edited, deleted, ambiguous), for
	// callers that explain them (the agent hook).
	Record map[*memfile.Citation]gitblame.Result

	parentOnce           sync.Once
	hasParent            bool // the head has one parent, read
	parent               gitblame.Hash
	headTree, parentTree gitblame.Hash
	asked                int             // paths compared with the parent so far
	changed              map[string]bool // paths the head changed from parent, once listed
}

// View is the kind of content a verification checked.
type View int

// Views.
const (
	ViewWorktree View = iota // the working tree, after HEAD
	ViewIndex                // the index, after HEAD
	ViewCommit               // a commit itself
)

// JudgeReport applies line identity to rep, which was checked against src:
// the working tree or the index after the commit head, or the commit head
// itself (ViewCommit). cache may be nil.
func JudgeReport(ctx context.Context, h gitblame.History, head gitblame.Hash, src source.Source, view View, cache *vcache.Cache, rep *verify.Report) error {
	return NewJudge(h, head, src, view, cache, rep).Apply(ctx, rep)
}

// NewJudge returns the judge JudgeReport applies to rep.
func NewJudge(h gitblame.History, head gitblame.Hash, src source.Source, view View, cache *vcache.Cache, rep *verify.Report) *Judge {
	j := &Judge{H: h, T: gitblame.New(h), Head: head, Cache: cache, Target: gitblame.Target{Commit: head}}
	switch view {
	case ViewCommit:
		j.View = "commit"
	case ViewIndex:
		j.View, j.Target.View = "index", src
	default:
		j.View, j.Target.View = "working tree", src
		// which files may receive moved lines: asked only when lines are
		// followed out of a cited file (none on a warm run)
		var cross func(string) bool
		var once sync.Once
		j.Target.CrossFiles = func(p string) bool {
			once.Do(func() {
				var mems []*store.Memory
				for i := range rep.Memories {
					mems = append(mems, rep.Memories[i].Memory)
				}
				cross = CrossFiles(TrackedIn(src), CitedPaths(mems))
			})
			return cross(p)
		}
	}
	if ids, ok := src.(source.Identifier); ok {
		j.IDs = ids
	}
	return j
}

// NeedsLines reports whether rep holds a citation line identity could
// judge: a citation of lines.
func NeedsLines(rep *verify.Report) bool {
	for i := range rep.Memories {
		for k := range rep.Memories[i].Citations {
			cr := &rep.Memories[i].Citations[k]
			if c := cr.Citation; c.HasLine && c.URL == "" && (cr.Prose == nil || judgeable(cr)) {
				return true
			}
		}
	}
	return false
}

// judged is one citation Judge looks at.
type judged struct {
	cr *verify.CitationResult
}

// Apply judges the citations of rep by line identity and recounts rep.
//
// With a cache, the verdicts are kept at three levels, each keyed by
// everything they depend on: the whole report's (the head, every memory
// file's content and every cited file's content: a warm run makes one
// lookup), each memory's, and each citation's (by its base, the head and
// the cited file's content; a head that did not change the cited file
// takes its parent's).
func (j *Judge) Apply(ctx context.Context, rep *verify.Report) error {
	byMem := map[*store.Memory][]judged{}
	var order []*store.Memory
	for i := range rep.Memories {
		mr := &rep.Memories[i]
		if mr.Err() != nil || mr.Exempt || mr.Memory.File == nil {
			continue
		}
		for k := range mr.Citations {
			cr := &mr.Citations[k]
			if !judgeable(cr) {
				continue
			}
			if _, ok := byMem[mr.Memory]; !ok {
				order = append(order, mr.Memory)
			}
			byMem[mr.Memory] = append(byMem[mr.Memory], judged{cr})
		}
	}
	if len(order) == 0 {
		return nil
	}
	start := time.Now()
	head := j.Head.String()
	results := make([][]*outcome, len(order))
	storeKey, storeKeyed := j.storeKey(rep, order, byMem, head)
	if storeKeyed {
		if v, ok := j.Cache.Verdict(storeKey); ok {
			if j.applyStore(v.Reason, order, byMem) {
				rep.Recount()
				trace.Printf("line identity: %d memories, their verdicts cached, in %s", len(order), time.Since(start).Round(time.Millisecond))
				return nil
			}
		}
	}
	var nMem, nCached, nBases, nCites int
	var follow []Item
	var followed []*outcome
	var keys []vcache.Key // by followed: zero when not cached
	memKeys := make([]vcache.Key, len(order))
	putMem := make([]bool, len(order))
	for i, m := range order {
		if err := ctx.Err(); err != nil {
			return err
		}
		jds := byMem[m]
		nCites += len(jds)
		results[i] = make([]*outcome, len(jds))
		for k, jd := range jds {
			results[i][k] = &outcome{cr: jd.cr}
		}
		var keyed bool
		memKeys[i], keyed = j.memoryKey(rep, m, jds, head)
		if keyed {
			if v, ok := j.Cache.Verdict(memKeys[i]); ok {
				if rs, ok := decodeList(v.Reason, len(jds)); ok {
					for k, r := range rs {
						results[i][k].set(r, true)
					}
					nMem++
					continue
				}
			}
			putMem[i] = true
		}
		bases, cached, err := j.bases(m)
		if err != nil {
			return err
		}
		if cached {
			nBases++
		}
		for k, jd := range jds {
			c := jd.cr.Citation
			o := results[i][k]
			b := bases[c.Index]
			if jd.cr.Prose != nil {
				// the commit that wrote the sentence
				if h, err := gitblame.ParseHash(c.Commit); err == nil {
					b = base{base: h, src: gitblame.BaseCommit, hex: c.Commit}
				}
			}
			if b.base.IsZero() {
				o.set(unanchored, true) // judged as written
				continue
			}
			id, named := rep.ContentID(c.Path)
			if !named {
				id, named = j.contentID(c.Path)
			}
			var key vcache.Key
			if named && j.Cache != nil {
				key = vcache.KeyOf("identity", j.View, head, b.hex, id, citationKey(*c))
				v, ok := j.Cache.Verdict(key)
				if !ok {
					// a head that did not change the cited file leaves
					// its lines where they were at its parent
					if cp, err := source.Clean(c.Path); err == nil {
						if p, same := j.sameInParent(cp); same {
							if v, ok = j.Cache.Verdict(vcache.KeyOf("identity", j.View, p.String(), b.hex, id, citationKey(*c))); ok {
								j.Cache.PutVerdict(key, v)
							}
						}
					}
				}
				if ok {
					if r, keep, ok := j.decodeCited(rep, v); ok {
						o.set(r, keep)
						nCached++
						continue
					}
				}
			}
			blob, held, err := j.heldAtBase(b.base, c)
			if err != nil {
				return err
			}
			var r gitblame.Result
			switch {
			case !held && !c.HasSnippet:
				// wrong when written: there is no line to follow;
				// verification's verdict stands
			case held && named && id == "blob:"+blob.String():
				// the file is as it was when the citation was written, and
				// so are the lines it held then (lines it did not hold, a
				// snippet's are looked for, whether the file is named by
				// its content or read)
				r = inPlace(c)
			default:
				follow = append(follow, Item{Memory: m, Citation: c, Base: b.base, BaseSource: b.src})
				followed = append(followed, o)
				keys = append(keys, key)
				continue
			}
			o.set(r, named)
			if key != (vcache.Key{}) {
				j.Cache.PutVerdict(key, encodeResult(r))
			}
		}
	}
	if len(follow) > 0 {
		if err := Follow(ctx, j.T, j.Target, follow); err != nil {
			return err
		}
		for i := range follow {
			r := follow[i].Result
			ok := cacheable(follow[i].Citation, r) && keys[i] != (vcache.Key{})
			followed[i].set(r, ok)
			switch {
			case ok:
				j.Cache.PutVerdict(keys[i], encodeResult(r))
			case keys[i] != (vcache.Key{}) && movedAway(follow[i].Citation, r):
				// lines found in another file: cached with that file's
				// content name, checked when it is looked up (and not
				// with the memory's or the report's verdicts)
				if id, named := j.nameOf(rep, r.Location.Path); named {
					v := encodeResult(r)
					v.Reason = "\x03" + id + "\x03" + v.Reason
					j.Cache.PutVerdict(keys[i], v)
				}
			}
		}
	}
	allKept := storeKeyed
	var exceptions []string
	for i := range order {
		memKept := true
		rs := make([]gitblame.Result, len(results[i]))
		for k, o := range results[i] {
			apply(o.cr, o.r)
			if j.Record != nil && o.r.Status > gitblame.Unchanged {
				j.Record[o.cr.Citation] = o.r
			}
			rs[k] = o.r
			memKept = memKept && o.keep
			if !isInPlace(o.cr.Citation, o.r) {
				if e, ok := encodeOne(o.r); ok {
					exceptions = append(exceptions, strconv.Itoa(i)+" "+strconv.Itoa(k)+" "+e)
				} else {
					memKept = false
				}
			}
		}
		allKept = allKept && memKept
		if putMem[i] && memKept {
			if enc, ok := encodeList(rs); ok {
				j.Cache.PutVerdict(memKeys[i], vcache.Verdict{Reason: enc})
			}
		}
	}
	if allKept {
		j.Cache.PutVerdict(storeKey, vcache.Verdict{Reason: strings.Join(exceptions, "\x02")})
	}
	rep.Recount()
	trace.Printf("line identity: %d citations of %d memories (%d memories and %d bases cached), %d verdicts cached, %d followed, in %s",
		nCites, len(order), nMem, nBases, nCached, len(follow), time.Since(start).Round(time.Millisecond))
	return nil
}

// unanchored is the result of a citation without a base: judged as
// written (apply marks it).
var unanchored = gitblame.Result{Status: -1}

// outcome is one citation's line-identity result while Apply runs.
type outcome struct {
	cr   *verify.CitationResult
	r    gitblame.Result
	keep bool // r may be cached
}

func (o *outcome) set(r gitblame.Result, keep bool) { o.r, o.keep = r, keep }

// isInPlace reports whether r leaves c's verdict as verification gave it
// and adds nothing to it.
func isInPlace(c *memfile.Citation, r gitblame.Result) bool {
	if r.Status == 0 {
		return true
	}
	cr := verify.CitationResult{Citation: c}
	apply(&cr, r)
	return cr.Kind == verify.KindNone && cr.Now == nil && cr.ChangedIn == "" && !cr.Unanchored
}

// storeKey is the key of every judged citation's verdict at once: the
// view, the head, each memory file's path and content, and each cited
// file's content.
func (j *Judge) storeKey(rep *verify.Report, order []*store.Memory, byMem map[*store.Memory][]judged, head string) (vcache.Key, bool) {
	if j.Cache == nil {
		return vcache.Key{}, false
	}
	h := sha256.New()
	var n [8]byte
	put := func(s string) {
		binary.LittleEndian.PutUint64(n[:], uint64(len(s)))
		h.Write(n[:])
		h.Write([]byte(s))
	}
	put(j.View)
	put(head)
	for _, m := range order {
		put(m.Path)
		binary.LittleEndian.PutUint64(n[:], uint64(len(m.File.Src)))
		h.Write(n[:])
		h.Write(m.File.Src)
		for _, jd := range byMem[m] {
			c := jd.cr.Citation
			id, ok := rep.ContentID(c.Path)
			if !ok {
				return vcache.Key{}, false
			}
			put(strconv.Itoa(c.Index))
			put(id)
		}
	}
	return vcache.KeyOf("identity-store", string(h.Sum(nil))), true
}

// applyStore applies the exceptions a store-level entry lists (every
// other judged citation is in place); false when it cannot be read.
func (j *Judge) applyStore(s string, order []*store.Memory, byMem map[*store.Memory][]judged) bool {
	if s == "" {
		return true
	}
	type ex struct {
		cr *verify.CitationResult
		r  gitblame.Result
	}
	var out []ex
	for _, e := range strings.Split(s, "\x02") {
		f := strings.SplitN(e, " ", 3)
		if len(f) != 3 {
			return false
		}
		i, err1 := strconv.Atoi(f[0])
		k, err2 := strconv.Atoi(f[1])
		if err1 != nil || err2 != nil || i < 0 || i >= len(order) || k < 0 || k >= len(byMem[order[i]]) {
			return false
		}
		r, ok := decodeOne(f[2])
		if !ok {
			return false
		}
		out = append(out, ex{byMem[order[i]][k].cr, r})
	}
	for _, e := range out {
		apply(e.cr, e.r)
		if j.Record != nil && e.r.Status > gitblame.Unchanged {
			j.Record[e.cr.Citation] = e.r
		}
	}
	return true
}

// encodeOne encodes a result for a list; false when it holds a separator.
func encodeOne(r gitblame.Result) (string, bool) {
	v := encodeResult(r)
	if strings.ContainsAny(v.Reason, "\x01\x02") {
		return "", false
	}
	return strconv.Itoa(v.Kind) + "\x01" + v.Reason, true
}

func decodeOne(s string) (gitblame.Result, bool) {
	k, reason, ok := strings.Cut(s, "\x01")
	if !ok {
		return gitblame.Result{}, false
	}
	kind, err := strconv.Atoi(k)
	if err != nil {
		return gitblame.Result{}, false
	}
	return decodeResult(vcache.Verdict{Kind: kind, Reason: reason})
}

// memoryKey is the key of the verdicts of every judged citation of m at
// once: the view, the head, the memory file and its content (which fix
// every citation's base), and the content of each cited file. ok is false
// when there is no cache or a cited file's content has no name.
func (j *Judge) memoryKey(rep *verify.Report, m *store.Memory, jds []judged, head string) (vcache.Key, bool) {
	if j.Cache == nil {
		return vcache.Key{}, false
	}
	sum := sha256.Sum256(m.File.Src)
	parts := make([]string, 0, 4+2*len(jds))
	parts = append(parts, j.View, head, m.Path, string(sum[:]))
	for _, jd := range jds {
		c := jd.cr.Citation
		id, ok := rep.ContentID(c.Path)
		if !ok {
			if id, ok = j.contentID(c.Path); !ok {
				return vcache.Key{}, false
			}
		}
		parts = append(parts, strconv.Itoa(c.Index), id)
	}
	return vcache.KeyOf("identity-memory", parts...), true
}

// encodeList joins encoded results; false when one holds a separator.
func encodeList(rs []gitblame.Result) (string, bool) {
	parts := make([]string, len(rs))
	for i, r := range rs {
		e, ok := encodeOne(r)
		if !ok {
			return "", false
		}
		parts[i] = e
	}
	return strings.Join(parts, "\x02"), true
}

func decodeList(s string, n int) ([]gitblame.Result, bool) {
	parts := strings.Split(s, "\x02")
	if len(parts) != n {
		return nil, false
	}
	out := make([]gitblame.Result, n)
	for i, p := range parts {
		r, ok := decodeOne(p)
		if !ok {
			return nil, false
		}
		out[i] = r
	}
	return out, true
}

// inPlace is the result of lines where the citation says.
func inPlace(c *memfile.Citation) gitblame.Result {
	cp, err := source.Clean(c.Path)
	if err != nil {
		cp = c.Path
	}
	return gitblame.Result{Status: gitblame.Unchanged, Location: gitblame.Location{Path: cp, Line: c.Line, LineEnd: c.LineEnd}}
}

// judgeable: a citation of lines that line identity can speak for.
func judgeable(cr *verify.CitationResult) bool {
	c := cr.Citation
	if cr.Prose != nil {
		// a reference in the prose is anchored where its sentence was
		// written (internal/prose); lines it names that no longer hold
		// the text they held then are followed from that commit, the
		// citation's, to say where they went
		if cr.Kind == verify.KindPathDeleted {
			return false // the file's verdict
		}
		// (lines of a file moved since: followed into the file it moved
		// to, apply says whether that verdict stands)
		return cr.Prose.Kind == "lines" && cr.Status == verify.Stale && c.Commit != "" && c.Path != "" &&
			c.HasLine && c.Line >= 1 && (c.LineEnd == 0 || c.LineEnd >= c.Line)
	}
	if cr.Status == verify.Skipped || c.URL != "" || c.Path == "" || !c.HasLine || c.Line < 1 || (c.LineEnd != 0 && c.LineEnd < c.Line) {
		return false
	}
	if cr.Status == verify.Valid {
		return !c.HasSnippet
	}
	switch cr.Kind {
	case verify.KindPathTraversal, verify.KindEmptyPath, verify.KindInvalidLine, verify.KindInvalidRange:
		return false
	}
	return true
}

// base is a citation's base commit as Prepare finds it.
type base struct {
	base gitblame.Hash // zero: none (not committed, history cut, skipped)
	src  gitblame.BaseSource
	hex  string // base's name, for cache keys
}

// bases returns the base of every citation of m by index, from the cache
// when it holds them for this head and this content of the memory file.
func (j *Judge) bases(m *store.Memory) (out map[int]base, cached bool, err error) {
	var key vcache.Key
	if j.Cache != nil {
		sum := hex.EncodeToString(func() []byte { s := sha256.Sum256(m.File.Src); return s[:] }())
		key = vcache.KeyOf("bases", j.Head.String(), m.Path, sum)
		if v, ok := j.Cache.Verdict(key); ok {
			if out, ok := decodeBases(v.Reason); ok {
				return out, true, nil
			}
		}
		// The walk back from the head along first parents passes its
		// parent: when the head did not change the memory file, the bases
		// found from the parent are the head's.
		if p, ok := j.sameInParent(m.Path); ok {
			if v, ok := j.Cache.Verdict(vcache.KeyOf("bases", p.String(), m.Path, sum)); ok {
				if out, ok := decodeBases(v.Reason); ok {
					j.Cache.PutVerdict(key, v)
					return out, true, nil
				}
			}
		}
	}
	items, err := Prepare(j.H, j.T, j.Head, []*store.Memory{m})
	if err != nil {
		return nil, false, err
	}
	out = make(map[int]base, len(items))
	var enc strings.Builder
	for i := range items {
		it := &items[i]
		if it.Base.IsZero() || it.File || (it.Action != 0 && it.Action != Keep) {
			continue // no base: skipped, history cut, not committed
		}
		out[it.Citation.Index] = base{it.Base, it.BaseSource, it.Base.String()}
		fmt.Fprintf(&enc, "%d %s %d\n", it.Citation.Index, it.Base, it.BaseSource)
	}
	if j.Cache != nil {
		j.Cache.PutVerdict(key, vcache.Verdict{Reason: enc.String()})
	}
	return out, false, nil
}

func decodeBases(s string) (map[int]base, bool) {
	out := map[int]base{}
	for _, line := range strings.Split(strings.TrimSuffix(s, "\n"), "\n") {
		if line == "" {
			continue
		}
		f := strings.Fields(line)
		if len(f) != 3 {
			return nil, false
		}
		i, err1 := strconv.Atoi(f[0])
		h, err2 := gitblame.ParseHash(f[1])
		src, err3 := strconv.Atoi(f[2])
		if err1 != nil || err2 != nil || err3 != nil {
			return nil, false
		}
		out[i] = base{h, gitblame.BaseSource(src), f[1]}
	}
	return out, true
}

// sameInParent returns the head's first parent when the head holds path
// as its parent does. The first few paths are compared one by one; after
// that the paths the head changed are listed once (one diff), which is
// cheaper for many.
func (j *Judge) sameInParent(path string) (gitblame.Hash, bool) {
	j.parentOnce.Do(func() {
		hc, err := j.H.Commit(j.Head)
		if err != nil || len(hc.Parents) != 1 {
			return // a root commit, or a merge: its first parent may differ in any path
		}
		pc, err := j.H.Commit(hc.Parents[0])
		if err != nil {
			return
		}
		j.parent, j.headTree, j.parentTree, j.hasParent = pc.Hash, hc.Tree, pc.Tree, true
	})
	if !j.hasParent {
		return gitblame.Hash{}, false
	}
	if j.asked++; j.asked <= 32 {
		a, ok1, err1 := j.H.Entry(j.headTree, path)
		b, ok2, err2 := j.H.Entry(j.parentTree, path)
		if err1 != nil || err2 != nil || ok1 != ok2 || a != b {
			return gitblame.Hash{}, false
		}
		return j.parent, true
	}
	if j.changed == nil {
		changes, err := j.H.Changes(j.parent, j.Head, false)
		if err != nil {
			j.hasParent = false
			return gitblame.Hash{}, false
		}
		j.changed = map[string]bool{}
		for _, ch := range changes {
			j.changed[ch.From] = true
			j.changed[ch.To] = true
		}
	}
	if j.changed[path] {
		return gitblame.Hash{}, false
	}
	return j.parent, true
}

// contentID names the target's content of path p, if it can.
func (j *Judge) contentID(p string) (string, bool) {
	if j.IDs == nil {
		return "", false
	}
	return j.IDs.ContentID(p)
}

// heldAtBase returns the blob of the cited file at base and whether it
// held the cited lines then: a citation that was wrong when it was
// written has no lines to follow.
func (j *Judge) heldAtBase(b gitblame.Hash, c *memfile.Citation) (gitblame.Hash, bool, error) {
	cp, err := source.Clean(c.Path)
	if err != nil {
		return gitblame.Hash{}, false, nil
	}
	bc, err := j.H.Commit(b)
	if err != nil {
		return gitblame.Hash{}, false, err
	}
	blob, ok, err := j.H.Entry(bc.Tree, cp)
	if err != nil || !ok {
		return blob, false, err
	}
	_, ok, err = j.T.Line(blob, max(c.Line, c.LineEnd))
	if err != nil {
		return blob, false, nil // not text (binary, missing object): nothing to follow
	}
	return blob, ok, nil
}

// apply sets the line-identity verdict of r on cr.
func apply(cr *verify.CitationResult, r gitblame.Result) {
	if r.Status == unanchored.Status {
		cr.Unanchored = true
		return
	}
	c := cr.Citation
	cp, err := source.Clean(c.Path)
	if err != nil {
		cp = c.Path
	}
	loc := r.Location
	if cr.Kind == verify.KindPathMoved {
		// lines of a file moved since the sentence was written: the
		// file's verdict stands, unless the lines are in the file it
		// moved to at other numbers (moved or edited there); rewriting
		// the path alone would then leave the numbers wrong
		found := r.Status == gitblame.Unchanged || r.Status == gitblame.Moved || r.Status == gitblame.Changed
		if cr.Prose == nil || !found || loc.Path != cr.Prose.Now || sameLines(loc, c) {
			return
		}
		// the lines' verdict: Now says where they are (path and lines)
		cr.Kind, cr.Prose.Now = verify.KindNone, ""
	}
	inPlace := (r.Status == gitblame.Unchanged || r.Status == gitblame.Moved) &&
		loc.Path == cp && loc.Line == c.Line && (loc.LineEnd == c.LineEnd || (c.LineEnd == 0 && loc.LineEnd == loc.Line) || (loc.LineEnd == 0 && c.LineEnd == c.Line))
	if inPlace {
		return // where the citation says: verification's verdict stands
	}
	var kind verify.Kind
	var reason string
	lines := "Line " + strconv.Itoa(c.Line)
	if c.LineEnd > c.Line {
		lines = fmt.Sprintf("Lines %d-%d", c.Line, c.LineEnd)
	}
	ev := r.Blame()
	in := ""
	if ev != nil {
		cr.ChangedIn = ev.Where()
		if ev.Commit != nil {
			cr.ChangedCommit = ev.Commit.Hash.String()
			in = " in " + ev.Commit.Hash.Short()
		} else if ev.View != "" {
			in = " in the " + ev.View
		}
	}
	switch r.Status {
	case gitblame.Unchanged, gitblame.Moved:
		p := &verify.Place{Path: loc.Path, Line: loc.Line, LineEnd: loc.LineEnd}
		if p.LineEnd <= p.Line {
			p.LineEnd = 0
		}
		cr.Now = p
		kind, reason = verify.KindMoved, fmt.Sprintf("%s moved to %s%s", lines, p, in)
	case gitblame.Changed:
		if loc.Path != "" && loc.Line > 0 && (loc.Path != cp || loc.Line != c.Line) {
			p := &verify.Place{Path: loc.Path, Line: loc.Line, LineEnd: loc.LineEnd}
			if p.LineEnd <= p.Line {
				p.LineEnd = 0
			}
			cr.Now = p
			kind, reason = verify.KindEdited, fmt.Sprintf("%s %s edited%s; now at %s", lines, wasWere(c), in, p)
		} else {
			kind, reason = verify.KindEdited, fmt.Sprintf("%s %s edited%s", lines, wasWere(c), in)
		}
	case gitblame.Gone:
		kind, reason = verify.KindDeleted, fmt.Sprintf("%s %s deleted%s", lines, wasWere(c), in)
	case gitblame.Ambiguous:
		kind, reason = verify.KindAmbiguous, fmt.Sprintf("%s can no longer be told apart%s (%d candidates)", lines, in, len(r.Candidates))
	default:
		return
	}
	if c.HasSnippet {
		return // the snippet's verdict stands; Now and ChangedIn tell where the lines went
	}
	cr.Kind, cr.Reason = kind, reason
}

// sameLines reports whether loc names the lines c does (a range of one
// line is that line).
func sameLines(loc gitblame.Location, c *memfile.Citation) bool {
	end, cend := loc.LineEnd, c.LineEnd
	if end == 0 {
		end = loc.Line
	}
	if cend == 0 {
		cend = c.Line
	}
	return loc.Line == c.Line && end == cend
}

func wasWere(c *memfile.Citation) string {
	if c.LineEnd > c.Line {
		return "were"
	}
	return "was"
}

// cacheable: a result that depends on nothing but what its key names
// (the cited file's content, the base, the head): lines found in the
// cited file itself. Lines deleted from it or found in another file
// depend on other files' content.
func cacheable(c *memfile.Citation, r gitblame.Result) bool {
	cp, err := source.Clean(c.Path)
	if err != nil {
		return false
	}
	switch r.Status {
	case gitblame.Unchanged, gitblame.Moved, gitblame.Changed:
		return r.Location.Path == cp
	case gitblame.Gone:
		// deleted by a commit: history up to the head decides it
		return r.Break != nil && r.Break.Commit != nil
	}
	return false
}

// movedAway: lines found (unchanged or edited) in another file than the
// cited one.
func movedAway(c *memfile.Citation, r gitblame.Result) bool {
	cp, err := source.Clean(c.Path)
	if err != nil {
		return false
	}
	switch r.Status {
	case gitblame.Unchanged, gitblame.Moved, gitblame.Changed:
		return r.Location.Path != "" && r.Location.Path != cp
	}
	return false
}

// nameOf names the target's content of path p: as verification named it,
// else from the target.
func (j *Judge) nameOf(rep *verify.Report, p string) (string, bool) {
	if id, ok := rep.ContentID(p); ok {
		return id, true
	}
	return j.contentID(p)
}

// decodeCited reads a citation's cached verdict. One whose lines are in
// another file holds that file's content name, which must still be the
// target's: such a verdict is used, but not kept with its memory's or the
// report's (keep is false).
func (j *Judge) decodeCited(rep *verify.Report, v vcache.Verdict) (r gitblame.Result, keep, ok bool) {
	if rest, found := strings.CutPrefix(v.Reason, "\x03"); found {
		id, reason, found := strings.Cut(rest, "\x03")
		if !found {
			return r, false, false
		}
		v.Reason = reason
		if r, ok = decodeResult(v); !ok {
			return r, false, false
		}
		if now, named := j.nameOf(rep, r.Location.Path); !named || now != id {
			return r, false, false
		}
		return r, false, true
	}
	r, ok = decodeResult(v)
	return r, true, ok
}

// encodeResult keeps what apply reads of a result.
func encodeResult(r gitblame.Result) vcache.Verdict {
	var b strings.Builder
	fmt.Fprintf(&b, "%s\x00%d\x00%d\x00%d", r.Location.Path, r.Location.Line, r.Location.LineEnd, len(r.Candidates))
	if ev := r.Blame(); ev != nil {
		fmt.Fprintf(&b, "\x00%d\x00%s", ev.Kind, ev.View)
		if ev.Commit != nil {
			c := ev.Commit
			fmt.Fprintf(&b, "\x00%s\x00%s\x00%d\x00%s", c.Hash, c.Author, c.AuthorDate.Unix(), c.Subject)
		}
	}
	return vcache.Verdict{Kind: int(r.Status), Reason: b.String()}
}

func decodeResult(v vcache.Verdict) (gitblame.Result, bool) {
	var r gitblame.Result
	r.Status = gitblame.Status(v.Kind)
	f := strings.Split(v.Reason, "\x00")
	if len(f) < 4 {
		return r, false
	}
	var err error
	r.Location.Path = f[0]
	if r.Location.Line, err = strconv.Atoi(f[1]); err != nil {
		return r, false
	}
	if r.Location.LineEnd, err = strconv.Atoi(f[2]); err != nil {
		return r, false
	}
	n, err := strconv.Atoi(f[3])
	if err != nil {
		return r, false
	}
	r.Candidates = make([]gitblame.Location, n)
	if len(f) >= 6 {
		k, err := strconv.Atoi(f[4])
		if err != nil {
			return r, false
		}
		ev := &gitblame.Event{Kind: gitblame.EventKind(k), View: f[5]}
		if len(f) >= 10 {
			h, err := gitblame.ParseHash(f[6])
			if err != nil {
				return r, false
			}
			sec, err := strconv.ParseInt(f[8], 10, 64)
			if err != nil {
				return r, false
			}
			ev.Commit = &gitblame.Commit{Hash: h, Author: f[7], AuthorDate: unix(sec), Subject: strings.Join(f[9:], "\x00")}
		}
		// Blame returns the event by status; set every field it may read
		switch r.Status {
		case gitblame.Gone, gitblame.Ambiguous:
			r.Break = ev
		case gitblame.Changed:
			r.FirstEdit = ev
		case gitblame.Moved:
			r.FirstMove = ev
		}
	}
	return r, true
}

func unix(sec int64) time.Time { return time.Unix(sec, 0).UTC() }

// LazyHistory is a gitblame.History opened on its first use: a judge
// whose answers the cache holds reads no history, so opening the object
// store is left until something must be read.
type LazyHistory struct {
	Open func() (gitblame.History, error)

	h   gitblame.History
	err error
	did bool
}

func (l *LazyHistory) get() (gitblame.History, error) {
	if !l.did {
		l.did = true
		l.h, l.err = l.Open()
	}
	return l.h, l.err
}

// Opened returns the history if it was opened, for the caller to close.
func (l *LazyHistory) Opened() gitblame.History { return l.h }

// Resolve implements gitblame.History.
func (l *LazyHistory) Resolve(rev string) (gitblame.Hash, error) {
	h, err := l.get()
	if err != nil {
		return gitblame.Hash{}, err
	}
	return h.Resolve(rev)
}

// Commit implements gitblame.History.
func (l *LazyHistory) Commit(x gitblame.Hash) (*gitblame.Commit, error) {
	h, err := l.get()
	if err != nil {
		return nil, err
	}
	return h.Commit(x)
}

// Entry implements gitblame.History.
func (l *LazyHistory) Entry(tree gitblame.Hash, path string) (gitblame.Hash, bool, error) {
	h, err := l.get()
	if err != nil {
		return gitblame.Hash{}, false, err
	}
	return h.Entry(tree, path)
}

// EntryAt passes EntryAt on to the history when it has it
// (gitblame.EntryAter); else it does not know.
func (l *LazyHistory) EntryAt(commit gitblame.Hash, p string) (gitblame.Hash, bool, bool, error) {
	h, err := l.get()
	if err != nil {
		return gitblame.ZeroHash, false, false, err
	}
	if ea, ok := h.(gitblame.EntryAter); ok {
		return ea.EntryAt(commit, p)
	}
	return gitblame.ZeroHash, false, false, nil
}

// Blob implements gitblame.History.
func (l *LazyHistory) Blob(x gitblame.Hash) ([]byte, error) {
	h, err := l.get()
	if err != nil {
		return nil, err
	}
	return h.Blob(x)
}

// Blobs implements gitblame.BlobsReader: in one round trip when the
// history it opens reads blobs so, else one by one.
func (l *LazyHistory) Blobs(xs []gitblame.Hash, f func(i int, data []byte, err error)) {
	h, err := l.get()
	if err != nil {
		for i := range xs {
			f(i, nil, err)
		}
		return
	}
	gitblame.ReadBlobs(h, xs, f)
}

// ReadCommits implements gitblame.CommitsReader.
func (l *LazyHistory) ReadCommits(xs []gitblame.Hash) {
	if h, err := l.get(); err == nil {
		gitblame.ReadCommits(h, xs)
	}
}

// Changes implements gitblame.History.
func (l *LazyHistory) Changes(from, to gitblame.Hash, renames bool) ([]gitblame.Change, error) {
	h, err := l.get()
	if err != nil {
		return nil, err
	}
	return h.Changes(from, to, renames)
}

// Files implements gitblame.History.
func (l *LazyHistory) Files(tree gitblame.Hash) (map[string]gitblame.Hash, error) {
	h, err := l.get()
	if err != nil {
		return nil, err
	}
	return h.Files(tree)
}

// Decide sets an item's action from its result as relocate's plan does
// (edited text not accepted): Keep, Move, Review or Unresolved.
func Decide(it *Item) { decide(it, Options{}) }

// FileCommits implements PathLogger when the history it opens does.
func (l *LazyHistory) FileCommits(head gitblame.Hash, path string) ([]gitblame.Hash, error) {
	pl, err := l.pathLogger()
	if err != nil {
		return nil, err
	}
	return pl.FileCommits(head, path)
}

// FirstParents implements PathLogger when the history it opens does.
func (l *LazyHistory) FirstParents(oldest, head gitblame.Hash) ([]gitblame.Hash, error) {
	pl, err := l.pathLogger()
	if err != nil {
		return nil, err
	}
	return pl.FirstParents(oldest, head)
}

func (l *LazyHistory) pathLogger() (PathLogger, error) {
	h, err := l.get()
	if err != nil {
		return nil, err
	}
	pl, ok := h.(PathLogger)
	if !ok {
		return nil, errNoPathLog
	}
	return pl, nil
}

var errNoPathLog = errors.New("this history cannot list a file's commits")

// Chain implements gitblame.PathHistory when the history it opens does
// (errors.ErrUnsupported otherwise: the tracker reads commits itself).
func (l *LazyHistory) Chain(head gitblame.Hash, until func(gitblame.Hash) bool) ([]gitblame.Hash, error) {
	ph, err := l.pathHistory()
	if err != nil {
		return nil, err
	}
	return ph.Chain(head, until)
}

// Touching implements gitblame.PathHistory when the history it opens
// does (errors.ErrUnsupported otherwise).
func (l *LazyHistory) Touching(oldest, head gitblame.Hash, paths []string) ([]gitblame.Touch, error) {
	ph, err := l.pathHistory()
	if err != nil {
		return nil, err
	}
	return ph.Touching(oldest, head, paths)
}

func (l *LazyHistory) pathHistory() (gitblame.PathHistory, error) {
	h, err := l.get()
	if err != nil {
		return nil, err
	}
	ph, ok := h.(gitblame.PathHistory)
	if !ok {
		return nil, fmt.Errorf("this history cannot list a chain's commits: %w", errors.ErrUnsupported)
	}
	return ph, nil
}
