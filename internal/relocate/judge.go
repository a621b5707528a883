package relocate

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/git-memcite/git-memcite/internal/gitblame"
	"github.com/git-memcite/git-memcite/internal/memfile"
	"github.com/git-memcite/git-memcite/internal/source"
	"github.com/git-memcite/git-memcite/internal/store"
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
	j := &Judge{H: h, T: gitblame.New(h), Head: head, Cache: cache, Target: gitblame.Target{Commit: head}}
	switch view {
	case ViewCommit:
		j.View = "commit"
	case ViewIndex:
		j.View, j.Target.View = "index", src
	default:
		j.View, j.Target.View = "working tree", src
		var mems []*store.Memory
		for i := range rep.Memories {
			mems = append(mems, rep.Memories[i].Memory)
		}
		j.Target.CrossFiles = CrossFiles(TrackedIn(src), CitedPaths(mems))
	}
	if ids, ok := src.(source.Identifier); ok {
		j.IDs = ids
	}
	return j.Apply(ctx, rep)
}

// NeedsLines reports whether rep holds a citation line identity could
// judge: a citation of lines.
func NeedsLines(rep *verify.Report) bool {
	for i := range rep.Memories {
		for _, cr := range rep.Memories[i].Citations {
			if c := cr.Citation; c.HasLine && c.URL == "" {
				return true
			}
		}
	}
	return false
}

// judged is one citation Judge looks at.
type judged struct {
	mr *verify.MemoryResult
	cr *verify.CitationResult
}

// Apply judges the citations of rep by line identity and recounts rep.
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
			byMem[mr.Memory] = append(byMem[mr.Memory], judged{mr, cr})
		}
	}
	if len(order) == 0 {
		return nil
	}
	var follow []Item
	var followed []*verify.CitationResult
	var keys []vcache.Key // by followed: zero when not cached
	for _, m := range order {
		if err := ctx.Err(); err != nil {
			return err
		}
		bases, err := j.bases(m)
		if err != nil {
			return err
		}
		for _, jd := range byMem[m] {
			c := jd.cr.Citation
			b := bases[c.Index]
			if b.base.IsZero() {
				jd.cr.Unanchored = true
				continue
			}
			blob, held, err := j.heldAtBase(b.base, c)
			if err != nil {
				return err
			}
			if !held {
				continue // wrong when written: there is no line to follow; verification's verdict stands
			}
			id, named := j.contentID(c.Path)
			if named && id == "blob:"+blob.String() {
				continue // the file is as it was when the citation was written
			}
			var key vcache.Key
			if named && j.Cache != nil {
				key = vcache.KeyOf("identity", j.View, j.Head.String(), b.base.String(), id, citationKey(*c))
				v, ok := j.Cache.Verdict(key)
				if !ok {
					// a head that did not change the cited file leaves
					// its lines where they were at its parent
					if cp, err := source.Clean(c.Path); err == nil {
						if p, same := j.sameInParent(cp); same {
							if v, ok = j.Cache.Verdict(vcache.KeyOf("identity", j.View, p.String(), b.base.String(), id, citationKey(*c))); ok {
								j.Cache.PutVerdict(key, v)
							}
						}
					}
				}
				if ok {
					if r, ok := decodeResult(v); ok {
						apply(jd.cr, r)
						continue
					}
				}
			}
			follow = append(follow, Item{Memory: m, Citation: c, Base: b.base, BaseSource: b.src})
			followed = append(followed, jd.cr)
			keys = append(keys, key)
		}
	}
	if len(follow) > 0 {
		if err := Follow(ctx, j.T, j.Target, follow); err != nil {
			return err
		}
		for i := range follow {
			r := follow[i].Result
			apply(followed[i], r)
			if keys[i] != (vcache.Key{}) && cacheable(follow[i].Citation, r) {
				j.Cache.PutVerdict(keys[i], encodeResult(r))
			}
		}
	}
	rep.Recount()
	return nil
}

// judgeable: a citation of lines that line identity can speak for.
func judgeable(cr *verify.CitationResult) bool {
	c := cr.Citation
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
}

// bases returns the base of every citation of m by index, from the cache
// when it holds them for this head and this content of the memory file.
func (j *Judge) bases(m *store.Memory) (map[int]base, error) {
	var key vcache.Key
	if j.Cache != nil {
		sum := hex.EncodeToString(func() []byte { s := sha256.Sum256(m.File.Src); return s[:] }())
		key = vcache.KeyOf("bases", j.Head.String(), m.Path, sum)
		if v, ok := j.Cache.Verdict(key); ok {
			if out, ok := decodeBases(v.Reason); ok {
				return out, nil
			}
		}
		// The walk back from the head along first parents passes its
		// parent: when the head did not change the memory file, the bases
		// found from the parent are the head's.
		if p, ok := j.sameInParent(m.Path); ok {
			if v, ok := j.Cache.Verdict(vcache.KeyOf("bases", p.String(), m.Path, sum)); ok {
				if out, ok := decodeBases(v.Reason); ok {
					j.Cache.PutVerdict(key, v)
					return out, nil
				}
			}
		}
	}
	items, err := Prepare(j.H, j.T, j.Head, []*store.Memory{m})
	if err != nil {
		return nil, err
	}
	out := make(map[int]base, len(items))
	var enc strings.Builder
	for i := range items {
		it := &items[i]
		if !it.tracked() || it.Base.IsZero() || it.File {
			continue
		}
		out[it.Citation.Index] = base{it.Base, it.BaseSource}
		fmt.Fprintf(&enc, "%d %s %d\n", it.Citation.Index, it.Base, it.BaseSource)
	}
	if j.Cache != nil {
		j.Cache.PutVerdict(key, vcache.Verdict{Reason: enc.String()})
	}
	return out, nil
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
		out[i] = base{h, gitblame.BaseSource(src)}
	}
	return out, true
}

// sameInParent returns the head's first parent when the head holds the
// memory file at path as its parent does.
func (j *Judge) sameInParent(path string) (gitblame.Hash, bool) {
	hc, err := j.H.Commit(j.Head)
	if err != nil || len(hc.Parents) == 0 {
		return gitblame.Hash{}, false
	}
	pc, err := j.H.Commit(hc.Parents[0])
	if err != nil {
		return gitblame.Hash{}, false
	}
	a, ok1, err1 := j.H.Entry(hc.Tree, path)
	b, ok2, err2 := j.H.Entry(pc.Tree, path)
	if err1 != nil || err2 != nil || !ok1 || !ok2 || a != b {
		return gitblame.Hash{}, false
	}
	return pc.Hash, true
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
	c := cr.Citation
	cp, err := source.Clean(c.Path)
	if err != nil {
		cp = c.Path
	}
	loc := r.Location
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
	}
	return false
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
