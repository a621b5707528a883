package gitblame

import (
	"fmt"

	"github.com/git-memcite/git-memcite/internal/source"
	"sort"
	"strings"
)

// finish fills in a citation's Result from its tracked lines at the final
// version (step 10): the file holding most of its live lines
// (winningPath), where they are there and their text, and the status
// (status).
func (t *Tracker) finish(c *citation, final *version) {
	r := &c.res
	if !c.started {
		return
	}
	byPath := map[string][]*line{}
	for _, l := range c.lines {
		if l.alive {
			byPath[l.path] = append(byPath[l.path], l)
		}
	}
	if len(byPath) == 0 {
		noLiveLine(c)
		return
	}
	best := winningPath(byPath)
	ls := byPath[best]
	sort.Slice(ls, func(i, j int) bool { return ls[i].idx < ls[j].idx })
	first, last := ls[0].idx, ls[len(ls)-1].idx
	r.Location = Location{Path: best, Line: first + 1, LineEnd: last + 1, Score: 1}
	for _, l := range ls {
		r.Location.Score = min(r.Location.Score, l.score)
	}
	if h, ok, err := t.entry(final, best); err == nil && ok {
		if tx, err := t.text(h); err == nil && last < len(tx.keys) {
			r.Text = tx.rawLines(first, last)
		}
	}
	status(c, best, ls)
}

// noLiveLine settles a citation none of whose lines is alive: Ambiguous
// while candidates are left, else Gone.
func noLiveLine(c *citation) {
	r := &c.res
	var cands []Location
	for _, s := range c.shadows {
		if s.alive {
			cands = append(cands, Location{Path: s.path, Line: s.idx + 1, LineEnd: s.idx + 1, Score: s.score})
		}
	}
	if len(cands) == 0 {
		r.Status = Gone
		return
	}
	// With one candidate left, the others died on the way: still no
	// evidence which one is the cited line, so it stays ambiguous too.
	r.Status = Ambiguous
	r.Candidates = cands
}

// winningPath returns the path holding most non-trivial lines (braces
// never carry a citation on their own), then the one holding most lines;
// ties go to the earliest line.
func winningPath(byPath map[string][]*line) string {
	strong := func(ls []*line) int {
		n := 0
		for _, l := range ls {
			if !trivial(l.orig) {
				n++
			}
		}
		return n
	}
	var best string
	for p, ls := range byPath {
		if best == "" {
			best = p
			continue
		}
		b := byPath[best]
		if s, sb := strong(ls), strong(b); s != sb {
			if s > sb {
				best = p
			}
			continue
		}
		if len(ls) > len(b) || (len(ls) == len(b) && ls[0].k < b[0].k) {
			best = p
		}
	}
	return best
}

// status sets the citation's Status, Similarity and SnippetFound from its
// lines ls (sorted) alive in the winning path best: Unchanged or Moved
// when they are all there, contiguous, in the cited order and with the
// same raw text; else Changed.
func status(c *citation, best string, ls []*line) {
	r := &c.res
	sum, sameRaw := sameText(c, best)
	first, last := ls[0].idx, ls[len(ls)-1].idx
	// Contiguous and in the cited order: a block whose lines were
	// shuffled is not the cited text, even if every line is.
	contiguous := last-first == len(c.lines)-1 && len(ls) == len(c.lines)
	ordered := true
	for i := 1; i < len(ls); i++ {
		ordered = ordered && ls[i-1].k < ls[i].k
	}
	if !ordered {
		contiguous = false
		r.Note = strings.TrimSpace(r.Note + " the cited lines are in another order")
	}
	r.Similarity = sum / float64(len(c.lines))
	r.SnippetFound = c.snippet != "" && strings.Contains(c.joined(), c.snippet)
	switch {
	case sameRaw && contiguous && best == c.a.Path && first+1 == c.a.Line:
		r.Status = Unchanged
	case sameRaw && contiguous:
		r.Status = Moved
	default:
		r.Status = Changed
	}
	if n := len(c.lines) - len(ls); n > 0 {
		r.Note = strings.TrimSpace(r.Note + fmt.Sprintf(" %d of %d cited lines not found at %s", n, len(c.lines), best))
	}
}

