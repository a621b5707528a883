package relocbench

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/git-memcite/git-memcite/internal/gitblame"
	"github.com/git-memcite/git-memcite/internal/gitrepo"
)

// SpeedRepo is a generated repository for the speed benchmark.
type SpeedRepo struct {
	Dir     string
	Base    string // first commit
	Head    string // last commit
	Commits int
	Anchors []gitblame.Anchor
	// truths are the true places of the anchors at Head.
	truths []truth
}

// BuildSpeedRepo writes a repository of nFiles Go files (standard library
// sources) and nCommits first-parent commits into dir. Each commit edits
// one to three files (a line inserted, deleted or lightly edited); the
// first file is edited in one commit out of hotEvery at least. It cites
// perFile lines in each of the first citedFiles files at the first commit;
// those lines move but are never edited or deleted.
func BuildSpeedRepo(goroot, dir string, nFiles, nCommits, hotEvery, citedFiles, perFile int, seed uint64) (*SpeedRepo, error) {
	c, err := loadCorpus(goroot, 120)
	if err != nil {
		return nil, err
	}
	r := rand.New(rand.NewPCG(seed, 7))
	s := initialState(r, c, nFiles)
	paths := s.paths()
	if err := runGit(dir, nil, "init", "-q", "-b", "main"); err != nil {
		return nil, err
	}
	sr := &SpeedRepo{Dir: dir, Commits: nCommits}
	// Citations at the first commit. Cited lines are never deleted or
	// edited (only shifted), so that every one is followed to the end.
	protected := map[int]bool{}
	var cites []citeSpec
	for _, p := range paths[:min(citedFiles, len(paths))] {
		for _, cs := range pickCites(r, s, p, nil, 0, perFile) {
			cites = append(cites, cs)
			sr.Anchors = append(sr.Anchors, gitblame.Anchor{Path: cs.path, Line: cs.line, LineEnd: cs.end, Snippet: snippetOf(cs)})
			for _, id := range cs.ids {
				protected[id] = true
			}
		}
	}
	var buf bytes.Buffer
	for i := 0; i < nCommits; i++ {
		writeCommit(&buf, s, i, editCommit(r, s, paths, i, hotEvery, protected))
	}
	sc := &scenario{cites: cites, commits: []commitRec{{st: s}}}
	sc.finish()
	sr.truths = sc.truths
	if err := sr.fastImport(&buf); err != nil {
		return nil, err
	}
	if err := runGit(dir, nil, "checkout", "-q", "main"); err != nil {
		return nil, err
	}
	base, err := gitblame.ParseHash(sr.Base)
	if err != nil {
		return nil, err
	}
	for i := range sr.Anchors {
		sr.Anchors[i].Base = base
	}
	return sr, nil
}

// editCommit picks the files commit i edits (all of them at the first
// commit; the first file every hotEvery commits; one to three at random)
// and edits each: a line inserted, deleted or lightly edited, never a
// protected (cited) line deleted or edited.
func editCommit(r *rand.Rand, s *state, paths []string, i, hotEvery int, protected map[int]bool) map[string]bool {
	dirty := map[string]bool{}
	if i == 0 {
		for _, p := range paths {
			dirty[p] = true
		}
		return dirty
	}
	if hotEvery > 0 && i%hotEvery == 0 {
		dirty[paths[0]] = true
	}
	for k := 1 + r.IntN(3); k > 0; k-- {
		dirty[paths[r.IntN(len(paths))]] = true
	}
	for p := range dirty {
		f := s.files[p]
		at := r.IntN(len(f.lines))
		op := r.IntN(3)
		if protected[f.lines[at].id] || (op == 1 && at+1 < len(f.lines) && protected[f.lines[at+1].id]) {
			op = 0
		}
		switch op {
		case 0:
			f.lines = append(f.lines[:at], append([]lineObj{s.newLine("\t// change " + strconv.Itoa(i))}, f.lines[at:]...)...)
		case 1:
			if len(f.lines) > 50 {
				f.lines = append(f.lines[:at], f.lines[at+1:]...)
			}
		default:
			if out, ok := lightEdit(r, f.lines[at].text); ok {
				f.lines[at].text = out
			}
		}
	}
	return dirty
}

// writeCommit appends commit i, with the files dirty as they are in s, to
// a git fast-import stream.
func writeCommit(buf *bytes.Buffer, s *state, i int, dirty map[string]bool) {
	ts := strconv.FormatInt(commitTime(i).Unix(), 10)
	fmt.Fprintf(buf, "commit refs/heads/main\nmark :%d\n", i+1)
	fmt.Fprintf(buf, "author Ada Author <ada@example.com> %s +0000\ncommitter Ada Author <ada@example.com> %s +0000\n", ts, ts)
	msg := "change " + strconv.Itoa(i)
	fmt.Fprintf(buf, "data %d\n%s\n", len(msg), msg)
	if i > 0 {
		fmt.Fprintf(buf, "from :%d\n", i)
	}
	ps := make([]string, 0, len(dirty))
	for p := range dirty {
		ps = append(ps, p)
	}
	sort.Strings(ps)
	for _, p := range ps {
		b := s.files[p].content()
		fmt.Fprintf(buf, "M 100644 inline %s\ndata %d\n", p, len(b))
		buf.Write(b)
		buf.WriteString("\n")
	}
	buf.WriteString("\n")
}

