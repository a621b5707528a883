package render

import (
	"fmt"
	"io"
	"strings"

	"github.com/git-memcite/git-memcite/internal/verify"
)

type citationJSON struct {
	// Index is 1-based, as remove-citation takes it; none for a reference
	// in the prose (Prose), which is edited in the prose
	Index    int     `json:"index,omitempty"`
	Location string  `json:"location"`
	Path     string  `json:"path,omitempty"`
	URL      string  `json:"url,omitempty"`
	Line     *int    `json:"line,omitempty"`
	LineEnd  *int    `json:"line_end,omitempty"`
	Snippet  *string `json:"snippet,omitempty"`
	Verified string  `json:"verified,omitempty"`
	Commit   string  `json:"commit,omitempty"`
	Form     string  `json:"form"` // mapping or string
	Status   string  `json:"status"`
	Reason   string  `json:"reason,omitempty"`
	// Prose: the citation is a reference in the memory's prose
	// (docs/prose-references.md)
	Prose *ProseJSON `json:"prose,omitempty"`
}

type memoryCitationsJSON struct {
	MemoryID  string         `json:"memory_id"`
	Path      string         `json:"path"`
	Citations []citationJSON `json:"citations"`
	Error     string         `json:"error,omitempty"`
}

// listed reports whether list-citations shows a memory: every one asked
// for by name, else those with citations (in the frontmatter or the
// prose) or errors.
func listed(m *verify.MemoryResult, named bool) bool {
	return named || m.Err() != nil || len(m.Citations) > 0 || (m.Memory.File != nil && len(m.Memory.File.Citations) > 0)
}

// citationStatus is a listed citation's status: a prose reference that
// did not resolve where it was written is "unresolved".
func citationStatus(cr verify.CitationResult) string {
	if cr.Prose != nil && cr.Prose.Unresolved {
		return "unresolved"
	}
	return cr.Status.String()
}

// CitationsJSON writes the citations of each memory with their status.
func CitationsJSON(w io.Writer, r *verify.Report, named bool) error {
	out := []memoryCitationsJSON{}
	for i := range r.Memories {
		m := &r.Memories[i]
		if !listed(m, named) {
			continue
		}
		j := memoryCitationsJSON{MemoryID: m.Memory.ID, Path: m.Memory.Path, Citations: []citationJSON{}}
		if m.Err() != nil {
			j.Error = m.Err().Error()
		}
		for _, cr := range m.Citations {
			c := cr.Citation
			cj := citationJSON{Index: c.Index + 1, Location: c.Location(), Path: c.Path, URL: c.URL, Verified: c.Verified, Commit: c.Commit, Form: "mapping", Status: citationStatus(cr), Reason: cr.Reason}
			if cr.Prose != nil {
				cj.Index, cj.Prose = 0, proseJSONOf(cr)
			}
			if m.Exempt {
				cj.Status = "exempt"
			}
			if c.Form != 0 {
				cj.Form = "string"
			}
			if c.HasLine {
				l := c.Line
				cj.Line = &l
			}
			if c.LineEnd != 0 {
				e := c.LineEnd
				cj.LineEnd = &e
			}
			if c.HasSnippet {
				s := c.Snippet
				cj.Snippet = &s
			}
			j.Citations = append(j.Citations, cj)
		}
		out = append(out, j)
	}
	return writeJSON(w, out)
}

// CitationsText lists the citations of each memory:
//
//	.serena/memories/x.md (x)
//	  1 [VALID] src/a.go:3  "func A"
//	  2 [STALE] src/b.go:9
//	      Reason: Line 9 exceeds file length (5)
//	  - [VALID] src/c.go (prose, line 7: c.go)
//
// References in the prose are listed after the frontmatter's citations,
// not numbered (remove-citation does not take them).
func CitationsText(w io.Writer, r *verify.Report, named bool) error {
	var b strings.Builder
	n := 0
	for i := range r.Memories {
		m := &r.Memories[i]
		if !listed(m, named) {
			continue
		}
		n++
		fmt.Fprintf(&b, "%s (%s)\n", Safe(m.Memory.Path), Safe(m.Memory.ID))
		switch {
		case m.Err() != nil:
			fmt.Fprintf(&b, "  [ERROR] %s\n", Safe(m.Err().Error()))
			continue
		case len(m.Citations) == 0 && m.Memory.File != nil && len(m.Memory.File.Citations) > 0:
			for _, c := range m.Memory.File.Citations { // exempt: listed, not verified
				fmt.Fprintf(&b, "  %d [EXEMPT] %s\n", c.Index+1, Safe(c.Location()))
			}
			continue
		case len(m.Citations) == 0:
			b.WriteString("  no citations\n")
			continue
		}
		for _, cr := range m.Citations {
			c := cr.Citation
			if cr.Prose != nil {
				// not numbered: remove-citation does not take it
				fmt.Fprintf(&b, "  - [%s] %s%s", strings.ToUpper(citationStatus(cr)), Safe(c.Location()), proseWhere(cr))
			} else {
				fmt.Fprintf(&b, "  %d [%s] %s", c.Index+1, strings.ToUpper(cr.Status.String()), Safe(c.Location()))
			}
			if c.HasSnippet && cr.Prose == nil {
				fmt.Fprintf(&b, "  %q", c.Snippet)
			}
			b.WriteByte('\n')
			if cr.Status == verify.Stale || (cr.Prose != nil && cr.Prose.Unresolved) {
				fmt.Fprintf(&b, "      Reason: %s\n", Safe(cr.Reason))
			}
		}
	}
	if n == 0 {
		b.WriteString("No citations.\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}
