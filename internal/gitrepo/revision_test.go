package gitrepo_test

import (
	"bytes"
	"compress/zlib"
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/git-memcite/git-memcite/internal/gitrepo"
	"github.com/git-memcite/git-memcite/internal/testing/gitfixture"
	"github.com/git-memcite/git-memcite/internal/testing/longtest"
)

// revRepo builds a repository with a merge, tags, a reflog, an upstream,
// a branch named like a commit's short hash, and 600 commits on another
// branch so that two of them share a 4-digit prefix; and refs of every
// kind ResolveCommit reads in-process: annotated tags (of a tag too, of a
// tree, of a blob), a tag and a branch of one name, a symbolic ref that
// resolves and one that does not, remote-tracking refs with their HEAD,
// ORIG_HEAD, packed refs, loose refs, a loose ref over a packed one, and
// files under refs/heads whose names git refuses.
func revRepo(t testing.TB) (dir, ambiguous, hashLike string) {
	t.Helper()
	return revRepoIn(t, t.TempDir())
}

// sharedRevRepo is revRepo built once for the tests that only read it,
// in a directory removed when every test ran.
func sharedRevRepo(t testing.TB) (dir, ambiguous, hashLike string) {
	t.Helper()
	sharedRev.once.Do(func() {
		d, err := os.MkdirTemp("", "memcite-revisions-")
		if err != nil {
			t.Fatal(err)
		}
		gitrepo.AfterTests(func() { os.RemoveAll(d) })
		sharedRev.dir, sharedRev.ambiguous, sharedRev.hashLike = revRepoIn(t, d)
	})
	if sharedRev.hashLike == "" {
		t.Fatal("the shared repository of revisions could not be built")
	}
	return sharedRev.dir, sharedRev.ambiguous, sharedRev.hashLike
}

var sharedRev struct {
	once                     sync.Once
	dir, ambiguous, hashLike string
}

// revRepoIn builds revRepo's repository in dir.
func revRepoIn(t testing.TB, dir string) (_, ambiguous, hashLike string) {
	t.Helper()
	git := gitfixture.Runner(t, dir)
	write := func(p, s string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, p), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	git("init", "-q", "-b", "main")
	write("a.txt", "one\n")
	git("add", "a.txt")
	git("commit", "-q", "-m", "first: the beginning")
	git("tag", "light")
	git("tag", "-a", "-m", "annotated", "v1")
	write("a.txt", "two\n")
	git("commit", "-q", "-am", "second")
	git("branch", "side", "HEAD~1")
	git("checkout", "-q", "side")
	write("b.txt", "side\n")
	git("add", "b.txt")
	git("commit", "-q", "-m", "side work")
	git("checkout", "-q", "main")
	git("merge", "-q", "--no-ff", "-m", "merge side", "side")
	git("branch", "up", "HEAD~1")
	git("branch", "--set-upstream-to=up")
	first := git("rev-parse", "HEAD~2")
	hashLike = first[:8]
	git("branch", hashLike, "side") // a branch named like the first commit's short hash

	// 600 commits on refs/heads/many, through one fast-import
	var stream strings.Builder
	for i := 0; i < 600; i++ {
		fmt.Fprintf(&stream, "commit refs/heads/many\ncommitter C <c@example.com> %d +0000\ndata %d\n%s\n", 1700000000+i, len(fmt.Sprint("c", i))+1, fmt.Sprint("c", i))
		if i == 0 {
			stream.WriteString("from refs/heads/main\n")
		}
	}
	cmd := exec.Command("git", "fast-import", "--quiet")
	cmd.Dir, cmd.Env, cmd.Stdin = dir, gitfixture.Env(0), strings.NewReader(stream.String()) // (the stream dates every commit)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("fast-import: %v: %s", err, out)
	}
	seen := map[string]bool{}
	for _, h := range strings.Fields(git("rev-list", "many")) {
		if seen[h[:4]] {
			ambiguous = h[:4]
			break
		}
		seen[h[:4]] = true
	}
	if ambiguous == "" {
		t.Fatal("no two commits share a 4-digit prefix")
	}

	git("tag", "-a", "-m", "second", "v2", "HEAD~1")
	git("tag", "-a", "-m", "a tag of a tag", "vv", "v1")
	git("tag", "treetag", "HEAD^{tree}")
	git("tag", "-a", "-m", "a blob", "blobtag", "HEAD:a.txt")
	git("branch", "same", "HEAD~1")
	git("tag", "same", "HEAD")                                  // refs/tags/same wins over refs/heads/same
	git("symbolic-ref", "refs/tags/dang", "refs/heads/nowhere") // passed over for refs/heads/dang
	git("branch", "dang", "side")
	git("update-ref", "refs/remotes/origin/main", "HEAD~1")
	git("symbolic-ref", "refs/remotes/origin/HEAD", "refs/remotes/origin/main")
	git("symbolic-ref", "refs/heads/alias", "refs/heads/main")
	git("branch", "main-worktree/HEAD", "side") // git reads main-worktree/HEAD as HEAD
	git("branch", "abc", "side")                // hexadecimal, but too short to name an object
	git("branch", "cafe", "side")               // hexadecimal: could name an object too
	git("branch", "both", "HEAD~1")
	git("reset", "-q", "--soft", "HEAD~1")
	git("reset", "-q", "--soft", "ORIG_HEAD") // ORIG_HEAD is HEAD~1 now
	git("pack-refs", "--all")
	git("branch", "loose", "side")
	git("update-ref", "refs/heads/both", "HEAD") // a loose ref over the packed one
	// files of the git dir named like branches: git 2.39 reads one that
	// holds an object name before refs/heads/, and passes over another
	write(".git/bar", git("rev-parse", "HEAD~1")+"\n")
	git("branch", "bar", "side")
	write(".git/foo", "not a ref\n")
	git("branch", "foo", "side")
	// ref files whose names git refuses: it never reads them; and one
	// named like an option, which git reads
	side := git("rev-parse", "side")
	for _, name := range []string{"a..b", "x.lock", ".x", "-x"} {
		write(".git/refs/heads/"+name, side+"\n")
	}
	return dir, ambiguous, hashLike
}

