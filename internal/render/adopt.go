package render

import (
	"fmt"
	"io"
	"strings"

	"github.com/git-memcite/git-memcite/internal/cite"
)

// AdoptResult is what adopt found in one memory.
type AdoptResult struct {
	Memory   string         `json:"memory"`
	Path     string         `json:"path"`
	Mentions []cite.Mention `json:"mentions"`
}

// AdoptText writes adopt's report: each mention and what became of it
// (all but the summary with quiet), the summary, then diffs (the edits of
// --dry-run).
func AdoptText(w io.Writer, results []AdoptResult, quiet bool, diffs string) error {
	var b strings.Builder
	counts := map[string]int{}
	links := 0
	for _, r := range results {
		for _, x := range r.Mentions {
			counts[x.Status]++
			if x.LinkType != "" && (x.Status == cite.Proposed || x.Status == cite.Added) {
				links++
			}
		}
		if quiet {
			continue
		}
		fmt.Fprintf(&b, "%s (%s)\n", Safe(r.Path), Safe(r.Memory))
		for _, x := range r.Mentions {
			fmt.Fprintf(&b, "  line %d: %s → ", x.Line, Safe(x.Text))
			switch x.Status {
			case cite.Proposed, cite.Added:
				if x.LinkType != "" {
					fmt.Fprintf(&b, "%s link %s: %s", x.Status, x.LinkType, Safe(x.Location))
				} else {
					fmt.Fprintf(&b, "%s %s", x.Status, Safe(x.Location))
				}
				if x.Moved != "" {
					fmt.Fprintf(&b, " (%s)", Safe(x.Moved))
				}
				if x.Snippet != "" {
					fmt.Fprintf(&b, "  %q", x.Snippet)
				}
			case cite.Ambiguous:
				fmt.Fprintf(&b, "ambiguous: %s", Safe(strings.Join(x.Candidates, ", ")))
			default:
				fmt.Fprintf(&b, "%s: %s", x.Status, Safe(x.Reason))
			}
			b.WriteByte('\n')
		}
	}
	fmt.Fprintf(&b, "Summary: %d proposed, %d added, %d ambiguous, %d not found, %d trivial, %d invalid, %d duplicates, %d unanchored",
		counts[cite.Proposed], counts[cite.Added], counts[cite.Ambiguous], counts[cite.NotFound], counts[cite.Trivial], counts[cite.Invalid], counts[cite.Duplicate], counts[cite.Unanchored])
	if links > 0 {
		fmt.Fprintf(&b, ", %d links to memories among them", links)
	}
	if n := counts[cite.Missing]; n > 0 {
		fmt.Fprintf(&b, ", %d skipped (objects missing from the repository)", n)
	}
	if counts[cite.Proposed] > 0 {
		b.WriteString(" (run with --fix to add them)")
	}
	b.WriteByte('\n')
	b.WriteString(diffs)
	_, err := io.WriteString(w, b.String())
	return err
}
