//go:build !windows

package atomicfile

import (
	"errors"
	"os"
	"syscall"
)

func rename(src, dst string) error { return os.Rename(src, dst) }

// transient: rename(2) does not fail for a while and then succeed.
func transient(error) bool { return false }

func crossDevice(err error) bool { return errors.Is(err, syscall.EXDEV) }
