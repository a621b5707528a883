package gitrepo

import (
	"errors"
	"os"

	"golang.org/x/sys/windows"
)

// openLockFile opens (creating) the lock file. It shares delete access, so
// that the holder can remove the file while it holds the lock, as on Unix,
// and opens a reparse point planted at the path itself instead of
// following it. A file whose removal is pending refuses new opens: that is
// errLockBusy, the holder is just releasing.
func openLockFile(p string) (*os.File, error) {
	name, err := windows.UTF16PtrFromString(p)
	if err != nil {
		return nil, err
	}
	h, err := windows.CreateFile(name, windows.GENERIC_READ|windows.GENERIC_WRITE,
		windows.FILE_SHARE_READ|windows.FILE_SHARE_WRITE|windows.FILE_SHARE_DELETE,
		nil, windows.OPEN_ALWAYS, windows.FILE_ATTRIBUTE_NORMAL|windows.FILE_FLAG_OPEN_REPARSE_POINT, 0)
	if err != nil {
		if errors.Is(err, windows.ERROR_ACCESS_DENIED) || errors.Is(err, windows.ERROR_DELETE_PENDING) {
			return nil, errLockBusy
		}
		return nil, &os.PathError{Op: "open", Path: p, Err: err}
	}
	return os.NewFile(uintptr(h), p), nil
}

// lockNB takes an exclusive LockFileEx lock on f without waiting; false
// means another handle holds it. Windows releases the lock when its process
// ends, as flock does. The locked byte lies at 4 GiB, far beyond the pid
// written at the start of the file: byte-range locks on Windows are
// mandatory, and the others must still read who holds the lock.
func lockNB(f *os.File) (bool, error) {
	ol := &windows.Overlapped{OffsetHigh: 1}
	err := windows.LockFileEx(windows.Handle(f.Fd()),
		windows.LOCKFILE_EXCLUSIVE_LOCK|windows.LOCKFILE_FAIL_IMMEDIATELY, 0, 1, 0, ol)
	switch {
	case err == nil:
		return true, nil
	case errors.Is(err, windows.ERROR_LOCK_VIOLATION), errors.Is(err, windows.ERROR_IO_PENDING):
		return false, nil
	}
	return false, err
}