// revCase is a revision and what git does with it.
type revCase struct {
	rev    string
	refuse bool // git refuses it
	fast   bool // ResolveCommit answers it without git
}

// revCases are the revisions of revRepo the tests resolve: every kind
// git accepts, the forms answered in-process, and names git refuses.
func revCases(ambiguous, hashLike string) []revCase {
	return []revCase{
		{"HEAD", false, true},
		{"@", false, true},
		{"HEAD~", false, true},
		{"HEAD~1", false, true},
		{"HEAD~2", false, true},
		{"HEAD~3", true, false},
		{"HEAD~99", true, false},
		{"HEAD~99999999999", true, false},
		{"HEAD^", false, true},
		{"HEAD^^", false, true},
		{"HEAD^2", false, true},
		{"HEAD^3", true, false},
		{"HEAD^2~1", false, true},
		{"HEAD^0", false, true},
		{"HEAD~0", false, true},
		{"HEAD~01", false, true},
		{"HEAD^1^0~1", false, true},
		{"@~1", false, true},
		{"main", false, true},
		{"main~1^2", true, false},
		{"main~1^1", false, true},
		{"main^2^", false, true},
		{"refs/heads/main", false, true},
		{"heads/main", false, true},
		{"tags/v1", false, true},
		{"light", false, true},
		{"v1", false, true},
		{"v1~1", true, false},
		{"v1^0", false, true},
		{"v2", false, true},
		{"v2~1", false, true},
		{"v2^", false, true},
		{"vv", false, true},
		{"vv~0", false, true},
		{"treetag", true, false},
		{"treetag~0", true, false},
		{"blobtag", true, false},
		{"side", false, true},
		{"up", false, true},
		{"up~1", false, true},
		{"same", false, true},
		{"dang", false, true},
		{"origin", false, true},
		{"origin~1", false, true},
		{"origin/main", false, true},
		{"remotes/origin/main", false, true},
		{"refs/remotes/origin/HEAD", false, true},
		{"alias", false, true},
		{"alias^2", false, true},
		{"ORIG_HEAD", false, true},
		{"ORIG_HEAD~1", false, true},
		{"loose", false, true},
		{"both", false, true},
		{"many", false, true},
		{"many~599", false, true},
		{"many~602", false, true},
		{"many~603", true, false},
		{"abc", false, true},
		{"bar", false, false},
		{"foo", false, false},
		{"cafe", false, false},
		{"cafe~1", false, false},
		{"main-worktree/HEAD", false, false},
		{"FETCH_HEAD", true, false},
		{"MERGE_HEAD", true, false},
		{"HEAD@{1}", false, false},
		{"main@{1}", false, false},
		{"@{u}", false, false},
		{"@{-1}", false, false},
		{"HEAD^{}", false, false},
		{":/the beginning", false, false},
		{ambiguous, true, false},
		{hashLike, false, false},
		{hashLike + "~1", false, false},
		{"HEAD:a.txt", true, false},
		{"HEAD^{tree}", true, false},
		{"", true, false},
		{"no-such-revision", true, false},
		{"no-such-revision~1", true, false},
		{"a..b", true, false},
		{"x.lock", true, false},
		{".x", true, false},
		{"-x", false, false}, // a valid ref name, though git branch refuses it
		{"x/", true, false},
		{"x//y", true, false},
		{"/x", true, false},
		{"x.", true, false},
		{"HEAD~1x", true, false},
		{"HEAD~-1", true, false},
		{"HEAD^-", true, false},
		{"~1", true, false},
	}
}

