package gitrepo

import (
	"context"
	"os"
	"testing"

	"github.com/git-memcite/git-memcite/internal/testing/gitfixture"
)

// TestStagedProse: the reads of the pre-commit prose check, against a
// real repository with both object backends: HEAD's files by path, the
// commit's renames, the words of the code the index records.
func TestStagedProse(t *testing.T) {
	for _, backend := range []string{"", string(GitBinary)} {
		t.Run("backend="+backend, func(t *testing.T) {
			t.Setenv("MEMCITE_BACKEND", backend)
			dir := t.TempDir()
			write := func(p, s string) { t.Helper(); gitfixture.Write(t, dir, p, s) }
			git := func(args ...string) {
				t.Helper()
				if _, err := gitfixture.Git(dir, 1, args...); err != nil {
					t.Fatal(err)
				}
			}
			t.Setenv("GIT_INDEX_FILE", "")
			os.Unsetenv("GIT_INDEX_FILE")
			write("src/util.py", "def helper():\n    return 1\n\n# a longer body, so that a rename is found\n")
			write("src/shop.py", "def do_total(o):\n    return sum(o)\n")
			write("top.txt", "top\n")
			git("init", "-q", "-b", "main")
			git("add", "-A")
			git("commit", "-q", "-m", "one")
			git("mv", "src/util.py", "src/helpers.py")
			write("src/shop.py", "def add_up(o):\n    return sum(o)\n")
			git("add", "-A")
			repo, err := Discover(dir)
			if err != nil {
				t.Fatal(err)
			}
			ctx := context.Background()
			tree, _, err := repo.HeadTree(ctx)
			if err != nil {
				t.Fatal(err)
			}
			tr := repo.TreeReader(tree)
			for p, want := range map[string]string{"src/shop.py": "def do_total(o):\n    return sum(o)\n", "top.txt": "top\n", "src/helpers.py": "", "src": "", "src/shop.py/x": "", "nope": ""} {
				data, ok, err := tr.Read(p)
				if err != nil || ok != (want != "") || string(data) != want {
					t.Errorf("Read(%q) = %q, %v, %v; want %q", p, data, ok, err, want)
				}
			}
			ren, err := repo.StagedRenames(ctx)
			if err != nil || len(ren) != 1 || ren["src/util.py"] != "src/helpers.py" {
				t.Errorf("StagedRenames = %v, %v", ren, err)
			}
			found, err := repo.GrepIndexWords(ctx, []string{"do_total", "add_up", "helper", "absent"}, []string{"*.py"})
			if err != nil || len(found) != 2 || !found["add_up"] || !found["helper"] {
				t.Errorf("GrepIndexWords = %v, %v", found, err)
			}
			idx, err := repo.Index(ctx)
			if err != nil {
				t.Fatal(err)
			}
			id, ok := idx.(interface{ ContentID(string) (string, bool) }).ContentID("src/shop.py")
			if !ok {
				t.Skip("no content ids")
			}
			if data, err := repo.ReadBlob(id); err != nil || string(data) != "def add_up(o):\n    return sum(o)\n" {
				t.Errorf("ReadBlob = %q, %v", data, err)
			}
		})
	}
}
