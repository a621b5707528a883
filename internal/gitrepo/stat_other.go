//go:build !linux

package gitrepo

import (
	"io/fs"

	"github.com/go-git/go-git/v5/plumbing/format/index"
)

// sameInodeAndCtime: where the platform's stat data is not compared, size
// and mtime decide alone.
func sameInodeAndCtime(fs.FileInfo, *index.Entry) bool { return true }

// statMatches compares a file's size and mtime with what its index entry
// recorded; where inode, device and ctime are not read, these decide.
func statMatches(fi fs.FileInfo, ie indexStat) bool {
	mt := fi.ModTime()
	return uint32(fi.Size()) == ie.size && uint32(mt.Unix()) == ie.mtimeSec && uint32(mt.Nanosecond()) == ie.mtimeNsec
}
