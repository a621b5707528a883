package gitrepo_test

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"os/exec"
	"path"
	"reflect"
	"slices"
	"sort"
	"strconv"
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

// TestHistoryMatchesGit reads a generated history of a SHA-1 repository
// and expects, for every commit, git's own answers: the commit (git log),
// its files and path lookups (git ls-tree: directories, symbolic links,
// gitlinks and missing paths are no files), and the changes from each
// parent, from the empty tree and from five commits back, with and
// without rename detection (git diff-tree -r -M50% or --no-renames, run
// once per question; History keeps one process of each and reads its
// answers), blob contents included.
func TestHistoryMatchesGit(t *testing.T) {
	t.Parallel()
	for _, seed := range []uint64{1, 2, 3}[:longtest.Seeds(3, 1)] {
		t.Run(fmt.Sprint("seed ", seed), func(t *testing.T) {
			dir, commits := importHistory(t, "sha1", genHistory(seed, 60, 40))
			h, err := gitrepo.OpenHistory(dir)
			if err != nil {
				t.Fatal(err)
			}
			defer h.Close()
			paths := allPaths(t, dir)
			renamed, modes := 0, 0
			for i := range commits {
				if t.Failed() {
					break
				}
				got := answers(t, h, commits, i, paths, true)
				want := gitAnswers(t, dir, commits, i, paths)
				got.bases, want.bases = nil, nil
				if !reflect.DeepEqual(got, want) {
					t.Errorf("commit %d (%s): History and git differ\n%s", i, commits[i][:7], diffAnswers(got, want))
				}
				for _, ch := range want.Changes["base 0 renames true"] {
					pair, _, _ := strings.Cut(ch, "\t")
					if f, to, _ := strings.Cut(pair, ">"); f != "" && to != "" && f != to {
						renamed++
						if fileMode(t, dir, commits[i]+"^", f) != fileMode(t, dir, commits[i], to) {
							modes++
						}
					}
				}
			}
			if renamed == 0 || modes == 0 {
				t.Errorf("the generated history has %d renames, %d with a mode change: the test compares too little", renamed, modes)
			}
			t.Logf("%d renames from a parent compared, %d of them with a mode change", renamed, modes)
		})
	}
}

