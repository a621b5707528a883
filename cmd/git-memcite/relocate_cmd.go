package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/git-memcite/git-memcite/internal/app"
	"github.com/git-memcite/git-memcite/internal/gitblame"
	"github.com/git-memcite/git-memcite/internal/gitrepo"
	"github.com/git-memcite/git-memcite/internal/relocate"
	"github.com/git-memcite/git-memcite/internal/render"
)

type relocateCmd struct {
	Memories      []string `arg:"" optional:"" name:"memory" help:"Memory id, file path, or file name (default: every memory)."`
	Fix           bool     `name:"fix" help:"Write the relocations into the memory files."`
	AcceptChanged bool     `name:"accept-changed" help:"Also relocate citations whose cited text was edited (review them)."`
	DryRun        bool     `name:"dry-run" help:"Show the edits --fix would make, write nothing."`
	JSON          bool     `name:"json" help:"Print one JSON array with an object per citation."`
	To            revision `name:"to" xor:"target" placeholder:"REV" help:"Relocate to a commit (default: HEAD, then the working tree)."`
	Staged        bool     `name:"staged" xor:"target" help:"Relocate to the index (HEAD, then what is staged)."`
}

func (c *relocateCmd) Help() string {
	return "Follows each cited line from the commit it was verified at (its commit field, else its verified time, " +
		"else the last commit of the memory file) through the history to HEAD and the working tree, and reports " +
		"where it went. Unchanged text that moved is relocated; edited text only with --accept-changed; " +
		"deleted or ambiguous lines are reported, never guessed. " + exitHelp
}

func (c *relocateCmd) Run(ctx context.Context, g *Globals, env *Env) error {
	write := c.Fix && !c.DryRun
	if write {
		// Serialise whole runs, not only their writes: a run that waited
		// then reads the memory files another run has just fixed.
		if repo, err := gitrepo.Discover(repoDir(g)); err == nil {
			unlock, err := app.Lock(ctx, repo)
			if err != nil {
				return err
			}
			defer unlock()
		}
	}
	ws, err := g.open(ctx, SourceFlags{})
	if err != nil {
		return err
	}
	mems, failed := ws.selectMemories(ctx, c.Memories, env.Stderr)
	show, stopProgress := progress(env.Stderr, "relocating")
	r, err := app.Relocate(ctx, ws.repo, mems, app.RelocateOptions{To: string(c.To), Staged: c.Staged,
		AcceptChanged: c.AcceptChanged, Write: write, Progress: show})
	stopProgress()
	if err != nil {
		return err
	}
	if c.JSON {
		err = relocJSON(env.Stdout, r.Items)
	} else {
		err = relocText(env.Stdout, r.Items, g.style(env.Stdout), g.Quiet && c.Fix)
	}
	if err != nil {
		return err
	}
	if c.DryRun {
		for _, f := range r.Files {
			if _, err := fmt.Fprint(env.Stdout, render.UnifiedDiff(f.Memory.Path, f.Old, f.New)); err != nil {
				return err
			}
		}
	}
	if !c.JSON {
		fmt.Fprintln(env.Stdout, relocSummary(r.Items, r.Files, r.Written))
	}
	switch {
	case failed:
		return silent(exitError)
	case r.Stale():
		return silent(exitStale)
	}
	return nil
}

// loc renders a location as path (a whole file), path:17 or path:17-28.
func loc(l gitblame.Location) string {
	if l.Line == 0 {
		return l.Path // a whole file
	}
	if l.LineEnd > l.Line {
		return fmt.Sprintf("%s:%d-%d", l.Path, l.Line, l.LineEnd)
	}
	return fmt.Sprintf("%s:%d", l.Path, l.Line)
}

// relocText prints one line per citation that is not simply valid.
func relocText(w io.Writer, items []relocate.Item, st render.Style, quiet bool) error {
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
			msg = fmt.Sprintf("%s %s (%s)", st.Green("moved to"), loc(r.Location), r.Status)
		case relocate.Accept:
			msg = fmt.Sprintf("%s %s (edited, %.2f similar)", st.Yellow("relocated to"), loc(r.Location), r.Similarity)
		case relocate.Review:
			msg = fmt.Sprintf("%s %s (edited, %.2f similar; relocate with --accept-changed)", st.Yellow("changed at"), loc(r.Location), r.Similarity)
			if it.Err != nil {
				msg = fmt.Sprintf("%s %s (%v)", st.Yellow("moved to"), loc(r.Location), it.Err)
			}
		case relocate.Unresolved:
			if r.Status == 0 { // not tracked: the base note says why
				msg = st.Red("unknown") + ": " + it.BaseNote
			} else if r.Status == gitblame.Ambiguous {
				var cs []string
				for _, c := range r.Candidates {
					cs = append(cs, loc(c))
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
		fmt.Fprintf(w, "%s: %s\n", render.Safe(head), render.Safe(msg))
		if r.Status == 0 {
			continue
		}
		if !quiet && (r.Route != gitblame.RouteStepwise || it.BaseSource != gitblame.BaseCommit) {
			fmt.Fprintf(w, "  %s\n", tracedFrom(it))
		}
		if it.BaseNote != "" {
			fmt.Fprintf(w, "  note: %s\n", render.Safe(it.BaseNote))
		}
		if r.Note != "" {
			fmt.Fprintf(w, "  note: %s\n", render.Safe(r.Note))
		}
	}
	return nil
}

// tracedFrom says in words where the history search for a citation
// started and how.
func tracedFrom(it *relocate.Item) string {
	var b strings.Builder
	b.WriteString("traced from " + baseName(it))
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

func baseName(it *relocate.Item) string {
	if it.Base.IsZero() {
		return "no base commit"
	}
	return it.Base.Short()
}

func relocSummary(items []relocate.Item, files []relocate.File, wrote bool) string {
	count := map[relocate.Action]int{}
	for i := range items {
		count[items[i].Action]++
	}
	moved := count[relocate.Move] + count[relocate.Accept]
	verb := "to relocate (use --fix)"
	if wrote {
		verb = fmt.Sprintf("relocated in %d file(s)", len(files))
	}
	return fmt.Sprintf("%d citation(s) in place, %d %s, %d edited (review), %d gone or ambiguous",
		count[relocate.Keep], moved, verb, count[relocate.Review], count[relocate.Unresolved])
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

func relocJSON(w io.Writer, items []relocate.Item) error {
	out := []relocItemJSON{}
	for i := range items {
		it := &items[i]
		j := relocItemJSON{Memory: it.Memory.Path, Citation: it.Citation.Location(), Action: it.Action}
		if it.Action != relocate.Skip {
			r := &it.Result
			j.Status, j.Route, j.Similarity, j.Snippet, j.Note = r.Status, r.Route, r.Similarity, r.SnippetFound, r.Note
			if r.Location.Path != "" {
				j.Location = loc(r.Location)
			}
			for _, c := range r.Candidates {
				j.Candidates = append(j.Candidates, loc(c))
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
		out = append(out, j)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}
