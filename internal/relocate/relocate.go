// Package relocate plans the edits that move stale citations of memory
// files to where gitblame found their lines. It is pure: it reads history
// through gitblame.History, and returns items and byte edits
// (memfile.Edit) that the caller writes.
//
// The policy: a wrong relocation is worse than none. Citations whose text
// is unchanged (Unchanged elsewhere, Moved) are relocated; citations whose
// text was edited (Changed) are relocated only with AcceptChanged; Gone and
// Ambiguous citations are reported, never edited.
//
// Track is the one pipeline (relocate, verify --why): each citation gets
// its base (base.go: its commit field, else the commit that wrote it as
// it stands), then its lines go through gitblame's tracker and whole files
// through TrackFile. Three invariants hold for every citation form (mapping
// with or without commit, "path:N", "path:N-M", "path#LN-LM", a bare
// path), and FuzzFixCycle checks them on fuzzed edit scripts:
//
//  1. Idempotence: a second fix with no code change in between changes no
//     byte of any memory file.
//  2. No false alarms: after a fix and a commit, a store that verification
//     calls valid gets no proposed edit. (A citation without a snippet
//     whose lines were deleted is still reported gone: verification
//     cannot see that.)
//  3. One verdict: verification (with line identity) calls a citation of
//     lines valid exactly when the plan keeps it. A shorthand string whose
//     lines were edited in place, the edit accepted, is therefore written
//     as a mapping holding the commit that records the acceptance.
package relocate

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/git-memcite/git-memcite/internal/gitblame"
	"github.com/git-memcite/git-memcite/internal/memfile"
	"github.com/git-memcite/git-memcite/internal/source"
	"github.com/git-memcite/git-memcite/internal/store"
)

// Action is what a plan does with a citation.
type Action int

// Actions.
const (
	// Keep: the citation is where its lines are; nothing to do.
	Keep Action = iota + 1
	// Move: the cited text is unchanged at another place; relocated.
	Move
	// Accept: the text was edited and AcceptChanged was given; relocated.
	Accept
	// Review: the text was edited; not relocated without AcceptChanged.
	Review
	// Unresolved: the lines are gone or ambiguous; reported only.
	Unresolved
	// Skip: a URL, or a citation without a line to follow.
	Skip
)

var actionNames = [...]string{"", "keep", "move", "accept", "review", "unresolved", "skip"}

// String returns the lower-case name of a.
func (a Action) String() string {
	if a < Keep || a > Skip {
		return fmt.Sprintf("Action(%d)", int(a))
	}
	return actionNames[a]
}

// MarshalText renders an Action by name in JSON.
func (a Action) MarshalText() ([]byte, error) { return []byte(a.String()), nil }

// Item is one citation, its tracking input and outcome, and the decision.
type Item struct {
	Memory     *store.Memory
	Citation   *memfile.Citation // the memory file's own (shared, not a copy)
	Base       gitblame.Hash
	BaseSource gitblame.BaseSource
	BaseNote   string
	Result     gitblame.Result
	Action     Action
	// Fields are the citation fields the plan writes (Move, Accept).
	Fields []memfile.Field
	// Err explains why a planned relocation could not be expressed in the
	// file (for example a field a shorthand string cannot hold).
	Err error
	// File marks a citation of a whole file (no lines): TrackFiles follows
	// it, not the line tracker.
	File bool
	// AsMapping: a shorthand string whose lines were edited in place, and
	// the edit accepted, is written as a mapping to hold Fields (the
	// commit that records the acceptance).
	AsMapping bool
}

// Options tune the plan.
type Options struct {
	// AcceptChanged also relocates citations whose text was edited.
	AcceptChanged bool
	// Commit, if set, is recorded in relocated citations (commit field),
	// so that the next relocation starts from it.
	Commit string
	// Verified, if not zero, is recorded in relocated citations.
	Verified time.Time
	// Dirty reports whether a path's content in the target differs from
	// its content at Commit (uncommitted changes): a citation relocated
	// into such a file is not valid at Commit, so its commit field is
	// removed instead of set. Nil means nothing is dirty.
	Dirty func(path string) bool
}

