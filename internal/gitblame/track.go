package gitblame

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/git-memcite/git-memcite/internal/source"
)

// Anchor is one citation to follow: lines Line..LineEnd (1-based,
// inclusive; LineEnd 0 means Line) of Path at commit Base.
type Anchor struct {
	Path    string
	Line    int
	LineEnd int
	// Snippet is the cited text, if the citation has one. It is matched as
	// a substring of the cited lines after trimming and collapsing white
	// space.
	Snippet string
	// Text optionally holds the cited lines as they were when cited. It
	// is used to find the lines in Base if they are not at Line there, and
	// to search the target when Base is missing.
	Text []string
	// Base is the commit the citation was made or last verified at. A zero
	// or missing Base makes the tracker search the target's content.
	Base Hash
}

func (a Anchor) end() int {
	if a.LineEnd < a.Line {
		return a.Line
	}
	return a.LineEnd
}

// Target is where anchors are tracked to: a commit and, optionally, a
// content view (index or working tree) reached from it in a final step.
//
// The step into the view is treated like a commit: lines that moved into
// another file of the view (an existing one, or a new one) are found as in
// a commit. CrossFiles, when set, says which files of the view may receive
// them: a working tree holds untracked scratch copies, so callers pass the
// files git tracks plus any file a citation names; nil means every file
// (an index holds only what is staged).
//
// Changed, when set, lists the paths where View may differ from Commit
// (what git status reports: modified, added, deleted, untracked). A step
// into View that needs the view's changes (lines deleted or moved away
// from a cited file) then compares those paths only, instead of reading
// every file of View; it is called at most once, and only then. Nil: the
// whole view is compared.
type Target struct {
	Commit     Hash
	View       source.Source
	CrossFiles func(path string) bool
	Changed    func() (map[string]bool, error)
}

// Tracker follows anchors through a repository's history. It caches blobs
// and line maps, so reuse one Tracker for many calls on one repository. It
// is not safe for concurrent use.
type Tracker struct {
	// Progress, when set, is called as the stepwise walk advances with the
	// number of commits walked and the length of the walk.
	Progress func(done, total int)

	noGallop bool // tests: walk every commit
	// readChain is the length up to which a chain is read commit by
	// commit even with a PathHistory (shortChain; tests lower it)
	readChain int

	h     History
	texts map[Hash]*text
	maps  map[[2]Hash]*lineMap
	cross func(string) bool // the target's CrossFiles during Track
	stubs map[Hash]*Commit  // the commits results name, not read yet (stub)
}

// New returns a Tracker reading from h.
func New(h History) *Tracker {
	return &Tracker{
		h:         h,
		texts:     map[Hash]*text{},
		maps:      map[[2]Hash]*lineMap{},
		stubs:     map[Hash]*Commit{},
		readChain: shortChain,
	}
}

// version is one side of a step: a commit (hash; view nil) or a content
// view. A commit's object is read only when its tree or its description
// is needed (commitOf, stub): a walk mostly knows the files of a commit
// of the chain by its hash (EntryAter).
type version struct {
	hash   Hash
	commit *Commit // nil until read
	view   source.Source
	// viewHash caches the git blob hash of view files.
	viewHash map[string]viewEntry
	// changed is the target's Changed (views only); base, the commit it
	// is relative to.
	changed func() (map[string]bool, error)
	base    Hash
	// like is an object name of the repository (the target commit): view
	// files are hashed in its object format.
	like Hash
}

type viewEntry struct {
	h  Hash
	ok bool
}

// commitVersion is the version of commit c.
func commitVersion(c *Commit) *version { return &version{hash: c.Hash, commit: c} }

// event is an event of kind at v.
func (t *Tracker) event(v *version, kind EventKind) *Event {
	if v.view == nil {
		return &Event{Kind: kind, Commit: t.stub(v)}
	}
	return &Event{Kind: kind, View: v.view.Name()}
}

// stub returns the commit of v for a result: v's commit if read, else one
// that names it only and is completed when the tracking ends
// (fillStubs), the same for every result that names it.
func (t *Tracker) stub(v *version) *Commit {
	if v.commit != nil {
		return v.commit
	}
	if c, ok := t.stubs[v.hash]; ok {
		return c
	}
	c := &Commit{Hash: v.hash}
	t.stubs[v.hash] = c
	return c
}

