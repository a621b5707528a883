package gitblame

import (
	"sort"
	"strings"
)

// Limits on the cross-file search of one step, to bound the cost of huge
// commits (vendoring, mass renames).
const (
	maxCrossFiles = 400
	maxCrossLines = 200000
	maxScored     = 15
	maxShadows    = 5
)

// pend is a line that fell into a changed hunk during a step.
type pend struct {
	l       *line
	oldIdx  int
	ot      *text
	newPath string
	nh      Hash
	nt      *text
	m       *lineMap
	best    []cand // accepted (1) or ambiguous (>1) candidates
}

// cand is a place a pending line may have gone to.
type cand struct {
	path    string
	tx      *text
	idx     int
	cross   bool
	slider  bool // an Equal-run line Myers may have misaligned
	content float64
	ctx     float64
	score   float64
}

// stepState memoizes what a step computes lazily.
type stepState struct {
	from, to *version
	changes  map[bool][]Change
	added    []cand // inserted lines of the step, all files
	addedOK  bool
}

func (t *Tracker) stepChanges(st *stepState, renames bool) ([]Change, error) {
	if ch, ok := st.changes[renames]; ok {
		return ch, nil
	}
	ch, err := t.changes(st.from, st.to, renames)
	if err != nil {
		return nil, err
	}
	st.changes[renames] = ch
	return ch, nil
}

// addedLines returns the lines inserted by the step in every changed file
// (all lines of added files), the candidates of cross-file moves.
func (t *Tracker) addedLines(st *stepState) ([]cand, error) {
	if st.addedOK {
		return st.added, nil
	}
	st.addedOK = true
	ch, err := t.stepChanges(st, false)
	if err != nil {
		return nil, err
	}
	if len(ch) > maxCrossFiles {
		return nil, nil
	}
	// the files lines may have moved to, their contents read at once
	var into []Change
	var read []Hash
	for _, c := range ch {
		if c.To == "" || (st.to.view != nil && t.cross != nil && !t.cross(c.To)) {
			continue
		}
		into = append(into, c)
		read = append(read, c.ToBlob)
		if c.From != "" {
			read = append(read, c.FromBlob)
		}
	}
	t.prefetch(read)
	total := 0
	for _, c := range into {
		tx, err := t.text(c.ToBlob)
		if err != nil {
			return nil, err
		}
		var ins []bool
		if c.From != "" {
			m, err := t.lineMap(c.FromBlob, c.ToBlob)
			if err != nil {
				return nil, err
			}
			ins = m.inserted
		}
		for j := range tx.keys {
			if ins == nil || ins[j] {
				st.added = append(st.added, cand{path: c.To, tx: tx, idx: j, cross: true})
				total++
			}
		}
		if total > maxCrossLines {
			st.added = nil
			return nil, nil
		}
	}
	return st.added, nil
}

// step moves every live line from version from to version to and returns
// the lines still alive: per path, exact lineage (steps 2-4, stepPath),
// then the candidates of the other lines (5-7, resolve), the vote of each
// range citation (8, vote) and the outcome (settle).
func (t *Tracker) step(from, to *version, live []*line) ([]*line, error) {
	return t.stepOnly(from, to, live, nil)
}

// stepOnly is step knowing, when unchanged is set, paths whose blob is
// the same in from and to: their lines stay (stepPath would find that
// out by reading both trees).
func (t *Tracker) stepOnly(from, to *version, live []*line, unchanged func(string) bool) ([]*line, error) {
	paths, byPath := linesByPath(live)
	st := &stepState{from: from, to: to, changes: map[bool][]Change{}}
	touched := map[*citation]bool{}
	var pending []*pend
	for _, p := range paths {
		if unchanged != nil && unchanged(p) {
			continue
		}
		ps, err := t.stepPath(st, p, byPath[p], touched)
		if err != nil {
			return nil, err
		}
		pending = append(pending, ps...)
	}
	if len(pending) > 0 {
		if err := t.resolve(st, pending); err != nil {
			return nil, err
		}
	}
	pendOf := make(map[*line]*pend, len(pending))
	for _, p := range pending {
		pendOf[p.l] = p
	}
	for c := range touched {
		if len(c.lines) > 1 {
			if err := t.vote(st, c, pendOf); err != nil {
				return nil, err
			}
		}
	}
	t.settle(st, pending)
	for c := range touched {
		c.dropOrphans()
	}
	for c := range touched {
		t.checkEvents(c, from, to)
	}
	return stillAlive(live, touched), nil
}

