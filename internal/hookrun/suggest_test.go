package hookrun

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/git-memcite/git-memcite/internal/memfile"
)

func TestSuggestLine(t *testing.T) {
	src := files{
		"a.go":   "package a\n\n// x\nfunc Hello() {}\n",
		"dup.go": "func Hello() {}\nfunc Hello() {}\n",
		"crlf":   "a\r\nfunc Hello() {}\r\n",
	}
	tests := []struct {
		cit  string
		want int // 0: no suggestion
	}{
		{"{path: a.go, line: 3, snippet: func Hello()}", 4},
		{"{path: a.go, line: 4, snippet: func Hello()}", 0}, // not moved: stale for another reason
		{"{path: dup.go, line: 9, snippet: func Hello()}", 0},
		{"{path: a.go, line: 3, snippet: func Gone()}", 0},
		{"{path: a.go, line: 3}", 0},
		{"{path: a.go, line: 1, line_end: 2, snippet: func Hello()}", 0},
		{"{path: missing.go, line: 3, snippet: func Hello()}", 0},
		{"{path: crlf, line: 1, snippet: func Hello()}", 2},
	}
	for _, tc := range tests {
		f, err := memfile.Parse("m.md", []byte("---\ncitations:\n  - "+tc.cit+"\n---\n"))
		if err != nil {
			t.Fatal(err)
		}
		got, ok := SuggestLine(src, f.Citations[0])
		if got != tc.want || ok != (tc.want != 0) {
			t.Errorf("%s: got %d, %v; want %d", tc.cit, got, ok, tc.want)
		}
	}
}

func TestApplyMovesKeepsOtherBytesAndRefusesLocalEdits(t *testing.T) {
	top := t.TempDir()
	const orig = "---\n# keep this comment\ncitations:\n  - path: a.go\n    line: 3   # old\n    snippet: 'func Hello()'\n  - b.go:7\n---\nBody\r\n"
	p := filepath.Join(top, "m.md")
	if err := os.WriteFile(p, []byte(orig), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := ApplyMoves(top, "m.md", []byte(orig), map[int]int{0: 4, 1: 9}); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(p)
	want := strings.Replace(strings.Replace(orig, "line: 3 ", "line: 4 ", 1), "b.go:7", "b.go:9", 1)
	if string(got) != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if fi, _ := os.Stat(p); fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v", fi.Mode().Perm())
	}
	if err := ApplyMoves(top, "m.md", []byte(orig), map[int]int{0: 5}); err == nil {
		t.Error("rewrote a file that no longer holds the checked bytes")
	}
}
