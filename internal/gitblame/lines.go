package gitblame

import (
	"math"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/sergi/go-diff/diffmatchpatch"
)

// text is a file split into lines, with the normalized keys the diff and
// the scoring work on.
type text struct {
	s      string   // the content, without its final newline
	starts []uint32 // where each line begins in s, and len(s)+1 after the last
	keys   []string // whitespace-collapsed, trimmed lines
	// bi holds each line's key's sorted bigrams, filled in as candidates
	// are scored (bigramsOf): a line is scored against many pending
	// lines, and a slice index costs less than hashing its key.
	bi [][]uint16
}

// bigramsOf returns the sorted bigrams of line i's key.
func (t *text) bigramsOf(i int) []uint16 {
	if t.bi == nil {
		t.bi = make([][]uint16, len(t.keys))
	}
	b := t.bi[i]
	if b == nil {
		b = bigrams(t.keys[i])
		t.bi[i] = b
	}
	return b
}

// bigrams returns the sorted byte bigrams of s (never nil: an empty slice
// for a string shorter than two bytes, so that it is not computed again).
func bigrams(s string) []uint16 {
	b := make([]uint16, 0, max(len(s)-1, 0))
	for i := 0; i+1 < len(s); i++ {
		b = append(b, uint16(s[i])<<8|uint16(s[i+1]))
	}
	slices.Sort(b)
	return b
}

// raw returns line i without its line ending ("\r\n" or "\n"). Lines are
// cut from the content when asked for: a text holds its content and one
// offset per line, not a string header per line as well as its key.
func (t *text) raw(i int) string {
	return strings.TrimSuffix(t.s[t.starts[i]:t.starts[i+1]-1], "\r")
}

// rawLines returns lines first to last (0-based, inclusive).
func (t *text) rawLines(first, last int) []string {
	out := make([]string, 0, last-first+1)
	for i := first; i <= last; i++ {
		out = append(out, t.raw(i))
	}
	return out
}

// splitText splits content into lines. A final line without a newline is a
// line; "\r\n" and "\n" both end a line, so a CRLF conversion does not
// change any line.
func splitText(b []byte) *text {
	s := string(b)
	if s == "" {
		return &text{}
	}
	s = strings.TrimSuffix(s, "\n")
	if len(s) >= math.MaxUint32 {
		s = s[:math.MaxUint32-1] // (offsets are 32-bit: no text file is 4 GiB)
	}
	n := strings.Count(s, "\n") + 1
	t := &text{s: s, starts: make([]uint32, 0, n+1), keys: make([]string, 0, n)}
	for off := 0; ; {
		end := len(s)
		i := strings.IndexByte(s[off:], '\n')
		if i >= 0 {
			end = off + i
		}
		t.starts = append(t.starts, uint32(off))
		t.keys = append(t.keys, normalize(strings.TrimSuffix(s[off:end], "\r")))
		if i < 0 {
			break
		}
		off = end + 1
	}
	t.starts = append(t.starts, uint32(len(s)+1))
	return t
}

// normalize trims a line and collapses each run of white space to one
// space, so that reindentation and trailing blanks do not count as edits
// in the line diff. It allocates only when something changes inside.
func normalize(s string) string {
	s = strings.TrimSpace(s)
	clean := true
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '\t' || c == '\r' || c == '\v' || c == '\f' || (c == ' ' && i+1 < len(s) && s[i+1] == ' ') {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var sb strings.Builder
	sb.Grow(len(s))
	space := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f' {
			space = true
			continue
		}
		if space {
			sb.WriteByte(' ')
			space = false
		}
		sb.WriteByte(c)
	}
	return sb.String()
}

// alnum counts the letters and digits of s.
func alnum(s string) int {
	n := 0
	for _, r := range s {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			n++
		}
	}
	return n
}

var trivialLines = map[string]bool{
	"return nil": true, "return": true, "return err": true, "return nil, err": true,
	"return false": true, "return true": true, "break": true, "continue": true,
	"default:": true, "} else {": true, "else {": true, "end": true, "});": true,
	"})": true, "*/": true, "/*": true, "//": true, "#": true, "else:": true,
	"pass": true, "return 0": true, "return -1": true, "}()": true, ")": true,
}

// trivial reports whether a normalized line carries too little text to be
// recognised on its own (braces, blank lines, "return nil"): such lines are
// only relocated through their context.
func trivial(key string) bool {
	return alnum(key) < 3 || trivialLines[key]
}

// Trivial reports whether a line of source carries too little text to be
// followed on its own (braces, blank lines, "return nil"): the tracker
// places such lines only through their context.
func Trivial(line string) bool { return trivial(normalize(line)) }

