package app

import (
	"context"
	"errors"
	"fmt"

	"github.com/git-memcite/git-memcite/internal/gitblame"
	"github.com/git-memcite/git-memcite/internal/gitrepo"
	"github.com/git-memcite/git-memcite/internal/relocate"
	"github.com/git-memcite/git-memcite/internal/source"
	"github.com/git-memcite/git-memcite/internal/store"
	"github.com/git-memcite/git-memcite/internal/verify"
)

// ErrWhyNoRepository: --why follows history, which needs a repository.
var ErrWhyNoRepository = errors.New("--why needs a git repository")

// Explanations are the stale citations of a report followed through
// history, by memory file path and citation index.
type Explanations map[string]map[int]*relocate.Item

// Explain follows every stale citation of rep through history (verify
// --why), from its base to the content verify checked: HEAD and the
// working tree (src), the index with staged (src), or the commit rev.
func Explain(ctx context.Context, repo *gitrepo.Repo, src source.Source, rev string, staged bool, rep *verify.Report) (Explanations, error) {
	if repo == nil {
		return nil, ErrWhyNoRepository
	}
	var mems []*store.Memory
	stale := map[*store.Memory]map[int]bool{}
	for i := range rep.Memories {
		mr := &rep.Memories[i]
		for _, c := range mr.Citations {
			if c.Status != verify.Stale {
				continue
			}
			if stale[mr.Memory] == nil {
				stale[mr.Memory] = map[int]bool{}
				mems = append(mems, mr.Memory)
			}
			stale[mr.Memory][c.Citation.Index] = true
		}
	}
	if len(mems) == 0 {
		return nil, nil
	}
	hist, err := repo.History()
	if err != nil {
		return nil, err
	}
	defer hist.Close()
	at := "HEAD"
	if rev != "" {
		at = rev
	}
	head, err := hist.Resolve(at)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", at, err)
	}
	target := gitblame.Target{Commit: head}
	if rev == "" {
		target.View = src
	}
	if rev == "" && !staged {
		target.CrossFiles = relocate.CrossFiles(relocate.TrackedIn(src), relocate.CitedPaths(mems))
	}
	items, err := relocate.Track(ctx, hist, gitblame.New(hist), head, target, mems)
	if err != nil {
		return nil, err
	}
	out := Explanations{}
	for i := range items {
		it := &items[i]
		if !stale[it.Memory][it.Citation.Index] || it.Action == relocate.Skip || it.Action == relocate.Keep {
			continue
		}
		if out[it.Memory.Path] == nil {
			out[it.Memory.Path] = map[int]*relocate.Item{}
		}
		out[it.Memory.Path][it.Citation.Index] = it
	}
	return out, nil
}
