package gitrepo_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/git-memcite/git-memcite/internal/gitrepo"
	"github.com/git-memcite/git-memcite/internal/testing/gitfixture"
)

// altOrigin makes a packed repository of commits linear commits, each
// editing two of 40 files, with fast-import.
func altOrigin(t testing.TB, commits int) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "origin")
	git := func(stdin string, args ...string) {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = gitfixture.Env(0)
		cmd.Stdin = strings.NewReader(stdin)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	git("", "init", "-q", "-b", "main")
	var b strings.Builder
	for c := 1; c <= commits; c++ {
		fmt.Fprintf(&b, "commit refs/heads/main\ncommitter C <c@example.com> %d +0000\ndata 4\nc%03d\n", 1_700_000_000+c, c%1000)
		for _, f := range []int{c % 40, (c * 7) % 40} {
			content := fmt.Sprintf("file %d\nedited in commit %d\n%s", f, c, strings.Repeat("same line\n", 20))
			fmt.Fprintf(&b, "M 100644 inline f%02d.txt\ndata %d\n%s\n", f, len(content), content)
		}
	}
	git(b.String(), "fast-import", "--quiet")
	git("", "repack", "-adq")
	git("", "reset", "-q", "--hard")
	return dir
}

// walk reads the first-parent history of HEAD through h as relocation
// does (commit, changes with renames, a path lookup, a blob) and returns
// what it read, one line a commit.
func walk(t testing.TB, h *gitrepo.History) string {
	t.Helper()
	c, err := h.Resolve("HEAD")
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for {
		cm, err := h.Commit(c)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&b, "%s %s", cm.Hash, cm.Subject)
		if e, ok, err := h.Entry(cm.Tree, "f01.txt"); err != nil {
			t.Fatal(err)
		} else if ok {
			data, err := h.Blob(e)
			if err != nil {
				t.Fatal(err)
			}
			fmt.Fprintf(&b, " f01:%d", len(data))
		}
		if len(cm.Parents) == 0 {
			b.WriteString("\n")
			return b.String()
		}
		ch, err := h.Changes(cm.Parents[0], c, true)
		if err != nil {
			t.Fatal(err)
		}
		for _, x := range ch {
			fmt.Fprintf(&b, " %s>%s %s", x.From, x.To, x.ToBlob)
		}
		b.WriteString("\n")
		c = cm.Parents[0]
	}
}

// timedWalk opens dir's history, walks it and returns what it read and
// how long that took.
func timedWalk(t testing.TB, dir string) (string, time.Duration) {
	t.Helper()
	start := time.Now()
	h, err := gitrepo.OpenHistory(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		h.Close()
		h.Repo().Close()
	}()
	got := walk(t, h)
	return got, time.Since(start)
}

// altClones clones origin in every way that borrows its objects, and
// plainly, and returns the clones by name.
func altClones(t testing.TB, origin string) map[string]string {
	t.Helper()
	base := filepath.Dir(origin)
	clone := func(name string, args ...string) string {
		t.Helper()
		dst := filepath.Join(base, name)
		if _, err := gitfixture.Git(base, 0, append(append([]string{"clone", "-q"}, args...), dst)...); err != nil {
			t.Fatal(err)
		}
		return dst
	}
	clones := map[string]string{
		"plain":     clone("plain", "--no-local", origin),
		"shared":    clone("shared", "--shared", origin),
		"reference": clone("reference", "--reference", origin, "file://"+origin),
	}
	// a chain: a shared clone of the shared clone
	clones["chain"] = clone("chain", "--shared", clones["shared"])
	// a relative path, quoted, after a comment and a blank line
	rel := clone("relative", "--shared", origin)
	relPath, err := filepath.Rel(filepath.Join(rel, ".git", "objects"), filepath.Join(origin, ".git", "objects"))
	if err != nil {
		t.Fatal(err)
	}
	alt := "# borrowed\n\n" + fmt.Sprintf("%q", relPath) + "\n"
	if err := os.WriteFile(filepath.Join(rel, ".git", "objects", "info", "alternates"), []byte(alt), 0o644); err != nil {
		t.Fatal(err)
	}
	clones["relative"] = rel
	return clones
}

// TestAlternates: in clones that borrow objects (--shared, --reference, a
// chain of them, a relative and quoted alternates path), history reads
// the same as in a plain clone, and costs about the same: go-git alone
// opened an alternate's storage again for every object (each pack's
// index read again), tens of times slower.
func TestAlternates(t *testing.T) {
	if testing.Short() {
		t.Skip("builds several clones")
	}
	origin := altOrigin(t, 600)
	clones := altClones(t, origin)
	want, _ := timedWalk(t, clones["plain"])
	if n := strings.Count(want, "\n"); n != 600 {
		t.Fatalf("plain clone: %d commits walked, want 600", n)
	}
	for _, name := range []string{"shared", "reference", "chain", "relative"} {
		dir := clones[name]
		got, _ := timedWalk(t, dir)
		if got != want {
			t.Errorf("%s clone reads another history than a plain clone", name)
			continue
		}
		// the best of three runs each, interleaved: a loaded machine slows
		// both alike; the bound is loose (the target is 1.5×), the
		// regression it catches was 20× and more. A measurement over the
		// bound is taken again, up to three times: a burst of load on a
		// shared machine passes, a regression fails every time.
		var best [2]time.Duration
		var r float64
		for attempt := 0; attempt < 3; attempt++ {
			for i := 0; i < 3; i++ {
				for j, d := range []string{clones["plain"], dir} {
					_, took := timedWalk(t, d)
					if i == 0 || took < best[j] {
						best[j] = took
					}
				}
			}
			if r = float64(best[1]) / float64(best[0]); r <= 3 {
				break
			}
		}
		if r > 3 {
			t.Errorf("%s clone: history read in %v, %.1f× a plain clone's %v", name, best[1], r, best[0])
		} else {
			t.Logf("%s clone: %v, %.2f× a plain clone's %v", name, best[1], r, best[0])
		}
	}
}

// BenchmarkAlternates compares walking a history in a plain clone and in
// a shared one (go test ./internal/gitrepo -bench Alternates).
func BenchmarkAlternates(b *testing.B) {
	origin := altOrigin(b, 600)
	clones := altClones(b, origin)
	for _, name := range []string{"plain", "shared", "chain"} {
		b.Run(name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				timedWalk(b, clones[name])
			}
		})
	}
}
