package app

import (
	"sync"

	"github.com/git-memcite/git-memcite/internal/gitrepo"
	"github.com/git-memcite/git-memcite/internal/vcache"
)

// Session is one run of a command, created by main and passed to the
// application layer (OpenOptions.Session): it owns what the run opens for
// itself, the verification cache (Cache, opened once the repository is
// found; nil or disabled: no cache) and the repositories the run opens
// through this package (Open, OpenHook), which Close closes. Closing a
// repository stops the git processes it started (git cat-file --batch)
// and waits for them, so that no child process outlives the run unwaited.
type Session struct {
	Cache *vcache.Slot

	mu    sync.Mutex
	repos []*gitrepo.Repo
}

// NewSession returns the session of a run with the cache slot cache.
func NewSession(cache *vcache.Slot) *Session { return &Session{Cache: cache} }

// Close closes the repositories the session opened.
func (s *Session) Close() {
	if s == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, r := range s.repos {
		_ = r.Close()
	}
	s.repos = nil
}

// track remembers repo for Close (no session: the caller closes it).
func (s *Session) track(repo *gitrepo.Repo) {
	if s == nil || repo == nil {
		return
	}
	s.mu.Lock()
	s.repos = append(s.repos, repo)
	s.mu.Unlock()
}

// slot is the session's cache slot, nil without a session.
func (s *Session) slot() *vcache.Slot {
	if s == nil {
		return nil
	}
	return s.Cache
}
