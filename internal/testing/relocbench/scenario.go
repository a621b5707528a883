package relocbench

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path"
	"sort"
	"strconv"
	"strings"
	"time"
)

// commitRec is one commit of a scenario.
type commitRec struct {
	subject string
	st      *state
	first   int // index of the first parent, -1 for the root
	merge   int // index of the merged commit, -1 if none
	branch  string
}

// citeSpec is a citation made at the base commit, with its ground truth.
type citeSpec struct {
	path       string
	line, end  int // 1-based, inclusive
	text       []string
	ids        []int
	withCommit bool
}

// truth is where a citation really is at the target.
type truth struct {
	gone      bool
	partial   bool // a range partly deleted or scattered: not scored
	path      string
	line, end int
}

// scenario is a generated history and its citations.
type scenario struct {
	category string
	commits  []commitRec
	base     int
	cites    []citeSpec
	truths   []truth
}

var dirs = []string{"pkg/store", "pkg/web", "internal/core", "cmd/tool"}

func initialState(r *rand.Rand, c *corpus, n int) *state {
	id := 0
	s := &state{files: map[string]*file{}, nextID: &id}
	perm := r.Perm(len(c.files))
	for k := 0; k < n; k++ {
		src := c.files[perm[k%len(perm)]]
		p := fmt.Sprintf("%s/file%d.go", dirs[k%len(dirs)], k)
		f := &file{}
		for _, t := range src {
			f.lines = append(f.lines, s.newLine(t))
		}
		s.files[p] = f
	}
	return s
}

func (sc *scenario) add(subject string, st *state) {
	sc.commits = append(sc.commits, commitRec{subject: subject, st: st.clone(), first: len(sc.commits) - 1, merge: -1, branch: "main"})
}

// categoryScenario builds: base commit, two noise commits, the edit, two
// noise commits. Citations are made at the base: up to 8 lines the edit
// is about and 3 other lines of the edited file, one in five as a 3-line
// range.
func categoryScenario(r *rand.Rand, c *corpus, category string) *scenario {
	for {
		s := initialState(r, c, 6)
		sc := &scenario{category: category}
		sc.add("initial import", s)
		baseState := s.clone()
		target := s.paths()[r.IntN(len(s.files))]
		for i := 0; i < 2; i++ {
			sc.add(noise(r, s, map[string]bool{target: true}), s)
		}
		var focus []int
		if category == "merge-both-sides" {
			focus = mergeEdit(r, sc, s, target)
		} else {
			subject, f, ok := planners[category](r, s, target)
			if !ok {
				continue
			}
			focus = f
			sc.add(subject, s)
		}
		for i := 0; i < 2; i++ {
			sc.add(noise(r, s, avoidAllBut(s, baseState, target)), s)
		}
		sc.cites = pickCites(r, baseState, target, focus, 8, 3)
		if len(sc.cites) == 0 {
			continue
		}
		sc.finish()
		return sc
	}
}

// avoidAllBut protects the target file and every file that did not exist
// at base (extracted or split parts), so noise stays off cited content.
func avoidAllBut(s, base *state, target string) map[string]bool {
	avoid := map[string]bool{target: true}
	for p := range s.files {
		if _, ok := base.files[p]; !ok {
			avoid[p] = true
		}
	}
	// Files that received moved code are protected too: their new lines
	// have ids from base.
	for p, f := range s.files {
		bf, ok := base.files[p]
		if !ok {
			continue
		}
		seen := map[int]bool{}
		for _, l := range bf.lines {
			seen[l.id] = true
		}
		for _, l := range f.lines {
			if !seen[l.id] && l.id <= maxID(base) {
				avoid[p] = true
				break
			}
		}
	}
	return avoid
}

func maxID(s *state) int {
	m := 0
	for _, f := range s.files {
		for _, l := range f.lines {
			m = max(m, l.id)
		}
	}
	return m
}

