//go:build unix

package gitrepo

import (
	"errors"
	"os"
	"syscall"
)

// openLockFile opens (creating) the lock file; O_NOFOLLOW keeps it from
// being redirected through a symlink planted at its path, O_NONBLOCK from
// waiting on a FIFO or device put there after tryLock's Lstat.
func openLockFile(p string) (*os.File, error) {
	return os.OpenFile(p, os.O_RDWR|os.O_CREATE|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0o644)
}

// lockNB takes an exclusive flock on f without waiting; false means
// another open file holds it.
func lockNB(f *os.File) (bool, error) {
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		switch {
		case err == nil:
			return true, nil
		case errors.Is(err, syscall.EWOULDBLOCK):
			return false, nil
		case errors.Is(err, syscall.EINTR):
			continue
		}
		return false, err
	}
}
