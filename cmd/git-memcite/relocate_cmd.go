package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/git-memcite/git-memcite/internal/gitblame"
	"github.com/git-memcite/git-memcite/internal/gitrepo"
	"github.com/git-memcite/git-memcite/internal/memfile"
	"github.com/git-memcite/git-memcite/internal/relocate"
	"github.com/git-memcite/git-memcite/internal/render"
	"github.com/git-memcite/git-memcite/internal/source"
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
	if c.Fix && !c.DryRun {
		// Serialise whole runs, not only their writes: a run that waited
		// then reads the memory files another run has just fixed.
		if repo, err := gitrepo.Discover(repoDir(g)); err == nil {
			unlock, err := repo.Lock(ctx, 2*time.Minute)
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
	if ws.repo == nil {
		return fmt.Errorf("relocate needs a git repository")
	}
	mems, failed := ws.selectMemories(ctx, c.Memories, env.Stderr)
	hist, err := ws.repo.History()
	if err != nil {
		return err
	}
	defer hist.Close()
	rev := "HEAD"
	if c.To != "" {
		rev = string(c.To)
	}
	head, err := hist.Resolve(rev)
	if err != nil {
		return fmt.Errorf("%s: %w", rev, err)
	}
	target := gitblame.Target{Commit: head}
	switch {
	case c.Staged:
		if target.View, err = ws.repo.Index(ctx); err != nil {
			return err
		}
	case c.To == "":
		if target.View, err = ws.repo.Worktree(); err != nil {
			return err
		}
		idx, err := ws.repo.Index(ctx)
		if err != nil {
			return err
		}
		target.CrossFiles = relocate.CrossFiles(idx, mems)
	}
	tracker := gitblame.New(hist)
	show, stopProgress := progress(env.Stderr, "relocating")
	tracker.Progress = show
	items, err := relocate.Track(ctx, hist, tracker, head, target, mems)
	stopProgress()
	if err != nil {
		return err
	}
	opt := relocate.Options{AcceptChanged: c.AcceptChanged, Commit: head.String(), Verified: now(),
		Dirty: dirtyFunc(hist, head, target.View)}
	files, err := relocate.Plan(items, opt)
	if err != nil {
		return err
	}
	if c.JSON {
		err = relocJSON(env.Stdout, items)
	} else {
		err = relocText(env.Stdout, items, g.style(env.Stdout), g.Quiet && c.Fix)
	}
	if err != nil {
		return err
	}
	switch {
	case c.DryRun:
		for _, f := range files {
			if _, err := fmt.Fprint(env.Stdout, render.UnifiedDiff(f.Memory.Path, f.Old, f.New)); err != nil {
				return err
			}
		}
	case c.Fix && len(files) > 0:
		for _, f := range files { // under the lock taken at the start
			p := filepath.Join(ws.top, filepath.FromSlash(f.Memory.Path))
			if err := memfile.WriteFileVia(ws.repo.TempDir(), p, f.Old, f.New); err != nil {
				return fmt.Errorf("%s: %w", f.Memory.Path, err)
			}
		}
	}
	if !c.JSON {
		fmt.Fprintln(env.Stdout, relocSummary(items, files, c.Fix && !c.DryRun))
	}
	stale := false
	for i := range items {
		it := &items[i]
		relocated := it.Action == relocate.Move || it.Action == relocate.Accept
		stale = stale || it.Stale() || (relocated && (!c.Fix || c.DryRun))
	}
	switch {
	case failed:
		return silent(exitError)
	case stale:
		return silent(exitStale)
	}
	return nil
}

// dirtyFunc reports whether a path's content in view differs from the
// commit head (nil view: nothing is dirty).
func dirtyFunc(h *gitrepo.History, head gitblame.Hash, view source.Source) func(string) bool {
	if view == nil {
		return nil
	}
	return func(p string) bool {
		c, err := h.Commit(head)
		if err != nil {
			return true
		}
		want, ok, err := h.Entry(c.Tree, p)
		if err != nil || !ok {
			return true
		}
		b, err := view.ReadFile(p)
		return err != nil || gitblame.BlobHash(b, want) != want
	}
}

// now is the time recorded in relocated citations: SOURCE_DATE_EPOCH when
// set (reproducible output, as for reproducible builds), else the clock.
func now() time.Time {
	if s := os.Getenv("SOURCE_DATE_EPOCH"); s != "" {
		if n, err := strconv.ParseInt(s, 10, 64); err == nil {
			return time.Unix(n, 0).UTC()
		}
	}
	return time.Now()
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