// linesByPath groups the live lines by path; paths are sorted.
func linesByPath(live []*line) ([]string, map[string][]*line) {
	byPath := map[string][]*line{}
	var paths []string
	for _, l := range live {
		if !l.alive {
			continue
		}
		if _, ok := byPath[l.path]; !ok {
			paths = append(paths, l.path)
		}
		byPath[l.path] = append(byPath[l.path], l)
	}
	sort.Strings(paths)
	return paths, byPath
}

// stepPath moves the lines of path p by exact lineage: the blob compared
// (step 2), its rename followed if it is gone (step 3), each line mapped
// through the line diff's Equal runs (step 4). It returns the lines left
// for steps 5-8, and marks the citations it touched.
func (t *Tracker) stepPath(st *stepState, p string, lines []*line, touched map[*citation]bool) ([]*pend, error) {
	oh, ok, err := t.entry(st.from, p)
	if err != nil || !ok {
		return nil, err // !ok cannot happen: lines are only placed in existing files
	}
	nh, nok, err := t.entry(st.to, p)
	if err != nil || (nok && nh == oh) {
		return nil, err
	}
	newPath := p
	if !nok {
		newPath = ""
		ch, err := t.stepChanges(st, true)
		if err != nil {
			return nil, err
		}
		for _, c := range ch {
			if c.From == p && c.To != "" {
				newPath, nh = c.To, c.ToBlob
				break
			}
		}
	}
	ot, err := t.text(oh)
	if err != nil {
		return nil, err
	}
	var m *lineMap
	var nt *text
	if newPath != "" {
		if m, err = t.lineMap(oh, nh); err != nil {
			return nil, err
		}
		if nt, err = t.text(nh); err != nil {
			return nil, err
		}
	}
	var pending []*pend
	for _, l := range lines {
		if !touched[l.cit] {
			touched[l.cit] = true
			if !l.shadow {
				l.cit.res.Steps++
			}
		}
		if m != nil && m.fwd[l.idx] >= 0 && !m.weak[l.idx] {
			t.place(l, newPath, m.fwd[l.idx], nt, 1, st.to)
			continue
		}
		if l.shadow {
			l.alive = false // candidates only follow exact lineage
			continue
		}
		pending = append(pending, &pend{l: l, oldIdx: l.idx, ot: ot, newPath: newPath, nh: nh, nt: nt, m: m})
	}
	return pending, nil
}

// stillAlive returns the lines of live still alive after a step, and the
// touched citations' live candidates (shadows) not among them.
func stillAlive(live []*line, touched map[*citation]bool) []*line {
	out := live[:0]
	for _, l := range live {
		if l.alive {
			out = append(out, l)
		}
	}
	for c := range touched {
		for _, s := range c.shadows {
			if s.alive && !containsLine(out, s) {
				out = append(out, s)
			}
		}
	}
	return out
}

func containsLine(ls []*line, l *line) bool {
	for _, x := range ls {
		if x == l {
			return true
		}
	}
	return false
}

// place moves l to line j of path (whose text is tx) in version to.
func (t *Tracker) place(l *line, path string, j int, tx *text, score float64, to *version) {
	if (path != l.path || j != l.idx) && !l.shadow && l.cit.res.FirstMove == nil {
		l.cit.res.FirstMove = t.event(to, EventMoved)
	}
	l.path, l.idx = path, j
	l.cur, l.raw = tx.keys[j], tx.raw(j)
	l.score = min(l.score, score)
}

// checkEvents records the first step at which a citation's text stopped
// matching and the step at which it was lost.
func (t *Tracker) checkEvents(c *citation, from, to *version) {
	alive := 0
	for _, l := range c.lines {
		if l.alive {
			alive++
		}
	}
	if c.res.FirstEdit == nil && !c.matches() {
		c.res.FirstEdit = t.event(to, EventEdited)
	}
	if c.res.FirstChange == nil {
		for _, l := range c.lines {
			if l.alive && l.cur != l.orig {
				c.res.FirstChange = t.event(to, EventEdited)
				break
			}
		}
	}
	if alive == 0 && c.res.Break == nil {
		kind := EventDeleted
		for _, s := range c.shadows {
			if s.alive {
				kind = EventAmbiguous
			}
		}
		c.res.Break = t.event(to, kind)
		if kind == EventDeleted {
			c.res.GoneIn = c.res.Break
			c.res.LastSeen = t.stub(from)
		}
	}
}