// Prepare lists the citations of mems that can be followed (a path and a
// line) and their anchors. The base of each is its commit field when that
// names a commit, else the commit that wrote the citation as it stands
// (base.go); a citation no commit holds yet is taken as written, or, with
// a snippet, looked for in the target's content.
func Prepare(h gitblame.History, lines Lines, head gitblame.Hash, mems []*store.Memory) ([]Item, error) {
	n := 0
	for _, m := range mems {
		if m.File != nil {
			n += len(m.File.Citations)
		}
	}
	items := make([]Item, 0, n)
	for _, m := range mems {
		if m.File == nil {
			continue
		}
		var mh *memoryHistory
		for j := range m.File.Citations {
			c := &m.File.Citations[j]
			it := Item{Memory: m, Citation: c}
			if c.URL != "" || c.Path == "" || (c.HasLine && c.Line < 1) {
				it.Action = Skip
				items = append(items, it)
				continue
			}
			it.File = !c.HasLine
			base, src, note, err := gitblame.InferBase(h, head, gitblame.BaseHint{Commit: c.Commit})
			if err != nil {
				return nil, fmt.Errorf("relocate: %s: %w", m.Path, err)
			}
			if src != gitblame.BaseCommit {
				if mh == nil {
					if mh, err = loadMemoryHistory(h, head, m.Path, maxVersions, m.File); err != nil {
						return nil, fmt.Errorf("relocate: history of %s: %w", m.Path, err)
					}
				}
				w, err := writtenAt(h, mh, c, len(m.File.Citations), lines)
				if err != nil {
					return nil, fmt.Errorf("relocate: %s: %w", m.Path, err)
				}
				switch {
				case w.cut && c.HasSnippet:
					base, src = gitblame.ZeroHash, gitblame.BaseNone
					note = join(note, HistoryCut(w.base)+": its snippet is looked for")
				case w.cut:
					it.Action = Unresolved
					it.Base, it.BaseNote = w.base, HistoryCut(w.base)
					items = append(items, it)
					continue
				case w.committed:
					base, src = w.base, gitblame.BaseWritten
				case c.HasSnippet:
					base, src = gitblame.ZeroHash, gitblame.BaseNone
					note = join(note, "the citation is not committed yet: its snippet is looked for")
				default:
					it.Action = Keep
					it.BaseNote = join(note, "the citation is not committed yet: taken as written")
					items = append(items, it)
					continue
				}
			}
			it.Base, it.BaseSource, it.BaseNote = base, src, note
			if !base.IsZero() {
				held, err := heldAt(h, lines, base, c)
				if err != nil {
					return nil, fmt.Errorf("relocate: %s: %w", m.Path, err)
				}
				if !held && !c.HasSnippet {
					// wrong when it was written (or written against other
					// content than its commit holds): nothing to follow
					// (a snippet is looked for instead)
					it.Action = Keep
					it.BaseNote = join(note, fmt.Sprintf("not there in %s, where it was written: taken as written", base.Short()))
				}
			}
			items = append(items, it)
		}
	}
	return items, nil
}

// heldAt reports whether commit b holds what c cites: its file, and its
// lines when it has some. A blob that cannot be read as lines (binary, a
// missing object) holds nothing to follow.
func heldAt(h gitblame.History, lines Lines, b gitblame.Hash, c *memfile.Citation) (bool, error) {
	cp, err := source.Clean(c.Path)
	if err != nil {
		return false, nil
	}
	bc, err := h.Commit(b)
	if err != nil {
		if errors.Is(err, gitblame.ErrNotFound) {
			return true, nil // a base the repository lacks: the tracker searches the content
		}
		return false, err
	}
	blob, ok, err := h.Entry(bc.Tree, cp)
	if err != nil || !ok {
		return false, err
	}
	if !c.HasLine {
		return true, nil
	}
	_, ok, err = lines.Line(blob, max(c.Line, c.LineEnd))
	if err != nil {
		return false, nil
	}
	return ok, nil
}

// HistoryCut explains a citation whose writing commit a shallow clone
// cut off.
func HistoryCut(edge gitblame.Hash) string {
	return fmt.Sprintf("history cut by shallow clone at %s; run `git fetch --unshallow`", edge.Short())
}

func join(a, b string) string {
	if a == "" {
		return b
	}
	return a + "; " + b
}

// setResults attaches tracker results, in the order of the line
// citations among items (Follow's anchors), to those items.
func setResults(items []Item, res []gitblame.Result) error {
	k := 0
	for i := range items {
		if !items[i].tracked() || items[i].File {
			continue // no anchor
		}
		if k >= len(res) {
			return fmt.Errorf("relocate: %d results for more anchors", len(res))
		}
		items[i].Result = res[k]
		k++
	}
	if k != len(res) {
		return fmt.Errorf("relocate: %d results for %d anchors", len(res), k)
	}
	return nil
}

