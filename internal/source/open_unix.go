//go:build unix

package source

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
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
func evalLinks(name string) (string, error) {
	real, err := filepath.EvalSymlinks(name)
	if err != nil && strings.Contains(err.Error(), "too many links") {
		return "", ErrSymlinkLoop
	}
	return real, err
}
