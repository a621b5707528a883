package app

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/git-memcite/git-memcite/internal/gitrepo"
	"github.com/git-memcite/git-memcite/internal/relocate"
	"github.com/git-memcite/git-memcite/internal/render"
	"github.com/git-memcite/git-memcite/internal/source"
	"github.com/git-memcite/git-memcite/internal/store"
	"github.com/git-memcite/git-memcite/internal/testing/gitfixture"
	"github.com/git-memcite/git-memcite/internal/verify"
)

func TestWriteReportAndAppend(t *testing.T) {
	t.Parallel()
	p := filepath.Join(t.TempDir(), "report.json")
	for _, data := range []string{"first\n", "second, longer\n"} {
		if err := WriteReport(p, []byte(data)); err != nil {
			t.Fatal(err)
		}
		if got, _ := os.ReadFile(p); string(got) != data {
			t.Errorf("report %q, want %q", got, data)
		}
	}
	ents, _ := os.ReadDir(filepath.Dir(p))
	if len(ents) != 1 {
		t.Errorf("temporary files left: %v", ents)
	}
	if err := WriteReport(filepath.Join(p, "no", "dir"), nil); err == nil {
		t.Error("no error for a report below a file")
	}
	s := filepath.Join(t.TempDir(), "summary.md")
	for range 2 {
		if err := AppendFile(s, []byte("part\n")); err != nil {
			t.Fatal(err)
		}
	}
	if got, _ := os.ReadFile(s); string(got) != "part\npart\n" {
		t.Errorf("appended %q", got)
	}
}

func TestNow(t *testing.T) {
	t.Setenv("SOURCE_DATE_EPOCH", "1767225600")
	if got := Now(); !got.Equal(time.Unix(1767225600, 0)) {
		t.Errorf("Now() = %v", got)
	}
}

