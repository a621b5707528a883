package relocbench

import (
	"fmt"
	"math/rand/v2"
	"path"
	"regexp"
	"sort"
	"strings"

	"github.com/git-memcite/git-memcite/internal/gitblame"
)

// Categories of edits, one benchmark row each (plus "mixed" chains).
var Categories = []string{
	"insert-delete-above", "edit-cited-line", "reindent", "move-within-file",
	"move-to-other-file", "extract-new-file", "rename", "rename-edit",
	"move-folder", "split-file", "swap-blocks", "duplicate-block",
	"rename-identifier", "crlf", "delete-block", "merge-both-sides",
	"replace-lines",
}

// planner applies one edit of its category to s, in file target, and
// returns a commit subject and the ids of the lines the edit is about
// (the ones worth citing). ok is false when the file does not allow it.
type planner func(r *rand.Rand, s *state, target string) (subject string, focus []int, ok bool)

var planners = map[string]planner{
	"insert-delete-above": opInsertDeleteAbove,
	"edit-cited-line":     opEditLines,
	"reindent":            opReindent,
	"move-within-file":    opMoveWithin,
	"move-to-other-file":  opMoveToOther,
	"extract-new-file":    opExtract,
	"rename":              opRename,
	"rename-edit":         opRenameEdit,
	"move-folder":         opMoveFolder,
	"split-file":          opSplit,
	"swap-blocks":         opSwap,
	"duplicate-block":     opDuplicate,
	"rename-identifier":   opRenameIdent,
	"crlf":                opCRLF,
	"delete-block":        opDeleteBlock,
	"replace-lines":       opReplaceLines,
}

func ids(ls []lineObj) []int {
	out := make([]int, len(ls))
	for i, l := range ls {
		out[i] = l.id
	}
	return out
}

func pickBlock(r *rand.Rand, f *file) ([2]int, bool) {
	bs := fileBlocks(f)
	if len(bs) == 0 {
		return [2]int{}, false
	}
	return bs[r.IntN(len(bs))], true
}

func opInsertDeleteAbove(r *rand.Rand, s *state, target string) (string, []int, bool) {
	f := s.files[target]
	n := len(f.lines)
	if n < 40 {
		return "", nil, false
	}
	at := 5 + r.IntN(n/2)
	focus := ids(f.lines[at:min(n, at+30)])
	if r.IntN(2) == 0 {
		k := 1 + r.IntN(8)
		var ins []lineObj
		for i := 0; i < k; i++ {
			ins = append(ins, s.newLine(fmt.Sprintf("\t// note %d: keep in sync with the caller", *s.nextID)))
		}
		f.lines = append(f.lines[:at], append(ins, f.lines[at:]...)...)
		return "insert lines above", focus, true
	}
	k := 1 + r.IntN(min(8, at-1))
	f.lines = append(f.lines[:at-k], f.lines[at:]...)
	return "delete lines above", focus, true
}

func opEditLines(r *rand.Rand, s *state, target string) (string, []int, bool) {
	f := s.files[target]
	var focus []int
	for tries := 0; tries < 50 && len(focus) < 6; tries++ {
		i := r.IntN(len(f.lines))
		if !citable(f.lines[i].text) {
			continue
		}
		if out, ok := lightEdit(r, f.lines[i].text); ok {
			f.lines[i].text = out
			focus = append(focus, f.lines[i].id)
		}
	}
	return "edit lines", focus, len(focus) > 0
}

func opReindent(r *rand.Rand, s *state, target string) (string, []int, bool) {
	f := s.files[target]
	b, ok := pickBlock(r, f)
	if !ok {
		return "", nil, false
	}
	// Reindent the body: tabs become 4 spaces, or one more tab.
	more := r.IntN(2) == 0
	for i := b[0]; i <= b[1]; i++ {
		t := f.lines[i].text
		if more && strings.HasPrefix(t, "\t") {
			t = "\t" + t
		} else if !more {
			t = strings.ReplaceAll(t, "\t", "    ")
		}
		f.lines[i].text = t
	}
	return "reindent a function", ids(f.lines[b[0] : b[1]+1]), true
}

func cut(f *file, b [2]int) []lineObj {
	blk := append([]lineObj(nil), f.lines[b[0]:b[1]+1]...)
	end := b[1] + 1
	if end < len(f.lines) && strings.TrimSpace(f.lines[end].text) == "" {
		end++ // take the blank line after the function too
	}
	f.lines = append(f.lines[:b[0]], f.lines[end:]...)
	return blk
}

