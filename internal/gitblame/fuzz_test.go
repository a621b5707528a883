package gitblame

import (
	"context"
	"crypto/sha1"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"
)

// FuzzLineMap: a line mapped from A into B lands on identical (normalized)
// text, mapped lines keep their order, mapping back lands on identical text
// again, and the diff rebuilds both sides.
func FuzzLineMap(f *testing.F) {
	f.Add("a\nb\nc\n", "a\nx\nc\n")
	f.Add("}\n}\nfunc f() {\n}\n", "func f() {\n}\n}\n}\n")
	f.Add("a\r\nb\r\n", "  a\n\tb\n")
	f.Fuzz(func(t *testing.T, sa, sb string) {
		a, b := splitText([]byte(sa)), splitText([]byte(sb))
		if len(a.keys) > 2000 || len(b.keys) > 2000 {
			return
		}
		gotA, gotB := reconstruct(a.keys, b.keys, diffKeys(a.keys, b.keys))
		if strings.Join(gotA, "\n") != strings.Join(a.keys, "\n") || strings.Join(gotB, "\n") != strings.Join(b.keys, "\n") {
			t.Fatalf("the diff does not rebuild its inputs")
		}
		fwd, back := buildMap(a, b), buildMap(b, a)
		last := -1
		for i, j := range fwd.fwd {
			if j < 0 {
				continue
			}
			if a.keys[i] != b.keys[j] {
				t.Fatalf("line %d %q mapped onto %d %q", i+1, a.keys[i], j+1, b.keys[j])
			}
			if j <= last {
				t.Fatalf("line %d mapped out of order", i+1)
			}
			last = j
			if k := back.fwd[j]; k >= 0 && a.keys[k] != a.keys[i] {
				t.Fatalf("line %d %q maps back onto %d %q", i+1, a.keys[i], k+1, a.keys[k])
			}
		}
	})
}

// memHistory is a linear history of a few files, kept in memory: the pure
// input of the tracker, for fuzzing it on random edit scripts.
type memHistory struct {
	commits map[Hash]*Commit
	trees   map[Hash]map[string]Hash
	blobs   map[Hash][]byte
	head    Hash
}

// newMemHistory is the history of one file, f.go.
func newMemHistory(versions [][]string) *memHistory {
	files := make([]map[string][]string, len(versions))
	for i, v := range versions {
		files[i] = map[string][]string{"f.go": v}
	}
	return newMemHistoryFiles(files)
}

func newMemHistoryFiles(versions []map[string][]string) *memHistory {
	h := &memHistory{commits: map[Hash]*Commit{}, trees: map[Hash]map[string]Hash{}, blobs: map[Hash][]byte{}}
	var parent []Hash
	for i, files := range versions {
		tree := sha1Hash([]byte(fmt.Sprintf("tree %d", i)))
		h.trees[tree] = map[string]Hash{}
		for name, v := range files {
			content := []byte(strings.Join(v, "\n") + "\n")
			blob := BlobHash(content, ZeroHash)
			h.blobs[blob] = content
			h.trees[tree][name] = blob
		}
		c := &Commit{Hash: sha1Hash([]byte(fmt.Sprintf("commit %d", i))), Tree: tree, Parents: parent,
			Author: "fuzz", AuthorDate: time.Unix(int64(i)*60, 0), CommitDate: time.Unix(int64(i)*60, 0), Subject: fmt.Sprint("v", i)}
		h.commits[c.Hash] = c
		parent = []Hash{c.Hash}
		h.head = c.Hash
	}
	return h
}

// sha1Hash is a made-up SHA-1 object name.
func sha1Hash(b []byte) Hash {
	s := sha1.Sum(b)
	return NewHash(s[:])
}

func (h *memHistory) Resolve(rev string) (Hash, error) {
	if rev == "HEAD" {
		return h.head, nil
	}
	x, err := ParseHash(rev)
	if err != nil {
		return Hash{}, fmt.Errorf("%s: %w", rev, ErrNotFound)
	}
	return x, nil
}

