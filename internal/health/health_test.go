package health

import (
	"reflect"
	"testing"

	"github.com/git-memcite/git-memcite/internal/memfile"
	"github.com/git-memcite/git-memcite/internal/store"
	"github.com/git-memcite/git-memcite/internal/verify"
)

func TestRank(t *testing.T) {
	ms := []Memory{
		{ID: "ok", Status: StatusHealthy, Valid: 2, Total: 2},
		{ID: "half", Status: StatusStale, Valid: 1, Total: 2},
		{ID: "uncited", Status: StatusUncited},
		{ID: "zero-of-1", Status: StatusStale, Valid: 0, Total: 1},
		{ID: "zero-of-3", Status: StatusStale, Valid: 0, Total: 3},
		{ID: "bad", Status: StatusError},
		{ID: "exempt", Status: StatusExempt},
	}
	Rank(ms)
	var got []string
	for _, m := range ms {
		got = append(got, m.ID)
	}
	want := []string{"bad", "zero-of-3", "zero-of-1", "half", "uncited", "exempt", "ok"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %q; want %q", got, want)
	}
}

func TestCompare(t *testing.T) {
	mem := func(p, status string, valid, total int, stale ...string) Memory {
		m := Memory{ID: p, Path: p, Status: status, Valid: valid, Total: total}
		for _, s := range stale {
			m.StaleAt = append(m.StaleAt, s)
			m.Reasons = append(m.Reasons, s+": reason")
		}
		return m
	}
	tests := []struct {
		name                 string
		before, after        Memory
		worse, better, added bool
	}{
		{name: "unchanged", before: mem("a", StatusHealthy, 1, 1), after: mem("a", StatusHealthy, 1, 1)},
		{name: "went stale", before: mem("a", StatusHealthy, 1, 1), after: mem("a", StatusStale, 0, 1, "x:1"), worse: true},
		{name: "more stale citations", before: mem("a", StatusStale, 1, 2, "x:1"), after: mem("a", StatusStale, 0, 2, "x:1", "y"), worse: true},
		{name: "same citation stale with another reason", before: mem("a", StatusStale, 1, 2, "x:1"), after: mem("a", StatusStale, 1, 2, "x:1")},
		{name: "another citation stale instead", before: mem("a", StatusStale, 1, 2, "x:1"), after: mem("a", StatusStale, 1, 2, "y"), worse: true},
		{name: "fixed", before: mem("a", StatusStale, 0, 1, "x:1"), after: mem("a", StatusHealthy, 1, 1), better: true},
		{name: "broke the file", before: mem("a", StatusHealthy, 1, 1), after: mem("a", StatusError, 0, 0), worse: true},
		{name: "lost its citations", before: mem("a", StatusHealthy, 1, 1), after: mem("a", StatusUncited, 0, 0)},
		{name: "new memory", before: mem("b", StatusHealthy, 1, 1), after: mem("a", StatusStale, 0, 1, "x"), added: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			now := &Report{Memories: []Memory{tc.after}}
			Compare(now, &Report{Memories: []Memory{tc.before}}, "HEAD~1", "abc")
			c := now.Since
			if got := len(c.Worse) > 0; got != tc.worse {
				t.Errorf("worse: got %v; want %v", got, tc.worse)
			}
			if got := len(c.Better) > 0; got != tc.better {
				t.Errorf("better: got %v; want %v", got, tc.better)
			}
			if got := len(c.Added) > 0; got != tc.added {
				t.Errorf("added: got %v; want %v", got, tc.added)
			}
			if tc.added && !reflect.DeepEqual(c.Removed, []string{"b"}) {
				t.Errorf("removed: got %q; want [b]", c.Removed)
			}
		})
	}
}

// TestAllDeleted: a memory is all-deleted when every citation names a file
// that is not found; other stale kinds do not count.
func TestAllDeleted(t *testing.T) {
	mr := func(kinds ...verify.Kind) *verify.MemoryResult {
		m := &verify.MemoryResult{Memory: &store.Memory{Path: "mem/m.md", ID: "m", File: &memfile.File{}}, Total: len(kinds)}
		for _, k := range kinds {
			m.Citations = append(m.Citations, verify.CitationResult{Citation: &memfile.Citation{Path: "a.go"}, Status: verify.Stale, Kind: k, Reason: "r"})
		}
		return m
	}
	for _, tc := range []struct {
		m    *verify.MemoryResult
		want bool
	}{
		{mr(verify.KindNotFound, verify.KindNotFound), true},
		{mr(verify.KindNotFound, verify.KindSnippetMismatch), false},
		{mr(verify.KindNotAFile), false},
		{mr(), false},
	} {
		if got := memoryOf(tc.m).AllDeleted; got != tc.want {
			t.Errorf("%d citations: AllDeleted = %v, want %v", len(tc.m.Citations), got, tc.want)
		}
	}
}