// gitRevParse asks git for the commit rev names, as ResolveCommit asks it.
func gitRevParse(dir, rev string) (string, error) {
	peeled := rev + "^{commit}"
	if strings.HasPrefix(rev, ":/") {
		peeled = rev // the message regexp runs to the end
	}
	cmd := exec.Command("git", "rev-parse", "--verify", "--end-of-options", peeled)
	cmd.Dir = dir
	out, err := cmd.Output()
	return strings.TrimSpace(string(out)), err
}

// checkAsGit resolves rev with git rev-parse in dir and with r: the same
// commit, or both refuse and the error names the revision. It reports
// whether git refused.
func checkAsGit(t *testing.T, r *gitrepo.Repo, dir, rev string) (refused bool) {
	t.Helper()
	want, gitErr := gitRevParse(dir, rev)
	got, err := r.ResolveCommit(context.Background(), rev)
	if gitErr != nil {
		if err == nil {
			t.Errorf("%q resolved to %s; git refuses it", rev, got)
		} else if !strings.Contains(err.Error(), fmt.Sprintf("%q", rev)) && rev != "" {
			t.Errorf("error does not name the revision %q: %v", rev, err)
		}
		return true
	}
	if err != nil {
		t.Errorf("%q refused: %v; git says %s", rev, err, want)
	} else if string(got) != want {
		t.Errorf("%q is %s; git says %s", rev, got, want)
	}
	return false
}

// TestResolveCommitAsGit resolves every kind of revision both with git
// rev-parse and with ResolveCommit: the same commit, or both refuse (and
// the error names the revision). The common forms must be answered
// in-process: a fast path that quietly always asks git fails here.
func TestResolveCommitAsGit(t *testing.T) {
	t.Parallel()
	dir, ambiguous, hashLike := sharedRevRepo(t)
	r := openRepo(t, dir)
	for _, tc := range revCases(ambiguous, hashLike) {
		t.Run(tc.rev, func(t *testing.T) {
			if refused := checkAsGit(t, r, dir, tc.rev); refused != tc.refuse {
				t.Fatalf("git refused: %v, want %v", refused, tc.refuse)
			}
			if got := r.ResolvedInProcessForTest(tc.rev); got != tc.fast {
				t.Errorf("answered in-process: %v, want %v", got, tc.fast)
			}
		})
	}
}