func (h *memHistory) Commit(x Hash) (*Commit, error) {
	if c := h.commits[x]; c != nil {
		return c, nil
	}
	return nil, fmt.Errorf("commit %x: %w", x, ErrNotFound)
}

func (h *memHistory) Entry(tree Hash, path string) (Hash, bool, error) {
	b, ok := h.trees[tree][path]
	return b, ok, nil
}

func (h *memHistory) Blob(x Hash) ([]byte, error) {
	if b, ok := h.blobs[x]; ok {
		return b, nil
	}
	return nil, fmt.Errorf("blob %x: %w", x, ErrNotFound)
}

func (h *memHistory) Changes(from, to Hash, _ bool) ([]Change, error) {
	a, b := h.trees[h.commits[from].Tree], h.trees[h.commits[to].Tree]
	var out []Change
	for p, x := range b {
		if y, ok := a[p]; !ok || y != x {
			out = append(out, Change{From: p, To: p, FromBlob: y, ToBlob: x})
		}
	}
	return out, nil
}

func (h *memHistory) Files(tree Hash) (map[string]Hash, error) { return h.trees[tree], nil }

// root is the history's first commit.
func (h *memHistory) root() Hash {
	c := h.commits[h.head]
	for c.Parents != nil {
		c = h.commits[c.Parents[0]]
	}
	return c.Hash
}

// trackBoth tracks anchors to the head twice: galloping over windows of
// commits, and commit by commit.
func trackBoth(t *testing.T, h *memHistory, anchors []Anchor) (fast, slow []Result) {
	t.Helper()
	fast, err := New(h).Track(context.Background(), anchors, Target{Commit: h.head})
	if err != nil {
		t.Fatal(err)
	}
	step := New(h)
	step.noGallop = true
	slow, err = step.Track(context.Background(), anchors, Target{Commit: h.head})
	if err != nil {
		t.Fatal(err)
	}
	// Stepping only through the commits that change a tracked path
	// (PathHistory) gives exactly the same results, galloping or not.
	for _, gallop := range []bool{true, false} {
		tr := New(pathHist{h})
		tr.noGallop = !gallop
		tr.readChain = 0
		got, err := tr.Track(context.Background(), anchors, Target{Commit: h.head})
		if err != nil {
			t.Fatal(err)
		}
		want := slow
		if gallop {
			want = fast
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("stepping through the commits that change a tracked path (gallop %v): %+v\nthrough every commit: %+v", gallop, got, want)
		}
	}
	return fast, slow
}

// pathHist is a memHistory that is a PathHistory, answered from its
// trees.
type pathHist struct{ *memHistory }

func (h pathHist) Chain(head Hash, until func(Hash) bool) ([]Hash, error) {
	var out []Hash
	for c := h.commits[head]; c != nil; {
		out = append(out, c.Hash)
		if len(c.Parents) == 0 || (until != nil && until(c.Hash)) {
			break
		}
		c = h.commits[c.Parents[0]]
	}
	return out, nil
}

func (h pathHist) Touching(oldest, head Hash, paths []string) ([]Touch, error) {
	var out []Touch
	for c := h.commits[head]; c.Hash != oldest && len(c.Parents) > 0; c = h.commits[c.Parents[0]] {
		p := h.commits[c.Parents[0]]
		tc := Touch{Commit: c.Hash}
		for _, path := range paths {
			x, xok := h.trees[c.Tree][path]
			y, yok := h.trees[p.Tree][path]
			if x != y || xok != yok {
				tc.Paths = append(tc.Paths, path)
			}
		}
		if tc.Paths != nil {
			out = append(out, tc)
		}
	}
	return out, nil
}

