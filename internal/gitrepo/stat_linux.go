package gitrepo

import (
	"io/fs"
	"os"
	"runtime"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
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

// unchangedAt is worktreeIDs.unchanged for the file rel (clean, relative)
// below the directory dir, by an lstat relative to it: the kernel walks
// the components of rel only, not the root's path again, and nothing is
// allocated. ok is false when dir cannot be used (the caller then takes
// the lstat of the absolute path).
func (ids *worktreeIDs) unchangedAt(dir *os.File, rel string, ie indexStat) (unchanged, ok bool) {
	if dir == nil {
		return false, false
	}
	var st unix.Stat_t
	err := unix.Fstatat(int(dir.Fd()), rel, &st, unix.AT_SYMLINK_NOFOLLOW)
	runtime.KeepAlive(dir)
	if err != nil {
		return false, true
	}
	mtime := time.Unix(int64(st.Mtim.Sec), int64(st.Mtim.Nsec))
	matches := uint32(st.Size) == ie.size &&
		uint32(st.Mtim.Sec) == ie.mtimeSec && uint32(st.Mtim.Nsec) == ie.mtimeNsec &&
		uint32(st.Ctim.Sec) == ie.ctimeSec && uint32(st.Ctim.Nsec) == ie.ctimeNsec &&
		uint32(st.Ino) == ie.ino && uint32(st.Dev) == ie.dev
	return st.Mode&unix.S_IFMT == unix.S_IFREG && matches && mtime.Before(ids.indexMtime), true
}
