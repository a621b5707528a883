package gitrepo_test

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"os/exec"
	"path"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/git-memcite/git-memcite/internal/gitblame"
	"github.com/git-memcite/git-memcite/internal/gitrepo"
	"github.com/git-memcite/git-memcite/internal/testing/gitfixture"
	"github.com/git-memcite/git-memcite/internal/testing/longtest"
)

// genFile is a file of a generated history.
type genFile struct {
	mode  string // 100644, 100755, 120000 or 160000
	lines []string
}

// genHistory writes a random history as a git fast-import stream: files
// edited, added, deleted, renamed (unchanged, lightly and heavily edited),
// made executable, turned into symbolic links, replaced by directories,
// submodule gitlinks, merges of side branches, authors in several time
// zones and messages with leading blank lines. hexLen is the length of
// object names (gitlinks name a commit).
func genHistory(seed uint64, commits, hexLen int) []byte {
	r := rand.New(rand.NewPCG(seed, 3))
	files := map[string]*genFile{}
	words := []string{"alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta", "iota", "kappa", "lambda", "mu"}
	line := func() string {
		return fmt.Sprintf("%s %s %d", words[r.IntN(len(words))], words[r.IntN(len(words))], r.IntN(1000))
	}
	newLines := func(n int) []string {
		out := make([]string, n)
		for i := range out {
			out[i] = line()
		}
		return out
	}
	dirs := []string{"", "a/", "a/b/", "c/", "c/d/e/", "x y/"}
	newPath := func() string {
		for {
			p := fmt.Sprintf("%sf%d.txt", dirs[r.IntN(len(dirs))], r.IntN(40))
			if _, ok := files[p]; !ok && !clashes(files, p) {
				return p
			}
		}
	}
	regular := func() []string {
		var ps []string
		for p, f := range files {
			if f.mode == "100644" || f.mode == "100755" {
				ps = append(ps, p)
			}
		}
		sort.Strings(ps)
		return ps
	}
	zones := []string{"+0000", "+0530", "-0800", "-0030", "+1400"}
	names := []string{"Ada Author", "Zoë Ünicode", "  Spaced  ", "o'Brien"}
	var buf bytes.Buffer
	writeCommit := func(mark int, branch string, from, merge int, ops []string) {
		fmt.Fprintf(&buf, "commit refs/heads/%s\nmark :%d\n", branch, mark)
		ts := 1700000000 + mark*3600
		fmt.Fprintf(&buf, "author %s <a%d@example.com> %d %s\n", names[r.IntN(len(names))], mark, ts, zones[r.IntN(len(zones))])
		fmt.Fprintf(&buf, "committer Cy <cy@example.com> %d %s\n", ts+60, zones[r.IntN(len(zones))])
		msg := fmt.Sprintf("change %d\n\nbody of %d\n", mark, mark)
		if mark%3 == 0 {
			msg = "\n\n  " + msg
		}
		fmt.Fprintf(&buf, "data %d\n%s\n", len(msg), msg)
		if from > 0 {
			fmt.Fprintf(&buf, "from :%d\n", from)
		}
		if merge > 0 {
			fmt.Fprintf(&buf, "merge :%d\n", merge)
		}
		for _, op := range ops {
			buf.WriteString(op)
		}
		buf.WriteString("\n")
	}
	put := func(p string) string {
		f := files[p]
		if f.mode == "160000" {
			return fmt.Sprintf("M 160000 %s %s\n", f.lines[0], quote(p))
		}
		b := strings.Join(f.lines, "\n")
		if f.mode != "120000" {
			b += "\n"
		}
		return fmt.Sprintf("M %s inline %s\ndata %d\n%s\n", f.mode, quote(p), len(b), b)
	}
	mark := 0
	side := 0 // mark of the side branch's last commit, 0 when none
	for i := 0; i < commits; i++ {
		var ops []string
		if i == 0 {
			for k := 0; k < 12; k++ {
				p := newPath()
				files[p] = &genFile{mode: "100644", lines: newLines(8 + r.IntN(20))}
				ops = append(ops, put(p))
			}
			mark++
			writeCommit(mark, "main", 0, 0, ops)
			continue
		}
		for k := 1 + r.IntN(3); k > 0; k-- {
			ps := regular()
			if len(ps) == 0 {
				break
			}
			p := ps[r.IntN(len(ps))]
			f := files[p]
			switch op := r.IntN(12); op {
			case 0, 1, 2: // edit
				at := r.IntN(len(f.lines) + 1)
				switch r.IntN(3) {
				case 0:
					f.lines = append(f.lines[:at], append([]string{line()}, f.lines[at:]...)...)
				case 1:
					if at < len(f.lines) && len(f.lines) > 2 {
						f.lines = append(f.lines[:at], f.lines[at+1:]...)
					}
				default:
					if at < len(f.lines) {
						f.lines[at] = line()
					}
				}
				ops = append(ops, put(p))
			case 3: // add
				q := newPath()
				files[q] = &genFile{mode: "100644", lines: newLines(5 + r.IntN(10))}
				ops = append(ops, put(q))
			case 4: // delete
				delete(files, p)
				ops = append(ops, "D "+quote(p)+"\n")
			case 5, 6, 7: // rename: unchanged, lightly edited, rewritten
				q := newPath()
				delete(files, p)
				g := &genFile{mode: f.mode, lines: append([]string(nil), f.lines...)}
				switch op {
				case 6:
					g.lines[r.IntN(len(g.lines))] = line()
				case 7:
					for j := range g.lines {
						if j%4 != 0 {
							g.lines[j] = line()
						}
					}
				}
				files[q] = g
				ops = append(ops, "D "+quote(p)+"\n", put(q))
			case 8: // mode change
				f.mode = map[string]string{"100644": "100755", "100755": "100644"}[f.mode]
				ops = append(ops, put(p))
			case 9: // a symbolic link replaces it
				f.mode, f.lines = "120000", []string{"target/" + path.Base(p)}
				ops = append(ops, put(p))
			case 10: // a gitlink
				q := newPath()
				files[q] = &genFile{mode: "160000", lines: []string{strings.Repeat(fmt.Sprintf("%x", r.IntN(16)), hexLen)}}
				ops = append(ops, put(q))
			case 11: // a directory replaces the file
				delete(files, p)
				q := p + "/inner.txt"
				files[q] = &genFile{mode: "100644", lines: f.lines}
				ops = append(ops, "D "+quote(p)+"\n", put(q))
			}
		}
		mark++
		switch {
		case i%7 == 3 && side == 0: // start a side branch from the previous commit
			writeCommit(mark, "side", mark-1, 0, ops)
			side = mark
		case i%7 == 5 && side != 0: // merge it
			writeCommit(mark, "main", 0, side, ops)
			side = 0
		case side != 0 && i%7 == 4:
			writeCommit(mark, "side", 0, 0, ops)
			side = mark
		default:
			writeCommit(mark, "main", 0, 0, ops)
		}
	}
	return buf.Bytes()
}

