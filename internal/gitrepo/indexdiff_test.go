package gitrepo

import (
	"context"
	"encoding/hex"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/git-memcite/git-memcite/internal/testing/gitfixture"
	"github.com/git-memcite/git-memcite/internal/testing/longtest"
)

// TestIndexChangesAsGit: after every step of random edits to the index
// (files added, changed, removed, made executable or symbolic links,
// files turned into directories and back, submodule commits, entries
// added with intent to add, commits), the paths IndexChanges lists
// against HEAD's tree and an older commit's tree are git diff-index's, and
// after every commit the paths ChangedBetween lists between it and an
// older commit are git diff-tree's; all were found in-process.
func TestIndexChangesAsGit(t *testing.T) {
	t.Setenv("GIT_INDEX_FILE", "")
	os.Unsetenv("GIT_INDEX_FILE")
	dir := t.TempDir()
	git := gitfixture.Runner(t, dir)
	write := func(p, s string) { t.Helper(); gitfixture.Write(t, dir, p, s) }
	names := []string{"a", "a.txt", "a.c", "a-b", "a/x.txt", "a/b/y.txt", "a/b/z.txt", "b", "b/q.txt", "c/d", "c/d/e/f.txt", "c/d/g.txt", "z é.txt"}
	git("init", "-q", "-b", "main")
	for _, p := range []string{"a.txt", "a/x.txt", "a/b/y.txt", "c/d/e/f.txt", "b"} {
		write(p, p+"\n")
	}
	git("add", "-A")
	git("commit", "-q", "-m", "start")
	commits := []string{git("rev-parse", "HEAD")}
	trees := []string{git("rev-parse", "HEAD^{tree}")} // of every commit
	rng := rand.New(rand.NewPCG(1, 2))
	repo0, err := Discover(dir) // open through the whole walk: objects written since are found
	if err != nil {
		t.Fatal(err)
	}
	defer repo0.Close()
	ita := false
	typeChanges := 0                 // comparisons where a path is a file on one side, a directory on the other
	steps := longtest.Seeds(150, 50) // (steps, not seeds: more in the long tests)
	for step := 0; step < steps; step++ {
		p := names[rng.IntN(len(names))]
		switch op := rng.IntN(10); op {
		case 0, 1, 2: // write and stage a file, replacing whatever is there
			os.RemoveAll(filepath.Join(dir, filepath.FromSlash(p)))
			git("rm", "-r", "-q", "-f", "--cached", "--ignore-unmatch", "--", p)
			for d := filepath.Dir(p); d != "."; d = filepath.Dir(d) {
				if fi, err := os.Lstat(filepath.Join(dir, d)); err == nil && !fi.IsDir() {
					os.Remove(filepath.Join(dir, d))
					git("rm", "-q", "-f", "--cached", "--ignore-unmatch", "--", filepath.ToSlash(d))
				}
			}
			write(p, fmt.Sprintf("%s %d\n", p, step))
			git("add", "--", p)
		case 3: // remove from the index
			git("rm", "-r", "-q", "-f", "--cached", "--ignore-unmatch", "--", p)
		case 4: // the execute bit
			if _, err := os.Lstat(filepath.Join(dir, p)); err == nil && git("ls-files", "--", p) == p {
				git("update-index", "--chmod=+x", "--", p)
			}
		case 5: // a symbolic link
			if _, err := os.Lstat(filepath.Join(dir, p)); err == nil && git("ls-files", "--", p) == p {
				git("update-index", "--cacheinfo", "120000,"+git("hash-object", "-w", "--", p)+","+p)
			}
		case 6: // a submodule's commit
			if git("ls-files", "--", p) == p {
				git("update-index", "--cacheinfo", fmt.Sprintf("160000,%040x,%s", step+1, p))
			}
		case 7: // intent to add (git diff-index --cached does not list it)
			if !ita {
				write("later.txt", "later\n")
				git("add", "-N", "later.txt")
				ita = true
			}
		case 8, 9: // commit what is staged
			if ita {
				git("rm", "-q", "-f", "--cached", "later.txt")
				ita = false
			}
			git("commit", "-q", "--allow-empty", "--no-verify", "-m", fmt.Sprint("step ", step))
			commits = append(commits, git("rev-parse", "HEAD"))
			trees = append(trees, git("rev-parse", "HEAD^{tree}"))
			// two commits' trees, in-process and by git diff-tree
			old, new := OID(commits[rng.IntN(len(commits))]), OID(commits[len(commits)-1])
			want, err := repo0.changedBetweenGit(context.Background(), old, new)
			if err != nil {
				t.Fatal(err)
			}
			got, ok := repo0.commitDiff(context.Background(), old, new)
			if !ok || !slices.Equal(got, want) {
				t.Fatalf("step %d: %s against %s in-process %q (%v), git diff-tree %q", step, old.Short(), new.Short(), got, ok, want)
			}
		}
		repo, err := Discover(dir)
		if err != nil {
			t.Fatal(err)
		}
		idx, err := repo.Index(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := IndexTree(idx); !ok {
			t.Fatalf("step %d: no tree id for the index", step)
		}
		for _, rev := range []int{len(trees) - 1, rng.IntN(len(trees))} {
			tree := OID(trees[rev])
			want, err := repo.ChangedSince(context.Background(), string(tree))
			if err != nil {
				t.Fatal(err)
			}
			got, ok := repo.indexDiff(idx, tree)
			if ita { // (git lists them; the index does not hold them)
				if ok {
					t.Fatalf("step %d: compared in-process with an intent-to-add entry", step)
				}
				got = want
			} else if !ok {
				t.Fatalf("step %d: the index against commit %d was not compared in-process", step, rev)
			}
			if !slices.Equal(got, want) {
				t.Fatalf("step %d, against commit %d:\n got %q\nwant %q (git diff-index)\nindex:\n%s", step, rev, got, want, git("ls-files", "-s"))
			}
			for i := 1; i < len(want); i++ {
				if strings.HasPrefix(want[i], want[i-1]+"/") {
					typeChanges++
					break
				}
			}
			if viaAPI, err := repo.IndexChanges(context.Background(), idx, tree); err != nil || !slices.Equal(viaAPI, want) {
				t.Fatalf("IndexChanges = %q, %v", viaAPI, err)
			}
		}
		repo.Close()
	}
	if len(trees) < 10 || typeChanges < 5 {
		t.Fatalf("%d commits, %d comparisons with a type change: the random walk is too short", len(trees), typeChanges)
	}
}

// TestIndexChangesLegacyMode: a tree written by old git with a 100664
// file has no change against an index of the same file (git reads the
// mode as 100644).
func TestIndexChangesLegacyMode(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	git := func(stdin string, args ...string) string {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir, cmd.Env, cmd.Stdin = dir, gitfixture.Env(0), strings.NewReader(stdin)
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("git %s: %v", strings.Join(args, " "), err)
		}
		return strings.TrimSpace(string(out))
	}
	git("", "init", "-q", "-b", "main")
	blob := git("x\n", "hash-object", "-w", "--stdin")
	raw, err := hex.DecodeString(blob)
	if err != nil {
		t.Fatal(err)
	}
	// mktree writes 100644: write the tree object as old git did
	tree := git("100664 f.txt\x00"+string(raw), "hash-object", "-t", "tree", "-w", "--stdin", "--literally")
	git("", "update-index", "--add", "--cacheinfo", "100644,"+blob+",f.txt")
	repo, err := Discover(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer repo.Close()
	idx, err := repo.Index(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	want, err := repo.ChangedSince(context.Background(), tree)
	if err != nil {
		t.Fatal(err)
	}
	got, ok := repo.indexDiff(idx, OID(tree))
	if !ok || !slices.Equal(got, want) || len(want) != 0 {
		t.Fatalf("in-process %q (%v), git diff-index %q (want none)", got, ok, want)
	}
}
