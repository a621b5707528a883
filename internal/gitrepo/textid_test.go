package gitrepo

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/git-memcite/git-memcite/internal/testing/gitfixture"
)

// TestWorktreeTextID: where git converts line endings (text=auto
// eol=lf), no file gets its blob as content id (a stat: name at most), but an unchanged one is named by
// its blob for what does not depend on line endings; a modified file is
// not.
func TestWorktreeTextID(t *testing.T) {
	t.Parallel()
	if runtime.GOOS != "linux" {
		t.Skip("working-tree content ids are given on Linux only (worktreeIDs.unchanged)")
	}
	dir := t.TempDir()
	git := func(args ...string) string {
		t.Helper()
		out, err := gitfixture.Git(dir, 0, args...)
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	past := time.Now().Add(-time.Hour)
	write := func(p, content string) {
		t.Helper()
		full := filepath.Join(dir, p)
		if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(full, past, past); err != nil {
			t.Fatal(err)
		}
	}
	git("init", "-q")
	write(".gitattributes", "* text=auto eol=lf\n")
	write("a.py", "def f():\n    pass\n")
	write("b.py", "def g():\n    pass\n")
	git("add", "-A")
	write("b.py", "def h():\n    pass\n") // same size and mtime: ctime differs
	r, err := Discover(dir)
	if err != nil {
		t.Fatal(err)
	}
	src, err := r.Worktree()
	if err != nil {
		t.Fatal(err)
	}
	w := src.(interface {
		ContentID(string) (string, bool)
		TextID(string) (string, bool)
	})
	if id, ok := w.ContentID("a.py"); ok && strings.HasPrefix(id, "blob:") {
		t.Errorf("ContentID(a.py) = %q where git converts every file (a stat: name at most)", id)
	}
	if id, ok := w.TextID("a.py"); !ok || id != "blob:"+git("rev-parse", ":a.py") {
		t.Errorf("TextID(a.py) = %q, %v; want the index blob", id, ok)
	}
	if id, ok := w.TextID("b.py"); ok {
		t.Errorf("TextID(b.py) = %q for a modified file", id)
	}
	if id, ok := w.TextID("missing.py"); ok {
		t.Errorf("TextID(missing.py) = %q", id)
	}
}