// Track is the relocation pipeline every caller uses (relocate, verify
// --why, the hooks' suggestions): each citation of mems with its base
// (Prepare), and where its lines (the tracker) or its file (TrackFiles) are
// at the target. head is the commit the target's content view, if any,
// follows.
func Track(ctx context.Context, h gitblame.History, t *gitblame.Tracker, head gitblame.Hash, target gitblame.Target, mems []*store.Memory) ([]Item, error) {
	items, err := Prepare(h, t, head, mems)
	if err != nil {
		return nil, err
	}
	if err := Follow(ctx, t, target, items); err != nil {
		return nil, err
	}
	return items, nil
}

// Follow tracks items whose Base is set (by Prepare, or by a caller that
// knows it, as a hook knows the commit before the change) to the target:
// lines through the tracker, whole files through TrackFile. Items decided
// before tracking (skipped, taken as written, history cut) are left alone.
func Follow(ctx context.Context, t *gitblame.Tracker, target gitblame.Target, items []Item) error {
	var anchors []gitblame.Anchor
	for i := range items {
		it := &items[i]
		if !it.tracked() || it.File {
			continue
		}
		c := it.Citation
		a := gitblame.Anchor{Path: c.Path, Line: c.Line, LineEnd: c.LineEnd, Base: it.Base}
		if c.HasSnippet {
			a.Snippet = c.Snippet
		}
		anchors = append(anchors, a)
	}
	res, err := t.Track(ctx, anchors, target)
	if err != nil {
		return err
	}
	if err := setResults(items, res); err != nil {
		return err
	}
	return TrackFiles(ctx, t, target, items)
}

// CrossFiles returns, for a working-tree target, the files that may
// receive lines moved in the uncommitted step (gitblame.Target.CrossFiles):
// the files git tracks (tracked; staged new ones included), and any file
// a citation names (cited: clean paths, of every memory followed, in any
// batch); untracked scratch copies never do.
func CrossFiles(tracked func(string) bool, cited map[string]bool) func(string) bool {
	return func(p string) bool {
		return cited[p] || tracked(p)
	}
}

// TrackedIn says which paths git tracks, for CrossFiles: for a working
// tree that can tell (source.Untracker), the paths its index holds;
// otherwise the paths src has (an index source).
func TrackedIn(src source.Source) func(string) bool {
	if u, ok := src.(source.Untracker); ok {
		return func(p string) bool { return !u.Untracked(p) }
	}
	return func(p string) bool {
		_, err := src.Stat(p)
		return err == nil
	}
}

// CitedPaths returns the clean path of every citation of mems, for
// CrossFiles.
func CitedPaths(mems []*store.Memory) map[string]bool {
	cited := map[string]bool{}
	written := map[string]bool{} // paths as written, cleaned once each
	for _, m := range mems {
		if m.File == nil {
			continue
		}
		for _, c := range m.File.Citations {
			if written[c.Path] {
				continue
			}
			written[c.Path] = true
			if p, err := source.Clean(c.Path); err == nil {
				cited[p] = true
			}
		}
	}
	return cited
}

// TrackFiles follows the whole-file citations among items (File) to the
// target: through renames and moves, or to their deletion.
func TrackFiles(ctx context.Context, t *gitblame.Tracker, target gitblame.Target, items []Item) error {
	for i := range items {
		it := &items[i]
		if !it.File || !it.tracked() {
			continue
		}
		r, err := t.TrackFile(ctx, it.Citation.Path, it.Base, target)
		if err != nil {
			return fmt.Errorf("relocate: %s: %s: %w", it.Memory.Path, it.Citation.Path, err)
		}
		it.Result = r
	}
	return nil
}

// File is the planned new content of one memory file.
type File struct {
	Memory *store.Memory
	Old    []byte
	New    []byte
	Items  int // citations relocated in it
}

