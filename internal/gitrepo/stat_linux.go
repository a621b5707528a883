package gitrepo

import (
	"io/fs"
	"syscall"
)

// sameInodeAndCtime compares the inode, device and ctime git recorded in
// the index entry with the file's (each truncated to 32 bits, as the index
// stores them; a zero in the index is not compared).
func sameInodeAndCtime(fi fs.FileInfo, ie indexStat) bool {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return false
	}
	if ie.ino != 0 && uint32(st.Ino) != ie.ino {
		return false
	}
	if ie.dev != 0 && uint32(st.Dev) != ie.dev {
		return false
	}
	if ie.ctimeSec == 0 && ie.ctimeNsec == 0 {
		return true
	}
	return uint32(st.Ctim.Sec) == ie.ctimeSec && uint32(st.Ctim.Nsec) == ie.ctimeNsec
}

// statMatches compares a file's stat data with what its index entry
// recorded, as git's ie_match_stat does: size, mtime and ctime (with
// nanoseconds), inode and device (truncated to 32 bits, as the index
// stores them).
func statMatches(fi fs.FileInfo, ie indexStat) bool {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return false
	}
	return uint32(st.Size) == ie.size &&
		uint32(st.Mtim.Sec) == ie.mtimeSec && uint32(st.Mtim.Nsec) == ie.mtimeNsec &&
		uint32(st.Ctim.Sec) == ie.ctimeSec && uint32(st.Ctim.Nsec) == ie.ctimeNsec &&
		uint32(st.Ino) == ie.ino && uint32(st.Dev) == ie.dev
}