// fillStubs reads the commits the results name by stub (at once, when
// the history can).
func (t *Tracker) fillStubs() error {
	if len(t.stubs) == 0 {
		return nil
	}
	ReadCommits(t.h, slices.Collect(maps.Keys(t.stubs)))
	for h, c := range t.stubs {
		full, err := t.h.Commit(h)
		if err != nil {
			return fmt.Errorf("gitblame: commit %s: %w", h.Short(), err)
		}
		*c = *full
	}
	clear(t.stubs)
	return nil
}

// commitOf returns v's commit, read if it was not.
func (t *Tracker) commitOf(v *version) (*Commit, error) {
	if v.commit == nil {
		c, err := t.h.Commit(v.hash)
		if err != nil {
			return nil, fmt.Errorf("gitblame: walking first parents: %w", err)
		}
		v.commit = c
	}
	return v.commit, nil
}

// line is one tracked line of a citation.
type line struct {
	cit    *citation
	k      int    // index in the citation's range
	path   string // current path
	idx    int    // current 0-based line
	orig   string // normalized original text
	cur    string // normalized current text
	raw    string // current raw text
	alive  bool
	shadow bool // a candidate of an ambiguous line, not the line itself
	score  float64
}

type citation struct {
	a       Anchor
	res     Result
	lines   []*line
	shadows []*line
	snippet string // normalized snippet lines joined by "\n"
	origRaw []string
	started bool
	gone    bool
}

// Track follows each anchor to the target and returns one Result per
// anchor, in order. Anchors sharing a base commit share the walk, the
// blobs and the line diffs. Errors are returned only for repository
// failures; citations that cannot be followed are reported in their
// Result. The steps are those of the package documentation.
func (t *Tracker) Track(ctx context.Context, anchors []Anchor, target Target) ([]Result, error) {
	tc, err := t.h.Commit(target.Commit)
	if err != nil {
		return nil, fmt.Errorf("gitblame: target commit: %w", err)
	}
	t.cross = target.CrossFiles
	cits := make([]*citation, len(anchors))
	for i, a := range anchors {
		c := &citation{a: a}
		c.snippet = normalizeSnippet(a.Snippet)
		cits[i] = c
	}
	r, err := t.route(ctx, tc, cits) // step 1
	if err != nil {
		return nil, err
	}
	// final is the version results are read from: the view if there is
	// one (shared by every route, with its hash cache), else the target.
	final := commitVersion(tc)
	var view *version
	if target.View != nil {
		view = &version{view: target.View, viewHash: map[string]viewEntry{}, changed: target.Changed, base: target.Commit, like: tc.Hash}
		final = view
	}
	if err := t.walk(ctx, r, tc, view); err != nil { // steps 2-9, stepwise
		return nil, err
	}
	if err := t.oneShots(r.oneShot, tc, view); err != nil { // steps 2-9, one step per base
		return nil, err
	}
	for _, c := range r.missing { // step 9's content search
		if err := t.contentSearch(final, c); err != nil {
			return nil, err
		}
	}
	out := make([]Result, len(cits)) // step 10
	for _, c := range cits {
		if c.res.Route != RouteContentSearch {
			t.finish(c, final)
		}
	}
	if err := t.fillStubs(); err != nil {
		return nil, err
	}
	for i, c := range cits {
		out[i] = c.res
	}
	return out, nil
}

// routes is how step 1 sends each citation: along the first-parent chain
// (stepwise), one step from its base (one-shot), or to content search.
type routes struct {
	chain   []Hash               // the first-parent chain to the target, oldest first
	commits []*Commit            // chain's commits, each read when first needed (at)
	byPaths bool                 // chain came from PathHistory: the walk may skip (quiet)
	pos     map[Hash]int         // each chain commit's index in chain
	active  map[Hash][]*citation // the citations of each base on the chain
	start   int                  // the index of the oldest base on the chain; len(chain): none
	oneShot []*citation          // bases off the chain
	missing []*citation          // no base, or a base the repository does not have
}