// clashes reports whether p cannot be added next to files (a file where a
// directory of p is, or a directory where p is).
func clashes(files map[string]*genFile, p string) bool {
	for q := range files {
		if strings.HasPrefix(p, q+"/") || strings.HasPrefix(q, p+"/") {
			return true
		}
	}
	return false
}

func quote(p string) string {
	if strings.ContainsAny(p, " \"") {
		return fmt.Sprintf("%q", p)
	}
	return p
}

// importHistory builds a repository of the given object format from a
// fast-import stream and returns its directory and every commit, oldest
// first.
func importHistory(t *testing.T, format string, stream []byte) (string, []string) {
	t.Helper()
	dir := t.TempDir()
	if _, err := gitfixture.Git(dir, 0, "init", "-q", "-b", "main", "--object-format="+format); err != nil {
		t.Skip(err)
	}
	cmd := exec.Command("git", "fast-import", "--quiet")
	cmd.Dir, cmd.Env, cmd.Stdin = dir, gitfixture.Env(0), bytes.NewReader(stream)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("fast-import: %v\n%s", err, out)
	}
	out, err := gitfixture.Git(dir, 0, "rev-list", "--reverse", "--topo-order", "main", "side")
	if err != nil {
		out, err = gitfixture.Git(dir, 0, "rev-list", "--reverse", "--topo-order", "main")
	}
	if err != nil {
		t.Fatal(err)
	}
	return dir, strings.Fields(out)
}

