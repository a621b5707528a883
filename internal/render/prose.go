package render

import (
	"fmt"
	"io"
	"strings"

	"github.com/git-memcite/git-memcite/internal/agenthook"
	"github.com/git-memcite/git-memcite/internal/verify"
)

// ProseJSON describes a citation found in a memory's prose
// (docs/prose-references.md).
type ProseJSON struct {
	Kind       string `json:"kind"` // path, lines, symbol, memory
	Form       string `json:"form"`
	Text       string `json:"text"`        // as written
	MemoryLine int    `json:"memory_line"` // line of the memory file
	Written    string `json:"written,omitempty"`
	Now        string `json:"now,omitempty"`
	Changed    string `json:"changed,omitempty"`
	Unresolved bool   `json:"unresolved,omitempty"`
}

func proseJSONOf(c verify.CitationResult) *ProseJSON {
	p := c.Prose
	if p == nil {
		return nil
	}
	return &ProseJSON{Kind: p.Kind, Form: p.Form, Text: p.Text, MemoryLine: p.Line, Written: p.Written,
		Now: p.Now, Changed: p.Changed, Unresolved: p.Unresolved}
}

// proseWhere says where in the memory a prose reference is written, as
// it was written.
func proseWhere(c verify.CitationResult) string {
	if c.Prose == nil {
		return ""
	}
	return fmt.Sprintf(" (prose, line %d: %s)", c.Prose.Line, Safe(c.Prose.Text))
}

// proseSummary is the prose part of verify-all's summary line.
func proseSummary(r *verify.Report) string {
	ps := r.ProseSummary()
	if ps == (verify.ProseSummary{}) {
		return ""
	}
	return fmt.Sprintf("; prose: %d references, %d stale, %d unresolved", ps.References, ps.Stale, ps.Unresolved)
}

// proseStaleLine tells an agent about a stale reference in a memory's
// prose: what the sentence names, what became of it and in which commit
// (the reason says both), and that the sentence is to be corrected.
func proseStaleLine(s agenthook.Stale, arg string) string {
	fix := "correct that sentence of " + Safe(arg) + " by hand"
	switch {
	case !s.ProseRewritable:
	case s.Prose.Kind == "lines" && s.Prose.Now == "":
		// lines that moved with their text: relocate --prose rewrites the
		// numbers written after the path (docs/prose-references.md)
		fix = "git memcite relocate --prose --fix " + arg + " (rewrites the line numbers to where the lines are now)"
	default:
		// a moved file or a renamed memory: relocate --prose rewrites the
		// reference's bytes to the new name
		fix = "git memcite relocate --prose --fix " + arg + " (rewrites the name to the new one; check that the sentence still holds)"
	}
	return fmt.Sprintf("line %d of the memory names `%s`: %s. Fix: %s",
		s.Prose.Line, Safe(s.Prose.Text), Safe(s.Reason), fix)
}

// ProseFixLine is one rewrite of relocate --prose.
type ProseFixLine struct {
	Memory   string
	Line     int
	Old, New string
	Written  bool
}

// ProseFixText lists the rewrites of relocate --prose and a summary.
func ProseFixText(w io.Writer, lines []ProseFixLine) error {
	var b strings.Builder
	written := 0
	for _, l := range lines {
		state := "to rewrite"
		if l.Written {
			state, written = "rewritten", written+1
		}
		fmt.Fprintf(&b, "%s:%d: `%s` → `%s` (%s)\n", Safe(l.Memory), l.Line, Safe(l.Old), Safe(l.New), state)
	}
	switch {
	case len(lines) == 0:
		b.WriteString("no moved path, moved lines or renamed memory link in the prose\n")
	case written == len(lines):
		fmt.Fprintf(&b, "%d prose reference(s) rewritten\n", written)
	default:
		fmt.Fprintf(&b, "%d prose reference(s) to rewrite (use --fix)\n", len(lines)-written)
	}
	_, err := io.WriteString(w, b.String())
	return err
}
