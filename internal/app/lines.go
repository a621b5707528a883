package app

import (
	"context"
	"fmt"

	"github.com/git-memcite/git-memcite/internal/gitblame"
	"github.com/git-memcite/git-memcite/internal/gitrepo"
	"github.com/git-memcite/git-memcite/internal/relocate"
	"github.com/git-memcite/git-memcite/internal/source"
	"github.com/git-memcite/git-memcite/internal/store"
	"github.com/git-memcite/git-memcite/internal/trace"
	"github.com/git-memcite/git-memcite/internal/vcache"
	"github.com/git-memcite/git-memcite/internal/verify"
)

// Verify checks mems against the workspace's source, with the references
// in their prose (Workspace.VerifyOptions), and judges their citations of lines by line
// identity (JudgeLines): the verdict every command gives.
func Verify(ctx context.Context, ws *Workspace, mems []*store.Memory) (*verify.Report, error) {
	// the references in the memories' prose are judged with the citations
	opt, done, err := ws.VerifyOptions()
	if err != nil {
		return nil, err
	}
	defer done()
	// the symbols of the prose are judged while line identity runs
	rep, later, err := verify.Start(ctx, ws.Src, mems, opt)
	if err != nil {
		return nil, err
	}
	// once they are, the prose checker's history is let go: line
	// identity, which goes on, collects less garbage for it
	released := make(chan struct{})
	go func() {
		defer close(released)
		<-later.Judged()
		done()
	}()
	trace.Printf("verify: citations and prose checked but the symbols; line identity")
	lerr := JudgeLines(ctx, ws.Repo, ws.Src, ws.Rev, ws.Staged, opt.Cache, rep)
	trace.Printf("verify: line identity judged")
	<-released
	if err := later.Wait(); err != nil {
		return nil, err
	}
	if lerr != nil {
		return nil, lerr
	}
	trace.Printf("verify: symbols judged")
	return rep, nil
}

// JudgeLines applies line identity (relocate.JudgeReport) to rep, which
// was checked against src: the working tree of repo, its index (staged)
// or the commit rev, with the verification cache (nil: none). Outside a
// repository, or before its first commit, there is no history: rep is
// left as it is.
func JudgeLines(ctx context.Context, repo *gitrepo.Repo, src source.Source, rev string, staged bool, cache *vcache.Cache, rep *verify.Report) error {
	if repo == nil || !relocate.NeedsLines(rep) {
		return nil
	}
	if rev == "" {
		_, born, err := repo.Head()
		if err != nil || !born {
			return nil // no commit yet: nothing has a base
		}
	}
	// the history is opened only when the cache cannot answer
	hist := &relocate.LazyHistory{Open: func() (gitblame.History, error) { return repo.History() }}
	defer func() {
		if h, ok := hist.Opened().(*gitrepo.History); ok && h != nil {
			h.Close()
		}
	}()
	var oid gitrepo.OID
	var err error
	if rev != "" {
		oid, err = repo.ResolveCommit(ctx, rev)
	} else {
		oid, _, err = repo.Head()
	}
	if err != nil {
		return fmt.Errorf("line identity: %w", err)
	}
	head, err := gitblame.ParseHash(oid.String())
	if err != nil {
		return fmt.Errorf("line identity: %s: %w", oid, err)
	}
	view := relocate.ViewWorktree
	switch {
	case rev != "":
		view = relocate.ViewCommit
	case staged:
		view = relocate.ViewIndex
	}
	j := relocate.NewJudge(hist, head, src, view, cache, rep)
	if view == relocate.ViewWorktree {
		// the last step, HEAD to the working tree, compares only the files
		// git status names, and the cited files git does not track (which
		// it does not name when it ignores them): never the whole checkout
		tracked, untracked := relocate.TrackedIn(src), map[string]bool{}
		for p := range relocate.CitedPaths(memoriesOf(rep)) {
			if !tracked(p) {
				untracked[p] = true
			}
		}
		j.Target.Changed = recordChanged(src, untracked, repo.ChangedOnce(ctx, untracked))
	}
	return j.Apply(ctx, rep)
}

// memoriesOf lists the memories of rep.
func memoriesOf(rep *verify.Report) []*store.Memory {
	mems := make([]*store.Memory, len(rep.Memories))
	for i := range rep.Memories {
		mems[i] = rep.Memories[i].Memory
	}
	return mems
}