// route is step 1: it groups the citations by base and walks first
// parents back from the target until every base is seen.
func (t *Tracker) route(ctx context.Context, tc *Commit, cits []*citation) (*routes, error) {
	r := &routes{active: map[Hash][]*citation{}}
	bases := map[Hash][]*citation{}
	for _, c := range cits {
		if c.a.Base.IsZero() {
			r.missing = append(r.missing, c)
			continue
		}
		bases[c.a.Base] = append(bases[c.a.Base], c)
	}
	ReadCommits(t.h, slices.Collect(maps.Keys(bases)))
	for b, cs := range bases {
		if _, err := t.h.Commit(b); err != nil {
			if !errors.Is(err, ErrNotFound) {
				return nil, fmt.Errorf("gitblame: base commit %s: %w", b.Short(), err)
			}
			r.missing = append(r.missing, cs...)
			delete(bases, b)
		}
	}
	if err := t.chainOf(ctx, r, tc, bases); err != nil {
		return nil, err
	}
	r.pos = make(map[Hash]int, len(r.chain))
	for i, c := range r.chain {
		r.pos[c] = i
	}
	r.start = len(r.chain)
	for b, cs := range bases {
		if i, ok := r.pos[b]; ok {
			r.start = min(r.start, i)
			r.active[b] = cs
			continue
		}
		r.oneShot = append(r.oneShot, cs...)
	}
	return r, nil
}

// walk replays the chain from the oldest base to the target commit by
// commit (steps 2-8, galloping where it can), starting each citation at
// its base, then takes the step into the view (step 9). With a
// PathHistory (quiet), steps and windows where no path holding tracked
// lines changes are crossed without reading anything: they change
// nothing, exactly as the step through them would.
func (t *Tracker) walk(ctx context.Context, r *routes, tc *Commit, view *version) error {
	if r.start >= len(r.chain) {
		return nil // no base on the chain
	}
	chain := r.chain
	q, err := newQuiet(t.h, r)
	if err != nil {
		return err
	}
	prevI := r.start // the version the lines are in
	prev := t.at(r, prevI)
	live, err := t.activate(prev, r.active[chain[r.start]], RouteStepwise, nil)
	if err != nil {
		return err
	}
	lastBase := r.start
	for b := range r.active {
		lastBase = max(lastBase, r.pos[b])
	}
	// from returns the version at prevI, made if the walk crossed to it
	// without one.
	from := func() *version {
		if prev == nil {
			prev = t.at(r, prevI)
		}
		return prev
	}
	noJumpBefore := 0
	for i := r.start + 1; i < len(chain); i++ {
		if err := ctx.Err(); err != nil {
			return err
		}
		if t.Progress != nil && (i-r.start)%64 == 0 {
			t.Progress(i-r.start, len(chain)-r.start)
		}
		if len(live) == 0 && i > lastBase {
			// Every citation is settled (gone): the rest of the walk
			// cannot change a result.
			prevI, prev = len(chain)-1, commitVersion(tc)
			break
		}
		// Gallop: when every line would cross the next window of
		// commits by exact lineage, take the window as one step.
		if far := i + gallop - 1; !t.noGallop && i > lastBase && i >= noJumpBefore && far < len(chain) {
			if q.still(prevI, far) {
				if stillJump(live) {
					prevI, prev, i = far, nil, far
					continue
				}
			} else {
				f, to := from(), t.at(r, far)
				ok, err := t.canJump(f, to, live, q.unchanged(prevI, far))
				if err != nil {
					return err
				}
				if ok {
					if live, err = t.stepOnly(f, to, live, q.unchanged(prevI, far)); err != nil {
						return err
					}
					if err := q.follow(far, live); err != nil {
						return err
					}
					prevI, prev, i = far, to, far
					continue
				}
			}
			noJumpBefore = far // step through this window one commit at a time
		}
		cs := r.active[chain[i]]
		if q.still(prevI, i) && len(cs) == 0 {
			prevI, prev = i, nil
			continue
		}
		next := t.at(r, i)
		if !q.still(prevI, i) {
			if live, err = t.stepOnly(from(), next, live, q.unchanged(prevI, i)); err != nil {
				return err
			}
		}
		if len(cs) > 0 {
			if live, err = t.activate(next, cs, RouteStepwise, live); err != nil {
				return err
			}
		}
		if err := q.follow(i, live); err != nil {
			return err
		}
		prevI, prev = i, next
	}
	if view != nil {
		_, err = t.step(from(), view, live)
		return err
	}
	return nil
}

// at returns the version of the commit at index i of r's chain, its
// object read if it was.
func (t *Tracker) at(r *routes, i int) *version {
	return &version{hash: r.chain[i], commit: r.commits[i]}
}