// checkGallop fails unless galloping (r) kept the result of the walk
// through every commit (s), or found more: where that walk lost lines of
// the citation that are back in place by the end of a window (deleted and
// restored, or a brace moved away and back), the window's diff still has
// them. So where s is gone or ambiguous r may be anything, and where s
// lost some lines (changed) r may be unchanged, moved or changed (with the
// rescued lines a split range may even go with the other file). Where s
// kept every line, r must be s. The callers check every answer against
// the truth. (Events may differ: a line moved away and back inside a
// window has no recorded first move when the walk gallops over it. Nor
// need the score, the lowest match score of the steps taken.)
func checkGallop(t *testing.T, r, s Result) {
	t.Helper()
	a, b := r.Location, s.Location
	same := s.Status == r.Status && a.Path == b.Path && a.Line == b.Line && a.LineEnd == b.LineEnd
	more := s.Status == Gone || s.Status == Ambiguous || (s.Status == Changed && r.Status != Gone && r.Status != Ambiguous)
	if !same && !more {
		t.Fatalf("galloping changed the result: %v at %+v, step by step %v at %+v", r.Status, a, s.Status, b)
	}
}

// longScript is a 100-step edit script for seeds: byte i is i*mul+add.
func longScript(mul, add int) []byte {
	b := make([]byte, 200)
	for i := range b {
		b[i] = byte(i*mul + add)
	}
	return b
}

// handlerLines is the file both tracker fuzz targets start from: 30 lines,
// five functions whose lines are near copies of each other.
func handlerLines() []string {
	var v []string
	for i := 0; i < 30; i++ {
		switch i % 6 {
		case 0:
			v = append(v, fmt.Sprintf("func handler%02d(w http.ResponseWriter, r *http.Request) {", i))
		case 5:
			v = append(v, "}")
		default:
			v = append(v, fmt.Sprintf("\tvalue%02d := compute(r, %d) // step %d", i, i*7, i))
		}
	}
	return v
}

// FuzzTrackEdits replays a random edit script over a file, one edit per
// commit, and tracks a cited line to the last version. The script's own
// bookkeeping is the ground truth: it knows where the cited line went, or
// that it was deleted. Whatever the tracker answers:
//
//   - it never reports a line as unchanged or moved onto text that differs
//     from the cited text (so never places a line whose every copy was
//     deleted), and a changed line lies inside the file;
//   - a non-trivial line (unique in these files) is never placed anywhere but
//     where it really is: no false relocation;
//   - galloping over windows of commits keeps every result the walk through
//     every commit finds. It may only do better: where the step-by-step walk
//     loses a line that is back in place by the end of a window (deleted and
//     restored, or a trivial line moved away and back), the window's diff
//     still has it, and the checks above hold for that answer too.
func FuzzTrackEdits(f *testing.F) {
	f.Add([]byte{1, 7, 2, 3, 0, 9, 4, 1, 5, 2}, uint8(5))
	f.Add([]byte{3, 0, 3, 1, 3, 2, 1, 1, 1, 1}, uint8(0))
	// long scripts: the walk gallops over windows of 32 commits
	f.Add(longScript(7, 3), uint8(11))
	f.Fuzz(func(t *testing.T, script []byte, cite uint8) {
		if len(script) > 240 {
			return
		}
		v := handlerLines()
		line := int(cite)%len(v) + 1
		truth := line - 1 // where the cited line is in v; -1 once deleted
		versions := [][]string{append([]string(nil), v...)}
		for i := 0; i+1 < len(script); i += 2 {
			op, at := script[i]%5, int(script[i+1])
			if len(v) == 0 {
				break
			}
			at %= len(v)
			switch op {
			case 0: // insert a new line
				v = append(v[:at], append([]string{fmt.Sprintf("\tinserted%d := %d", i, i)}, v[at:]...)...)
				if truth >= at {
					truth++
				}
			case 1: // delete a line
				v = append(v[:at:at], v[at+1:]...)
				switch {
				case truth == at:
					truth = -1
				case truth > at:
					truth--
				}
			case 2: // edit a line
				v[at] = v[at] + " // edited"
			case 3: // move a line to the end
				l := v[at]
				v = append(append(v[:at:at], v[at+1:]...), l)
				switch {
				case truth == at:
					truth = len(v) - 1
				case truth > at:
					truth--
				}
			case 4: // reindent
				v[at] = "    " + strings.TrimSpace(v[at])
			}
			versions = append(versions, append([]string(nil), v...))
		}
		h := newMemHistory(versions)
		orig := normalize(versions[0][line-1])
		res, ref := trackBoth(t, h, []Anchor{{Path: "f.go", Line: line, Base: h.root()}})
		r := res[0]
		final := versions[len(versions)-1]
		checkGallop(t, r, ref[0])
		// A brace or blank line galloping found back (possibly reindented)
		// is on its own text; other lines are checked against the truth.
		if r.Status != Gone && r.Status != Ambiguous && trivial(orig) {
			if l := r.Location.Line; l < 1 || l > len(final) || normalize(final[l-1]) != orig {
				t.Fatalf("%v at %+v: not the cited text %q", r.Status, r.Location, orig)
			}
		}
		for _, got := range []Result{r, ref[0]} {
			if trivial(orig) || got.Status == Gone || got.Status == Ambiguous {
				continue
			}
			if truth < 0 || got.Location.Line != truth+1 || got.Location.LineEnd != truth+1 {
				t.Fatalf("false relocation: %v at %+v; the line is at %d (0: deleted)", got.Status, got.Location, truth+1)
			}
		}
		switch r.Status {
		case Unchanged, Moved:
			if r.Location.Path != "f.go" || r.Location.Line < 1 || r.Location.Line > len(final) {
				t.Fatalf("%v at %+v outside the file", r.Status, r.Location)
			}
			if got := normalize(final[r.Location.Line-1]); got != orig {
				t.Fatalf("%v onto different text: cited %q, now %q at line %d", r.Status, orig, got, r.Location.Line)
			}
		case Changed:
			if r.Location.Line < 1 || r.Location.Line > len(final) || r.Similarity < 0 || r.Similarity > 1 {
				t.Fatalf("changed to %+v (similarity %v) outside the file", r.Location, r.Similarity)
			}
		}
	})
}

