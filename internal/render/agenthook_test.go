package render

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/git-memcite/git-memcite/internal/agenthook"
	"github.com/git-memcite/git-memcite/internal/gitblame"
	"github.com/git-memcite/git-memcite/internal/memfile"
	"github.com/git-memcite/git-memcite/internal/store"
)

func TestAgentHookText(t *testing.T) {
	mem := &store.Memory{Path: "notes/my notes.md", ID: "notes"}
	commit := &gitblame.Commit{Hash: gitblame.NewHash(append([]byte{0xab, 0xcd, 0xef, 0x12}, make([]byte, 16)...)), Subject: "split\x1b[31m handlers", AuthorDate: time.Unix(0, 0)}
	cite := memfile.Citation{Path: "src/a.go", Line: 12, HasLine: true}
	stale := func(s agenthook.Stale) *agenthook.Answer {
		s.Citation, s.Reason = cite, "Line 12 exceeds file length (3)"
		return &agenthook.Answer{Memory: mem, Source: "working tree", Total: 2, Valid: 1, Stale: []agenthook.Stale{s}}
	}
	for _, tc := range []struct {
		name    string
		ans     *agenthook.Answer
		verbose bool
		want    []string // substrings, in order; none: no text
	}{
		{name: "valid, quiet", ans: &agenthook.Answer{Memory: mem, Total: 2, Valid: 2}},
		{name: "valid, verbose", ans: &agenthook.Answer{Memory: mem, Source: "working tree", Total: 2, Valid: 2}, verbose: true,
			want: []string{`memory "notes" (notes/my notes.md): all 2 citations are valid (checked against the working tree).`}},
		{name: "no citations, verbose", ans: &agenthook.Answer{Memory: mem}, verbose: true, want: []string{"has no citations to verify"}},
		{name: "exempt, verbose", ans: &agenthook.Answer{Memory: mem, Exempt: true}, verbose: true, want: []string{"is exempt"}},
		{name: "broken memory, quiet", ans: &agenthook.Answer{Memory: &store.Memory{Path: "m.md", ID: "m", Err: errors.New("m.md:3: bad YAML")}},
			want: []string{`memory "m" (m.md) cannot be checked: m.md:3: bad YAML. Its citations are unverified.`}},
		{name: "moved", ans: stale(agenthook.Stale{Status: gitblame.Moved, Now: &gitblame.Location{Path: "src/b.go", Line: 40}, Event: &gitblame.Event{Kind: gitblame.EventMoved, Commit: commit}, Fix: agenthook.FixRelocate}),
			want: []string{"1 of 2 citations is stale", "Do not rely on it as written", "- `src/a.go:12` moved to `src/b.go:40` in abcdef1 'split\\x1b[31m handlers' (Line 12 exceeds file length (3)). Fix: git memcite relocate --fix 'notes/my notes.md'", "After fixing, check: git memcite verify 'notes/my notes.md'"}},
		{name: "moved in the working tree", ans: stale(agenthook.Stale{Status: gitblame.Moved, Now: &gitblame.Location{Path: "src/a.go", Line: 14, LineEnd: 16}, Event: &gitblame.Event{Kind: gitblame.EventMoved, View: "working tree"}, Fix: agenthook.FixRelocate}),
			want: []string{"moved to `src/a.go:14-16` in the working tree (not committed)"}},
		{name: "ambiguous", ans: stale(agenthook.Stale{Status: gitblame.Ambiguous, Candidates: []gitblame.Location{{Path: "x.go", Line: 1}, {Path: "y.go", Line: 2}}, Event: &gitblame.Event{Commit: commit}, Fix: agenthook.FixRemove}),
			want: []string{"can no longer be told apart after abcdef1", "it may be `x.go:1` or `y.go:2`", "Fix: git memcite remove-citation 'notes/my notes.md' src/a.go:12 (or cite where the code is now"}},
		{name: "wrong from the start", ans: stale(agenthook.Stale{Status: gitblame.Unchanged, Fix: agenthook.FixEdit}),
			want: []string{"its lines have not changed since the citation was written", "Fix: correct the citation in 'notes/my notes.md' by hand, or remove it"}},
		{name: "history unknown", ans: func() *agenthook.Answer {
			a := stale(agenthook.Stale{Fix: agenthook.FixEdit, Note: "history cut by shallow clone at abc"})
			a.NoHistory = "not a git repository"
			return a
		}(), want: []string{"`src/a.go:12`: Line 12 exceeds file length (3) (history cut by shallow clone at abc)", "Where the cited lines went is not known: not a git repository."}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := AgentHookText(tc.ans, tc.verbose)
			if len(tc.want) == 0 {
				if got != "" {
					t.Errorf("got %q; want nothing", got)
				}
				return
			}
			rest := got
			for _, w := range tc.want {
				i := strings.Index(rest, w)
				if i < 0 {
					t.Fatalf("%q missing (or out of order) in\n%s", w, got)
				}
				rest = rest[i+len(w):]
			}
			var b bytes.Buffer
			if err := AgentHookJSON(&b, tc.ans, tc.verbose); err != nil || !strings.HasPrefix(b.String(), "{\n  \"hookSpecificOutput\": {\n    \"hookEventName\": \"PostToolUse\",") {
				t.Errorf("JSON: %v %s", err, b.String())
			}
		})
	}
}

// A session start names the five worst memories and says how many there
// are in all; nothing when none is stale.
func TestAgentSurveyText(t *testing.T) {
	s := &agenthook.Survey{Source: "working tree", Memories: 340}
	if got := AgentSurveyText(s, false); got != "" {
		t.Errorf("a clean store: %q", got)
	}
	for i := 0; i < 12; i++ {
		m := &store.Memory{ID: fmt.Sprintf("m%02d", i), Path: fmt.Sprintf(".serena/memories/m%02d.md", i)}
		s.Stale = append(s.Stale, agenthook.StaleMemory{Memory: m, Stale: 12 - i, Total: 12, First: "a.go:1", Reason: "File not found: a.go"})
		s.Citations += 12 - i
	}
	got := AgentSurveyText(s, false)
	for _, want := range []string{
		"git-memcite: 12 of 340 memories have stale citations (78 in all; checked against the working tree)",
		"the 5 worst:\n- \"m00\" (.serena/memories/m00.md): all 12 citations are stale, first `a.go:1` (File not found: a.go)\n",
		"- \"m04\" (.serena/memories/m04.md): 8 of 12 citations are stale",
		"\nAll of them: git memcite verify-all",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %q in\n%s", want, got)
		}
	}
	if strings.Contains(got, "m05") || strings.Count(got, "\n- ") != 5 {
		t.Errorf("more than the 5 worst:\n%s", got)
	}
}
