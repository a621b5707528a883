//go:build !unix && !windows

package gitrepo

import (
	"errors"
	"os"
)

func openLockFile(p string) (*os.File, error) {
	return os.OpenFile(p, os.O_RDWR|os.O_CREATE, 0o644)
}

// lockNB: this platform has no file lock git-memcite knows how to take.
func lockNB(*os.File) (bool, error) {
	return false, errors.ErrUnsupported
}
