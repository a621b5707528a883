package hookrun

import (
	"context"

	"github.com/git-memcite/git-memcite/internal/gitblame"
	"github.com/git-memcite/git-memcite/internal/githistory"
	"github.com/git-memcite/git-memcite/internal/relocate"
	"github.com/git-memcite/git-memcite/internal/source"
)

// Relocation follows the citations a change made stale (class Introduced)
// from the commit before the change, where they were valid, to after it,
// with gitblame, and plans the moves relocate considers safe: text
// unchanged at another place. Edited text is left for review and vanished
// or ambiguous lines are reported, never guessed.
//
// before and after are revisions; view, when not nil, is the content
// reached from after in a last step (the index being committed, or after a
// squash merge). Only the two endpoints are compared when before is after
// (a commit checked against HEAD): no history is walked.
//
// Only the files of the returned plan whose items moved are rewritten by
// the caller, and only in the working tree.
func Relocation(ctx context.Context, top, before, after string, view source.Source, out *Outcome, opt relocate.Options) ([]relocate.Item, []relocate.File, error) {
	var stale []StaleCitation
	for _, s := range out.Stale {
		c := s.Result.Citation
		if s.Class == Introduced && c.URL == "" && c.Path != "" && c.HasLine && c.Line >= 1 {
			stale = append(stale, s)
		}
	}
	if len(stale) == 0 {
		return nil, nil, nil
	}
	hist, err := githistory.Open(top)
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
	items := make([]relocate.Item, 0, len(stale))
	anchors := make([]gitblame.Anchor, 0, len(stale))
	for _, s := range stale {
		c := s.Result.Citation
		items = append(items, relocate.Item{Memory: s.Memory, Citation: c, Base: base})
		a := gitblame.Anchor{Path: c.Path, Line: c.Line, LineEnd: c.LineEnd, Base: base}
		if c.HasSnippet {
			a.Snippet = c.Snippet
		}
		anchors = append(anchors, a)
	}
	res, err := gitblame.New(hist).Track(ctx, anchors, gitblame.Target{Commit: target, View: view})
	if err != nil {
		return nil, nil, err
	}
	if err := relocate.SetResults(items, res); err != nil {
		return nil, nil, err
	}
	files, err := relocate.Plan(items, opt)
	if err != nil {
		return nil, nil, err
	}
	return items, files, nil
}