// weak reports whether a normalized line is too short to be followed into
// another file on its own (git blame -C's 20 alphanumerics floor).
func weak(key string) bool { return alnum(key) < 20 }

// Op is the kind of a line-diff run.
type Op int8

// Line-diff run kinds.
const (
	OpEqual Op = iota
	OpDelete
	OpInsert
)

// Run is a maximal stretch of lines with the same Op in a line diff. Old
// and New are the 0-based first lines in the old and new text; N is the
// number of lines.
type Run struct {
	Op       Op
	Old, New int
	N        int
}

// lineDiff computes the line diff of two texts' keys: go-diff's Myers
// diff of the texts given as one rune per line (runes equal where keys
// are), with no timeout, so the result is deterministic.
//
// Only the lines between the texts' common prefix and suffix are given
// runes by their keys (a map of those lines alone: a few lines of a
// file of thousands, where one map of every line of every text cost most
// of a diff). A prefix or suffix line gets a rune of its place, the same
// in both texts and no middle line's, unless go-diff may compare it with
// a middle line: its clean-up shifts an edit over a neighbouring
// equality only when the edit ends with the equality's whole text
// (starts with, after it), and no edit holds more lines than the longer
// middle, so a prefix or suffix longer than that is never compared; a
// shorter one gets runes by its keys too. TestLineDiff and FuzzLineDiff
// hold the result to the diff of runes given by key to every line.
func lineDiff(a, b []string) []Run {
	n1, n2 := len(a), len(b)
	p := 0
	for p < n1 && p < n2 && a[p] == b[p] {
		p++
	}
	s := 0
	for s < n1-p && s < n2-p && a[n1-1-s] == b[n2-1-s] {
		s++
	}
	ra, rb := make([]rune, n1), make([]rune, n2)
	ids := make(map[string]rune, n1+n2-2*p-2*s)
	next := rune(0)
	id := func(k string) rune {
		r, ok := ids[k]
		if !ok {
			r = next
			next++
			if next == 0xD800 { // (no surrogate: every rune is valid)
				next = 0xE000
			}
			ids[k] = r
		}
		return r
	}
	longest := max(n1-p-s, n2-p-s)
	// runes of their place count down from the top of the runes, those
	// by key up from 0: apart while the texts have fewer than half a
	// million lines between them (past that, every line is by key)
	byPlace := 2*(n1+n2) <= 0x10FFFF-0x800
	for i := p; i < n1-s; i++ {
		ra[i] = id(a[i])
	}
	for i := p; i < n2-s; i++ {
		rb[i] = id(b[i])
	}
	if !byPlace || p <= longest {
		for i := range p {
			ra[i] = id(a[i])
			rb[i] = ra[i]
		}
	} else {
		for i := range p {
			ra[i] = 0x10FFFF - rune(i)
			rb[i] = ra[i]
		}
	}
	if !byPlace || s <= longest {
		for j := range s {
			ra[n1-1-j] = id(a[n1-1-j])
			rb[n2-1-j] = ra[n1-1-j]
		}
	} else {
		for j := range s {
			ra[n1-1-j] = 0x10FFFF - rune(p+j)
			rb[n2-1-j] = ra[n1-1-j]
		}
	}
	return diffRunes(ra, rb)
}

// diffRunes computes a line diff of two texts given as one rune per
// distinct line, with go-diff's Myers implementation and no timeout, so
// the result is deterministic.
func diffRunes(ra, rb []rune) []Run {
	dmp := diffmatchpatch.New()
	dmp.DiffTimeout = 0
	diffs := dmp.DiffMainRunes(ra, rb, false)
	var runs []Run
	oi, ni := 0, 0
	for _, d := range diffs {
		n := utf8.RuneCountInString(d.Text)
		if n == 0 {
			continue
		}
		var r Run
		switch d.Type {
		case diffmatchpatch.DiffEqual:
			r = Run{Op: OpEqual, Old: oi, New: ni, N: n}
			oi += n
			ni += n
		case diffmatchpatch.DiffDelete:
			r = Run{Op: OpDelete, Old: oi, New: ni, N: n}
			oi += n
		case diffmatchpatch.DiffInsert:
			r = Run{Op: OpInsert, Old: oi, New: ni, N: n}
			ni += n
		}
		if k := len(runs) - 1; k >= 0 && runs[k].Op == r.Op {
			runs[k].N += n
			continue
		}
		runs = append(runs, r)
	}
	return runs
}

