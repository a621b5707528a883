package gitrepo

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/git-memcite/git-memcite/internal/regfile"
)

// ErrLocked is returned by Lock when another git-memcite process holds the
// lock for longer than the wait.
var ErrLocked = errors.New("another git-memcite process is rewriting memory files")

// errLockBusy: the lock file cannot be opened now because its holder is
// removing it (Windows); the attempt counts as finding the lock held.
var errLockBusy = errors.New("lock file busy")

// LockPath is where the rewrite lock lives: beside git's own lock files in
// this worktree's git directory.
func (r *Repo) LockPath() string { return filepath.Join(r.GitDir, "memcite.lock") }

// TempDir is where memory-file rewrites make their temporary files
// (memfile.WriteFileVia): inside the git directory, so that a write
// interrupted by a crash leaves nothing in the working tree.
func (r *Repo) TempDir() string { return TempDirOf(r.GitDir) }

// TempDirOf is TempDir of the worktree whose git directory is gitDir.
func TempDirOf(gitDir string) string { return filepath.Join(gitDir, "memcite-tmp") }

// removeTemporaries removes what interrupted rewrites left in TempDir.
// Every rewrite holds the lock, so under it nothing there is in use.
func (r *Repo) removeTemporaries() {
	ents, err := os.ReadDir(r.TempDir())
	if err != nil {
		return
	}
	for _, e := range ents {
		os.Remove(filepath.Join(r.TempDir(), e.Name()))
	}
}

// Lock takes the lock that serialises rewrites of memory files in this
// worktree (relocate --fix, add-citation, verify --record …), waiting up to
// wait for a running process to finish; the returned function releases it.
//
// The lock is an exclusive flock(2) on the lock file (LockFileEx on
// Windows, lock_windows.go), so it dies with its process: a crashed or killed git-memcite leaves no lock to take over, and
// there is no window in which two processes that both found a dead owner
// can both hold it. The file names the holder's pid for messages. Release
// removes the file while still holding the lock; a process that opened the
// file just before sees, once it has the lock, that the path no longer
// names what it locked, and starts again.
func (r *Repo) Lock(ctx context.Context, wait time.Duration) (func(), error) {
	p := r.LockPath()
	deadline := time.Now().Add(wait)
	delay := 10 * time.Millisecond
	for {
		f, held, err := tryLock(p)
		if err != nil {
			return nil, fmt.Errorf("lock %s: %w", p, err)
		}
		if f != nil {
			r.removeTemporaries()
			return func() {
				os.Remove(p)
				f.Close()
			}, nil
		}
		if held < 0 {
			continue // the file was replaced under us: try the new one now
		}
		if time.Now().After(deadline) {
			who := ""
			if held > 0 {
				who = fmt.Sprintf(" (pid %d)", held)
			}
			return nil, fmt.Errorf("%w: %s is held%s", ErrLocked, p, who)
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(delay):
		}
		delay = min(delay*2, 200*time.Millisecond)
	}
}

// tryLock makes one attempt at the lock: it returns the locked file, or nil
// and the pid the current holder wrote (0 if unknown, -1 if the lock file
// was replaced meanwhile and the attempt should be repeated at once).
func tryLock(p string) (*os.File, int, error) {
	if fi, err := os.Lstat(p); err == nil && !fi.Mode().IsRegular() {
		return nil, 0, errors.New("not a regular file")
	}
	f, err := openLockFile(p)
	if errors.Is(err, errLockBusy) {
		return nil, 0, nil
	}
	if err != nil {
		return nil, 0, err
	}
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		f.Close()
		return nil, 0, errors.New("not a regular file")
	}
	ok, err := lockNB(f)
	if err != nil {
		f.Close()
		return nil, 0, err
	}
	if !ok {
		b, _ := regfile.ReadFile(p)
		f.Close()
		pid, _ := strconv.Atoi(strings.TrimSpace(string(b)))
		return nil, pid, nil
	}
	// The holder we waited for may have removed the file between our open
	// and our lock: then we hold a lock on a file nobody else will find.
	fi, err1 := f.Stat()
	pi, err2 := os.Lstat(p)
	if err1 != nil || err2 != nil || !os.SameFile(fi, pi) {
		f.Close()
		return nil, -1, nil
	}
	if err := f.Truncate(0); err == nil {
		f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
	}
	return f, 0, nil
}