func mustHash(t *testing.T, s string) gitblame.Hash {
	t.Helper()
	h, err := gitblame.ParseHash(s)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// historyAnswers are the answers of a History about a commit, with every
// object name replaced by the object's content or a placeholder, so that
// the same history in two object formats can be compared.
type historyAnswers struct {
	Commit  string
	Files   map[string]string
	Entries map[string]string
	Changes map[string][]string // by "base K renames B": "from>to" TAB "blob>blob"
	bases   map[string]string   // the commits the Changes start from ("": the empty tree)
}

func answers(t *testing.T, h *gitrepo.History, commits []string, i int, paths []string, names bool) historyAnswers {
	t.Helper()
	blob := func(x gitblame.Hash) string {
		b, err := h.Blob(x)
		if err != nil {
			t.Fatalf("Blob(%s): %v", x, err)
		}
		// the content's SHA-1 name: the same in both object formats
		s := gitblame.BlobHash(b, gitblame.ZeroHash).Short()
		if names {
			s = x.Short() + "=" + s
		}
		return s
	}
	c, err := h.Commit(mustHash(t, commits[i]))
	if err != nil {
		t.Fatal(err)
	}
	a := historyAnswers{Files: map[string]string{}, Entries: map[string]string{}, Changes: map[string][]string{}, bases: map[string]string{}}
	a.Commit = fmt.Sprintf("parents %d, %q <%s> %s, committed %s, subject %q",
		len(c.Parents), c.Author, c.AuthorEmail, c.AuthorDate.UTC().Format(time.DateTime),
		c.CommitDate.UTC().Format(time.DateTime), c.Subject)
	if names {
		a.Commit += fmt.Sprintf(", hash %s, tree %s, parents %v", c.Hash, c.Tree, c.Parents)
	}
	files, err := h.Files(c.Tree)
	if err != nil {
		t.Fatal(err)
	}
	for p, x := range files {
		a.Files[p] = blob(x)
	}
	for _, p := range paths {
		x, ok, err := h.Entry(c.Tree, p)
		switch {
		case err != nil:
			a.Entries[p] = "error " + err.Error()
		case ok:
			a.Entries[p] = blob(x)
		default:
			a.Entries[p] = "none"
		}
	}
	var bases []gitblame.Hash
	bases = append(bases, c.Parents...)
	bases = append(bases, gitblame.ZeroHash)
	if i >= 5 {
		bases = append(bases, mustHash(t, commits[i-5])) // several commits apart
	}
	for k, base := range bases {
		for _, renames := range []bool{true, false} {
			chs, err := h.Changes(base, c.Hash, renames)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, ch := range chs {
				s := ch.From + ">" + ch.To + "\t"
				if ch.From != "" {
					s += blob(ch.FromBlob)
				}
				s += ">"
				if ch.To != "" {
					s += blob(ch.ToBlob)
				}
				got = append(got, s)
			}
			key := fmt.Sprintf("base %d renames %v", k, renames)
			a.Changes[key] = got
			if !base.IsZero() {
				a.bases[key] = base.String()
			}
		}
	}
	return a
}

// allPaths lists every path of every commit, their directories, and paths
// that never exist.
func allPaths(t *testing.T, dir string) []string {
	t.Helper()
	out, err := gitfixture.Git(dir, 0, "log", "--all", "--format=", "--name-only", "--no-renames")
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{"nope": true, "a/nope": true, "a": true, "f0.txt/x": true}
	for _, p := range strings.Split(out, "\n") {
		p = strings.Trim(p, `"`)
		for ; p != "." && p != "" && !seen[p]; p = path.Dir(p) {
			seen[p] = true
			seen[p+"/x"] = true // below a file or a symbolic link
		}
	}
	var ps []string
	for p := range seen {
		ps = append(ps, p)
	}
	sort.Strings(ps)
	return ps
}

// TestGitHistoryMatchesGoGit reads a generated history of a SHA-1
// repository through both readers and expects the same answers for every
// commit: the commit, its files, path lookups (directories, symbolic
// links, gitlinks, missing paths), and the changes from each parent, from
// the empty tree and from five commits back, with and without rename
// detection, blob contents included.
func TestGitHistoryMatchesGoGit(t *testing.T) {
	t.Parallel()
	for _, seed := range []uint64{1, 2, 3}[:longtest.Seeds(3, 1)] {
		t.Run(fmt.Sprint("seed ", seed), func(t *testing.T) {
			dir, commits := importHistory(t, "sha1", genHistory(seed, 60, 40))
			repo, err := gitrepo.Discover(dir)
			if err != nil {
				t.Fatal(err)
			}
			defer repo.Close()
			goGit, err := repo.History()
			if err != nil {
				t.Fatal(err)
			}
			defer goGit.Close()
			git, err := repo.GitHistoryForTest()
			if err != nil {
				t.Fatal(err)
			}
			defer git.Close()
			if goGit.BackendForTest() != gitrepo.GoGit || git.BackendForTest() != gitrepo.GitBinary {
				t.Fatal("the two readers are not the two backends")
			}
			paths := allPaths(t, dir)
			renamed, split := 0, 0
			for i := range commits {
				if t.Failed() {
					break
				}
				want := answers(t, goGit, commits, i, paths, true)
				got := answers(t, git, commits, i, paths, true)
				for key := range want.Changes {
					var n int
					got.Changes[key], want.Changes[key], n = unpairRenames(t, dir, key, want.bases[key], commits[i], got.Changes[key], want.Changes[key])
					split += n
				}
				if !reflect.DeepEqual(got, want) {
					t.Errorf("commit %d (%s): git binary and go-git differ\n%s", i, commits[i][:7], diffAnswers(got, want))
				}
				for _, ch := range want.Changes["base 0 renames true"] {
					pair, _, _ := strings.Cut(ch, "\t")
					if f, to, _ := strings.Cut(pair, ">"); f != "" && to != "" && f != to {
						renamed++
					}
				}
			}
			if renamed == 0 {
				t.Error("the generated history has no rename: the test compares too little")
			}
			t.Logf("%d renames from a parent compared; %d renames with a mode change or of an executable file paired by git only", renamed, split)
		})
	}
}

// unpairRenames handles the one known difference between the readers'
// answers: git pairs a rename whose file mode changed (a file renamed and
// made executable) and pairs executable files by similarity; go-git
// (object.DiffTreeWithOptions) does neither and lists a deletion and an
// addition. Each rename of got (git) missing from want (go-git) is checked
// to be such a case and is split into a deletion and an addition; a rename
// only go-git finds is an error. Both lists are then put in go-git's order
// (by source path, by destination for an addition; go-git lists a
// directory's deletion before a file added at its name, git after). It
// returns how many pairs were split.
func unpairRenames(t *testing.T, dir, key, base, commit string, got, want []string) (g, w []string, n int) {
	t.Helper()
	split := func(list, other []string, who string) []string {
		has := map[string]bool{}
		for _, o := range other {
			has[o] = true
		}
		var out []string
		for _, ch := range list {
			pair, blobs, _ := strings.Cut(ch, "\t")
			from, to, _ := strings.Cut(pair, ">")
			if has[ch] || from == "" || to == "" || from == to {
				out = append(out, ch)
				continue
			}
			fromBlob, toBlob, _ := strings.Cut(blobs, ">")
			if who == "go-git" || fileMode(t, dir, base, from) == "100644" && fileMode(t, dir, commit, to) == "100644" {
				t.Errorf("%s: %s>%s (both 100644) paired by %s only\n%q\n%q", key, from, to, who, list, other)
			}
			n++
			out = append(out, from+">\t"+fromBlob+">", ">"+to+"\t>"+toBlob)
		}
		return out
	}
	g, w = split(got, want, "git"), split(want, got, "go-git")
	for _, l := range [][]string{g, w} {
		sort.SliceStable(l, func(a, b int) bool { return changeName(l[a]) < changeName(l[b]) })
	}
	return g, w, n
}

// changeName is the path go-git sorts a change by: its source, or the
// destination of an addition.
func changeName(ch string) string {
	pair, _, _ := strings.Cut(ch, "\t")
	from, to, _ := strings.Cut(pair, ">")
	if from != "" {
		return from
	}
	return to
}

// fileMode returns the mode of path at commit ("" for the empty tree).
func fileMode(t *testing.T, dir, commit, path string) string {
	t.Helper()
	if commit == "" {
		return ""
	}
	out, err := gitfixture.Git(dir, 0, "ls-tree", commit, "--", path)
	if err != nil {
		t.Fatal(err)
	}
	mode, _, _ := strings.Cut(out, " ")
	return mode
}

// TestGitHistorySHA256 reads the same generated history through the git
// binary from a SHA-1 and a SHA-256 repository and expects the same
// answers, object names aside.
func TestGitHistorySHA256(t *testing.T) {
	t.Parallel()
	stream1 := genHistory(4, 40, 40)
	stream256 := genHistory(4, 40, 64)
	dir1, commits1 := importHistory(t, "sha1", stream1)
	dir256, commits256 := importHistory(t, "sha256", stream256)
	if len(commits1) != len(commits256) {
		t.Fatalf("%d commits in sha1, %d in sha256", len(commits1), len(commits256))
	}
	r1, err := gitrepo.Discover(dir1)
	if err != nil {
		t.Fatal(err)
	}
	h1, err := r1.GitHistoryForTest()
	if err != nil {
		t.Fatal(err)
	}
	defer h1.Close()
	h256, err := gitrepo.OpenHistory(dir256)
	if err != nil {
		t.Fatal(err)
	}
	defer h256.Close()
	if h256.BackendForTest() != gitrepo.GitBinary {
		t.Fatal("sha256 history not read by the git binary")
	}
	defer h256.Repo().Close()
	defer h1.Repo().Close()
	paths := allPaths(t, dir1)
	for i := range commits1 {
		want := answers(t, h1, commits1, i, paths, false)
		got := answers(t, h256, commits256, i, paths, false)
		got.bases, want.bases = nil, nil
		if !reflect.DeepEqual(got, want) {
			t.Errorf("commit %d: sha256 and sha1 differ\n%s", i, diffAnswers(got, want))
		}
	}
	want, err := gitfixture.Git(dir256, 0, "rev-parse", "HEAD")
	if err != nil {
		t.Fatal(err)
	}
	head, err := h256.Resolve("HEAD")
	if err != nil || head.Size() != gitblame.SHA256Size || head.String() != want {
		t.Errorf("Resolve(HEAD) = %v, %v; want %s", head, err, want)
	}
}

func diffAnswers(got, want historyAnswers) string {
	var sb strings.Builder
	if got.Commit != want.Commit {
		fmt.Fprintf(&sb, "commit: got %s\n        want %s\n", got.Commit, want.Commit)
	}
	for _, k := range []struct {
		name      string
		got, want map[string]string
	}{{"files", got.Files, want.Files}, {"entry", got.Entries, want.Entries}} {
		for p, w := range k.want {
			if g := k.got[p]; g != w {
				fmt.Fprintf(&sb, "%s %q: got %.80q, want %.80q\n", k.name, p, g, w)
			}
		}
		for p, g := range k.got {
			if _, ok := k.want[p]; !ok {
				fmt.Fprintf(&sb, "%s %q: got %.80q, want nothing\n", k.name, p, g)
			}
		}
	}
	for key, w := range want.Changes {
		if g := got.Changes[key]; !reflect.DeepEqual(g, w) {
			fmt.Fprintf(&sb, "changes %s:\n  got  %q\n  want %q\n", key, g, w)
		}
	}
	return sb.String()
}

// TestGitHistoryMissing: objects that do not exist are gitblame.ErrNotFound
// for both readers, and the diff-tree process keeps answering afterwards.
func TestGitHistoryMissing(t *testing.T) {
	t.Parallel()
	dir, commits := importHistory(t, "sha1", genHistory(5, 3, 40))
	repo, err := gitrepo.Discover(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer repo.Close()
	goGit, err := repo.History()
	if err != nil {
		t.Fatal(err)
	}
	defer goGit.Close()
	git, err := repo.GitHistoryForTest()
	if err != nil {
		t.Fatal(err)
	}
	defer git.Close()
	missing := mustHash(t, strings.Repeat("ab", 20))
	head := mustHash(t, commits[len(commits)-1])
	hc, err := git.Commit(head)
	if err != nil {
		t.Fatal(err)
	}
	for name, h := range map[string]*gitrepo.History{"go-git": goGit, "git": git} {
		if _, err := h.Commit(missing); !errors.Is(err, gitblame.ErrNotFound) {
			t.Errorf("%s: Commit(missing) = %v, want ErrNotFound", name, err)
		}
		if _, err := h.Commit(hc.Tree); !errors.Is(err, gitblame.ErrNotFound) {
			t.Errorf("%s: Commit(a tree) = %v, want ErrNotFound", name, err)
		}
		if _, _, err := h.Entry(missing, "a"); !errors.Is(err, gitblame.ErrNotFound) {
			t.Errorf("%s: Entry(missing tree) = %v, want ErrNotFound", name, err)
		}
		if _, err := h.Changes(missing, head, true); !errors.Is(err, gitblame.ErrNotFound) {
			t.Errorf("%s: Changes(missing, head) = %v, want ErrNotFound", name, err)
		}
		if _, err := h.Blob(missing); !errors.Is(err, gitblame.ErrNotFound) {
			t.Errorf("%s: Blob(missing) = %v, want ErrNotFound", name, err)
		}
		if chs, err := h.Changes(mustHash(t, commits[0]), head, true); err != nil || len(chs) == 0 {
			t.Errorf("%s: Changes after a missing object = %v, %v", name, chs, err)
		}
	}
}
