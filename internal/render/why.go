package render

import (
	"fmt"
	"io"

	"github.com/git-memcite/git-memcite/internal/gitblame"
	"github.com/git-memcite/git-memcite/internal/relocate"
	"github.com/git-memcite/git-memcite/internal/verify"
)

// WhyOf explains one stale citation followed through history.
func WhyOf(it *relocate.Item) *Why {
	r := &it.Result
	w := &Why{Status: r.Status.String()}
	if !it.Base.IsZero() {
		w.Base = it.Base.String()
	}
	if r.Status == 0 { // not tracked: the base note says why
		w.Status, w.Message = "unknown", it.BaseNote
		return w
	}
	switch b := r.Blame(); {
	case b != nil:
		w.Event = b.Kind.String()
		if c := b.Commit; c != nil {
			w.Commit, w.Author, w.Subject = c.Hash.String(), c.Author, c.Subject
			w.Date = c.AuthorDate.UTC().Format("2006-01-02")
		} else {
			w.View = b.View
		}
		w.Message = fmt.Sprintf("%s in %s", b.Kind, b.Where())
	case r.Status == gitblame.Unchanged:
		w.Message = "the cited lines did not change since " + BaseName(it) + "; the citation was already wrong there"
	case it.BaseNote != "":
		w.Message = "no change found in the history: " + it.BaseNote
	default:
		w.Message = "no change found in the history"
	}
	switch r.Status {
	case gitblame.Moved, gitblame.Changed:
		l := r.Location
		w.Now = &WhyLocation{Path: l.Path, Line: l.Line}
		if l.LineEnd > l.Line {
			w.Now.LineEnd = l.LineEnd
		}
		w.Message += fmt.Sprintf("; now at %s (%s)", Loc(l), r.Status)
	case gitblame.Ambiguous:
		w.Message += "; now ambiguous"
	case gitblame.Gone:
		if r.LastSeen != nil {
			w.LastSeen = r.LastSeen.Hash.String()
			w.Message += fmt.Sprintf("; last seen in %s", r.LastSeen.Hash.Short())
		}
	}
	return w
}

// WhyText prints the explanations of the stale citations of rep, in the
// report's order.
func WhyText(w io.Writer, rep *verify.Report, why WhyIndex) {
	if len(why) == 0 {
		return
	}
	fmt.Fprintln(w, "\nWhy:")
	for i := range rep.Memories {
		mr := &rep.Memories[i]
		for _, c := range mr.StaleCitations() {
			if x := why[mr.Memory.Path][c.Citation.Index]; x != nil {
				fmt.Fprintf(w, "  %s: %s: %s\n", Safe(mr.Memory.Path), Safe(c.Citation.Location()), Safe(x.Message))
			}
		}
	}
}

// VerifyText writes verify's text report: each memory (with quiet, only
// those that need attention), then why its stale citations broke.
func VerifyText(w io.Writer, rep *verify.Report, why WhyIndex, quiet bool, st Style) error {
	n := 0
	for i := range rep.Memories {
		m := &rep.Memories[i]
		if quiet && !m.Stale() && m.Err() == nil {
			continue // -q: only what needs attention
		}
		if n > 0 {
			fmt.Fprintln(w)
		}
		n++
		if err := MemoryText(w, m, st); err != nil {
			return err
		}
	}
	WhyText(w, rep, why)
	return nil
}

// WhyIndexOf explains each followed stale citation (verify --why), by
// memory path and citation index.
func WhyIndexOf(followed map[string]map[int]*relocate.Item) WhyIndex {
	out := WhyIndex{}
	for path, byIndex := range followed {
		out[path] = map[int]*Why{}
		for i, it := range byIndex {
			out[path][i] = WhyOf(it)
		}
	}
	return out
}