// TestGallop: over a long history that keeps editing other lines, the walk
// crosses windows of commits in one step and reaches the same result as a
// walk through every commit.
func TestGallop(t *testing.T) {
	t.Parallel()
	var versions [][]string
	v := []string{"package p", "", "func Cited() int {", "\treturn 42", "}"}
	for i := 0; i < 20; i++ {
		v = append(v, fmt.Sprintf("var filler%02d = %d", i, i))
	}
	for c := 0; c < 200; c++ {
		v[5+c%20] = fmt.Sprintf("var filler%02d = %d // rev %d", c%20, c, c)
		if c == 3 {
			v = append([]string{"// header"}, v...) // moves the cited line once, early
		}
		versions = append(versions, append([]string(nil), v...))
	}
	h := newMemHistory(versions)
	fast, ref := trackBoth(t, h, []Anchor{{Path: "f.go", Line: 3, Snippet: "func Cited()", Base: h.root()}})
	if fast[0].Status != Moved || fast[0].Location != ref[0].Location || fast[0].Location.Line != 4 {
		t.Fatalf("gallop: %v at %+v; step by step: %v at %+v", fast[0].Status, fast[0].Location, ref[0].Status, ref[0].Location)
	}
	if fast[0].FirstMove == nil || ref[0].FirstMove == nil || fast[0].FirstMove.Commit.Hash != ref[0].FirstMove.Commit.Hash {
		t.Fatalf("first move differs: %+v / %+v", fast[0].FirstMove, ref[0].FirstMove)
	}
	if fast[0].Steps >= ref[0].Steps/4 {
		t.Fatalf("the walk did not gallop: %d steps, %d step by step", fast[0].Steps, ref[0].Steps)
	}
}