// Plan decides every item and computes the new memory files.
func Plan(items []Item, opt Options) ([]File, error) {
	byMem := map[*store.Memory][]int{}
	var order []*store.Memory
	for i := range items {
		it := &items[i]
		if !it.tracked() {
			continue
		}
		decide(it, opt)
		if it.Action == Move || it.Action == Accept {
			if _, ok := byMem[it.Memory]; !ok {
				order = append(order, it.Memory)
			}
			byMem[it.Memory] = append(byMem[it.Memory], i)
		}
	}
	var files []File
	for _, m := range order {
		var edits []memfile.Edit
		n := 0
		for _, i := range byMem[m] {
			it := &items[i]
			set := m.File.SetCitation
			if it.AsMapping {
				set = m.File.SetCitationAsMapping
			}
			es, err := set(it.Citation.Index, it.Fields...)
			if err != nil && it.Citation.Form != memfile.FormMapping && !it.AsMapping {
				// A shorthand string holds only path and lines.
				es, err = m.File.SetCitation(it.Citation.Index, pathAndLines(it.Fields)...)
			}
			if err != nil {
				it.Err = err
				it.Action = Review
				continue
			}
			edits = append(edits, es...)
			n++
		}
		m.File.Compact() // the edits parsed its YAML tree again: a store holds no trees
		if len(edits) == 0 {
			continue
		}
		out, _, err := memfile.Rewrite(m.File, edits)
		if err != nil {
			return nil, fmt.Errorf("relocate: %w", err)
		}
		files = append(files, File{Memory: m, Old: m.File.Src, New: out, Items: n})
	}
	return files, nil
}

func pathAndLines(fs []memfile.Field) []memfile.Field {
	var out []memfile.Field
	for _, f := range fs {
		if f.Key == "path" || f.Key == "line" || f.Key == "line_end" {
			out = append(out, f)
		}
	}
	return out
}

// decide sets an item's action and fields from its result.
func decide(it *Item, opt Options) {
	r := &it.Result
	c := it.Citation
	switch r.Status {
	case gitblame.Gone, gitblame.Ambiguous:
		it.Action = Unresolved
		return
	case gitblame.Unchanged:
		it.Action = Keep
		return
	case gitblame.Changed:
		if !opt.AcceptChanged {
			it.Action = Review
			return
		}
		it.Action = Accept
	default:
		it.Action = Move
	}
	loc := r.Location
	var fs []memfile.Field
	if loc.Path != c.Path {
		fs = append(fs, memfile.Field{Key: "path", Value: loc.Path})
	}
	if loc.Line != c.Line {
		fs = append(fs, memfile.Field{Key: "line", Value: loc.Line})
	}
	wasRange := c.LineEnd > 0 && c.LineEnd != c.Line
	switch isRange := loc.LineEnd > loc.Line; {
	case isRange && loc.LineEnd != c.LineEnd:
		fs = append(fs, memfile.Field{Key: "line_end", Value: loc.LineEnd})
	case !isRange && wasRange:
		fs = append(fs, memfile.Field{Key: "line_end", Value: nil})
	}
	if it.Action == Accept && c.HasSnippet && !r.SnippetFound && len(r.Text) == 1 {
		fs = append(fs, memfile.Field{Key: "snippet", Value: strings.TrimSpace(r.Text[0])})
	}
	recorded := false // the commit the lines hold at is written
	switch {
	case opt.Dirty != nil && opt.Dirty(loc.Path):
		if c.Commit != "" {
			fs = append(fs, memfile.Field{Key: "commit", Value: nil})
		}
	case opt.Commit != "":
		fs = append(fs, memfile.Field{Key: "commit", Value: opt.Commit})
		recorded = true
	}
	if !opt.Verified.IsZero() {
		fs = append(fs, memfile.Field{Key: "verified", Value: memfile.Timestamp(opt.Verified.UTC().Format(time.RFC3339))})
	}
	if c.Form != memfile.FormMapping {
		pl := pathAndLines(fs) // a shorthand string holds nothing else
		if len(pl) == 0 && it.Action == Accept && recorded {
			// edited in place: only the commit records the accepted edit
			// (the next verification starts from it), so the string is
			// written as a mapping that holds it
			it.AsMapping = true
			it.BaseNote = join(it.BaseNote, "written as a mapping: a shorthand string cannot hold the commit that records the accepted edit")
		} else {
			fs = pl
		}
	}
	if len(fs) == 0 {
		it.Action = Keep
		return
	}
	it.Fields = fs
}

// tracked reports whether the item was given to the tracker: items decided
// before tracking (skipped, taken as written, history cut) were not.
func (it *Item) tracked() bool { return it.Action == 0 || it.Result.Status != 0 }

// Stale reports whether the item leaves its citation wrong: not kept,
// skipped or relocated.
func (it *Item) Stale() bool {
	return it.Action == Review || it.Action == Unresolved
}
