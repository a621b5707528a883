package relocate

import (
	"strings"
	"testing"
	"time"

	"github.com/git-memcite/git-memcite/internal/gitblame"
	"github.com/git-memcite/git-memcite/internal/memfile"
	"github.com/git-memcite/git-memcite/internal/store"
)

const memo = `---
citations:
  - path: a.go
    line: 10
    snippet: "x := compute()"
  - path: a.go
    line: 20
    line_end: 24
  - a.go:30
  - path: a.go
    line: 40
    snippet: "y := 1"
  - path: a.go
    line: 50
  - https://example.com/doc
---
Body stays.
`

func memory(t *testing.T) *store.Memory {
	t.Helper()
	f, err := memfile.Parse("notes.md", []byte(memo))
	if err != nil {
		t.Fatal(err)
	}
	return &store.Memory{Path: "notes.md", File: f}
}

func res(st gitblame.Status, path string, line, end int) gitblame.Result {
	return gitblame.Result{Status: st, Location: gitblame.Location{Path: path, Line: line, LineEnd: end}}
}

func TestPlan(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		opt     Options
		results []gitblame.Result
		actions []Action
		want    string // the frontmatter after the edits
	}{
		{
			name: "moves are written, the rest is not",
			opt:  Options{Commit: "abc123"},
			results: []gitblame.Result{
				res(gitblame.Moved, "b.go", 12, 12),
				res(gitblame.Moved, "a.go", 21, 25),
				res(gitblame.Moved, "c.go", 31, 31),
				{Status: gitblame.Changed, Location: gitblame.Location{Path: "a.go", Line: 41, LineEnd: 41}, Text: []string{"\ty := 2"}},
				{Status: gitblame.Gone},
			},
			actions: []Action{Move, Move, Move, Review, Unresolved, Skip},
			want: `---
citations:
  - path: b.go
    line: 12
    snippet: "x := compute()"
    commit: abc123
  - path: a.go
    line: 21
    line_end: 25
    commit: abc123
  - c.go:31
  - path: a.go
    line: 40
    snippet: "y := 1"
  - path: a.go
    line: 50
  - https://example.com/doc
---
Body stays.
`,
		},
		{
			name: "a relocation into a file with uncommitted changes drops the commit",
			opt:  Options{Commit: "abc123", Dirty: func(p string) bool { return p == "dirty.go" }},
			results: []gitblame.Result{
				res(gitblame.Moved, "dirty.go", 12, 12),
				res(gitblame.Moved, "a.go", 21, 25),
				res(gitblame.Unchanged, "a.go", 30, 30),
				res(gitblame.Unchanged, "a.go", 40, 40),
				res(gitblame.Unchanged, "a.go", 50, 50),
			},
			actions: []Action{Move, Move, Keep, Keep, Keep, Skip},
			want: `---
citations:
  - path: dirty.go
    line: 12
    snippet: "x := compute()"
  - path: a.go
    line: 21
    line_end: 25
    commit: abc123
  - a.go:30
  - path: a.go
    line: 40
    snippet: "y := 1"
  - path: a.go
    line: 50
  - https://example.com/doc
---
Body stays.
`,
		},
		{
			name: "accept changed rewrites the snippet; a range that shrank to one line loses line_end",
			opt:  Options{AcceptChanged: true, Verified: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)},
			results: []gitblame.Result{
				res(gitblame.Unchanged, "a.go", 10, 10),
				{Status: gitblame.Changed, Location: gitblame.Location{Path: "a.go", Line: 20, LineEnd: 20}},
				{Status: gitblame.Ambiguous},
				{Status: gitblame.Changed, Location: gitblame.Location{Path: "a.go", Line: 41, LineEnd: 41}, Text: []string{"\ty := 2"}},
				{Status: gitblame.Changed, Location: gitblame.Location{Path: "a.go", Line: 50, LineEnd: 50}, Similarity: 1},
			},
			actions: []Action{Keep, Accept, Unresolved, Accept, Accept, Skip},
			want: `---
citations:
  - path: a.go
    line: 10
    snippet: "x := compute()"
  - path: a.go
    line: 20
    verified: 2026-01-02T03:04:05Z
  - a.go:30
  - path: a.go
    line: 41
    snippet: "y := 2"
    verified: 2026-01-02T03:04:05Z
  - path: a.go
    line: 50
    verified: 2026-01-02T03:04:05Z
  - https://example.com/doc
---
Body stays.
`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := memory(t)
			var items []Item
			for j := range m.File.Citations {
				c := &m.File.Citations[j]
				it := Item{Memory: m, Citation: c}
				if c.URL != "" {
					it.Action = Skip
				}
				items = append(items, it)
			}
			if err := setResults(items, tt.results); err != nil {
				t.Fatal(err)
			}
			files, err := Plan(items, tt.opt)
			if err != nil {
				t.Fatal(err)
			}
			for i, it := range items {
				if it.Action != tt.actions[i] {
					t.Errorf("citation %d: action %v, want %v", i, it.Action, tt.actions[i])
				}
			}
			got := memo
			if len(files) == 1 {
				got = string(files[0].New)
			} else if len(files) > 1 {
				t.Fatalf("%d files planned, want at most 1", len(files))
			}
			if got != tt.want {
				t.Errorf("file:\n%s\nwant:\n%s", got, tt.want)
			}
			if !strings.HasSuffix(got, "---\nBody stays.\n") {
				t.Error("body changed")
			}
		})
	}
}

func TestSetResultsCountsMismatch(t *testing.T) {
	t.Parallel()
	m := memory(t)
	items := []Item{{Memory: m, Citation: &m.File.Citations[0]}}
	if err := setResults(items, nil); err == nil {
		t.Error("setResults accepted fewer results than anchors")
	}
}
