package gitrepo

import (
	"io/fs"
	"syscall"

	"github.com/go-git/go-git/v5/plumbing/format/index"
)

// sameInodeAndCtime compares the inode, device and ctime git recorded in
// the index entry with the file's.
func sameInodeAndCtime(fi fs.FileInfo, ie *index.Entry) bool {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return false
	}
	if ie.Inode != 0 && uint32(st.Ino) != ie.Inode {
		return false
	}
	if ie.Dev != 0 && uint32(st.Dev) != ie.Dev {
		return false
	}
	if ie.CreatedAt.IsZero() {
		return true
	}
	return ie.CreatedAt.Unix() == st.Ctim.Sec && int64(ie.CreatedAt.Nanosecond()) == st.Ctim.Nsec
}
