//go:build unix

package source

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
)

// openRead opens a file for reading without blocking on a FIFO or device.
func openRead(name string) (*os.File, error) {
	return os.OpenFile(name, os.O_RDONLY|syscall.O_NONBLOCK, 0)
}

// openNoFollow opens name unless its last element is a symlink
// (errSlowPath), with one open call: O_NOFOLLOW.
func openNoFollow(name string) (*os.File, error) {
	f, err := os.OpenFile(name, os.O_RDONLY|syscall.O_NONBLOCK|syscall.O_NOFOLLOW, 0)
	if errors.Is(err, syscall.ELOOP) || errors.Is(err, syscall.EMLINK) {
		return nil, errSlowPath
	}
	return f, err
}

// evalLinks returns the path name resolves to with every symlink followed.
// filepath.EvalSymlinks reports a loop with an error of no type of its own
// ("too many links"); the kernel's answer for the same path, ELOOP, tells
// it apart from other failures.
func evalLinks(name string) (string, error) {
	real, err := filepath.EvalSymlinks(name)
	if err != nil {
		if _, serr := os.Stat(name); errors.Is(serr, syscall.ELOOP) {
			return "", ErrSymlinkLoop
		}
	}
	return real, err
}