// FuzzResolveInProcess resolves any string in-process in revRepo's
// repository: whenever that answers, git must give the same commit.
func FuzzResolveInProcess(f *testing.F) {
	if fz := flag.Lookup("test.fuzz"); (fz == nil || fz.Value.String() == "") && !longtest.Enabled() {
		// its seeds are TestResolveCommitAsGit's table, which asks git
		// about each of them already
		f.Skip("the seeds are TestResolveCommitAsGit's: run with -fuzz, or as a long test")
	}
	dir, ambiguous, hashLike := sharedRevRepo(f)
	r := openRepo(f, dir)
	for _, tc := range revCases(ambiguous, hashLike) {
		f.Add(tc.rev)
	}
	f.Fuzz(func(t *testing.T, rev string) {
		got, ok := r.ResolveInProcessForTest(rev)
		if !ok {
			return
		}
		want, err := gitRevParse(dir, rev)
		if err != nil {
			t.Fatalf("%q resolved in-process to %s; git refuses it: %v", rev, got, err)
		}
		if string(got) != want {
			t.Fatalf("%q resolved in-process to %s; git says %s", rev, got, want)
		}
	})
}

// TestResolveCommitUnborn: on an unborn branch HEAD names no commit, even
// with other branches there; git's refusal is the answer.
func TestResolveCommitUnborn(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	git := gitfixture.Runner(t, dir)
	git("init", "-q", "-b", "main")
	git("commit", "-q", "--allow-empty", "-m", "one")
	git("checkout", "-q", "--orphan", "fresh")
	r := openRepo(t, dir)
	for _, rev := range []string{"HEAD", "@", "HEAD~1", "HEAD^0", "fresh"} {
		if !checkAsGit(t, r, dir, rev) {
			t.Errorf("git resolves %q on an unborn branch", rev)
		}
	}
	if checkAsGit(t, r, dir, "main") || !r.ResolvedInProcessForTest("main") {
		t.Error("main not resolved in-process")
	}
}

// TestResolveCommitWorktree resolves in a linked worktree, whose HEAD and
// ORIG_HEAD are its own while its branches are the main repository's.
func TestResolveCommitWorktree(t *testing.T) {
	t.Parallel()
	dir, _, _ := revRepo(t)
	wt := filepath.Join(t.TempDir(), "wt")
	git := gitfixture.Runner(t, dir)
	git("-C", dir, "worktree", "add", "-q", "-b", "wt", wt, "side")
	git("-C", wt, "reset", "-q", "--soft", "HEAD~1")
	git("-C", wt, "reset", "-q", "--soft", "ORIG_HEAD")
	r := openRepo(t, wt)
	for _, rev := range []string{"HEAD", "@", "HEAD~1", "ORIG_HEAD", "main", "wt", "v2~1", "main-worktree/HEAD"} {
		if checkAsGit(t, r, wt, rev) {
			t.Errorf("git refuses %q", rev)
		}
	}
}