// FuzzTrackAcrossFiles replays a random edit script over two files, one
// change per commit: lines inserted, deleted, edited, moved within their
// file, moved into the other file, and blocks of three lines extracted into
// the other file. The citation is one line, or (cite >= 32) a range of two
// or three. The script records where each cited line really is. Whatever
// the tracker answers:
//
//   - unchanged or moved: every line carries its cited text, and every
//     non-trivial line (unique here, though many are near copies of each
//     other) is where the script put it;
//   - a single non-trivial line reported changed is where the script put it;
//     a changed range holds at least one of its own non-trivial lines;
//   - galloping keeps what the walk through every commit finds.
func FuzzTrackAcrossFiles(f *testing.F) {
	f.Add([]byte{4, 14, 4, 15, 1, 3, 5, 20, 3, 7}, uint8(14))
	f.Add([]byte{5, 24, 5, 24, 0, 1, 2, 50, 4, 51}, uint8(25))
	f.Add([]byte{5, 20, 4, 16, 1, 3, 0, 21, 3, 17}, uint8(67))
	f.Add(longScript(13, 5), uint8(7))
	f.Add(longScript(13, 5), uint8(100))
	f.Fuzz(func(t *testing.T, script []byte, cite uint8) {
		if len(script) > 240 {
			return
		}
		versions, line, truth := acrossFiles(script, cite)
		first := versions[0][acrossNames[0]]
		h := newMemHistoryFiles(versions)
		anchor := Anchor{Path: acrossNames[0], Line: line, Base: h.root()}
		if len(truth) > 1 {
			anchor.LineEnd = line + len(truth) - 1
		}
		res, ref := trackBoth(t, h, []Anchor{anchor})
		r, s := res[0], ref[0]
		checkGallop(t, r, s)
		final := versions[len(versions)-1]
		for _, got := range []Result{r, s} {
			loc := got.Location
			end := max(loc.LineEnd, loc.Line)
			switch got.Status {
			case Gone, Ambiguous:
				continue
			case Unchanged, Moved:
				fl := final[loc.Path]
				if loc.Line < 1 || end-loc.Line+1 != len(truth) || end > len(fl) {
					t.Fatalf("%v to %+v: not %d lines of the file", got.Status, loc, len(truth))
				}
				for k, p := range truth {
					orig := normalize(first[line-1+k])
					if normalize(fl[loc.Line-1+k]) != orig {
						t.Fatalf("%v onto other text: %+v, line %d", got.Status, loc, loc.Line+k)
					}
					if !trivial(orig) && (p.idx < 0 || acrossNames[p.file] != loc.Path || p.idx != loc.Line-1+k) {
						t.Fatalf("false relocation: %v at %+v; cited line %d is at %s:%d (0: deleted)", got.Status, loc, line+k, acrossNames[p.file], p.idx+1)
					}
				}
			case Changed:
				held, strong := false, false
				for k, p := range truth {
					if trivial(normalize(first[line-1+k])) {
						continue
					}
					strong = true
					if p.idx >= 0 && acrossNames[p.file] == loc.Path && p.idx+1 >= loc.Line && p.idx+1 <= end {
						held = true
					}
					if len(truth) == 1 && (p.idx < 0 || acrossNames[p.file] != loc.Path || p.idx+1 != loc.Line || end != loc.Line) {
						t.Fatalf("false relocation: changed at %+v; the line is at %s:%d (0: deleted)", loc, acrossNames[p.file], p.idx+1)
					}
				}
				if strong && !held {
					t.Fatalf("false relocation: changed at %+v holds none of the cited lines %+v", loc, truth)
				}
				// The range ends on cited lines: where the script put one
				// of them, or (a brace) on the same text.
				fl := final[loc.Path]
				for _, e := range []int{loc.Line, end} {
					if e < 1 || e > len(fl) {
						t.Fatalf("changed at %+v: outside the file", loc)
					}
					ok := false
					for k, p := range truth {
						orig := normalize(first[line-1+k])
						ok = ok || (p.idx >= 0 && acrossNames[p.file] == loc.Path && p.idx == e-1) ||
							(trivial(orig) && normalize(fl[e-1]) == orig)
					}
					if !ok {
						t.Fatalf("false relocation: changed at %+v ends on line %d, %q, no cited line", loc, e, fl[e-1])
					}
				}
			}
		}
	})
}

// acrossNames are the files of FuzzTrackAcrossFiles.
var acrossNames = [2]string{"f.go", "g.go"}

// pos is where a line is: a file of acrossNames and a 0-based index, -1
// once the line is deleted.
type pos struct{ file, idx int }