// oneShots follows the citations whose base is off the first-parent
// chain: one step from each base to the target commit, then into the
// view (RouteOneShot).
func (t *Tracker) oneShots(cits []*citation, tc *Commit, view *version) error {
	byBase := map[Hash][]*citation{}
	for _, c := range cits {
		byBase[c.a.Base] = append(byBase[c.a.Base], c)
	}
	for b, cs := range byBase {
		bc, err := t.h.Commit(b)
		if err != nil {
			return fmt.Errorf("gitblame: base commit %s: %w", b.Short(), err)
		}
		from := commitVersion(bc)
		live, err := t.activate(from, cs, RouteOneShot, nil)
		if err != nil {
			return err
		}
		to := commitVersion(tc)
		if live, err = t.step(from, to, live); err != nil {
			return err
		}
		if view != nil {
			if _, err = t.step(to, view, live); err != nil {
				return err
			}
		}
	}
	return nil
}

// gallop is the window of commits the walk tries to cross in one step.
const gallop = 32

// canJump reports whether every live line crosses from version from to
// version to by exact lineage — its file exists at both ends, its line maps
// through a strong Equal run of the one-shot diff — and has already had its
// first move recorded or stays on the same line, so that taking the window
// as one step changes no status, location or first move that sticks. (What
// it cannot see: a line edited and edited back, deleted and restored, or
// moved away and back inside the window. Each ends where it started, which
// is what the result reports, even where a walk through every commit would
// have lost the line's trail; the round trip's event is not recorded.)
//
// unchanged, when set, names paths known to have the same blob at both
// ends (their lines cross by themselves).
func (t *Tracker) canJump(from, to *version, live []*line, unchanged func(string) bool) (bool, error) {
	any := false
	for _, l := range live {
		if !l.alive {
			continue
		}
		if l.shadow {
			return false, nil // ambiguous lines are followed step by step
		}
		any = true
		if unchanged != nil && unchanged(l.path) {
			continue
		}
		oh, ok, err := t.entry(from, l.path)
		if err != nil || !ok {
			return false, err
		}
		nh, ok, err := t.entry(to, l.path)
		if err != nil || !ok {
			return false, err
		}
		if oh == nh {
			continue
		}
		m, err := t.lineMap(oh, nh)
		if err != nil {
			return false, err
		}
		j := m.fwd[l.idx]
		if j < 0 || m.weak[l.idx] {
			return false, nil
		}
		if j != l.idx && l.cit.res.FirstMove == nil {
			return false, nil
		}
	}
	return any, nil
}

// shortChain is the length up to which the chain is read commit by
// commit even with a PathHistory: asking git costs two processes, more
// than reading a few commits and trees.
const shortChain = 64

// chainOf sets r's chain: the first-parent chain from the oldest base
// found (or the root) to target, oldest first, read commit by commit back
// until every base has been seen. With a PathHistory, a chain longer than
// shortChain is the whole chain, listed by git, and the walk may cross
// commits unread (quiet).
func (t *Tracker) chainOf(ctx context.Context, r *routes, tc *Commit, bases map[Hash][]*citation) error {
	ph, _ := t.h.(PathHistory)
	need := len(bases)
	var rev []*Commit
	c := tc
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		if ph != nil && len(rev) == t.readChain {
			ok, err := t.listChain(r, tc, ph, bases)
			if ok || err != nil {
				return err
			}
		}
		rev = append(rev, c)
		if _, ok := bases[c.Hash]; ok {
			need--
		}
		if need == 0 || len(c.Parents) == 0 {
			break
		}
		p, err := t.h.Commit(c.Parents[0])
		if err != nil {
			if errors.Is(err, ErrNotFound) {
				break // shallow history
			}
			return fmt.Errorf("gitblame: walking first parents: %w", err)
		}
		c = p
	}
	slices.Reverse(rev)
	r.commits = rev
	r.chain = make([]Hash, len(rev))
	for i, c := range rev {
		r.chain[i] = c.Hash
	}
	return nil
}