// TestResolveCommitReplaced: replace refs (loose or packed, or under
// GIT_REPLACE_REF_BASE) and grafts change a commit's parents for git; the
// answers must still be git's.
func TestResolveCommitReplaced(t *testing.T) {
	dir := t.TempDir()
	git := gitfixture.Runner(t, dir)
	git("init", "-q", "-b", "main")
	var c []string
	for _, m := range []string{"a", "b", "c"} {
		git("commit", "-q", "--allow-empty", "-m", m)
		c = append(c, git("rev-parse", "HEAD"))
	}
	orphan := git("commit-tree", "-m", "b, without parents", c[1]+"^{tree}")
	resolve := func(t *testing.T, env string, want map[string]string) {
		t.Helper()
		r := openRepo(t, dir)
		for rev, commit := range want {
			refused := checkAsGit(t, r, dir, rev)
			if refused != (commit == "") {
				t.Errorf("%s: git refused %q: %v, want %v", env, rev, refused, commit == "")
			}
			if got, _ := r.ResolveCommit(context.Background(), rev); commit != "" && string(got) != commit {
				t.Errorf("%s: %q is %s, want %s", env, rev, got, commit)
			}
		}
		if _, ok := r.ResolveInProcessForTest("HEAD"); ok {
			t.Errorf("%s: HEAD resolved in-process", env)
		}
	}
	// the replacement of c[1] has no parents: HEAD~2 is gone
	replaced := map[string]string{"HEAD": c[2], "HEAD~1": c[1], "HEAD~2": ""}
	git("replace", c[1], orphan)
	t.Run("loose", func(t *testing.T) { resolve(t, "loose", replaced) })
	git("pack-refs", "--all")
	t.Run("packed", func(t *testing.T) { resolve(t, "packed", replaced) })
	git("replace", "-d", c[1])
	git("update-ref", "refs/other/"+c[1], orphan)
	t.Run("GIT_REPLACE_REF_BASE", func(t *testing.T) {
		t.Setenv("GIT_REPLACE_REF_BASE", "refs/other/")
		resolve(t, "GIT_REPLACE_REF_BASE", replaced)
	})
	// a graft makes a the parent of c
	if err := os.MkdirAll(filepath.Join(dir, ".git", "info"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, ".git", "info", "grafts"), []byte(c[2]+" "+c[0]+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Run("grafts", func(t *testing.T) {
		resolve(t, "grafts", map[string]string{"HEAD": c[2], "HEAD~1": c[0], "HEAD~2": ""})
	})
}

// TestResolveCommitShallow: past a shallow boundary git knows no
// parents, whatever the commit says and whether or not they were fetched
// since.
func TestResolveCommitShallow(t *testing.T) {
	t.Parallel()
	src, _, _ := sharedRevRepo(t)
	dir := filepath.Join(t.TempDir(), "shallow")
	git := gitfixture.Runner(t, src)
	git("clone", "-q", "--depth", "1", "--no-local", "--branch", "main", "file://"+src, dir)
	git("-C", dir, "fetch", "-q", "origin", "side") // HEAD^2 is here now, but still cut off
	r := openRepo(t, dir)
	if !r.Shallow {
		t.Fatal("not a shallow repository")
	}
	if checkAsGit(t, r, dir, "HEAD") || !r.ResolvedInProcessForTest("HEAD") {
		t.Error("HEAD not resolved in-process")
	}
	if checkAsGit(t, r, dir, "FETCH_HEAD") { // side: HEAD^2
		t.Error("git refuses FETCH_HEAD")
	}
	for _, rev := range []string{"HEAD~1", "HEAD^2", "main~1"} {
		if !checkAsGit(t, r, dir, rev) {
			t.Errorf("git resolves %q past the shallow boundary", rev)
		}
	}
	if checkAsGit(t, r, dir, "HEAD^0") {
		t.Error("git refuses HEAD^0")
	}
}

// TestResolveCommitCorruptObject: a commit whose stored content does not
// hash to its name is git's to refuse (or to read, for a step through it).
func TestResolveCommitCorruptObject(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	git := gitfixture.Runner(t, dir)
	git("init", "-q", "-b", "main")
	git("commit", "-q", "--allow-empty", "-m", "a")
	git("commit", "-q", "--allow-empty", "-m", "b")
	git("branch", "b")
	git("commit", "-q", "--allow-empty", "-m", "c")
	// store the content of c under the name of b
	b, c := git("rev-parse", "b"), git("cat-file", "commit", "HEAD")
	var z bytes.Buffer
	zw := zlib.NewWriter(&z)
	fmt.Fprintf(zw, "commit %d\x00%s\n", len(c)+1, c)
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, ".git", "objects", b[:2], b[2:])
	if err := os.Remove(p); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, z.Bytes(), 0o444); err != nil {
		t.Fatal(err)
	}
	r := openRepo(t, dir)
	if checkAsGit(t, r, dir, "HEAD") || !r.ResolvedInProcessForTest("HEAD") {
		t.Error("HEAD not resolved in-process")
	}
	for _, rev := range []string{"b", "HEAD~1", "HEAD~2", "b~1"} {
		checkAsGit(t, r, dir, rev)
		if r.ResolvedInProcessForTest(rev) {
			t.Errorf("%q resolved in-process through a corrupt commit", rev)
		}
	}
}

// openRepo opens the repository at dir for the test and closes it after.
func openRepo(t testing.TB, dir string) *gitrepo.Repo {
	t.Helper()
	r, err := gitrepo.Discover(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	return r
}
