package cite

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/git-memcite/git-memcite/internal/memfile"
	"github.com/git-memcite/git-memcite/internal/source"
	"github.com/git-memcite/git-memcite/internal/store"
)

func TestResolveBareNameAmbiguousEvenAtRoot(t *testing.T) {
	tr := NewTracked([]string{"README.md", "docs/README.md", "go.mod", "tools/go.mod", "src/only.go"})
	for _, name := range []string{"README.md", "go.mod"} {
		if p, cands := tr.resolve(name); p != "" || len(cands) != 2 {
			t.Errorf("%s: resolved to %q (%v); want ambiguous between 2", name, p, cands)
		}
	}
	if p, _ := tr.resolve("only.go"); p != "src/only.go" {
		t.Errorf("only.go: %q", p)
	}
	if p, _ := tr.resolve("docs/README.md"); p != "docs/README.md" {
		t.Errorf("docs/README.md: %q", p)
	}
}

func TestRangeSnippetIsTheMostDistinctiveLine(t *testing.T) {
	file := strings.Join([]string{
		`if (x == "lot") {`, // 1
		`  a()`,             // 2
		`}`,                 // 3
		``,                  // 4
		`if (x == "lot") {`, // 5
		`  handleLotOrder(x)`,
		`}`,
	}, "\n") + "\n"
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "f.js"), []byte(file), 0o644); err != nil {
		t.Fatal(err)
	}
	src, err := source.NewWorktree(dir)
	if err != nil {
		t.Fatal(err)
	}
	if got := rangeSnippet(src, "f.js", 4, 7); got != "handleLotOrder(x)" {
		t.Errorf("range 4-7: got %q; want the distinctive line", got)
	}
	if got := rangeSnippet(src, "f.js", 3, 4); got != "" {
		t.Errorf("range 3-4 (a brace and a blank line): got %q; want none", got)
	}
}

func TestAdoptMemoryFilesAreLinksNotCitations(t *testing.T) {
	dir := t.TempDir()
	for p, s := range map[string]string{"src/a.go": "package a\n", ".serena/memories/other.md": "# o\n"} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, p)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, p), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	src, err := source.NewWorktree(dir)
	if err != nil {
		t.Fatal(err)
	}
	f, err := memfile.Parse("m.md", []byte("---\nid: m\n---\nSee `src/a.go` and `.serena/memories/other.md`.\n"))
	if err != nil {
		t.Fatal(err)
	}
	tr := NewTracked([]string{"src/a.go", ".serena/memories/other.md"})
	mem := &store.Memory{Path: ".serena/memories/m.md", Dir: ".serena/memories", File: f}
	ms, _, err := Adopt(context.Background(), mem, Env{Src: src, MemoryDirs: []string{".serena/memories"}}, tr, false)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, m := range ms {
		got[m.Text] = m.Status
	}
	if got["src/a.go"] != Proposed || got[".serena/memories/other.md"] != Proposed {
		t.Errorf("got %v; want both proposed", got)
	}
	for _, m := range ms {
		if m.Text == ".serena/memories/other.md" && (m.LinkType != "related" || m.Location != "other") {
			t.Errorf("the memory: %+v; want a related link to other", m)
		}
		if m.Text == "src/a.go" && m.LinkType != "" {
			t.Errorf("the code file: %+v; want a citation", m)
		}
	}
}

func TestAdoptBareNamesAreAmbiguousEvenAtRoot(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{"CONTRIBUTING.md": "# c\n", "test/repo/CONTRIBUTING.md": "# t\n", "src/only.py": "x = 1\n"}
	var paths []string
	for p, s := range files {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, p)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, p), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	src, err := source.NewWorktree(dir)
	if err != nil {
		t.Fatal(err)
	}
	f, err := memfile.Parse("m.md", []byte("---\nid: m\n---\nRead `CONTRIBUTING.md` and **CONTRIBUTING.md**, then `only.py`.\n"))
	if err != nil {
		t.Fatal(err)
	}
	mem := &store.Memory{Path: ".serena/memories/m.md", Dir: ".serena/memories", File: f}
	ms, _, err := Adopt(context.Background(), mem, Env{Src: src, MemoryDirs: []string{".serena/memories"}}, NewTracked(paths), false)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, m := range ms {
		got = append(got, m.Text+" "+m.Status+" "+m.Location)
	}
	want := []string{"CONTRIBUTING.md ambiguous ", "CONTRIBUTING.md ambiguous ", "only.py proposed src/only.py"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("got %q; want %q", got, want)
	}
}
