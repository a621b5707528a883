package app

import (
	"context"
	"sync"

	"github.com/git-memcite/git-memcite/internal/gitrepo"
)

// runRepos are the repositories a run opened (WithRun).
type runRepos struct {
	mu    sync.Mutex
	repos []*gitrepo.Repo
}

type runReposKey struct{}

// WithRun returns a context for one run of a command and the function
// that ends it: the repositories the run opens through this package
// (Open, OpenHook) are closed then, which stops the git
// processes they started (git cat-file --batch) and waits for them, so
// that no child process outlives the run unwaited.
func WithRun(ctx context.Context) (context.Context, func()) {
	rr := &runRepos{}
	return context.WithValue(ctx, runReposKey{}, rr), func() {
		rr.mu.Lock()
		defer rr.mu.Unlock()
		for _, r := range rr.repos {
			_ = r.Close()
		}
		rr.repos = nil
	}
}

// track remembers repo for the end of the run in ctx (none: the caller
// closes it).
func track(ctx context.Context, repo *gitrepo.Repo) {
	if rr, ok := ctx.Value(runReposKey{}).(*runRepos); ok && repo != nil {
		rr.mu.Lock()
		rr.repos = append(rr.repos, repo)
		rr.mu.Unlock()
	}
}
