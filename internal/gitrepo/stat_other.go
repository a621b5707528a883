//go:build !linux

package gitrepo

import (
	"io/fs"
	"os"
	"time"
)

// sameInodeAndCtime: where the platform's stat data is not compared, size
// and mtime decide alone.
func sameInodeAndCtime(fs.FileInfo, indexStat) bool { return true }

// unchanged: where the platform's ctime, inode and device are not
// compared, a same-size edit that keeps the mtime would go unseen, so no
// working-tree file is vouched for by its stat data (the verification
// cache then reads working-tree files; index and commit entries are still
// named by their blobs).
func (ids *worktreeIDs) unchanged(os.FileInfo, indexStat) bool { return false }

// unchangedAt: no working-tree file is vouched for (unchanged).
func (ids *worktreeIDs) unchangedAt(*os.File, string, indexStat) (unchanged, ok bool) {
	return false, true
}

// sameFile reports whether a and b are the stats of one file, unchanged
// between them: where ctime is not compared, never (the index is read
// again).
func sameFile(a, b os.FileInfo) bool { return false }

// statStamp: where the platform's ctime, inode and device are not
// compared, no listing is stamped (liststamp.go).
func statStamp(fs.FileInfo, time.Time) (stamp []byte, fresh bool) { return nil, true }