func TestWithoutRepository(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	if _, err := Relocate(ctx, nil, nil, RelocateOptions{}); !errors.Is(err, ErrNoRepository) {
		t.Errorf("Relocate: %v", err)
	}
	if _, err := Record(ctx, nil, nil, nil, &verify.Report{}); !errors.Is(err, ErrRecordNoRepository) {
		t.Errorf("Record: %v", err)
	}
	unlock, err := Lock(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	unlock()
}

// TestRelocateAndRecord: a line moved by a commit is relocated and
// written, a second run changes nothing, and Record then stamps the
// commit into the citation.
func TestRelocateAndRecord(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := t.TempDir()
	write := func(p, s string) { writeFile(t, dir, p, s) }
	git := func(args ...string) {
		if _, err := gitfixture.Git(dir, 0, args...); err != nil {
			t.Fatal(err)
		}
	}
	write("a.go", "package a\n\nfunc Alpha() int { return 1 }\n")
	write(".serena/memories/m.md", "---\ncitations:\n  - path: a.go\n    line: 3\n    snippet: func Alpha()\n---\nBody.\n")
	git("init", "-q")
	git("add", "-A")
	git("commit", "-qm", "init")
	write("a.go", "package a\n\n// Alpha is one.\nfunc Alpha() int { return 1 }\n")
	git("commit", "-qam", "doc")
	repo, err := gitrepo.Discover(dir)
	if err != nil {
		t.Fatal(err)
	}
	load := func() *store.Store {
		_, st := loadWorktree(t, repo)
		return st
	}
	r, err := Relocate(ctx, repo, load().Memories, RelocateOptions{Write: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Files) != 1 || !r.Written || r.Stale() {
		t.Fatalf("first run: %d files, written %v, stale %v", len(r.Files), r.Written, r.Stale())
	}
	again, err := Relocate(ctx, repo, load().Memories, RelocateOptions{Write: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(again.Files) != 0 {
		t.Errorf("a second run plans %d edits", len(again.Files))
	}
	git("commit", "-qam", "relocated")
	src, _ := repo.Worktree()
	st := load()
	rep, err := verify.Check(ctx, src, st.Memories, verify.Options{})
	if err != nil {
		t.Fatal(err)
	}
	res, err := Record(ctx, repo, src, nil, rep)
	if err != nil || res.Files != 1 || res.Skipped != 0 || len(res.Commit) != 40 {
		t.Fatalf("Record: %+v, %v", res, err)
	}
	b, _ := os.ReadFile(filepath.Join(dir, ".serena/memories/m.md"))
	m := store.LoadFile(ctx, src, ".serena/memories/m.md", store.DefaultDir, nil)
	if m.Err != nil || m.File.Citations[0].Commit != res.Commit || m.File.Citations[0].Line != 4 {
		t.Errorf("after Record:\n%s", b)
	}
	var _ source.Source = src
}

// TestRelocateInBatches: a store followed in batches (RelocateOptions.Each)
// gives the same citations, counts, edits and verdict as one followed at
// once.
func TestRelocateInBatches(t *testing.T) {
	t.Setenv("SOURCE_DATE_EPOCH", "1700000000") // both runs record the same time
	ctx := context.Background()
	dir := t.TempDir()
	git := gitfixture.Runner(t, dir)
	var code strings.Builder
	code.WriteString("package a\n\n")
	for i := 0; i < 12; i++ {
		fmt.Fprintf(&code, "func Function%02d() int { return %d }\n\n", i, i)
	}
	gitfixture.Write(t, dir, "a.go", code.String())
	for m := 0; m < 7; m++ {
		var b strings.Builder
		b.WriteString("---\ncitations:\n")
		for c := 0; c < 3; c++ {
			i := (m*3 + c) % 12
			fmt.Fprintf(&b, "  - path: a.go\n    line: %d\n    snippet: Function%02d\n", 3+2*i, i)
		}
		b.WriteString("---\nBody.\n")
		gitfixture.Write(t, dir, fmt.Sprintf(".serena/memories/m%d.md", m), b.String())
	}
	git("init", "-q")
	git("add", "-A")
	git("commit", "-qm", "init")
	// move every function down a line, delete one, edit another
	moved := strings.Replace(code.String(), "package a\n", "package a\n\n// moved\n", 1)
	moved = strings.Replace(moved, "func Function05() int { return 5 }\n", "", 1)
	moved = strings.Replace(moved, "return 7 }", "return 7 + 0 }", 1)
	gitfixture.Write(t, dir, "a.go", moved)
	git("commit", "-qam", "move")
	repo, err := gitrepo.Discover(dir)
	if err != nil {
		t.Fatal(err)
	}
	_, st := loadWorktree(t, repo)
	whole, err := Relocate(ctx, repo, st.Memories, RelocateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer func(n int) { relocateBatch = n }(relocateBatch)
	relocateBatch = 4 // batches of two memories
	var got []relocate.Item
	calls := 0
	var gotFiles []relocate.File
	batched, err := Relocate(ctx, repo, st.Memories, RelocateOptions{Each: func(items []relocate.Item, files []relocate.File) error {
		calls++
		got = append(got, items...)
		gotFiles = append(gotFiles, files...)
		return nil
	}})
	if err != nil {
		t.Fatal(err)
	}
	if calls != 4 || len(batched.Items) != 0 || len(batched.Files) != 0 {
		t.Errorf("%d batches, %d items and %d files kept; want 4 batches, none kept", calls, len(batched.Items), len(batched.Files))
	}
	var a, b bytes.Buffer
	if err := render.RelocJSON(&a, whole.Items); err != nil {
		t.Fatal(err)
	}
	if err := render.RelocJSON(&b, got); err != nil {
		t.Fatal(err)
	}
	if a.String() != b.String() {
		t.Errorf("batched citations differ:\n%s\nwhole:\n%s", b.String(), a.String())
	}
	if !reflect.DeepEqual(whole.Counts, batched.Counts) || whole.Stale() != batched.Stale() || len(whole.Files) != len(gotFiles) || batched.Edited != whole.Edited || whole.Edited != len(whole.Files) {
		t.Errorf("counts %v, stale %v, %d files; whole: %v, %v, %d", batched.Counts, batched.Stale(), len(gotFiles),
			whole.Counts, whole.Stale(), len(whole.Files))
	}
	for i := range whole.Files {
		if i < len(gotFiles) && !bytes.Equal(whole.Files[i].New, gotFiles[i].New) {
			t.Errorf("%s: batched edit differs:\n%s\nwhole:\n%s", whole.Files[i].Memory.Path, gotFiles[i].New, whole.Files[i].New)
		}
	}
	// found but not loaded: loaded a batch at a time from the source,
	// dropped after it, with the same outcome
	src, _ := loadWorktree(t, repo)
	found, err := store.Find(src, []string{store.DefaultDir})
	if err != nil {
		t.Fatal(err)
	}
	defer func(n int) { loadChunk = n }(loadChunk)
	loadChunk = 1
	var lazy []relocate.Item
	loadedAtOnce := 0
	lazyRun, err := Relocate(ctx, repo, found, RelocateOptions{Source: src, Each: func(items []relocate.Item, _ []relocate.File) error {
		n := 0
		for _, m := range found {
			if m.File != nil {
				n++
			}
		}
		loadedAtOnce = max(loadedAtOnce, n)
		lazy = append(lazy, items...)
		return nil
	}})
	if err != nil {
		t.Fatal(err)
	}
	var c bytes.Buffer
	if err := render.RelocJSON(&c, lazy); err != nil {
		t.Fatal(err)
	}
	if c.String() != a.String() || !reflect.DeepEqual(whole.Counts, lazyRun.Counts) || lazyRun.Edited != len(whole.Files) {
		t.Errorf("loaded a batch at a time: counts %v, %d files, citations:\n%s\nwhole: %v, %d files:\n%s",
			lazyRun.Counts, lazyRun.Edited, c.String(), whole.Counts, len(whole.Files), a.String())
	}
	if loadedAtOnce != 2 {
		t.Errorf("%d memories loaded during a batch, want the batch's 2", loadedAtOnce)
	}
	for _, m := range found {
		if m.File != nil {
			t.Errorf("%s still loaded after its batch", m.Path)
		}
	}
	if whole.Counts[relocate.Move] == 0 || whole.Counts[relocate.Review]+whole.Counts[relocate.Unresolved] == 0 {
		t.Errorf("counts %v: the fixture should move citations and leave some stale", whole.Counts)
	}
}

// loadWorktree loads the memories of repo's working tree.
func loadWorktree(t *testing.T, repo *gitrepo.Repo) (source.Source, *store.Store) {
	t.Helper()
	src, err := repo.Worktree()
	if err != nil {
		t.Fatal(err)
	}
	st, err := store.Load(context.Background(), src, []string{store.DefaultDir}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return src, st
}

// writeFile writes s to the slash path p below dir, making its folders.
func writeFile(t *testing.T, dir, p, s string) {
	t.Helper()
	full := filepath.Join(dir, filepath.FromSlash(p))
	if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(full, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}