// lineMap maps the lines of one blob to the lines of another.
type lineMap struct {
	fwd      []int  // old line -> new line, -1 if deleted
	inserted []bool // new line was inserted (not in an Equal run)
	hunkOf   []int  // old line -> index of its hunk in hunks, -1 if equal
	// weak marks old trivial lines (braces, blank lines) in Equal runs
	// made only of trivial lines or at the edge of a run next to a hunk:
	// Myers aligns those arbitrarily, so they are re-scored with their
	// context instead of trusted.
	weak []bool
	// weakNew marks the new lines those weak runs map to.
	weakNew []bool
	hunks   []hunk
}

// hunk is a change region: old lines [OldStart,OldEnd) were replaced by new
// lines [NewStart,NewEnd) (either may be empty).
type hunk struct{ OldStart, OldEnd, NewStart, NewEnd int }

func buildMapRuns(a, b *text, runs []Run) *lineMap {
	m := &lineMap{
		fwd:      make([]int, len(a.keys)),
		inserted: make([]bool, len(b.keys)),
		hunkOf:   make([]int, len(a.keys)),
		weak:     make([]bool, len(a.keys)),
		weakNew:  make([]bool, len(b.keys)),
	}
	for i := range m.fwd {
		m.fwd[i] = -1
		m.hunkOf[i] = -1
	}
	cur := -1
	for ri, r := range runs {
		switch r.Op {
		case OpEqual:
			for k := 0; k < r.N; k++ {
				m.fwd[r.Old+k] = r.New + k
			}
			// Trivial lines at the edges of an Equal run next to a hunk
			// are "sliders": Myers could as well have aligned them with
			// an identical line at the other end of the hunk.
			weak := func(k int) {
				m.weak[r.Old+k] = true
				m.weakNew[r.New+k] = true
			}
			if ri > 0 {
				for k := 0; k < r.N && trivial(a.keys[r.Old+k]); k++ {
					weak(k)
				}
			}
			if ri < len(runs)-1 {
				for k := r.N - 1; k >= 0 && trivial(a.keys[r.Old+k]); k-- {
					weak(k)
				}
			}
			strong := false
			for k := 0; k < r.N; k++ {
				strong = strong || !trivial(a.keys[r.Old+k])
			}
			// A run of one or two lines between two hunks is as likely a
			// coincidence as a lineage (swapped blocks ending alike).
			short := r.N <= 2 && ri > 0 && ri < len(runs)-1
			if !strong || short {
				for k := 0; k < r.N; k++ {
					weak(k)
				}
			}
			cur = -1
		case OpDelete, OpInsert:
			if cur < 0 {
				m.hunks = append(m.hunks, hunk{r.Old, r.Old, r.New, r.New})
				cur = len(m.hunks) - 1
			}
			h := &m.hunks[cur]
			if r.Op == OpDelete {
				h.OldEnd = r.Old + r.N
				for k := 0; k < r.N; k++ {
					m.hunkOf[r.Old+k] = cur
				}
			} else {
				h.NewEnd = r.New + r.N
				for k := 0; k < r.N; k++ {
					m.inserted[r.New+k] = true
				}
			}
		}
	}
	markSliders(m, a, b, runs)
	return m
}

// markSliders marks as weak the lines of Equal runs that a neighbouring
// hunk could slide over: when a deleted (or inserted) block ends with the
// same lines that follow it, Myers may as well have deleted the copy after
// it, so those lines' lineage is a coin toss (swapped functions that end
// alike, "return f / }"). Weak lines are re-scored with their context.
func markSliders(m *lineMap, a, b *text, runs []Run) {
	weak := func(e Run, k int) {
		m.weak[e.Old+k] = true
		m.weakNew[e.New+k] = true
	}
	for ri, r := range runs {
		if r.Op == OpEqual {
			continue
		}
		keys, start := a.keys, r.Old
		if r.Op == OpInsert {
			keys, start = b.keys, r.New
		}
		if ri+1 < len(runs) && runs[ri+1].Op == OpEqual {
			e := runs[ri+1]
			es := e.Old
			if r.Op == OpInsert {
				es = e.New
			}
			for k := 0; k < e.N && keys[start+k] == keys[es+k]; k++ {
				weak(e, k)
			}
		}
		if ri > 0 && runs[ri-1].Op == OpEqual {
			e := runs[ri-1]
			ee := e.Old + e.N
			if r.Op == OpInsert {
				ee = e.New + e.N
			}
			for k := 1; k <= e.N && keys[start+r.N-k] == keys[ee-k]; k++ {
				weak(e, e.N-k)
			}
		}
	}
}