// fastImport imports the stream into the repository and names its first
// and last commits (Base, Head).
func (sr *SpeedRepo) fastImport(stream *bytes.Buffer) error {
	dir, nCommits := sr.Dir, sr.Commits
	marks := filepath.Join(dir, ".git", "bench-marks")
	if err := runGit(dir, stream, "fast-import", "--quiet", "--export-marks="+marks); err != nil {
		return err
	}
	b, err := os.ReadFile(marks)
	if err != nil {
		return fmt.Errorf("relocbench: %w", err)
	}
	for _, ln := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		mark, h, _ := strings.Cut(ln, " ")
		switch mark {
		case ":1":
			sr.Base = h
		case ":" + strconv.Itoa(nCommits):
			sr.Head = h
		}
	}
	return nil
}

// CopyAs copies the repository into a new one of the given object format
// (sha1 or sha256) in dir, through git fast-export and fast-import: the
// same history, with the anchors' base and the head renamed.
func (sr *SpeedRepo) CopyAs(dir, format string) (*SpeedRepo, error) {
	if err := runGit(dir, nil, "init", "-q", "-b", "main", "--object-format="+format); err != nil {
		return nil, err
	}
	stream, err := gitOutputRaw(sr.Dir, "fast-export", "--all")
	if err != nil {
		return nil, err
	}
	if err := runGit(dir, bytes.NewBuffer(stream), "fast-import", "--quiet"); err != nil {
		return nil, err
	}
	if err := runGit(dir, nil, "checkout", "-q", "main"); err != nil {
		return nil, err
	}
	cp := *sr
	cp.Dir = dir
	if cp.Base, err = gitOutput(dir, "rev-list", "--max-parents=0", "main"); err != nil {
		return nil, err
	}
	if cp.Head, err = gitOutput(dir, "rev-parse", "main"); err != nil {
		return nil, err
	}
	base, err := gitblame.ParseHash(cp.Base)
	if err != nil {
		return nil, err
	}
	cp.Anchors = append([]gitblame.Anchor(nil), sr.Anchors...)
	for i := range cp.Anchors {
		cp.Anchors[i].Base = base
	}
	return &cp, nil
}

// TrackAll opens the repository afresh (cold caches) and tracks every
// anchor to the head; it returns the results and the elapsed time.
func (sr *SpeedRepo) TrackAll(ctx context.Context) ([]gitblame.Result, time.Duration, error) {
	start := time.Now()
	repo, err := gitrepo.OpenHistory(sr.Dir)
	if err != nil {
		return nil, 0, err
	}
	defer repo.Close()
	head, err := gitblame.ParseHash(sr.Head)
	if err != nil {
		return nil, 0, err
	}
	res, err := gitblame.New(repo).Track(ctx, sr.Anchors, gitblame.Target{Commit: head})
	return res, time.Since(start), err
}

// BlameReverse runs `git blame --reverse --first-parent base..head` once
// per cited file with one -L per citation (the exact-lineage answer git
// gives) and returns the elapsed time.
func (sr *SpeedRepo) BlameReverse() (time.Duration, error) {
	byPath := map[string][]string{}
	for _, a := range sr.Anchors {
		end := max(a.LineEnd, a.Line)
		byPath[a.Path] = append(byPath[a.Path], fmt.Sprintf("-L%d,%d", a.Line, end))
	}
	start := time.Now()
	for p, ls := range byPath {
		args := append([]string{"blame", "--reverse", "--first-parent", "--porcelain"}, ls...)
		args = append(args, sr.Base+".."+sr.Head, "--", p)
		if _, err := gitOutput(sr.Dir, args...); err != nil {
			return 0, err
		}
	}
	return time.Since(start), nil
}

// Wrong counts the results that are not exactly at their true place.
func (sr *SpeedRepo) Wrong(res []gitblame.Result) int {
	n := 0
	for i, r := range res {
		t := sr.truths[i]
		p := prediction{loc: r.Status == gitblame.Unchanged || r.Status == gitblame.Moved || r.Status == gitblame.Changed,
			path: r.Location.Path, line: r.Location.Line, end: r.Location.LineEnd}
		if !t.partial && !exact(t, p) {
			n++
		}
	}
	return n
}
