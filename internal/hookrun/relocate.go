package hookrun

import (
	"bytes"
	"context"

	"github.com/git-memcite/git-memcite/internal/gitblame"
	"github.com/git-memcite/git-memcite/internal/gitrepo"
	"github.com/git-memcite/git-memcite/internal/memfile"
	"github.com/git-memcite/git-memcite/internal/relocate"
	"github.com/git-memcite/git-memcite/internal/source"
	"github.com/git-memcite/git-memcite/internal/store"
	"github.com/git-memcite/git-memcite/internal/verify"
)

// Relocation follows the citations a change made stale (class Introduced)
// from the commit before the change, where they were valid, to after it,
// with gitblame, and plans the moves relocate considers safe: text
// unchanged at another place. Edited text is left for review and vanished
// or ambiguous lines are reported, never guessed.
//
// With drift (not nil), it also follows the citations that still verify
// but cannot tell by themselves that the change moved their lines: those
// without a snippet, in memory files the change does not touch, whose
// cited file it changes. Those whose lines did not stay in place go to out.Drifted, and
// the safe moves among them into the plan too.
//
// before and after are revisions; view, when not nil, is the content
// reached from after in a last step (the index being committed, or after a
// squash merge). Only the two endpoints are compared when before is after
// (a commit checked against HEAD): no history is walked.
//
// Only the files of the returned plan whose items moved are rewritten by
// the caller, and only in the working tree.
func Relocation(ctx context.Context, repo *gitrepo.Repo, before, after string, view source.Source, out *Outcome, drift *Drift, opt relocate.Options) ([]relocate.Item, []relocate.File, error) {
	var stale []StaleCitation
	for _, s := range out.Stale {
		c := s.Result.Citation
		if s.Class == Introduced && c.URL == "" && c.Path != "" && c.HasLine && c.Line >= 1 {
			stale = append(stale, s)
		}
	}
	if drift != nil && (out.Report == nil || (drift.Staged != nil && !drift.touches(out.Report))) {
		drift = nil // nothing it could find
	}
	if len(stale) == 0 && drift == nil {
		return nil, nil, nil
	}
	hist, err := repo.History()
	if err != nil {
		return nil, nil, err
	}
	defer hist.Close()
	base, err := hist.Resolve(before)
	if err != nil {
		return nil, nil, err
	}
	target, err := hist.Resolve(after)
	if err != nil {
		return nil, nil, err
	}
	// the commit before the change is every citation's base: the hook
	// asks where the change moved what was valid before it
	items := make([]relocate.Item, 0, len(stale))
	add := func(m *store.Memory, c *memfile.Citation) {
		items = append(items, relocate.Item{Memory: m, Citation: c, Base: base, File: !c.HasLine})
	}
	for _, s := range stale {
		add(s.Memory, s.Result.Citation)
	}
	nStale := len(items)
	if drift != nil {
		cands, err := driftCandidates(hist, base, target, drift.Staged, out.Report)
		if err != nil {
			return nil, nil, err
		}
		for _, d := range cands {
			add(d.Memory, d.Citation)
		}
	}
	if len(items) == 0 {
		return nil, nil, nil
	}
	if err := relocate.Follow(ctx, gitblame.New(hist), gitblame.Target{Commit: target, View: view}, items); err != nil {
		return nil, nil, err
	}
	kept := append([]relocate.Item(nil), items[:nStale]...)
	for _, it := range items[nStale:] {
		if it.Result.Status != gitblame.Unchanged {
			kept = append(kept, it)
		}
	}
	files, err := relocate.Plan(kept, opt)
	if err != nil {
		return nil, nil, err
	}
	out.Drifted = append(out.Drifted, kept[nStale:]...)
	return kept, files, nil
}

// Drift asks Relocation to follow the citations that still verify but
// have no snippet. Staged, when not nil, lists the paths a commit changes
// (from IndexChanges): those are compared instead of the trees of before
// and after.
type Drift struct {
	Staged map[string]bool
}

// touches reports whether a snippet-less valid citation of rep cites a
// staged path (from a memory file that is not staged).
func (d *Drift) touches(rep *verify.Report) bool {
	for i := range rep.Memories {
		mr := &rep.Memories[i]
		if mr.Memory.File == nil || d.Staged[mr.Memory.Path] {
			continue
		}
		for _, cr := range mr.Citations {
			if driftable(cr) && d.Staged[cleanPath(cr.Citation.Path)] {
				return true
			}
		}
	}
	return false
}

