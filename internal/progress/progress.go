// Package progress carries how far a long command has got, from the code
// doing the work to whatever shows it: a Counter, created by main and
// passed to the work (app's options), which the work advances and a
// status line reads. Nothing here prints.
package progress

import "sync"

// Counter is how far a piece of work has got: done of total units, named
// by what ("memories").
type Counter struct {
	mu          sync.Mutex
	what        string
	done, total int
}

// Set starts (or restarts) counting total units named by what.
func (c *Counter) Set(what string, total int) {
	if c == nil {
		return
	}
	c.mu.Lock()
	c.what, c.done, c.total = what, 0, total
	c.mu.Unlock()
}

// Add counts n units done.
func (c *Counter) Add(n int) {
	if c == nil {
		return
	}
	c.mu.Lock()
	c.done += n
	c.mu.Unlock()
}

// Get returns what is counted and how far it got; what is "" before Set.
func (c *Counter) Get() (what string, done, total int) {
	if c == nil {
		return "", 0, 0
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.what, c.done, c.total
}
