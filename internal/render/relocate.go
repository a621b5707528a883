package render

import (
	"fmt"
	"io"
	"strings"

	"github.com/git-memcite/git-memcite/internal/gitblame"
	"github.com/git-memcite/git-memcite/internal/relocate"
)

// Loc renders a location as path (a whole file), path:17 or path:17-28.
func Loc(l gitblame.Location) string {
	if l.Line == 0 {
		return l.Path // a whole file
	}
	if l.LineEnd > l.Line {
		return fmt.Sprintf("%s:%d-%d", l.Path, l.Line, l.LineEnd)
	}
	return fmt.Sprintf("%s:%d", l.Path, l.Line)
}

// RelocText prints one line per citation that is not simply valid, with
// where it was traced from and notes; quiet (-q --fix) leaves out the
// citations relocated.
func RelocText(w io.Writer, items []relocate.Item, st Style, quiet bool) error {
	for i := range items {
		it := &items[i]
		if it.Action == relocate.Skip || it.Action == relocate.Keep {
			continue
		}
		if quiet && (it.Action == relocate.Move || it.Action == relocate.Accept) {
			continue // -q --fix: relocated, nothing left to do
		}
		r := &it.Result
		head := fmt.Sprintf("%s: %s", it.Memory.Path, it.Citation.Location())
		var msg string
		switch it.Action {
		case relocate.Move:
			msg = fmt.Sprintf("%s %s (%s)", st.Green("moved to"), Loc(r.Location), r.Status)
		case relocate.Accept:
			msg = fmt.Sprintf("%s %s (edited, %.2f similar)", st.Yellow("relocated to"), Loc(r.Location), r.Similarity)
		case relocate.Review:
			msg = fmt.Sprintf("%s %s (edited, %.2f similar; relocate with --accept-changed)", st.Yellow("changed at"), Loc(r.Location), r.Similarity)
			if it.Err != nil {
				msg = fmt.Sprintf("%s %s (%v)", st.Yellow("moved to"), Loc(r.Location), it.Err)
			}
		case relocate.Unresolved:
			if r.Status == 0 { // not tracked: the base note says why
				msg = st.Red("unknown") + ": " + it.BaseNote
			} else if r.Status == gitblame.Ambiguous {
				var cs []string
				for _, c := range r.Candidates {
					cs = append(cs, Loc(c))
				}
				msg = fmt.Sprintf("%s: %s", st.Red("ambiguous"), strings.Join(cs, ", "))
			} else {
				msg = st.Red("gone")
				if r.GoneIn != nil {
					msg += " in " + r.GoneIn.Where()
				}
				if r.LastSeen != nil {
					msg += fmt.Sprintf("; last seen in %s", r.LastSeen.Hash.Short())
				}
			}
		}
		fmt.Fprintf(w, "%s: %s\n", Safe(head), Safe(msg))
		if r.Status == 0 {
			continue
		}
		if !quiet && (r.Route != gitblame.RouteStepwise || it.BaseSource != gitblame.BaseCommit) {
			fmt.Fprintf(w, "  %s\n", TracedFrom(it))
		}
		if it.BaseNote != "" {
			fmt.Fprintf(w, "  note: %s\n", Safe(it.BaseNote))
		}
		if r.Note != "" {
			fmt.Fprintf(w, "  note: %s\n", Safe(r.Note))
		}
	}
	return nil
}

// TracedFrom says in words where the history search for a citation
// started and how.
func TracedFrom(it *relocate.Item) string {
	var b strings.Builder
	b.WriteString("traced from " + BaseName(it))
	switch it.BaseSource {
	case gitblame.BaseCommit:
		b.WriteString(", the citation's commit")
	case gitblame.BaseVerified:
		b.WriteString(", the last commit before the citation's verified time")
	case gitblame.BaseMemoryFile:
		b.WriteString(", the last commit that changed the memory file")
	case gitblame.BaseWritten:
		b.WriteString(", the commit that wrote the citation")
	}
	switch it.Result.Route {
	case gitblame.RouteOneShot:
		b.WriteString("; compared with the target in one step, as the target does not descend from it (renames made and undone in between are not seen)")
	case gitblame.RouteContentSearch:
		b.WriteString("; that commit is not in this clone, so the cited text was searched for instead")
	}
	return b.String()
}