// matches reports whether the citation's live text still carries its
// snippet, or without a snippet, is unchanged up to white space.
func (c *citation) matches() bool {
	if c.snippet != "" {
		return strings.Contains(c.joined(), c.snippet)
	}
	for _, l := range c.lines {
		if !l.alive || l.cur != l.orig {
			return false
		}
	}
	return true
}

func (c *citation) joined() string {
	var parts []string
	for _, l := range c.lines {
		if l.alive {
			parts = append(parts, l.cur)
		}
	}
	return strings.Join(parts, "\n")
}

// resolve relocates the lines that fell into changed hunks.
func (t *Tracker) resolve(st *stepState, pending []*pend) error {
	// The candidates of the lines of one file are the same (pick only
	// reads them): built once per file.
	type key struct {
		path string
		m    *lineMap
	}
	type cands struct {
		own, all []cand // the file's own; with the other files' added lines
		allOK    bool
	}
	byFile := map[key]*cands{}
	for _, p := range pending {
		k := key{p.newPath, p.m}
		c := byFile[k]
		if c == nil {
			c = &cands{}
			if p.nt != nil {
				// Inserted lines, and lines Myers aligned only through runs of
				// braces and blanks, which may belong to this line instead.
				for j, ins := range p.m.inserted {
					if ins || p.m.weakNew[j] {
						c.own = append(c.own, cand{path: p.newPath, tx: p.nt, idx: j, slider: !ins})
					}
				}
			}
			byFile[k] = c
		}
		p.best = t.pick(p, c.own)
		if len(p.best) == 1 && p.best[0].content >= 0.9 {
			continue
		}
		if !c.allOK {
			c.allOK = true
			added, err := t.addedLines(st)
			if err != nil {
				return err
			}
			n := 0
			for _, a := range added {
				if a.path != p.newPath {
					n++
				}
			}
			if n > 0 {
				c.all = make([]cand, 0, len(c.own)+n)
				c.all = append(c.all, c.own...)
				for _, a := range added {
					if a.path != p.newPath {
						c.all = append(c.all, a)
					}
				}
			}
		}
		if c.all != nil {
			p.best = t.pick(p, c.all)
		}
	}
	return nil
}

// settle places the pending lines: accepted candidates are taken, ties
// leave shadow candidates (single-line citations), the rest are gone.
func (t *Tracker) settle(st *stepState, pending []*pend) {
	for _, p := range pending {
		l := p.l
		switch {
		case len(p.best) == 1:
			b := p.best[0]
			t.place(l, b.path, b.idx, b.tx, b.score, st.to)
		case len(p.best) > 1:
			l.alive = false
			if len(l.cit.lines) == 1 {
				for i, b := range p.best {
					if i == maxShadows {
						break
					}
					s := &line{cit: l.cit, shadow: true, alive: true, path: b.path, idx: b.idx,
						orig: l.orig, cur: b.tx.keys[b.idx], raw: b.tx.raw(b.idx), score: b.score}
					l.cit.shadows = append(l.cit.shadows, s)
				}
			}
		default:
			l.alive = false
		}
	}
}