// listChain sets r's chain to target's first-parent chain as ph lists
// it, back until every base has been seen; false when ph cannot.
func (t *Tracker) listChain(r *routes, tc *Commit, ph PathHistory, bases map[Hash][]*citation) (bool, error) {
	need := len(bases)
	hs, err := ph.Chain(tc.Hash, func(h Hash) bool {
		if _, ok := bases[h]; ok {
			need--
		}
		return need == 0
	})
	switch {
	case err != nil && !errors.Is(err, errors.ErrUnsupported):
		return false, fmt.Errorf("gitblame: first parents of %s: %w", tc.Hash.Short(), err)
	case err != nil || len(hs) == 0 || hs[0] != tc.Hash:
		return false, nil
	}
	slices.Reverse(hs)
	r.chain, r.byPaths = hs, true
	r.commits = make([]*Commit, len(hs))
	r.commits[len(hs)-1] = tc
	return true, nil
}

// activate starts tracking the citations whose base is v.
func (t *Tracker) activate(v *version, cs []*citation, route Route, live []*line) ([]*line, error) {
	for _, c := range cs {
		c.res.Route = route
		c.res.Base = v.hash
		c.started = true
		p, err := source.Clean(c.a.Path)
		if err != nil {
			c.res.Note = "invalid path: " + err.Error()
			c.gone = true
			continue
		}
		bh, ok, err := t.entry(v, p)
		if err != nil {
			return nil, err
		}
		if !ok {
			c.gone = true
			c.res.Note = fmt.Sprintf("%s does not exist at base %s", p, v.hash.Short())
			continue
		}
		tx, err := t.text(bh)
		if err != nil {
			return nil, err
		}
		first, last := c.a.Line-1, c.a.end()-1
		if want := c.a.Text; len(want) > 0 && !matchesAt(tx, first, want) {
			if at, ok := findText(tx, want, first); ok {
				c.res.Note = fmt.Sprintf("cited text found at line %d of the base, not %d", at+1, first+1)
				first, last = at, at+len(want)-1
			}
		}
		if c.snippet != "" && len(c.a.Text) == 0 && !strings.Contains(strings.Join(window(tx, first, last), "\n"), c.snippet) {
			// The snippet is not at the cited lines in the base either: the
			// citation was already off when recorded. Follow the nearest
			// occurrence of the snippet in the base instead, if there is one.
			if at, ok := findSnippet(tx, c.snippet, first); ok {
				c.res.Note = fmt.Sprintf("snippet found at line %d of the base, not %d", at+1, first+1)
				last += at - first
				first = at
			}
		}
		if first < 0 || last >= len(tx.keys) {
			c.gone = true
			c.res.Note = fmt.Sprintf("lines %d-%d are outside %s at base (%d lines)", first+1, last+1, p, len(tx.keys))
			continue
		}
		for i := first; i <= last; i++ {
			l := &line{cit: c, k: i - first, path: p, idx: i, orig: tx.keys[i], cur: tx.keys[i], raw: tx.raw(i), alive: true, score: 1}
			c.lines = append(c.lines, l)
			c.origRaw = append(c.origRaw, tx.raw(i))
			live = append(live, l)
		}
	}
	return live, nil
}

// window returns the keys of lines first..last, clipped to the text.
func window(tx *text, first, last int) []string {
	first, last = max(first, 0), min(last, len(tx.keys)-1)
	if first > last {
		return nil
	}
	return tx.keys[first : last+1]
}

// findSnippet finds the line where a (normalized) snippet starts, nearest
// to near; a snippet of several lines must match consecutive lines.
func findSnippet(tx *text, snippet string, near int) (int, bool) {
	parts := strings.Split(snippet, "\n")
	best, found := 0, false
	for i := 0; i+len(parts) <= len(tx.keys); i++ {
		if !strings.Contains(strings.Join(tx.keys[i:i+len(parts)], "\n"), snippet) {
			continue
		}
		if !found || abs(i-near) < abs(best-near) {
			best, found = i, true
		}
	}
	return best, found
}

func matchesAt(tx *text, at int, want []string) bool {
	if at < 0 || at+len(want) > len(tx.keys) {
		return false
	}
	for i, w := range want {
		if tx.keys[at+i] != normalize(w) {
			return false
		}
	}
	return true
}

