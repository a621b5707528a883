package source

import (
	"errors"
	"fmt"
	"os"

	"golang.org/x/sys/windows"
)

// openRead opens a file for reading. Windows has no FIFOs or devices in
// the file tree; Open checks the result is a regular file.
func openRead(name string) (*os.File, error) { return os.Open(name) }

// openNoFollow opens name unless its last element is a symlink, junction
// or other reparse point (errSlowPath). Windows has no O_NOFOLLOW, so it is
// Lstat, open and a same-file check.
func openNoFollow(name string) (*os.File, error) { return openSameFile(name) }

// evalLinks returns the path name resolves to, the way the file system
// resolves it when opening: symlinks, junctions and mount points followed
// (filepath.EvalSymlinks leaves junctions alone). It is the final path of
// a handle on name, without the \\?\ prefix.
func evalLinks(name string) (string, error) {
	p, err := windows.UTF16PtrFromString(name)
	if err != nil {
		return "", err
	}
	h, err := windows.CreateFile(p, 0,
		windows.FILE_SHARE_READ|windows.FILE_SHARE_WRITE|windows.FILE_SHARE_DELETE,
		nil, windows.OPEN_EXISTING, windows.FILE_FLAG_BACKUP_SEMANTICS, 0)
	if err != nil {
		if errors.Is(err, windows.ERROR_CANT_RESOLVE_FILENAME) {
			return "", ErrSymlinkLoop
		}
		return "", &os.PathError{Op: "open", Path: name, Err: err}
	}
	defer windows.CloseHandle(h)
	const flags = 0 // FILE_NAME_NORMALIZED | VOLUME_NAME_DOS
	buf := make([]uint16, windows.MAX_PATH)
	for {
		n, err := windows.GetFinalPathNameByHandle(h, &buf[0], uint32(len(buf)), flags)
		if err != nil {
			return "", fmt.Errorf("final path of %s: %w", name, err)
		}
		if int(n) < len(buf) {
			return trimLongPrefix(windows.UTF16ToString(buf[:n])), nil
		}
		buf = make([]uint16, n+1)
	}
}