// vote applies block consistency to citation c: its lines vote for an
// offset (path, first line) with their new places; lines left unresolved
// or tied take the slot the vote gives them when the text there is theirs
// and no other line of the citation holds it.
func (t *Tracker) vote(st *stepState, c *citation, pend map[*line]*pend) error {
	type slot struct {
		path string
		base int
	}
	votes := map[slot]int{}
	for _, l := range c.lines {
		if !l.alive {
			continue
		}
		if p, ok := pend[l]; ok {
			if len(p.best) == 1 {
				votes[slot{p.best[0].path, p.best[0].idx - l.k}]++
			}
			continue
		}
		votes[slot{l.path, l.idx - l.k}]++
	}
	var win slot
	n := 0
	for s, v := range votes {
		if v > n || (v == n && (s.path < win.path || (s.path == win.path && s.base < win.base))) {
			win, n = s, v
		}
	}
	if n == 0 || !hasUnresolved(c, pend) {
		return nil
	}
	h, ok, err := t.entry(st.to, win.path)
	if err != nil || !ok {
		return err
	}
	tx, err := t.text(h)
	if err != nil {
		return err
	}
	claimed := map[int]bool{}
	for _, l := range c.lines {
		if !l.alive {
			continue
		}
		if p, ok := pend[l]; ok {
			if len(p.best) == 1 && p.best[0].path == win.path {
				claimed[p.best[0].idx] = true
			}
		} else if l.path == win.path {
			claimed[l.idx] = true
		}
	}
	for _, l := range c.lines {
		p, ok := pend[l]
		if !l.alive || !ok || len(p.best) == 1 {
			continue
		}
		j := win.base + l.k
		if j < 0 || j >= len(tx.keys) || claimed[j] {
			continue
		}
		// Between neighbours of the citation that landed next to the slot,
		// an edited line is recognised at half similarity.
		boxed := (l.k == 0 || claimed[j-1]) && (l.k == len(c.lines)-1 || claimed[j+1])
		key := tx.keys[j]
		sim := similarity(key, l.cur)
		if key == l.cur || (!trivial(l.cur) && sim >= 0.8) || (boxed && sim >= 0.5) {
			// A line that came unchanged from another line of the old
			// version has its own lineage: the deleted line's neighbour
			// value01 is not value02.
			fresh, err := t.fresh(st, p, win.path, h, j)
			if err != nil {
				return err
			}
			if !fresh {
				continue
			}
			p.best = []cand{{path: win.path, tx: tx, idx: j, content: sim, score: 0.9}}
			claimed[j] = true
		}
	}
	return nil
}

func hasUnresolved(c *citation, pend map[*line]*pend) bool {
	for _, l := range c.lines {
		if p, ok := pend[l]; ok && len(p.best) != 1 {
			return true
		}
	}
	return false
}

// pick scores candidates for a pending line and returns the accepted one,
// the tied ones (ambiguous), or none: content first (contentScored), then
// context and the thresholds of steps 5 and 6 (accept), then the winner
// of step 7 (best).
func (t *Tracker) pick(p *pend, cs []cand) []cand {
	if len(cs) == 0 {
		return nil
	}
	q := p.l.cur
	triv := trivial(q)
	scored := t.contentScored(q, triv, cs)
	if len(scored) == 0 {
		return nil
	}
	return best(q, triv, t.accept(p, q, triv, scored))
}

// contentScored returns the candidates worth scoring for the line q, with
// their content similarity: for a trivial line, the same key; else the
// maxScored best by bigram Dice (every verbatim copy among them).
func (t *Tracker) contentScored(q string, triv bool, cs []cand) []cand {
	var scored []cand
	if triv {
		for _, c := range cs {
			if c.tx.keys[c.idx] == q {
				c.content = 1
				scored = append(scored, c)
			}
		}
		return scored
	}
	qb := bigrams(q)
	type pre struct {
		i int
		d float64
	}
	var pres []pre
	for i, c := range cs {
		k := c.tx.keys[c.idx]
		if k == q {
			pres = append(pres, pre{i, 2})
			continue
		}
		if c.slider {
			continue // a slider is only ever the same line
		}
		if len(k)*3 < len(q) || len(q)*3 < len(k) {
			continue
		}
		if d := dice(qb, c.tx.bigramsOf(c.idx)); d >= 0.3 {
			pres = append(pres, pre{i, d})
		}
	}
	// The line's own Equal partner (a slider, always the same text)
	// competes only with other copies of the same text: Myers' evidence
	// is not overturned by a merely similar line in a better context
	// (two similar lines swapped).
	for _, c := range cs {
		if c.slider && c.tx.keys[c.idx] == q {
			kept := pres[:0]
			for _, pr := range pres {
				if pr.d == 2 {
					kept = append(kept, pr)
				}
			}
			pres = kept
			break
		}
	}
	sort.SliceStable(pres, func(a, b int) bool { return pres[a].d > pres[b].d })
	for i, pr := range pres {
		if i >= maxScored && pr.d < 2 {
			break
		}
		c := cs[pr.i]
		c.content = similarity(q, c.tx.keys[c.idx])
		scored = append(scored, c)
	}
	return scored
}