// sameText returns the sum of the content similarities of the citation's
// lines (lost lines, and lines outside best, count 0) and whether every
// line is alive in best with its raw text unchanged (reindentation keeps
// keys but changes raw lines).
func sameText(c *citation, best string) (sum float64, sameRaw bool) {
	sameKeys := true
	for _, l := range c.lines {
		if !l.alive || l.path != best {
			sameKeys = false
			continue
		}
		sum += similarity(l.orig, l.cur)
		if l.cur != l.orig {
			sameKeys = false
		}
	}
	if !sameKeys {
		return sum, false
	}
	for i, l := range c.lines {
		if l.raw != c.origRaw[i] {
			return sum, false
		}
	}
	return sum, true
}

// contentSearch places a citation whose base commit is missing by looking
// for its text in the final version: first at its path, then, if the text
// is distinctive (40 alphanumerics or more), in every file.
func (t *Tracker) contentSearch(v *version, c *citation) error {
	r := &c.res
	r.Route = RouteContentSearch
	r.Note = "base commit unknown or missing: searched " + describe(v) + " for the cited text"
	want := make([]string, 0, len(c.a.Text))
	for _, l := range c.a.Text {
		want = append(want, normalize(l))
	}
	if len(want) == 0 && c.snippet != "" {
		want = strings.Split(c.snippet, "\n")
	}
	if len(want) == 0 {
		r.Status = Gone
		r.Note += "; the citation has no text to search for"
		return nil
	}
	exact := len(c.a.Text) > 0
	search := func(p string) ([]Location, error) { return t.searchFile(v, p, want, exact) }
	p, err := source.Clean(c.a.Path)
	var hits []Location
	if err == nil {
		if hits, err = search(p); err != nil {
			return err
		}
	}
	if len(hits) == 0 && alnum(strings.Join(want, "")) >= 40 {
		paths, err := t.listAll(v)
		if err != nil {
			return err
		}
		for _, q := range paths {
			hs, err := search(q)
			if err != nil {
				return err
			}
			hits = append(hits, hs...)
		}
	}
	switch len(hits) {
	case 0:
		r.Status = Gone
	case 1:
		r.Location = hits[0]
		h, _, _ := t.entry(v, hits[0].Path)
		if tx, err := t.text(h); err == nil {
			r.Text = tx.rawLines(hits[0].Line-1, hits[0].LineEnd-1)
		}
		r.Similarity = 1
		r.SnippetFound = c.snippet != ""
		if hits[0].Path == c.a.Path && hits[0].Line == c.a.Line {
			r.Status = Unchanged
		} else {
			r.Status = Moved
		}
	default:
		r.Status = Ambiguous
		r.Candidates = hits
	}
	return nil
}

func describe(v *version) string {
	if v.view == nil {
		return "commit " + v.hash.Short()
	}
	return v.view.Name()
}

func (t *Tracker) listAll(v *version) ([]string, error) {
	if v.view == nil {
		c, err := t.commitOf(v)
		if err != nil {
			return nil, err
		}
		files, err := t.h.Files(c.Tree)
		if err != nil {
			return nil, fmt.Errorf("gitblame: listing %s: %w", v.hash.Short(), err)
		}
		out := make([]string, 0, len(files))
		for p := range files {
			out = append(out, p)
		}
		sort.Strings(out)
		return out, nil
	}
	ps, err := v.view.List("")
	if err != nil {
		return nil, fmt.Errorf("gitblame: listing %s: %w", v.view.Name(), err)
	}
	return ps, nil
}

// searchFile returns where the lines want (normalized) are in file p of v.
// exact: every line must equal its key; else (a snippet) the first line
// may be the end of a key, the last its start, and a single line any
// part of one.
func (t *Tracker) searchFile(v *version, p string, want []string, exact bool) ([]Location, error) {
	h, ok, err := t.entry(v, p)
	if err != nil || !ok {
		return nil, err
	}
	tx, err := t.text(h)
	if err != nil {
		return nil, err
	}
	var out []Location
	for i := 0; i+len(want) <= len(tx.keys); i++ {
		if textAt(tx.keys[i:i+len(want)], want, exact) {
			out = append(out, Location{Path: p, Line: i + 1, LineEnd: i + len(want), Score: 1})
		}
	}
	return out, nil
}

// textAt reports whether keys (as many as want) hold want (searchFile).
func textAt(keys, want []string, exact bool) bool {
	for k, w := range want {
		key := keys[k]
		hit := false
		switch {
		case exact || len(want) > 1 && k > 0 && k < len(want)-1:
			hit = key == w
		case len(want) == 1:
			hit = strings.Contains(key, w)
		case k == 0:
			hit = strings.HasSuffix(key, w)
		default:
			hit = strings.HasPrefix(key, w)
		}
		if !hit {
			return false
		}
	}
	return true
}