// acrossFiles builds FuzzTrackAcrossFiles' history from a script: the
// versions of f.go and g.go, the first cited line of f.go in the first
// version, and where each cited line really is in the last.
func acrossFiles(script []byte, cite uint8) (versions []map[string][]string, line int, truth []pos) {
	files := [2][]string{handlerLines()}
	for i := 0; i < 12; i++ {
		switch i % 4 {
		case 0:
			files[1] = append(files[1], fmt.Sprintf("func helper%02d(ctx context.Context) error {", i))
		case 3:
			files[1] = append(files[1], "}")
		default:
			files[1] = append(files[1], fmt.Sprintf("\tlog.Printf(\"helper %d step %d\", n, m)", i/4, i))
		}
	}
	snapshot := func() map[string][]string {
		return map[string][]string{acrossNames[0]: append([]string(nil), files[0]...), acrossNames[1]: append([]string(nil), files[1]...)}
	}
	line = int(cite)%len(files[0]) + 1
	span := 1
	if cite >= 32 {
		span = min(2+int(cite)%2, len(files[0])-line+1)
	}
	for k := 0; k < span; k++ {
		truth = append(truth, pos{0, line - 1 + k})
	}
	// each moves every tracked line by what an edit does to its index
	each := func(f func(p *pos)) {
		for k := range truth {
			if truth[k].idx >= 0 {
				f(&truth[k])
			}
		}
	}
	versions = []map[string][]string{snapshot()}
	for i := 0; i+1 < len(script); i += 2 {
		op, x := script[i]%6, int(script[i+1])
		src := x % 2
		v := files[src]
		if len(v) < 4 {
			continue // keep both files alive
		}
		at := (x / 2) % len(v)
		switch op {
		case 0: // insert a new line
			files[src] = append(v[:at], append([]string{fmt.Sprintf("\tinserted%d := %d", i, i)}, v[at:]...)...)
			each(func(p *pos) {
				if p.file == src && p.idx >= at {
					p.idx++
				}
			})
		case 1: // delete a line
			files[src] = append(v[:at:at], v[at+1:]...)
			each(func(p *pos) {
				switch {
				case p.file != src:
				case p.idx == at:
					p.idx = -1
				case p.idx > at:
					p.idx--
				}
			})
		case 2: // edit a line
			v[at] += " // edited"
		case 3: // move a line to the end of its file
			l := v[at]
			files[src] = append(append(v[:at:at], v[at+1:]...), l)
			each(func(p *pos) {
				switch {
				case p.file != src:
				case p.idx == at:
					p.idx = len(files[src]) - 1
				case p.idx > at:
					p.idx--
				}
			})
		case 4, 5: // move a line, or extract a block of 3, into the other file
			n := 1
			if op == 5 {
				n = min(3, len(v)-at)
			}
			block := append([]string(nil), v[at:at+n]...)
			files[src] = append(v[:at:at], v[at+n:]...)
			dst := 1 - src
			to := int(script[i]/6) % (len(files[dst]) + 1)
			files[dst] = append(files[dst][:to:to], append(block, files[dst][to:]...)...)
			each(func(p *pos) {
				switch {
				case p.file == src && p.idx >= at && p.idx < at+n:
					p.file, p.idx = dst, to+p.idx-at
				case p.file == src && p.idx >= at+n:
					p.idx -= n
				case p.file == dst && p.idx >= to:
					p.idx += n
				}
			})
		}
		versions = append(versions, snapshot())
	}
	return versions, line, truth
}

