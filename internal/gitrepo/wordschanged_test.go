package gitrepo

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/git-memcite/git-memcite/internal/gitblame"
	"github.com/git-memcite/git-memcite/internal/testing/gitfixture"
)

// WordsChangedIn gives every word the answer of its own git log -G
// (WordChangedIn): words changed in commits of their own files only, in a
// merge (its diff against the first parent), inside longer names only
// (no change), next to a byte outside ASCII, with a $, in a rename among
// its own files, in a file renamed to one it does not name, in globs.
func TestWordsChangedInMatchesOneByOne(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	git := gitfixture.Runner(t, dir)
	git("init", "-q", "-b", "main")
	head := func() gitblame.Hash {
		t.Helper()
		h, err := gitblame.ParseHash(strings.TrimSpace(git("rev-parse", "HEAD")))
		if err != nil {
			t.Fatal(err)
		}
		return h
	}
	commit := func(msg string, files map[string]string) gitblame.Hash {
		t.Helper()
		for p, c := range files {
			if c == "" {
				git("rm", "-q", p)
				continue
			}
			gitfixture.Write(t, dir, p, c)
			git("add", p)
		}
		git("commit", "-q", "--allow-empty", "-m", msg)
		return head()
	}
	base := commit("base", map[string]string{
		"a.py":        "def foo():\n    return bar\n\nx = fooBar\n$el = 1\ncafé_foo = 2\n",
		"b.py":        "bar = 1\nbaz = 2\nqux = 3\n",
		"c.py":        "def moved():\n    pass\n# keep this file long enough\n# to be a rename\n# of its own\n",
		"d.py":        "def gone():\n    pass\n# keep this file long enough\n# to be a rename\n# elsewhere\n",
		"lib/e.py":    "only_here = 1\n",
		"lib/f.py":    "other = 1\n",
		"lib/g[1].py": "globbed = 1\n",
	})
	commit("bar changes in b", map[string]string{"b.py": "bar = 2\nbaz = 2\nqux = 3\n"})
	commit("fooBar only", map[string]string{"a.py": "def foo():\n    return bar\n\nx = fooBarBaz\n$el = 1\ncafé_foo = 2\n"})
	git("checkout", "-q", "-b", "side")
	commit("qux goes on a side branch", map[string]string{"b.py": "bar = 2\nbaz = 2\n"})
	git("checkout", "-q", "main")
	commit("other on main", map[string]string{"lib/f.py": "other = 2\n"})
	git("merge", "-q", "--no-ff", "-m", "merge side", "side")
	merge := head()
	commit("rename c to a file another word names", map[string]string{"c.py": "", "lib/c.py": "def moved():\n    pass\n# keep this file long enough\n# to be a rename\n# of its own\n"})
	commit("rename d within the files asked", map[string]string{"d.py": "", "lib/d.py": "def gone():\n    pass\n# keep this file long enough\n# to be a rename\n# elsewhere\n"})
	commit("dollar and accents", map[string]string{"a.py": "def foo():\n    return bar\n\nx = fooBarBaz\nél = 1\ncafé_foo = 3\n"})
	commit("foo goes", map[string]string{"a.py": "def other():\n    return 1\n"})
	commit("glob", map[string]string{"lib/g[1].py": "globbed = 2\n"})
	top := head()

	r, err := Discover(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	h, err := r.History()
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	words := []string{"foo", "bar", "baz", "qux", "fooBar", "$el", "moved", "gone", "only_here", "other", "globbed", "café_foo", "_foo"}
	specs := [][]string{
		{"a.py", "b.py"}, {"a.py", "b.py"}, {"b.py", "a.py"}, {"b.py", "lib/f.py"}, {"a.py", "lib/e.py"}, {"a.py", "b.py"},
		{"c.py", "b.py"}, {"d.py", "lib/d.py"}, {"lib/e.py", "lib/c.py"}, {"lib/f.py", "a.py"}, {"lib/g[1].py", "a.py"}, {"a.py", "b.py"}, {"a.py", "b.py"},
	}
	ctx := context.Background()
	got, err := h.WordsChangedIn(ctx, base, top, words, specs)
	if err != nil {
		t.Fatal(err)
	}
	for i, w := range words {
		want, err := h.WordChangedIn(ctx, base, top, w, specs[i])
		if err != nil {
			t.Fatal(err)
		}
		if got[i] != want {
			t.Errorf("%s in %v: together %s, alone %s", w, specs[i], got[i].Short(), want.Short())
		}
	}
	// the merge's own diff removes qux
	if got[3] != merge {
		t.Errorf("qux: %s, want the merge %s", got[3].Short(), merge.Short())
	}
}

func TestHasWord(t *testing.T) {
	for _, tc := range []struct {
		line, word  string
		hit, unsure bool
	}{
		{"x = foo()", "foo", true, false},
		{"x = foobar()", "foo", false, false},
		{"x = foo_bar foo", "foo", true, false},
		{"foo", "foo", true, false},
		{"a$el", "$el", true, false},
		{" $el", "$el", false, false},
		{"éfoo", "foo", false, true},
		{"2foo", "foo", false, false},
	} {
		hit, unsure := hasWord([]byte(tc.line), tc.word)
		if hit != tc.hit || unsure != tc.unsure {
			t.Errorf("hasWord(%q, %q) = %v, %v; want %v, %v", tc.line, tc.word, hit, unsure, tc.hit, tc.unsure)
		}
	}
}

// TestParseWordLogLongLog: the lines a diff adds or removes are kept as
// read when the log is longer than the scanner's first buffer (which it
// reuses): a word removed early in a long log is still found.
func TestParseWordLogLongLog(t *testing.T) {
	var b strings.Builder
	b.WriteString("\x01" + strings.Repeat("a", 40) + "\n")
	b.WriteString("diff --git a/src/a.ts b/src/a.ts\ndeleted file mode 100644\n--- a/src/a.ts\n+++ /dev/null\n@@ -1,1 +0,0 @@\n")
	b.WriteString("-export class AnswerQuery {}\n")
	b.WriteString("diff --git a/src/b.ts b/src/b.ts\n--- a/src/b.ts\n+++ b/src/b.ts\n@@ -1,4000 +1,4000 @@\n")
	for i := 0; i < 4000; i++ {
		fmt.Fprintf(&b, "+const filler%04d = %d; // more than the scanner's first buffer\n", i, i)
	}
	log := parseWordLog([]byte(b.String()))
	if len(log) != 1 {
		t.Fatalf("%d commits, want 1", len(log))
	}
	added, hit, unsure := log[0].look("AnswerQuery", map[string]bool{"src/a.ts": true})
	if added || !hit || unsure {
		t.Errorf("look = added %v, hit %v, unsure %v; want a hit", added, hit, unsure)
	}
}