func opMoveWithin(r *rand.Rand, s *state, target string) (string, []int, bool) {
	f := s.files[target]
	bs := fileBlocks(f)
	if len(bs) < 3 {
		return "", nil, false
	}
	i := r.IntN(len(bs))
	blk := cut(f, bs[i])
	// Insert before another function (or at the end).
	bs = fileBlocks(f)
	j := r.IntN(len(bs) + 1)
	blank := s.newLine("")
	if j == len(bs) {
		f.lines = append(f.lines, blank)
		f.lines = append(f.lines, blk...)
	} else {
		at := bs[j][0]
		f.lines = append(f.lines[:at], append(append(blk, blank), f.lines[at:]...)...)
	}
	return "move a function within the file", ids(blk), true
}

func otherFile(r *rand.Rand, s *state, target string) (string, bool) {
	var ps []string
	for _, p := range s.paths() {
		if p != target {
			ps = append(ps, p)
		}
	}
	if len(ps) == 0 {
		return "", false
	}
	return ps[r.IntN(len(ps))], true
}

func opMoveToOther(r *rand.Rand, s *state, target string) (string, []int, bool) {
	f := s.files[target]
	b, ok := pickBlock(r, f)
	other, ok2 := otherFile(r, s, target)
	if !ok || !ok2 {
		return "", nil, false
	}
	blk := cut(f, b)
	o := s.files[other]
	o.lines = append(o.lines, s.newLine(""))
	o.lines = append(o.lines, blk...)
	return "move a function to " + other, ids(blk), true
}

func opExtract(r *rand.Rand, s *state, target string) (string, []int, bool) {
	f := s.files[target]
	b, ok := pickBlock(r, f)
	if !ok {
		return "", nil, false
	}
	blk := cut(f, b)
	np := fmt.Sprintf("%s/extracted_%d.go", path.Dir(target), *s.nextID)
	nf := &file{lines: []lineObj{s.newLine(pkgName(f)), s.newLine("")}}
	nf.lines = append(nf.lines, blk...)
	s.files[np] = nf
	return "extract a function into " + np, ids(blk), true
}

func rename(s *state, from, to string) {
	s.files[to] = s.files[from]
	delete(s.files, from)
}

func opRename(r *rand.Rand, s *state, target string) (string, []int, bool) {
	np := path.Join(path.Dir(target), "renamed_"+path.Base(target))
	rename(s, target, np)
	return "rename " + target, ids(s.files[np].lines), true
}

func opRenameEdit(r *rand.Rand, s *state, target string) (string, []int, bool) {
	np := path.Join(path.Dir(target), "moved_"+path.Base(target))
	rename(s, target, np)
	_, focus, _ := opEditLines(r, s, np)
	all := ids(s.files[np].lines)
	return "rename and edit " + target, append(focus, all[:min(len(all), 10)]...), true
}

func opMoveFolder(r *rand.Rand, s *state, target string) (string, []int, bool) {
	np := path.Join("moved", path.Dir(target), "sub", path.Base(target))
	rename(s, target, np)
	return "move " + target + " to another folder", ids(s.files[np].lines), true
}

func opSplit(r *rand.Rand, s *state, target string) (string, []int, bool) {
	f := s.files[target]
	bs := fileBlocks(f)
	if len(bs) < 4 {
		return "", nil, false
	}
	at := bs[len(bs)/2][0]
	base := strings.TrimSuffix(target, ".go")
	a := &file{lines: append([]lineObj(nil), f.lines[:at]...)}
	b := &file{lines: []lineObj{s.newLine(pkgName(f)), s.newLine("")}}
	b.lines = append(b.lines, f.lines[at:]...)
	delete(s.files, target)
	s.files[base+"_first.go"] = a
	s.files[base+"_second.go"] = b
	return "split " + target, ids(f.lines), true
}

func opSwap(r *rand.Rand, s *state, target string) (string, []int, bool) {
	f := s.files[target]
	bs := fileBlocks(f)
	if len(bs) < 2 {
		return "", nil, false
	}
	i := r.IntN(len(bs) - 1)
	x, y := bs[i], bs[i+1]
	bx := append([]lineObj(nil), f.lines[x[0]:x[1]+1]...)
	mid := append([]lineObj(nil), f.lines[x[1]+1:y[0]]...)
	by := append([]lineObj(nil), f.lines[y[0]:y[1]+1]...)
	rest := append([]lineObj(nil), f.lines[y[1]+1:]...)
	f.lines = append(append(append(append(f.lines[:x[0]], by...), mid...), bx...), rest...)
	return "swap two functions", append(ids(bx), ids(by)...), true
}

