package vcache_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/git-memcite/git-memcite/internal/testing/gitfixture"
	"github.com/git-memcite/git-memcite/internal/vcache"
)

// TestAttributes: where attributes from any of git's sources make git
// convert a file on checkout (ident, a clean/smudge filter, a macro), the
// cached answers are the uncached ones for the working tree, the index
// and HEAD, whether the cache was warmed before the attributes appeared
// or after; and the index, which equals HEAD here, answers as HEAD does
// (--staged reads what the index holds, never a converted working-tree
// file).
func TestAttributes(t *testing.T) {
	for _, tc := range []struct {
		name, where, attrs string
		warmFirst          bool
	}{
		{"untracked .gitattributes, ident", ".gitattributes", "src/a.txt ident\n", false},
		{"untracked .gitattributes, ident, cache warmed before", ".gitattributes", "src/a.txt ident\n", true},
		{"untracked .gitattributes below, filter", "src/.gitattributes", "a.txt filter=rot\n", false},
		{"untracked .gitattributes, filter, cache warmed before", ".gitattributes", "*.txt filter=rot\n", true},
		{"info/attributes, macro", ".git/info/attributes", "[attr]conv ident\nsrc/a.txt conv\n", false},
		{"global attributes, ident", "global", "a.txt ident\n", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			git := gitfixture.Runner(t, dir)
			write := func(p, content string) { t.Helper(); gitfixture.Write(t, dir, p, content) }
			global := filepath.Join(t.TempDir(), "attributes")
			git("init", "-q", "-b", "main")
			git("config", "core.autocrlf", "false")
			git("config", "filter.rot.clean", "tr a-zA-Z n-za-mN-ZA-M")
			git("config", "filter.rot.smudge", "tr a-zA-Z n-za-mN-ZA-M")
			if tc.where == "global" {
				git("config", "core.attributesFile", global)
			}
			write("src/a.txt", "line $Id$\nplain line\n")
			write("src/b.txt", "line $Id$\n")
			write(".serena/memories/m.md", "---\ncitations:\n  - path: src/a.txt\n    line: 1\n    snippet: \"line $Id$\"\n  - path: src/a.txt\n    line: 2\n    snippet: plain line\n  - path: src/b.txt\n    line: 1\n    snippet: \"line $Id$\"\n---\nbody\n")
			git("add", "-A")
			git("commit", "-q", "-m", "init")
			cacheDir := filepath.Join(dir, ".git", "memcite")
			tmpDir := filepath.Join(dir, ".git", "memcite-tmp")
			views := []string{"worktree", "index", "HEAD"}
			if tc.warmFirst {
				c := vcache.Open(cacheDir, "test")
				for _, which := range views {
					check(t, dir, which, c)
				}
				if err := c.Save(tmpDir); err != nil {
					t.Fatal(err)
				}
			}
			where := tc.where
			if where == "global" {
				where = global
			} else {
				where = filepath.Join(dir, filepath.FromSlash(where))
			}
			if err := os.MkdirAll(filepath.Dir(where), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(where, []byte(tc.attrs), 0o644); err != nil {
				t.Fatal(err)
			}
			// check the files out again through the attributes: the working
			// tree now differs from the blobs, and the index calls it clean
			for _, f := range []string{"src/a.txt", "src/b.txt"} {
				if err := os.Remove(filepath.Join(dir, filepath.FromSlash(f))); err != nil {
					t.Fatal(err)
				}
			}
			git("checkout", "-q", "--", "src")
			// older than the index, so not racily clean: git (and the cache)
			// trust their stat data
			past := time.Now().Add(-time.Minute)
			for _, f := range []string{"src/a.txt", "src/b.txt"} {
				if err := os.Chtimes(filepath.Join(dir, filepath.FromSlash(f)), past, past); err != nil {
					t.Fatal(err)
				}
			}
			git("update-index", "-q", "--refresh")
			if st := git("status", "--porcelain", "--untracked-files=no"); st != "" {
				t.Fatalf("git calls the working tree modified:\n%s", st)
			}
			got := map[string]string{}
			for _, which := range views {
				plain := check(t, dir, which, nil)
				cold := vcache.Open(cacheDir, "test")
				cached := check(t, dir, which, cold)
				if err := cold.Save(tmpDir); err != nil {
					t.Fatal(err)
				}
				warm := vcache.Open(cacheDir, "test")
				again := check(t, dir, which, warm)
				if cached != plain || again != plain {
					t.Errorf("%s:\nuncached:\n%s\ncached:\n%s\ncached again:\n%s", which, plain, cached, again)
				}
				got[which] = plain
			}
			if got["index"] != got["HEAD"] {
				t.Errorf("the index equals HEAD, but reads otherwise:\nindex:\n%s\nHEAD:\n%s", got["index"], got["HEAD"])
			}
			if !strings.Contains(got["HEAD"], "valid=3/3") {
				t.Errorf("HEAD: want every citation valid:\n%s", got["HEAD"])
			}
		})
	}
}

