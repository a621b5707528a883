package gitrepo

import (
	"encoding/binary"
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

// statData is what git's ie_match_stat compares of a file's stat.
type statData struct {
	regular                                  bool
	size, mtimeSec, mtimeNsec, ctime, ctimeN int64
	ino, dev                                 uint64
}

// unchanged reports whether git would call the file unchanged from its
// index entry ie without reading it: a regular file whose size, mtime
// and ctime (with nanoseconds), inode and device match the entry (each
// truncated to 32 bits, as the index stores them), and not racily clean
// (modified at or after indexMtime, the time the index was written).
func (s statData) unchanged(ie indexStat, indexMtime time.Time) bool {
	return s.regular && uint32(s.size) == ie.size &&
		uint32(s.mtimeSec) == ie.mtimeSec && uint32(s.mtimeNsec) == ie.mtimeNsec &&
		uint32(s.ctime) == ie.ctimeSec && uint32(s.ctimeN) == ie.ctimeNsec &&
		uint32(s.ino) == ie.ino && uint32(s.dev) == ie.dev &&
		time.Unix(s.mtimeSec, s.mtimeNsec).Before(indexMtime)
}

// unchanged is statData.unchanged for the stat fi of a file.
func (ids *worktreeIDs) unchanged(fi os.FileInfo, ie indexStat) bool {
	st, ok := fi.Sys().(*syscall.Stat_t)
	return ok && statData{fi.Mode().IsRegular(), st.Size, int64(st.Mtim.Sec), int64(st.Mtim.Nsec),
		int64(st.Ctim.Sec), int64(st.Ctim.Nsec), uint64(st.Ino), uint64(st.Dev)}.unchanged(ie, ids.index.mtime)
}

// unchangedAt is unchanged for the file rel (clean, relative) below the
// directory dir, by an lstat relative to it: the kernel walks the
// components of rel only, not the root's path again, and nothing is
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
	return statData{st.Mode&unix.S_IFMT == unix.S_IFREG, st.Size, int64(st.Mtim.Sec), int64(st.Mtim.Nsec),
		int64(st.Ctim.Sec), int64(st.Ctim.Nsec), uint64(st.Ino), uint64(st.Dev)}.unchanged(ie, ids.index.mtime), true
}

// sameFile reports whether a and b are the stats of one file, unchanged
// between them: same device and inode, size, mtime and ctime.
func sameFile(a, b os.FileInfo) bool {
	sa, ok1 := a.Sys().(*syscall.Stat_t)
	sb, ok2 := b.Sys().(*syscall.Stat_t)
	return ok1 && ok2 && os.SameFile(a, b) && a.Size() == b.Size() && a.ModTime().Equal(b.ModTime()) &&
		sa.Ctim == sb.Ctim
}

// statStampLen is the length of a statStamp.
const statStampLen = 8 * 8

// statStamp encodes what names a directory's or file's state in a
// listing's stamp (liststamp.go): device, inode, mode, size, mtime and
// ctime with nanoseconds. fresh says the mtime or ctime is not before
// before (a change in the same tick of the file system's clock could
// keep them); nil for a FileInfo without stat data.
func statStamp(fi fs.FileInfo, before time.Time) (stamp []byte, fresh bool) {
	if fi == nil {
		return nil, true
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return nil, true
	}
	mtime := time.Unix(int64(st.Mtim.Sec), int64(st.Mtim.Nsec))
	ctime := time.Unix(int64(st.Ctim.Sec), int64(st.Ctim.Nsec))
	b := make([]byte, 0, statStampLen)
	for _, v := range []uint64{uint64(st.Dev), uint64(st.Ino), uint64(st.Mode), uint64(st.Size),
		uint64(st.Mtim.Sec), uint64(st.Mtim.Nsec), uint64(st.Ctim.Sec), uint64(st.Ctim.Nsec)} {
		b = binary.BigEndian.AppendUint64(b, v)
	}
	return b, !mtime.Before(before) || !ctime.Before(before)
}