// findText finds want in tx, nearest to near; ok is false if it is absent.
func findText(tx *text, want []string, near int) (int, bool) {
	best, found := 0, false
	for i := 0; i+len(want) <= len(tx.keys); i++ {
		if matchesAt(tx, i, want) && (!found || abs(i-near) < abs(best-near)) {
			best, found = i, true
		}
	}
	return best, found
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// entry returns the blob hash of path in v.
func (t *Tracker) entry(v *version, p string) (Hash, bool, error) {
	if v.view == nil {
		if ea, ok := t.h.(EntryAter); ok {
			if h, ok, known, err := ea.EntryAt(v.hash, p); err == nil && known {
				return h, ok, nil
			}
		}
		c, err := t.commitOf(v)
		if err != nil {
			return ZeroHash, false, err
		}
		h, ok, err := t.h.Entry(c.Tree, p)
		if err != nil {
			return h, false, fmt.Errorf("gitblame: %s at %s: %w", p, v.hash.Short(), err)
		}
		return h, ok, nil
	}
	if e, ok := v.viewHash[p]; ok {
		return e.h, e.ok, nil
	}
	b, err := v.view.ReadFile(p)
	if err != nil {
		if errors.Is(err, source.ErrNotExist) || errors.Is(err, source.ErrNotRegular) || errors.Is(err, source.ErrOutside) {
			v.viewHash[p] = viewEntry{}
			return ZeroHash, false, nil
		}
		return ZeroHash, false, fmt.Errorf("gitblame: reading %s from %s: %w", p, v.view.Name(), err)
	}
	h := BlobHash(b, v.like)
	if _, ok := t.texts[h]; !ok {
		t.texts[h] = splitText(b)
	}
	v.viewHash[p] = viewEntry{h, true}
	return h, true, nil
}

// Line returns line n (1-based, without its line ending) of blob h as
// the tracker reads it, and false past its end. The blob's text stays in
// the tracker's cache for the tracking that follows.
func (t *Tracker) Line(h Hash, n int) (string, bool, error) {
	tx, err := t.text(h)
	if err != nil {
		return "", false, err
	}
	if n < 1 || n > len(tx.keys) {
		return "", false, nil
	}
	return tx.raw(n - 1), true, nil
}

func (t *Tracker) text(h Hash) (*text, error) {
	if tx, ok := t.texts[h]; ok {
		return tx, nil
	}
	b, err := t.h.Blob(h)
	if err != nil {
		return nil, fmt.Errorf("gitblame: blob %s: %w", h.Short(), err)
	}
	tx := splitText(b)
	t.texts[h] = tx
	return tx, nil
}

// prefetch reads the texts of blobs not read yet in one round trip, when
// the history can (BlobsReader): a step's changed files are read
// together, not one request after the other. A blob it cannot read is
// left for text, which reports the error.
func (t *Tracker) prefetch(hs []Hash) {
	br, ok := t.h.(BlobsReader)
	if !ok {
		return
	}
	var want []Hash
	seen := map[Hash]bool{}
	for _, h := range hs {
		if _, ok := t.texts[h]; !ok && !h.IsZero() && !seen[h] {
			seen[h] = true
			want = append(want, h)
		}
	}
	if len(want) < 2 {
		return
	}
	br.Blobs(want, func(i int, data []byte, err error) {
		if err == nil {
			t.texts[want[i]] = splitText(data)
		}
	})
}

func (t *Tracker) lineMap(a, b Hash) (*lineMap, error) {
	k := [2]Hash{a, b}
	if m, ok := t.maps[k]; ok {
		return m, nil
	}
	ta, err := t.text(a)
	if err != nil {
		return nil, err
	}
	tb, err := t.text(b)
	if err != nil {
		return nil, err
	}
	m := buildMapRuns(ta, tb, lineDiff(ta.keys, tb.keys))
	t.maps[k] = m
	return m, nil
}

// changes lists the file changes of a step, with or without rename
// detection.
func (t *Tracker) changes(from, to *version, renames bool) ([]Change, error) {
	if to.view == nil {
		ch, err := t.h.Changes(from.hash, to.hash, renames)
		if err != nil {
			return nil, fmt.Errorf("gitblame: changes %s..%s: %w", from.hash.Short(), to.hash.Short(), err)
		}
		return ch, nil
	}
	return t.viewChanges(from, to, renames)
}

// viewChanges compares a commit with a content view. Renames pair deleted
// and added files whose lines are at least 50% alike.
func (t *Tracker) viewChanges(from, to *version, renames bool) ([]Change, error) {
	if to.changed != nil && from.hash == to.base {
		return t.viewChangesIn(from, to, renames)
	}
	fc, err := t.commitOf(from)
	if err != nil {
		return nil, err
	}
	files, err := t.h.Files(fc.Tree)
	if err != nil {
		return nil, fmt.Errorf("gitblame: listing %s: %w", from.hash.Short(), err)
	}
	list, err := to.view.List("")
	if err != nil {
		return nil, fmt.Errorf("gitblame: listing %s: %w", to.view.Name(), err)
	}
	var out, added, deleted []Change
	seen := map[string]bool{}
	for _, p := range list {
		seen[p] = true
		h, ok, err := t.entry(to, p)
		if err != nil || !ok {
			continue
		}
		old, inCommit := files[p]
		switch {
		case !inCommit:
			added = append(added, Change{To: p, ToBlob: h})
		case old != h:
			out = append(out, Change{From: p, To: p, FromBlob: old, ToBlob: h})
		}
	}
	paths := make([]string, 0, len(files))
	for p := range files {
		if !seen[p] {
			paths = append(paths, p)
		}
	}
	sort.Strings(paths)
	for _, p := range paths {
		deleted = append(deleted, Change{From: p, FromBlob: files[p]})
	}
	return t.pairRenames(out, added, deleted, renames)
}

// viewChangesIn is viewChanges over the paths the target's Changed lists
// (the view's base commit is from): every other path is the same in both.
func (t *Tracker) viewChangesIn(from, to *version, renames bool) ([]Change, error) {
	changed, err := to.changed()
	if err != nil {
		return nil, fmt.Errorf("gitblame: changes of %s: %w", to.view.Name(), err)
	}
	to.changed = func() (map[string]bool, error) { return changed, nil } // asked once
	paths := make([]string, 0, len(changed))
	for p := range changed {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	fc, err := t.commitOf(from)
	if err != nil {
		return nil, err
	}
	var out, added, deleted []Change
	for _, p := range paths {
		old, inCommit, err := t.h.Entry(fc.Tree, p)
		if err != nil {
			return nil, fmt.Errorf("gitblame: %s at %s: %w", p, from.hash.Short(), err)
		}
		h, inView, err := t.entry(to, p)
		if err != nil {
			continue // as the whole-view listing skips unreadable files
		}
		switch {
		case inView && !inCommit:
			added = append(added, Change{To: p, ToBlob: h})
		case inView && old != h:
			out = append(out, Change{From: p, To: p, FromBlob: old, ToBlob: h})
		case !inView && inCommit:
			deleted = append(deleted, Change{From: p, FromBlob: old})
		}
	}
	return t.pairRenames(out, added, deleted, renames)
}

// pairRenames completes a view's changes: with renames, each deleted file
// is paired with the added file most like it (at least 50%).
func (t *Tracker) pairRenames(out, added, deleted []Change, renames bool) ([]Change, error) {
	if renames {
		for i := range deleted {
			best, bestScore := -1, 0.5
			for j := range added {
				if added[j].From != "" {
					continue
				}
				s, err := t.fileSimilarity(deleted[i].FromBlob, added[j].ToBlob)
				if err != nil {
					return nil, err
				}
				if s >= bestScore {
					best, bestScore = j, s
				}
			}
			if best >= 0 {
				added[best].From, added[best].FromBlob = deleted[i].From, deleted[i].FromBlob
				deleted[i].From = ""
			}
		}
	}
	out = append(out, added...)
	for _, d := range deleted {
		if d.From != "" {
			out = append(out, d)
		}
	}
	return out, nil
}

// fileSimilarity is the share of a's and b's lines (weighted by length)
// that they have in common, like git's rename score.
func (t *Tracker) fileSimilarity(a, b Hash) (float64, error) {
	ta, err := t.text(a)
	if err != nil {
		return 0, err
	}
	tb, err := t.text(b)
	if err != nil {
		return 0, err
	}
	count := map[string]int{}
	sa, sb := 0, 0
	for _, k := range ta.keys {
		count[k]++
		sa += len(k) + 1
	}
	common := 0
	for _, k := range tb.keys {
		sb += len(k) + 1
		if count[k] > 0 {
			count[k]--
			common += len(k) + 1
		}
	}
	if m := max(sa, sb); m > 0 {
		return float64(common) / float64(m), nil
	}
	return 1, nil
}

func normalizeSnippet(s string) string {
	s = strings.TrimSpace(strings.ReplaceAll(s, "\r\n", "\n"))
	if s == "" {
		return ""
	}
	parts := strings.Split(s, "\n")
	for i, p := range parts {
		parts[i] = normalize(p)
	}
	return strings.Join(parts, "\n")
}