// TestNearCopies: lines that differ from their neighbours only in a number
// (value10, value13) are followed to their own copy, never to a near copy
// that happens to sit in a better context. Both cases were found by the
// fuzz targets' ground truth.
func TestNearCopies(t *testing.T) {
	t.Parallel()
	fn := func(n int) string {
		return fmt.Sprintf("func handler%02d(w http.ResponseWriter, r *http.Request) {", n)
	}
	val := func(n int) string { return fmt.Sprintf("\tvalue%02d := compute(r, %d) // step %d", n, n*7, n) }
	tests := []struct {
		name     string
		versions []map[string][]string
		cite     int    // line of f.go in the first version
		path     string // where it is in the last
		line     int
	}{{
		name: "two similar lines swapped at the end",
		versions: []map[string][]string{
			{"f.go": {val(1), val(2), val(3), fn(24), fn(18)}},
			{"f.go": {val(1), val(2), val(3), fn(18), fn(24)}},
		},
		cite: 5, path: "f.go", line: 4,
	}, {
		name: "a block of near copies extracted into another file",
		versions: []map[string][]string{
			{"f.go": {fn(6), val(7), val(8), val(9), val(10), "}", val(13), "}", fn(18)},
				"g.go": {"\tinserted12 := 12", "\tlog.Printf(\"helper 0 step 1\", n, m)", val(14), val(15)}},
			{"f.go": {fn(6), val(7), val(8), val(9), "}", fn(18)},
				"g.go": {"\tinserted12 := 12", val(10), "}", val(13), "\tlog.Printf(\"helper 0 step 1\", n, m)", val(14), val(15)}},
		},
		cite: 5, path: "g.go", line: 2,
	}}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := newMemHistoryFiles(tc.versions)
			base := h.commits[h.head].Parents[0]
			res, err := New(h).Track(context.Background(), []Anchor{{Path: "f.go", Line: tc.cite, Base: base}}, Target{Commit: h.head})
			if err != nil {
				t.Fatal(err)
			}
			if r := res[0]; r.Status != Moved || r.Location.Path != tc.path || r.Location.Line != tc.line {
				t.Fatalf("got %v at %+v, want moved to %s:%d", r.Status, r.Location, tc.path, tc.line)
			}
		})
	}
}

// TestRangeLineage: range citations found by FuzzTrackAcrossFiles' ground
// truth. Deleted lines do not take over a near copy that sat next to them;
// a block whose lines were shuffled is changed, not moved; a range split
// across files goes with its non-trivial lines, not with a brace.
func TestRangeLineage(t *testing.T) {
	t.Parallel()
	val := func(n int) string { return fmt.Sprintf("\tvalue%02d := compute(r, %d) // step %d", n, n*7, n) }
	tests := []struct {
		name       string
		versions   []map[string][]string
		line, end  int // the cited range of f.go in the first version
		status     Status
		path       string
		first, lst int
	}{{
		name: "deleted one by one next to a near copy",
		versions: []map[string][]string{
			{"f.go": {"package p", val(1), val(2), val(3), val(4)}},
			{"f.go": {"package p", val(1), val(3), val(4)}},
			{"f.go": {"package p", val(1), val(4)}},
		},
		line: 3, end: 4, status: Gone,
	}, {
		name: "shuffled block",
		versions: []map[string][]string{
			{"f.go": {"package p", val(19), val(20), val(21), val(22)}},
			{"f.go": {"package p", val(21), val(19), val(20), val(22)}},
		},
		line: 2, end: 4, status: Changed, path: "f.go", first: 2, lst: 4,
	}, {
		name: "split: the brace stays, the code moves",
		versions: []map[string][]string{
			{"f.go": {"package p", "}", val(25), val(26)}, "g.go": {"package q"}},
			{"f.go": {"package p", "}", val(26)}, "g.go": {"package q", val(25)}},
		},
		line: 2, end: 3, status: Changed, path: "g.go", first: 2, lst: 2,
	}}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := newMemHistoryFiles(tc.versions)
			res, err := New(h).Track(context.Background(), []Anchor{{Path: "f.go", Line: tc.line, LineEnd: tc.end, Base: h.root()}}, Target{Commit: h.head})
			if err != nil {
				t.Fatal(err)
			}
			r := res[0]
			if r.Status != tc.status || r.Location.Path != tc.path || (tc.path != "" && (r.Location.Line != tc.first || r.Location.LineEnd != tc.lst)) {
				t.Fatalf("got %v at %+v, want %v at %s:%d-%d", r.Status, r.Location, tc.status, tc.path, tc.first, tc.lst)
			}
		})
	}
}