// opDuplicate copies a function elsewhere in the file: before another
// function that is not its neighbour, or at the end. (An identical copy
// right next to the original cannot be told from it by any text-based
// method, git blame included, so the benchmark does not ask for that.)
func opDuplicate(r *rand.Rand, s *state, target string) (string, []int, bool) {
	f := s.files[target]
	bs := fileBlocks(f)
	if len(bs) < 3 {
		return "", nil, false
	}
	i := r.IntN(len(bs))
	var spots []int
	for j := range bs {
		if j != i && j != i+1 {
			spots = append(spots, bs[j][0])
		}
	}
	if i != len(bs)-1 {
		spots = append(spots, len(f.lines))
	}
	at := spots[r.IntN(len(spots))]
	orig := f.lines[bs[i][0] : bs[i][1]+1]
	var cp []lineObj
	if at == len(f.lines) {
		cp = append(cp, s.newLine(""))
	}
	for _, l := range orig {
		cp = append(cp, s.newLine(l.text))
	}
	if at < len(f.lines) {
		cp = append(cp, s.newLine(""))
	}
	focus := ids(orig)
	f.lines = append(f.lines[:at:at], append(cp, f.lines[at:]...)...)
	return "duplicate a function", focus, true
}

func opRenameIdent(r *rand.Rand, s *state, target string) (string, []int, bool) {
	f := s.files[target]
	count := map[string]int{}
	for _, l := range f.lines {
		for _, w := range identRe.FindAllString(l.text, -1) {
			if !goKeywords[w] {
				count[w]++
			}
		}
	}
	var words []string
	for w, n := range count {
		if n >= 4 && n <= 40 {
			words = append(words, w)
		}
	}
	if len(words) == 0 {
		return "", nil, false
	}
	sort.Strings(words)
	w := words[r.IntN(len(words))]
	re := regexp.MustCompile(`\b` + w + `\b`)
	nw := "new" + strings.ToUpper(w[:1]) + w[1:]
	var focus []int
	for i, l := range f.lines {
		if re.MatchString(l.text) {
			f.lines[i].text = re.ReplaceAllString(l.text, nw)
			focus = append(focus, l.id)
		}
	}
	return "rename " + w + " to " + nw, focus, true
}

func opCRLF(r *rand.Rand, s *state, target string) (string, []int, bool) {
	f := s.files[target]
	f.crlf = true
	return "convert to CRLF", ids(f.lines), true
}

func opDeleteBlock(r *rand.Rand, s *state, target string) (string, []int, bool) {
	f := s.files[target]
	b, ok := pickBlock(r, f)
	if !ok {
		return "", nil, false
	}
	blk := cut(f, b)
	return "delete a function", ids(blk), true
}

// noise edits files other than target: inserts, deletions and light edits
// that no citation of the scenario is about.
func noise(r *rand.Rand, s *state, avoid map[string]bool) string {
	var ps []string
	for _, p := range s.paths() {
		if !avoid[p] {
			ps = append(ps, p)
		}
	}
	if len(ps) == 0 {
		return "empty change"
	}
	p := ps[r.IntN(len(ps))]
	f := s.files[p]
	at := r.IntN(len(f.lines))
	switch r.IntN(3) {
	case 0:
		f.lines = append(f.lines[:at], append([]lineObj{s.newLine("\t// noise")}, f.lines[at:]...)...)
	case 1:
		if len(f.lines) > 20 {
			f.lines = append(f.lines[:at], f.lines[min(len(f.lines), at+2):]...)
		}
	default:
		if out, ok := lightEdit(r, f.lines[at].text); ok {
			f.lines[at].text = out
		}
	}
	return "tweak " + p
}

// opReplaceLines rewrites a few consecutive lines into unrelated code (new
// identities): the old lines are gone, and something else stands where
// they were, the case where a guess is most tempting.
func opReplaceLines(r *rand.Rand, s *state, target string) (string, []int, bool) {
	f := s.files[target]
	if len(f.lines) < 20 {
		return "", nil, false
	}
	at := r.IntN(len(f.lines) - 6)
	k := 1 + r.IntN(4)
	// Unrelated lines: taken from another part of the repository and kept
	// only if they are not similar to the lines they replace.
	var pool []string
	for _, p := range s.paths() {
		for _, l := range s.files[p].lines {
			if citable(l.text) {
				pool = append(pool, l.text)
			}
		}
	}
	var focus []int
	window := append([]lineObj(nil), f.lines[max(0, at-3):min(len(f.lines), at+k+3)]...)
	for i := at; i < at+k; i++ {
		old := f.lines[i].text
		if !citable(old) {
			continue
		}
		for tries := 0; tries < 20; tries++ {
			cand := pool[r.IntN(len(pool))]
			if unrelated(cand, window) {
				focus = append(focus, f.lines[i].id)
				f.lines[i] = s.newLine(cand)
				break
			}
		}
	}
	return "rewrite lines", focus, len(focus) > 0
}

// unrelated reports whether s is unlike every line of window, so that a
// rewritten line cannot pass for one of its neighbours.
func unrelated(s string, window []lineObj) bool {
	for _, l := range window {
		if gitblame.Similarity(s, l.text) >= 0.4 {
			return false
		}
	}
	return true
}