// driftable: a valid citation of a line without a snippet.
func driftable(cr verify.CitationResult) bool {
	c := cr.Citation
	return cr.Status == verify.Valid && !c.HasSnippet && c.HasLine && c.Line >= 1 && c.URL == "" && c.Path != ""
}

// cleanPath is p in canonical form ("./a//b.go" is "a/b.go"), as git
// names paths; p itself if it is not a valid path.
func cleanPath(p string) string {
	if c, err := source.Clean(p); err == nil {
		return c
	}
	return p
}

// HasDriftable reports whether rep holds a valid citation without a
// snippet (one that drift could concern).
func HasDriftable(rep *verify.Report) bool {
	if rep == nil {
		return false
	}
	for i := range rep.Memories {
		for _, cr := range rep.Memories[i].Citations {
			if driftable(cr) {
				return true
			}
		}
	}
	return false
}

// driftCandidates lists the valid citations of rep that a change from base
// to target could have moved without verify noticing: a line and no
// snippet, in a memory file identical at base, citing a file that differs
// between base and target (staged: between base and the commit being
// made), whose cited lines are not all braces and blank lines.
func driftCandidates(hist *gitrepo.History, base, target gitblame.Hash, staged map[string]bool, rep *verify.Report) ([]relocate.Item, error) {
	bc, err := hist.Commit(base)
	if err != nil {
		return nil, err
	}
	tc, err := hist.Commit(target)
	if err != nil {
		return nil, err
	}
	bl := &baseLines{hist: hist, tree: bc.Tree, blobs: map[gitblame.Hash][][]byte{}}
	var out []relocate.Item
	for i := range rep.Memories {
		mr := &rep.Memories[i]
		m := mr.Memory
		if m.File == nil || mr.Err() != nil || staged[m.Path] {
			continue
		}
		memSame := -1 // unknown until a citation needs it
		for _, cr := range mr.Citations {
			c := cr.Citation
			if !driftable(cr) {
				continue
			}
			p := cleanPath(c.Path)
			if staged != nil {
				if !staged[p] {
					continue
				}
			} else {
				ob, ok1, err := hist.Entry(bc.Tree, p)
				if err != nil {
					return nil, err
				}
				nb, ok2, err := hist.Entry(tc.Tree, p)
				if err != nil {
					return nil, err
				}
				if !ok1 || (ok2 && ob == nb) {
					continue // new at base's side, or not changed
				}
			}
			if ok, err := bl.distinctive(p, c); err != nil || !ok {
				if err != nil {
					return nil, err
				}
				continue // braces and blank lines cannot be followed alone
			}
			if memSame < 0 {
				mb, ok, err := hist.Entry(bc.Tree, m.Path)
				if err != nil {
					return nil, err
				}
				memSame = 0
				if ok && mb == gitblame.BlobHash(m.File.Src, mb) {
					memSame = 1
				}
			}
			if memSame == 0 {
				break // the change edits the memory: its citations are as written
			}
			out = append(out, relocate.Item{Memory: m, Citation: c})
		}
	}
	return out, nil
}

// baseLines reads files of one tree split into lines, each blob once:
// the citations of a memory store often share their files.
type baseLines struct {
	hist  *gitrepo.History
	tree  gitblame.Hash
	blobs map[gitblame.Hash][][]byte
}

// distinctive reports whether the lines c cites in file p hold at least
// one line the tracker can follow on its own (not a brace or a blank
// line).
func (bl *baseLines) distinctive(p string, c *memfile.Citation) (bool, error) {
	h, ok, err := bl.hist.Entry(bl.tree, p)
	if err != nil || !ok {
		return false, err
	}
	lines, ok := bl.blobs[h]
	if !ok {
		b, err := bl.hist.Blob(h)
		if err != nil {
			return false, err
		}
		lines = bytes.Split(b, []byte("\n"))
		bl.blobs[h] = lines
	}
	for n := c.Line; n <= max(c.LineEnd, c.Line) && n <= len(lines); n++ {
		if !gitblame.Trivial(string(lines[n-1])) {
			return true, nil
		}
	}
	return false, nil
}
