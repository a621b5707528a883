//go:build unix

package gitrepo

import (
	"errors"
	"os"
	"syscall"
)

// noFollow keeps the lock from being redirected through a symlink planted
// at its path.
const noFollow = syscall.O_NOFOLLOW

// flockNB takes an exclusive flock on f without waiting; false means
// another open file holds it.
func flockNB(f *os.File) (bool, error) {
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
