package vcache

import (
	"path/filepath"
	"strings"
	"sync"
)

// Slot is where a run's cache goes once the repository is known: the
// command line creates it (disabled by --no-cache or MEMCITE_CACHE=off)
// and hands it to the run (app.Session), which opens it when it has
// found the git directory; the command line saves it when the command is
// done. Whoever loads or verifies memories is given the open cache
// (Slot.Cache) explicitly.
type Slot struct {
	mu     sync.Mutex
	off    bool
	opened bool
	ready  chan struct{} // closed once the cache opened in the background is in c
	c      *Cache
	tmp    string
}

// Disable turns caching off for the run.
func (s *Slot) Disable() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.off, s.c = true, nil
}

// Disabled reports whether caching is off for the run.
func (s *Slot) Disabled() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.off
}

// Dir is the cache directory of a worktree's git directory.
func Dir(gitDir string) string { return filepath.Join(gitDir, "memcite") }

// Open opens the cache of the git directory gitDir (the worktree's own:
// each worktree has its own index), writing temporary files in tmpDir.
// Only the first call opens; a disabled slot stays empty. The file is
// read and decoded in the background, while the caller goes on reading
// the repository (the index, git config): Cache waits for it.
func (s *Slot) Open(gitDir, tmpDir, tool string) {
	if s == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.off || s.opened {
		return
	}
	s.opened, s.tmp = true, tmpDir
	ready := make(chan struct{})
	s.ready = ready
	go func() {
		defer close(ready)
		c := Open(Dir(gitDir), tool)
		s.mu.Lock()
		defer s.mu.Unlock()
		if !s.off {
			s.c = c
		}
	}()
}

// Cache returns the open cache, or nil; it waits for an opening under
// way.
func (s *Slot) Cache() *Cache {
	if s == nil {
		return nil
	}
	s.mu.Lock()
	ready := s.ready
	s.mu.Unlock()
	if ready != nil {
		<-ready
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.c
}

// Save writes the cache if it was opened and changed.
func (s *Slot) Save() error {
	c := s.Cache()
	if c == nil {
		return nil
	}
	return c.Save(s.tmp)
}

// NewSlot returns a slot holding the cache c, already open (nil: no
// cache).
func NewSlot(c *Cache) *Slot { return &Slot{opened: true, c: c} }

// OffReason says what turns the cache off for this run: "--no-cache"
// when noCache (the flag), "MEMCITE_CACHE=<v>" when env is off, 0, false
// or no (any case); "" when the cache is on.
func OffReason(noCache bool, env string) string {
	if noCache {
		return "--no-cache"
	}
	switch strings.ToLower(env) {
	case "off", "0", "false", "no":
		return "MEMCITE_CACHE=" + env
	}
	return ""
}
