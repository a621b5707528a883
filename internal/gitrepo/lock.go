package gitrepo

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"time"
)

// ErrLocked is returned by Lock when another git-memcite process holds the
// lock for longer than the wait.
var ErrLocked = errors.New("another git-memcite process is rewriting memory files")

// LockPath is where the rewrite lock lives: beside git's own lock files in
// this worktree's git directory.
func (r *Repo) LockPath() string { return filepath.Join(r.GitDir, "memcite.lock") }

// Lock takes the lock that serialises rewrites of memory files in this
// worktree (relocate --fix, add-citation, verify --record …), waiting up to
// wait for a running process to finish. Like git's index.lock it is a file
// created exclusively; the returned function removes it. A lock left by a
// process that no longer exists is taken over.
func (r *Repo) Lock(ctx context.Context, wait time.Duration) (func(), error) {
	p := r.LockPath()
	deadline := time.Now().Add(wait)
	delay := 10 * time.Millisecond
	for {
		f, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if err == nil {
			fmt.Fprintf(f, "%d\n", os.Getpid())
			f.Close()
			return func() { os.Remove(p) }, nil
		}
		if !errors.Is(err, os.ErrExist) {
			return nil, fmt.Errorf("lock %s: %w", p, err)
		}
		if staleLock(p) {
			os.Remove(p)
			continue
		}
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("%w: %s exists; if no git-memcite is running, remove it", ErrLocked, p)
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(delay):
		}
		delay = min(delay*2, 200*time.Millisecond)
	}
}

// staleLock reports whether the lock's owner process is gone.
func staleLock(p string) bool {
	b, err := os.ReadFile(p)
	if err != nil {
		return false
	}
	pid, err := strconv.Atoi(string(trimNL(b)))
	if err != nil || pid <= 0 {
		// being written right now, or garbage: stale only when old
		fi, err := os.Stat(p)
		return err == nil && time.Since(fi.ModTime()) > time.Minute
	}
	proc, err := os.FindProcess(pid)
	if err != nil {
		return true
	}
	return proc.Signal(sigZero) != nil
}

func trimNL(b []byte) []byte {
	for len(b) > 0 && (b[len(b)-1] == '\n' || b[len(b)-1] == '\r') {
		b = b[:len(b)-1]
	}
	return b
}