// accept scores the context of each candidate and keeps those that pass
// the thresholds of steps 5 (same file) and 6 (other files).
func (t *Tracker) accept(p *pend, q string, triv bool, scored []cand) []cand {
	qctx := contextOf(p.ot, p.oldIdx)
	var ok []cand
	for _, c := range scored {
		if c.content <= minContent {
			continue
		}
		if triv {
			c.ctx = trivialContextSim(q, qctx, contextOf(c.tx, c.idx))
		} else {
			c.ctx = contextSim(qctx, contextOf(c.tx, c.idx))
		}
		c.score = contentWeight*c.content + contextWeight*c.ctx
		if triv {
			// The content is equal by construction: only the context tells
			// the candidates apart.
			c.score = c.ctx
		}
		if !c.cross && p.m != nil {
			if h := p.m.hunkOf[p.oldIdx]; h >= 0 {
				hk := p.m.hunks[h]
				if hk.OldEnd-hk.OldStart == hk.NewEnd-hk.NewStart && c.idx-hk.NewStart == p.oldIdx-hk.OldStart {
					c.score += 0.03 // line-for-line rewrite: same offset in the hunk
				}
			}
		}
		switch {
		case c.score <= minScore:
			continue
		case triv && c.ctx < minTrivialContext:
			continue
		case c.cross && weak(q) && (c.content < 1 || c.ctx < 0.5):
			continue
		case c.cross && c.content < 0.7:
			continue
		}
		ok = append(ok, c)
	}
	return ok
}

// best is step 7: among the accepted candidates, a distinctive line's
// verbatim copies only; the best wins by minMargin, else the tied ones
// are returned (ambiguous).
func best(q string, triv bool, ok []cand) []cand {
	if len(ok) == 0 {
		return nil
	}
	if !triv && !weak(q) {
		// A distinctive line found verbatim is that line: a merely similar
		// line (a near copy, value13 for value10) never wins over it on
		// context, however much the context moved with it.
		exact := ok[:0:0]
		for _, c := range ok {
			if c.tx.keys[c.idx] == q {
				exact = append(exact, c)
			}
		}
		if len(exact) > 0 {
			ok = exact
		}
	}
	sort.SliceStable(ok, func(a, b int) bool { return ok[a].score > ok[b].score })
	n := 1
	for n < len(ok) && ok[0].score-ok[n].score < minMargin {
		n++
	}
	return ok[:n]
}

// dice is the Dice coefficient of two sorted bigram multisets.
func dice(a, b []uint16) float64 {
	if len(a) == 0 || len(b) == 0 {
		return 0
	}
	i, j, common := 0, 0, 0
	for i < len(a) && j < len(b) {
		switch {
		case a[i] == b[j]:
			common++
			i++
			j++
		case a[i] < b[j]:
			i++
		default:
			j++
		}
	}
	return 2 * float64(common) / float64(len(a)+len(b))
}

// dropOrphans kills the trivial lines of a citation whose non-trivial lines
// are all gone: braces and blank lines are never relocated on their own.
func (c *citation) dropOrphans() {
	strong, alive := false, false
	for _, l := range c.lines {
		if !trivial(l.orig) {
			strong = true
			alive = alive || l.alive
		}
	}
	if strong && !alive {
		for _, l := range c.lines {
			l.alive = false
		}
	}
}

// fresh reports whether line j of path (blob h) in the step's new version
// can be a pending line's new place: it was inserted in this step (or is a
// slider Myers may have misaligned), or its file is new.
func (t *Tracker) fresh(st *stepState, p *pend, path string, h Hash, j int) (bool, error) {
	m := p.m
	if path != p.newPath || m == nil {
		oh, ok, err := t.entry(st.from, path)
		if err != nil || !ok {
			return err == nil, err
		}
		if oh == h {
			return false, nil
		}
		if m, err = t.lineMap(oh, h); err != nil {
			return false, err
		}
	}
	return m.inserted[j] || m.weakNew[j], nil
}
