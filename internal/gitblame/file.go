package gitblame

import (
	"context"
	"errors"
	"fmt"
)

// TrackFile follows a whole file (a citation without lines) from base to
// the target: along first parents from base to target.Commit, a file that
// disappears in a step is followed to the rename or move git's rename
// detection pairs it with (50% similarity, as git diff -M; a split goes
// to the part most like it), and is Gone when it was deleted. A base not on
// the target's first-parent chain is diffed against the target in one
// step (RouteOneShot). A target view (index or working tree) is the last
// step: the file must exist there; a file that only the view lacks is Gone
// in the view.
func (t *Tracker) TrackFile(ctx context.Context, path string, base Hash, target Target) (Result, error) {
	res := Result{Base: base, Route: RouteStepwise, Location: Location{Path: path}}
	if base.IsZero() {
		res.Route = RouteContentSearch
		return t.fileInView(res, target, path)
	}
	chain, onChain, err := t.chainFrom(ctx, base, target.Commit)
	if err != nil {
		return Result{}, err
	}
	if !onChain {
		res.Route = RouteOneShot
		chain = []Hash{base, target.Commit}
	}
	cur := path
	for i := 1; i < len(chain); i++ {
		p, err := t.h.Commit(chain[i-1])
		if err != nil {
			return Result{}, err
		}
		c, err := t.h.Commit(chain[i])
		if err != nil {
			return Result{}, err
		}
		if i == 1 {
			if _, ok, err := t.h.Entry(p.Tree, cur); err != nil {
				return Result{}, err
			} else if !ok {
				res.Status, res.Note = Gone, fmt.Sprintf("%s does not exist at base %s", cur, base.Short())
				return res, nil
			}
		}
		if _, ok, err := t.h.Entry(c.Tree, cur); err != nil {
			return Result{}, err
		} else if ok {
			continue
		}
		chs, err := t.h.Changes(p.Hash, c.Hash, true)
		if err != nil {
			return Result{}, err
		}
		next := ""
		for _, ch := range chs {
			if ch.From == cur && ch.To != "" && ch.To != cur {
				next = ch.To
				break
			}
		}
		ev := &Event{Kind: EventMoved, Commit: c}
		if next == "" {
			res.Status, res.GoneIn, res.LastSeen, res.Break = Gone, &Event{Kind: EventDeleted, Commit: c}, p, &Event{Kind: EventDeleted, Commit: c}
			return res, nil
		}
		if res.FirstMove == nil {
			res.FirstMove = ev
		}
		res.Steps++
		cur = next
	}
	res.Location.Path = cur
	return t.fileInView(res, target, cur)
}

// fileInView finishes a whole-file result at the target: the file must
// exist in the target view, or without one in the target commit.
func (t *Tracker) fileInView(res Result, target Target, path string) (Result, error) {
	var ev *Event
	if target.View != nil {
		if _, err := target.View.Stat(path); err != nil {
			ev = &Event{Kind: EventDeleted, View: target.View.Name()}
		}
	} else {
		c, err := t.h.Commit(target.Commit)
		if err != nil {
			return Result{}, err
		}
		if _, ok, err := t.h.Entry(c.Tree, path); err != nil {
			return Result{}, err
		} else if !ok {
			ev = &Event{Kind: EventDeleted, Commit: c}
		}
	}
	switch {
	case ev != nil:
		res.Status, res.GoneIn, res.Break = Gone, ev, ev
	case res.FirstMove != nil:
		res.Status, res.Similarity = Moved, 1
	default:
		res.Status, res.Similarity = Unchanged, 1
	}
	return res, nil
}

// chainFrom lists the first-parent chain from base to head, oldest first,
// and whether base is on it.
func (t *Tracker) chainFrom(ctx context.Context, base, head Hash) ([]Hash, bool, error) {
	var rev []Hash
	for h := head; ; {
		if err := ctx.Err(); err != nil {
			return nil, false, err
		}
		rev = append(rev, h)
		if h == base {
			break
		}
		c, err := t.h.Commit(h)
		if err != nil {
			return nil, false, err
		}
		if len(c.Parents) == 0 {
			return nil, false, nil
		}
		if _, err := t.h.Commit(c.Parents[0]); errors.Is(err, ErrNotFound) {
			return nil, false, nil // shallow edge
		}
		h = c.Parents[0]
	}
	for i, j := 0, len(rev)-1; i < j; i, j = i+1, j-1 {
		rev[i], rev[j] = rev[j], rev[i]
	}
	return rev, true, nil
}
