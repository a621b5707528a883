package agenthook

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/git-memcite/git-memcite/internal/store"
	"github.com/git-memcite/git-memcite/internal/verify"
)

// writtenMemory is a memory an agent just wrote against the fixture's
// working tree (src/auth.go has 9 lines: Login's func on line 6, line 4
// blank): a line past the end, a snippet not on its line, a missing path,
// one correct citation; in the text a blank line, a line past the end, a
// correct reference and a path without a line.
const writtenMemory = `---
id: written
citations:
  - src/auth.go:40
  - path: src/auth.go
    line: 3
    snippet: func Login(user string) error
  - path: src/gone.go
    line: 1
  - path: src/auth.go
    line: 6
    snippet: func Login
---
Login is in src/auth.go:4, prints at src/auth.go:7
and the version is at src/util.go:99; see ` + "`src/util.go`" + `.
`

// correctMemory holds only citations and references that hold.
const correctMemory = `---
citations:
  - src/auth.go:6
  - path: src/util.go
    line: 4
    snippet: const Version
---
Login is at src/auth.go:6-8; the version at src/util.go:4.
`

func TestCheckWritten(t *testing.T) {
	t.Parallel()
	repo, src := fixture(t)
	ctx := context.Background()
	write := func(name, content string) *store.Memory {
		p := filepath.Join(repo.Top, ".serena", "memories", name)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return store.LoadFile(ctx, src, ".serena/memories/"+name, ".serena/memories", nil)
	}
	w, err := CheckWritten(ctx, src, write("written.md", writtenMemory), nil)
	if err != nil {
		t.Fatal(err)
	}
	type want struct {
		loc     string
		prose   bool
		kind    verify.Kind
		blank   bool
		found   string
		nearest int
	}
	wants := []want{
		{loc: "src/auth.go:40", kind: verify.KindPastEOF},
		{loc: "src/auth.go:3", kind: verify.KindSnippetMismatch, found: `import "fmt"`, nearest: 6},
		{loc: "src/gone.go:1", kind: verify.KindNotFound},
		{loc: "src/auth.go:4", prose: true, blank: true},
		{loc: "src/util.go:99", prose: true, kind: verify.KindPastEOF},
	}
	if len(w.Wrong) != len(wants) || w.Total != 7 {
		t.Fatalf("%d wrong of %d: %+v", len(w.Wrong), w.Total, w.Wrong)
	}
	for i, wt := range wants {
		g := w.Wrong[i]
		if g.Citation.Location() != wt.loc || g.Prose != wt.prose || g.Kind != wt.kind || g.Blank != wt.blank || g.Found != wt.found || g.Nearest != wt.nearest {
			t.Errorf("%d: got %s prose=%v kind=%s blank=%v found=%q nearest=%d; want %+v",
				i, g.Citation.Location(), g.Prose, g.Kind, g.Blank, g.Found, g.Nearest, wt)
		}
	}
	if w.Wrong[3].BodyLine != 14 {
		t.Errorf("prose reference on line %d; want 14", w.Wrong[3].BodyLine)
	}
	if w.Unpinned != 1 {
		t.Errorf("%d unpinned; want 1 (the correct mapping without a commit)", w.Unpinned)
	}

	w, err = CheckWritten(ctx, src, write("correct.md", correctMemory), nil)
	if err != nil || len(w.Wrong) != 0 || w.Total != 3 { // src/util.go:4 in the text is the citation, checked once
		t.Errorf("a correct memory: %+v, %v", w, err)
	}
}

func TestMentionCitation(t *testing.T) {
	t.Parallel()
	for text, want := range map[string]string{
		"src/a.go:12":       "src/a.go:12",
		"src/a.go:12-20":    "src/a.go:12-20",
		"src/a.go:12-12":    "src/a.go:12",
		"src/a.go#L3":       "src/a.go:3",
		"src/a.go#L3-L5":    "src/a.go:3-5",
		"src/a.go":          "",
		"src/a.go:0":        "",
		"src/a.go:9-3":      "",
		"../outside.go:3":   "",
		"a.go:99999999999x": "",
	} {
		c, ok := mentionCitation(text)
		got := ""
		if ok {
			got = c.Location()
		}
		if got != want {
			t.Errorf("%q: %q; want %q", text, got, want)
		}
	}
}

func TestNearest(t *testing.T) {
	t.Parallel()
	lines := []string{"a", "func X()", "b", "c", "func X()", "d"}
	for _, tc := range []struct {
		snippet string
		line    int
		want    int
	}{
		{"func X()", 1, 2}, {"func X()", 4, 5}, {"func X()", 35, 5}, {"  func X()\n{", 3, 2},
		{"nothing", 3, 0}, {"\n \n", 3, 0},
	} {
		if got := nearest(lines, tc.snippet, tc.line); got != tc.want {
			t.Errorf("nearest(%q, %d) = %d; want %d", tc.snippet, tc.line, got, tc.want)
		}
	}
}

// FuzzMentionCitation: any text reads as a citation or not, without a
// panic; one that reads gives a location that reads back the same.
func FuzzMentionCitation(f *testing.F) {
	for _, s := range []string{"src/a.go:12", "a.go:1-3", "a.go#L3-L5", "a.go#L3-5", "a.go:", ":3", "a.go:0", "../a.go:1", "a:b:3", "a.go:99999999999999999999"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		c, ok := mentionCitation(text)
		if !ok {
			return
		}
		if c.Line < 1 || (c.LineEnd != 0 && c.LineEnd <= c.Line) {
			t.Fatalf("%q: line %d-%d", text, c.Line, c.LineEnd)
		}
		again, ok := mentionCitation(c.Location())
		if !ok || again.Location() != c.Location() {
			t.Fatalf("%q: %q does not read back: %q, %v", text, c.Location(), again.Location(), ok)
		}
	})
}