// gitAnswers are the answers about commits[i] of git's own commands, in
// the form of answers (names included; the repository is SHA-1, where a
// blob's name is the SHA-1 of its content).
func gitAnswers(t *testing.T, dir string, commits []string, i int, paths []string) historyAnswers {
	t.Helper()
	git := func(args ...string) string {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir, cmd.Env = dir, gitfixture.Env(0)
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("git %v: %v", args, err)
		}
		return string(out)
	}
	blob := func(x string) string { return x[:7] + "=" + x[:7] }
	regular := func(mode string) bool { return mode == "100644" || mode == "100755" }
	f := strings.Split(git("log", "-1", "--format=%H%x00%T%x00%P%x00%an%x00%ae%x00%at%x00%ct%x00%s", commits[i]), "\x00")
	date := func(s string) string {
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			t.Fatal(err)
		}
		return time.Unix(n, 0).UTC().Format(time.DateTime)
	}
	var parents []gitblame.Hash
	for _, p := range strings.Fields(f[2]) {
		parents = append(parents, mustHash(t, p))
	}
	a := historyAnswers{Files: map[string]string{}, Entries: map[string]string{}, Changes: map[string][]string{}}
	a.Commit = fmt.Sprintf("parents %d, %q <%s> %s, committed %s, subject %q",
		// (History trims the author's name and the subject: they are shown)
		len(parents), strings.TrimSpace(f[3]), f[4], date(f[5]), date(f[6]), strings.TrimSpace(f[7]))
	a.Commit += fmt.Sprintf(", hash %s, tree %s, parents %v", mustHash(t, f[0]), mustHash(t, f[1]), parents)
	for _, rec := range strings.Split(git("ls-tree", "-r", "-z", "--full-tree", f[1]), "\x00") {
		meta, p, ok := strings.Cut(rec, "\t")
		if m := strings.Fields(meta); ok && len(m) == 3 && regular(m[0]) {
			a.Files[p] = blob(m[2])
		}
	}
	for _, p := range paths {
		a.Entries[p] = "none"
		if b, ok := a.Files[p]; ok {
			a.Entries[p] = b
		}
	}
	bases := slices.Clone(strings.Fields(f[2]))
	bases = append(bases, "")
	if i >= 5 {
		bases = append(bases, commits[i-5])
	}
	for k, base := range bases {
		from := "4b825dc642cb6eb9a060e54bf8d69288fbee4904" // the empty tree
		if base != "" {
			from = base + "^{tree}"
		}
		for _, renames := range []bool{true, false} {
			opt := "--no-renames"
			if renames {
				opt = "--find-renames=50%"
			}
			fields := strings.Split(git("diff-tree", "-r", "-z", opt, from, f[1]), "\x00")
			type change struct{ name, text string }
			var chs []change
			for j := 0; j+1 < len(fields); j++ {
				m := strings.Fields(strings.TrimPrefix(fields[j], ":"))
				if len(m) != 5 {
					continue
				}
				src, dst := fields[j+1], fields[j+1]
				j++
				if m[4][0] == 'R' || m[4][0] == 'C' {
					dst = fields[j+1]
					j++
				}
				var fromP, toP, fromB, toB string
				if regular(m[0]) {
					fromP, fromB = src, blob(m[2])
				}
				if regular(m[1]) {
					toP, toB = dst, blob(m[3])
				}
				if fromP == "" && toP == "" {
					continue
				}
				name := src
				if m[0] == "000000" {
					name = dst
				}
				chs = append(chs, change{name, fromP + ">" + toP + "\t" + fromB + ">" + toB})
			}
			// History's order: by the source path, the destination's for
			// an addition
			slices.SortStableFunc(chs, func(x, y change) int { return strings.Compare(x.name, y.name) })
			var list []string
			for _, ch := range chs {
				list = append(list, ch.text)
			}
			a.Changes[fmt.Sprintf("base %d renames %v", k, renames)] = list
		}
	}
	return a
}

// fileMode returns the mode of path at a revision ("" where it is not).
func fileMode(t *testing.T, dir, rev, path string) string {
	t.Helper()
	out, err := gitfixture.Git(dir, 0, "ls-tree", rev, "--", path)
	if err != nil {
		return ""
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
	h1, err := r1.History()
	if err != nil {
		t.Fatal(err)
	}
	defer h1.Close()
	h256, err := gitrepo.OpenHistory(dir256)
	if err != nil {
		t.Fatal(err)
	}
	defer h256.Close()
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

// TestGitHistoryMissing: objects that do not exist are
// gitblame.ErrNotFound, and the diff-tree process keeps answering
// afterwards.
func TestGitHistoryMissing(t *testing.T) {
	t.Parallel()
	dir, commits := importHistory(t, "sha1", genHistory(5, 3, 40))
	h, err := gitrepo.OpenHistory(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	missing := mustHash(t, strings.Repeat("ab", 20))
	head := mustHash(t, commits[len(commits)-1])
	hc, err := h.Commit(head)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := h.Commit(missing); !errors.Is(err, gitblame.ErrNotFound) {
		t.Errorf("Commit(missing) = %v, want ErrNotFound", err)
	}
	if _, err := h.Commit(hc.Tree); !errors.Is(err, gitblame.ErrNotFound) {
		t.Errorf("Commit(a tree) = %v, want ErrNotFound", err)
	}
	if _, _, err := h.Entry(missing, "a"); !errors.Is(err, gitblame.ErrNotFound) {
		t.Errorf("Entry(missing tree) = %v, want ErrNotFound", err)
	}
	if _, err := h.Changes(missing, head, true); !errors.Is(err, gitblame.ErrNotFound) {
		t.Errorf("Changes(missing, head) = %v, want ErrNotFound", err)
	}
	if _, err := h.Blob(missing); !errors.Is(err, gitblame.ErrNotFound) {
		t.Errorf("Blob(missing) = %v, want ErrNotFound", err)
	}
	if chs, err := h.Changes(mustHash(t, commits[0]), head, true); err != nil || len(chs) == 0 {
		t.Errorf("Changes after a missing object = %v, %v", chs, err)
	}
}
