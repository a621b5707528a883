package gitrepo

import (
	"bytes"
	"context"
	"crypto/sha1"
	"encoding/hex"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// cacheTreeRepo makes a repository with nested directories, commits it,
// then stages a change deep in a/b/c, a file in a new directory f/g and
// the removal of e/y: the index's cache-tree then holds some directories
// as valid and has invalidated the others.
func cacheTreeRepo(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	gitT(t, dir, "init", "-q")
	for _, f := range []string{"a/b/c/x", "a/b/w", "a/d/z", "e/y", "e/k", "top", "h/i/j"} {
		p := filepath.Join(dir, filepath.FromSlash(f))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(f+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	gitT(t, dir, "add", ".")
	gitT(t, dir, "commit", "-q", "-m", "one")
	if err := os.WriteFile(filepath.Join(dir, "a/b/c/x"), []byte("changed\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "f/g"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "f/g/n"), []byte("new\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	gitT(t, dir, "add", "a/b/c/x", "f/g/n")
	gitT(t, dir, "rm", "-q", "--cached", "e/y")
	return dir
}

// indexTreeOf opens the repository's index and returns IndexTree's answer.
func indexTreeOf(t *testing.T, dir string) OID {
	t.Helper()
	repo, err := Discover(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer repo.Close()
	idx, err := repo.Index(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	id, ok := IndexTree(idx)
	if !ok {
		t.Fatal("no tree id for the index")
	}
	return id
}

// writeTreeOf runs git write-tree on a copy of the index (git writes its
// cache-tree back into the index it reads).
func writeTreeOf(t *testing.T, dir string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, ".git", "index"))
	if err != nil {
		t.Fatal(err)
	}
	cp := filepath.Join(t.TempDir(), "index")
	if err := os.WriteFile(cp, data, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("git", "write-tree")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_INDEX_FILE="+cp)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git write-tree: %v\n%s", err, out)
	}
	return strings.TrimSpace(string(out))
}

// cacheTreeOf returns the directories the index's cache-tree holds as
// valid, with their ids in hexadecimal.
func cacheTreeOf(t *testing.T, dir string) map[string]string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, ".git", "index"))
	if err != nil {
		t.Fatal(err)
	}
	ext, err := walkIndex(data, 20, func(name, raw []byte, flags, ext uint16) {})
	if err != nil {
		t.Fatal(err)
	}
	if ext == nil {
		t.Fatal("the index has no cache-tree extension")
	}
	dirs := parseCacheTree(ext, 20)
	if dirs == nil {
		t.Fatal("git's cache-tree extension did not parse")
	}
	out := map[string]string{}
	for d, id := range dirs {
		out[d] = hex.EncodeToString(id)
	}
	return out
}

// TestCacheTreeAsGit reads git's own cache-tree extension: each directory
// it holds as valid has the id git gives that directory, the directories
// a staged change touched are left out, and IndexTree (which hashes only
// those) says what git write-tree says.
func TestCacheTreeAsGit(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	dir := cacheTreeRepo(t)
	valid := cacheTreeOf(t, dir)
	for _, d := range []string{"", "a/", "a/b/", "a/b/c/", "e/"} {
		if _, ok := valid[d]; ok {
			t.Errorf("%q: valid in the cache-tree after a change below it was staged", d)
		}
	}
	if len(valid) == 0 {
		t.Fatal("no valid directory in the cache-tree")
	}
	for d, id := range valid {
		if want := strings.TrimSpace(gitT(t, dir, "rev-parse", "HEAD:"+d)); id != want {
			t.Errorf("%q: cache-tree id %s, HEAD has %s", d, id, want)
		}
	}
	if got, want := indexTreeOf(t, dir), writeTreeOf(t, dir); string(got) != want {
		t.Errorf("IndexTree = %s, git write-tree = %s", got, want)
	}
	// once git has written the tree, every directory is valid
	gitT(t, dir, "write-tree")
	valid = cacheTreeOf(t, dir)
	if _, ok := valid[""]; !ok {
		t.Errorf("the top is not valid after git write-tree: %v", valid)
	}
	if got, want := indexTreeOf(t, dir), writeTreeOf(t, dir); string(got) != want {
		t.Errorf("after write-tree: IndexTree = %s, git write-tree = %s", got, want)
	}
}

// TestIndexTreeTrustsCacheTree: a directory the cache-tree holds as valid
// takes the cache-tree's id, as git takes it when it writes the tree of a
// commit. The index here records a/d's tree as e's (a cache-tree no git
// command writes, made by hand): git write-tree and IndexTree agree on
// the tree that index commits.
func TestIndexTreeTrustsCacheTree(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	dir := cacheTreeRepo(t)
	gitT(t, dir, "rm", "-q", "--cached", "top") // invalidates the top only
	valid := cacheTreeOf(t, dir)
	ad, e := valid["a/d/"], valid["h/"]
	if ad == "" || e == "" {
		t.Fatalf("a/d/ and h/ should be valid: %v", valid)
	}
	p := filepath.Join(dir, ".git", "index")
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	from, _ := hex.DecodeString(ad)
	to, _ := hex.DecodeString(e)
	if bytes.Count(data, from) != 1 {
		t.Fatalf("a/d's id occurs %d times in the index", bytes.Count(data, from))
	}
	data = bytes.Replace(data, from, to, 1)
	sum := sha1.Sum(data[:len(data)-20])
	copy(data[len(data)-20:], sum[:])
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	want := writeTreeOf(t, dir)
	if got := indexTreeOf(t, dir); string(got) != want {
		t.Errorf("IndexTree = %s, git write-tree = %s", got, want)
	}
	if honest := strings.TrimSpace(gitT(t, dir, "rev-parse", "HEAD^{tree}")); want == honest {
		t.Fatalf("the hand-made cache-tree changed nothing")
	}
}

// FuzzParseCacheTree: any bytes give directories or nil, never a panic;
// every directory is "" or ends in "/", and every id is hashLen bytes.
func FuzzParseCacheTree(f *testing.F) {
	id := strings.Repeat("\x01", 20)
	f.Add([]byte("\x00-1 1\na\x003 0\n"+id), 20)
	f.Add([]byte("\x005 2\n"+id+"a\x002 0\n"+id+"b\x00-1 0\n"), 20)
	f.Add([]byte("\x00"), 32)
	f.Fuzz(func(t *testing.T, b []byte, hashLen int) {
		hashLen = fuzzHashLen(hashLen)
		for d, id := range parseCacheTree(b, hashLen) {
			if d != "" && !strings.HasSuffix(d, "/") || strings.HasPrefix(d, "/") || strings.Contains(d, "//") {
				t.Fatalf("directory %q", d)
			}
			if len(id) != hashLen {
				t.Fatalf("%q: id of %d bytes", d, len(id))
			}
		}
	})
}