// mergeEdit makes a side branch that inserts lines near the top of target
// and a main-line commit that edits its end, then merges them.
func mergeEdit(r *rand.Rand, sc *scenario, s *state, target string) []int {
	fork := len(sc.commits) - 1
	f := s.files[target]
	n := len(f.lines)
	if n < 20 {
		return nil
	}
	top := 2 + r.IntN(n/4)
	var ins []lineObj
	for i := 0; i < 1+r.IntN(5); i++ {
		ins = append(ins, s.newLine("// side branch note"))
	}
	editAt := n/2 + r.IntN(n/2)
	edited, _ := lightEdit(r, f.lines[editAt].text)
	editID := f.lines[editAt].id

	side := s.clone()
	sf := side.files[target]
	sf.lines = append(sf.lines[:top:top], append(append([]lineObj(nil), ins...), sf.lines[top:]...)...)
	sc.commits = append(sc.commits, commitRec{subject: "side: document", st: side.clone(), first: fork, merge: -1, branch: "side"})
	sideIdx := len(sc.commits) - 1

	f.lines[editAt].text = edited
	sc.commits = append(sc.commits, commitRec{subject: "main: edit", st: s.clone(), first: fork, merge: -1, branch: "main"})
	mainIdx := len(sc.commits) - 1

	f.lines = append(f.lines[:top:top], append(append([]lineObj(nil), ins...), f.lines[top:]...)...)
	sc.commits = append(sc.commits, commitRec{subject: "merge side", st: s.clone(), first: mainIdx, merge: sideIdx, branch: "main"})
	var focus []int
	for _, l := range f.lines[top:min(len(f.lines), top+20)] {
		focus = append(focus, l.id)
	}
	return append(focus, editID)
}

// chainScenario is a long history of random edits of every category.
func chainScenario(r *rand.Rand, c *corpus, commits int) *scenario {
	s := initialState(r, c, 8)
	sc := &scenario{category: "mixed"}
	sc.add("initial import", s)
	baseState := s.clone()
	for len(sc.commits) < commits {
		ps := s.paths()
		target := ps[r.IntN(len(ps))]
		switch k := r.IntN(len(Categories) + 3); {
		case k >= len(Categories):
			sc.add(noise(r, s, nil), s)
		case Categories[k] == "merge-both-sides":
			mergeEdit(r, sc, s, target)
		default:
			if subject, _, ok := planners[Categories[k]](r, s, target); ok {
				sc.add(subject, s)
			}
		}
	}
	var all []citeSpec
	for _, p := range baseState.paths() {
		all = append(all, pickCites(r, baseState, p, nil, 0, 5)...)
	}
	sc.cites = all
	sc.finish()
	return sc
}

// pickCites chooses citations in file p of base: up to nFocus lines among
// focus, nOther other lines.
func pickCites(r *rand.Rand, base *state, p string, focus []int, nFocus, nOther int) []citeSpec {
	f := base.files[p]
	idx := map[int]int{}
	for i, l := range f.lines {
		idx[l.id] = i
	}
	var out []citeSpec
	used := map[int]bool{}
	add := func(i int) {
		if used[i] || !citable(f.lines[i].text) {
			return
		}
		used[i] = true
		end := i
		if r.IntN(5) == 0 && i+2 < len(f.lines) && citable(f.lines[i+2].text) {
			end = i + 2
		}
		cs := citeSpec{path: p, line: i + 1, end: end + 1, withCommit: r.IntN(2) == 0}
		for k := i; k <= end; k++ {
			cs.text = append(cs.text, f.lines[k].text)
			cs.ids = append(cs.ids, f.lines[k].id)
		}
		out = append(out, cs)
	}
	perm := r.Perm(len(focus))
	for _, k := range perm {
		if len(out) >= nFocus {
			break
		}
		if i, ok := idx[focus[k]]; ok {
			add(i)
		}
	}
	for tries := 0; tries < 100 && len(out) < nFocus+nOther; tries++ {
		add(r.IntN(len(f.lines)))
	}
	return out
}

// finish computes the ground truth of every citation at the last commit.
func (sc *scenario) finish() {
	sc.truths = sc.truthsAt(sc.commits[len(sc.commits)-1].st)
}

// truthsAt computes where every citation is in state st.
func (sc *scenario) truthsAt(final *state) []truth {
	where := map[int][2]int{} // id -> (file index, line)
	paths := final.paths()
	for pi, p := range paths {
		for i, l := range final.files[p].lines {
			where[l.id] = [2]int{pi, i}
		}
	}
	truths := make([]truth, len(sc.cites))
	for ci, c := range sc.cites {
		var locs [][2]int
		for _, id := range c.ids {
			if w, ok := where[id]; ok {
				locs = append(locs, w)
			}
		}
		t := &truths[ci]
		switch {
		case len(locs) == 0:
			t.gone = true
		case len(locs) < len(c.ids):
			t.partial = true
		default:
			ok := true
			for k := 1; k < len(locs); k++ {
				ok = ok && locs[k][0] == locs[0][0] && locs[k][1] == locs[0][1]+k
			}
			if !ok {
				t.partial = true
				break
			}
			t.path = paths[locs[0][0]]
			t.line, t.end = locs[0][1]+1, locs[len(locs)-1][1]+1
		}
	}
	return truths
}