// TestAddedWithCRLF: under text=auto, `git add` of a file with CRLF line
// endings records a blob with LF ones and the stat data of the CRLF file,
// which git then calls clean without reading it. Such a file is not its
// blob's bytes: the cache, warmed by the index (the blobs) and by HEAD,
// answers for the working tree what a run without it reads there (the
// memory file's CRLF text, the cited file's lines), and a file edited
// since is read again.
func TestAddedWithCRLF(t *testing.T) {
	for _, attrs := range []string{"* text=auto eol=lf\n", "* text=auto\n", "*.md text\n*.txt eol=lf\n"} {
		t.Run(strings.TrimSpace(attrs), func(t *testing.T) {
			dir := t.TempDir()
			git := gitfixture.Runner(t, dir)
			write := func(p, content string) { t.Helper(); gitfixture.Write(t, dir, p, content) }
			git("init", "-q", "-b", "main")
			git("config", "core.autocrlf", "false")
			write(".gitattributes", attrs)
			write("src/a.txt", "first line\r\nsecond line\r\n")
			write(".serena/memories/m.md", "---\r\ncitations:\r\n  - path: src/a.txt\r\n    line: 2\r\n    snippet: second line\r\n  - src/a.txt:3\r\n---\r\nbody\r\n")
			git("add", "-A")
			git("commit", "-q", "-m", "init")
			if blob := git("cat-file", "-p", "HEAD:.serena/memories/m.md"); strings.Contains(blob, "\r") {
				t.Fatalf("the blob kept its CRs: %q", blob)
			}
			past := time.Now().Add(-time.Minute)
			for _, f := range []string{"src/a.txt", ".serena/memories/m.md", ".gitattributes"} {
				if err := os.Chtimes(filepath.Join(dir, filepath.FromSlash(f)), past, past); err != nil {
					t.Fatal(err)
				}
			}
			git("update-index", "-q", "--refresh")
			if st := git("status", "--porcelain", "--untracked-files=no"); st != "" {
				t.Fatalf("git calls the working tree modified:\n%s", st)
			}
			cacheDir := filepath.Join(dir, ".git", "memcite")
			tmpDir := filepath.Join(dir, ".git", "memcite-tmp")
			same := func(step string) {
				t.Helper()
				plain := map[string]string{}
				for _, which := range []string{"worktree", "index", "HEAD"} {
					plain[which] = check(t, dir, which, nil)
				}
				if !strings.Contains(plain["worktree"], " 13 10 ") { // Src, in bytes
					t.Errorf("%s: the working tree's memory file read without its CRs:\n%s", step, plain["worktree"])
				}
				// each view in a run of its own, after the others: what one
				// stored is what the next finds
				for _, order := range [][]string{{"index", "worktree"}, {"HEAD", "worktree"}, {"worktree", "index", "HEAD"}} {
					if err := os.RemoveAll(cacheDir); err != nil {
						t.Fatal(err)
					}
					for _, which := range order {
						c := vcache.Open(cacheDir, "test")
						if got := check(t, dir, which, c); got != plain[which] {
							t.Errorf("%s, %v: %s:\nuncached:\n%s\ncached:\n%s", step, order, which, plain[which], got)
						}
						if err := c.Save(tmpDir); err != nil {
							t.Fatal(err)
						}
					}
				}
			}
			same("as added")
			// a third line, with the file's CRLF: a file edited since is
			// not named by the stat data it had
			write("src/a.txt", "first line\r\nsecond line\r\nthird line\r\n")
			same("edited")
		})
	}
}
