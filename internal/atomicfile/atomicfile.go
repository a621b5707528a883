// Package atomicfile replaces a file by another in one step, on every
// platform git-memcite builds for: a reader sees the old content or the
// new, never a mixture or nothing.
//
// On Unix that is rename(2). On Windows it is MoveFileEx with
// MOVEFILE_REPLACE_EXISTING; there a file that another process holds open
// without sharing delete access (an editor, a virus scanner, the search
// indexer) refuses the move for a moment, so sharing violations are
// retried for about two seconds before the error is returned.
package atomicfile

import (
	"errors"
	"syscall"
	"time"
)

// Replace moves the file src over dst, replacing it atomically. Both must
// be on the same volume (the caller writes src beside dst).
func Replace(src, dst string) error {
	err := retry(func() error { return rename(src, dst) }, transient, delays, time.Sleep)
	if err == nil {
		forget(src)
	}
	return err
}

// CrossDevice reports whether err, from Replace, says that src and dst are
// on different file systems (EXDEV; ERROR_NOT_SAME_DEVICE on Windows): the
// temporary file must then be made beside dst.
func CrossDevice(err error) bool { return crossDevice(err) }

// delays are the waits between attempts while the error is transient: 2.3
// s in all.
var delays = []time.Duration{
	10 * time.Millisecond, 20 * time.Millisecond, 40 * time.Millisecond, 80 * time.Millisecond,
	150 * time.Millisecond, 300 * time.Millisecond, 600 * time.Millisecond, 1100 * time.Millisecond,
}

// retry runs op, and again after each of delays while its error is
// transient; it returns the last error.
func retry(op func() error, transient func(error) bool, delays []time.Duration, sleep func(time.Duration)) error {
	err := op()
	for _, d := range delays {
		if err == nil || !transient(err) {
			return err
		}
		sleep(d)
		err = op()
	}
	return err
}

// Windows error codes a replace meets while another process has the file
// open: ERROR_ACCESS_DENIED (a handle without delete sharing, or a file
// pending deletion), ERROR_SHARING_VIOLATION, ERROR_LOCK_VIOLATION.
const (
	errorAccessDenied     = syscall.Errno(5)
	errorSharingViolation = syscall.Errno(32)
	errorLockViolation    = syscall.Errno(33)
)

// errorNotSameDevice is what MoveFileEx without MOVEFILE_COPY_ALLOWED
// returns for a move across volumes.
const errorNotSameDevice = syscall.Errno(17)

// windowsCrossDevice is CrossDevice on Windows.
func windowsCrossDevice(err error) bool {
	var errno syscall.Errno
	return errors.As(err, &errno) && errno == errorNotSameDevice
}

// windowsTransient reports whether err, returned by MoveFileEx, says that
// another process has one of the files open: worth another try soon.
func windowsTransient(err error) bool {
	var errno syscall.Errno
	if !errors.As(err, &errno) {
		return false
	}
	return errno == errorAccessDenied || errno == errorSharingViolation || errno == errorLockViolation
}