// epoch dates the first commit of every scenario.
var epoch = time.Date(2024, 3, 1, 9, 0, 0, 0, time.UTC)

// commitTime is the date of commit i.
func commitTime(i int) time.Time { return epoch.Add(time.Duration(i) * time.Hour) }

// write builds the scenario's repository in dir with git fast-import and
// returns the commit hashes in order.
func (sc *scenario) write(dir string) ([]string, error) {
	if err := runGit(dir, nil, "init", "-q", "-b", "main"); err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	prevFiles := func(i int) map[string][]byte {
		if i < 0 {
			return nil
		}
		out := map[string][]byte{}
		for p, f := range sc.commits[i].st.files {
			out[p] = f.content()
		}
		return out
	}
	cache := map[int]map[string][]byte{}
	for i, c := range sc.commits {
		cur := prevFiles(i)
		cache[i] = cur
		old := cache[c.first]
		ts := strconv.FormatInt(commitTime(i).Unix(), 10)
		fmt.Fprintf(&buf, "commit refs/heads/%s\nmark :%d\n", c.branch, i+1)
		fmt.Fprintf(&buf, "author Ada Author <ada@example.com> %s +0000\ncommitter Ada Author <ada@example.com> %s +0000\n", ts, ts)
		fmt.Fprintf(&buf, "data %d\n%s\n", len(c.subject), c.subject)
		if c.first >= 0 {
			fmt.Fprintf(&buf, "from :%d\n", c.first+1)
		}
		if c.merge >= 0 {
			fmt.Fprintf(&buf, "merge :%d\n", c.merge+1)
		}
		var ps []string
		for p := range old {
			if _, ok := cur[p]; !ok {
				ps = append(ps, p)
			}
		}
		sort.Strings(ps)
		for _, p := range ps {
			fmt.Fprintf(&buf, "D %s\n", p)
		}
		ps = ps[:0]
		for p := range cur {
			if o, ok := old[p]; !ok || !bytes.Equal(o, cur[p]) {
				ps = append(ps, p)
			}
		}
		sort.Strings(ps)
		for _, p := range ps {
			fmt.Fprintf(&buf, "M 100644 inline %s\ndata %d\n", p, len(cur[p]))
			buf.Write(cur[p])
			buf.WriteString("\n")
		}
		buf.WriteString("\n")
		if i > 0 && c.first >= 0 {
			delete(cache, c.first-4) // keep memory bounded on long chains
		}
	}
	marksFile := path.Join(dir, ".git", "bench-marks")
	if err := runGit(dir, &buf, "fast-import", "--quiet", "--export-marks="+marksFile); err != nil {
		return nil, err
	}
	b, err := os.ReadFile(marksFile)
	if err != nil {
		return nil, fmt.Errorf("relocbench: reading marks: %w", err)
	}
	hashes := make([]string, len(sc.commits))
	for _, ln := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		mark, h, ok := strings.Cut(ln, " ")
		if !ok {
			continue
		}
		n, err := strconv.Atoi(strings.TrimPrefix(mark, ":"))
		if err != nil || n < 1 || n > len(hashes) {
			return nil, fmt.Errorf("relocbench: bad mark line %q", ln)
		}
		hashes[n-1] = h
	}
	return hashes, nil
}

func gitEnv() []string {
	return append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null", "LC_ALL=C", "TZ=UTC",
		"GIT_AUTHOR_NAME=Ada Author", "GIT_AUTHOR_EMAIL=ada@example.com", "GIT_COMMITTER_NAME=Ada Author", "GIT_COMMITTER_EMAIL=ada@example.com")
}

func runGit(dir string, stdin *bytes.Buffer, args ...string) error {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = gitEnv()
	if stdin != nil {
		cmd.Stdin = stdin
	}
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("git %s: %w: %s", args[0], err, out)
	}
	return nil
}

func gitOutputRaw(dir string, args ...string) ([]byte, error) {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = gitEnv()
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("git %s: %w", strings.Join(args, " "), err)
	}
	return out, nil
}

func gitOutput(dir string, args ...string) (string, error) {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = gitEnv()
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("git %s: %w", strings.Join(args, " "), err)
	}
	return strings.TrimSpace(string(out)), nil
}
