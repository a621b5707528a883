package render

import (
	"strings"
	"testing"

	"github.com/git-memcite/git-memcite/internal/hookrun"
	"github.com/git-memcite/git-memcite/internal/memfile"
	"github.com/git-memcite/git-memcite/internal/store"
	"github.com/git-memcite/git-memcite/internal/verify"
)

// TestPreCommitOlderStale: the warning line about citations already
// stale before the commit, after a full check and after a partial one
// with and without a count of the memories it did not verify.
func TestPreCommitOlderStale(t *testing.T) {
	m := &store.Memory{Path: ".serena/memories/m.md", ID: "m"}
	old := hookrun.StaleCitation{Memory: m, Class: hookrun.Preexisting,
		Result: verify.CitationResult{Citation: &memfile.Citation{Path: "a.go"}, Status: verify.Stale}}
	for _, tc := range []struct {
		name   string
		out    hookrun.Outcome
		policy hookrun.PreCommitPolicy
		want   string
	}{
		{"full", hookrun.Outcome{Stale: []hookrun.StaleCitation{old, old}}, hookrun.Block,
			"git-memcite: warning: 2 citations already stale before this commit, in memory files it does not touch (list: git memcite verify-all --staged)\n"},
		{"full, strict lists them instead", hookrun.Outcome{}, hookrun.Strict, ""},
		{"partial, unchecked ones unknown", hookrun.Outcome{Partial: true, Unchecked: 5, Stale: []hookrun.StaleCitation{old}}, hookrun.Block,
			"git-memcite: warning: 1 citation already stale before this commit, citing files it changes (list: git memcite verify-all --staged)\n"},
		{"partial, nothing known", hookrun.Outcome{Partial: true, Unchecked: 5}, hookrun.Block, ""},
		{"partial, unchecked ones counted", hookrun.Outcome{Partial: true, Unchecked: 5, UncheckedStale: 3, UncheckedKnown: true, Stale: []hookrun.StaleCitation{old}}, hookrun.Warn,
			"git-memcite: warning: 4 citations already stale before this commit, in memory files it does not touch (list: git memcite verify-all --staged)\n"},
		{"partial, none stale", hookrun.Outcome{Partial: true, Unchecked: 5, UncheckedKnown: true}, hookrun.Block, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var b strings.Builder
			if err := PreCommitText(&b, HookReport{Hook: "pre-commit", Outcome: &tc.out, Policy: tc.policy}); err != nil {
				t.Fatal(err)
			}
			if b.String() != tc.want {
				t.Errorf("got %q\nwant %q", b.String(), tc.want)
			}
		})
	}
}