// BaseName names the base commit of an item (short), or says there is
// none.
func BaseName(it *relocate.Item) string {
	if it.Base.IsZero() {
		return "no base commit"
	}
	return it.Base.Short()
}

// RelocSummary is relocate's closing line, from the number of citations
// of each action; files were planned, and written when wrote is set.
func RelocSummary(count map[relocate.Action]int, files int, wrote bool) string {
	moved := count[relocate.Move] + count[relocate.Accept]
	verb := "to relocate (use --fix)"
	if wrote {
		verb = fmt.Sprintf("relocated in %d file(s)", files)
	}
	return fmt.Sprintf("%d citation(s) in place, %d %s, %d edited (review), %d gone or ambiguous",
		count[relocate.Keep], moved, verb, count[relocate.Review], count[relocate.Unresolved])
}

// RelocCounts counts items by action, for RelocSummary.
func RelocCounts(items []relocate.Item) map[relocate.Action]int {
	count := map[relocate.Action]int{}
	for i := range items {
		count[items[i].Action]++
	}
	return count
}

type relocItemJSON struct {
	Memory      string          `json:"memory"`
	Citation    string          `json:"citation"`
	Action      relocate.Action `json:"action"`
	Status      gitblame.Status `json:"status,omitempty"`
	Location    string          `json:"location,omitempty"`
	Similarity  float64         `json:"similarity,omitempty"`
	Snippet     bool            `json:"snippet_found,omitempty"`
	Candidates  []string        `json:"candidates,omitempty"`
	Route       gitblame.Route  `json:"route,omitempty"`
	Base        string          `json:"base,omitempty"`
	BaseSource  string          `json:"base_source,omitempty"`
	GoneIn      string          `json:"gone_in,omitempty"`
	LastSeen    string          `json:"last_seen,omitempty"`
	Blame       string          `json:"blame,omitempty"`
	Note        string          `json:"note,omitempty"`
	Fields      map[string]any  `json:"fields,omitempty"`
	FieldsError string          `json:"fields_error,omitempty"`
}

// RelocJSON writes one JSON array with an object per citation.
func RelocJSON(w io.Writer, items []relocate.Item) error {
	a := NewJSONArray(w)
	if err := RelocJSONItems(a, items); err != nil {
		return err
	}
	return a.Close()
}

// RelocJSONItems adds an object per citation to a JSON array (RelocJSON,
// a batch at a time).
func RelocJSONItems(a *JSONArray, items []relocate.Item) error {
	for i := range items {
		if err := a.Add(relocItem(&items[i])); err != nil {
			return err
		}
	}
	return nil
}

func relocItem(it *relocate.Item) relocItemJSON {
	j := relocItemJSON{Memory: it.Memory.Path, Citation: it.Citation.Location(), Action: it.Action}
	if it.Action != relocate.Skip {
		r := &it.Result
		j.Status, j.Route, j.Similarity, j.Snippet, j.Note = r.Status, r.Route, r.Similarity, r.SnippetFound, r.Note
		if r.Location.Path != "" {
			j.Location = Loc(r.Location)
		}
		for _, c := range r.Candidates {
			j.Candidates = append(j.Candidates, Loc(c))
		}
		if !it.Base.IsZero() {
			j.Base = it.Base.String()
		}
		j.BaseSource = it.BaseSource.String()
		if r.GoneIn != nil {
			j.GoneIn = r.GoneIn.Where()
		}
		if r.LastSeen != nil {
			j.LastSeen = r.LastSeen.Hash.String()
		}
		if b := r.Blame(); b != nil {
			j.Blame = b.Kind.String() + " in " + b.Where()
		}
	}
	if len(it.Fields) > 0 {
		j.Fields = map[string]any{}
		for _, f := range it.Fields {
			j.Fields[f.Key] = f.Value
		}
	}
	if it.Err != nil {
		j.FieldsError = it.Err.Error()
	}
	return j
}
