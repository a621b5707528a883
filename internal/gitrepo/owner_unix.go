//go:build unix

package gitrepo

import (
	"io/fs"
	"os"
	"syscall"
)

// ownedByUs reports whether this user owns fi, as git's safe.directory
// check requires of a repository.
func ownedByUs(fi fs.FileInfo) bool {
	st, ok := fi.Sys().(*syscall.Stat_t)
	return ok && int(st.Uid) == os.Geteuid()
}
