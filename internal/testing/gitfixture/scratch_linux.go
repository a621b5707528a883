package gitfixture

import "syscall"

// tmpfsMagic is the file system type statfs reports for tmpfs.
const tmpfsMagic = 0x01021994

// ramDir returns /dev/shm when it is a tmpfs with at least free bytes
// available.
func ramDir(free uint64) (string, bool) {
	const dir = "/dev/shm"
	var st syscall.Statfs_t
	if err := syscall.Statfs(dir, &st); err != nil || st.Type != tmpfsMagic {
		return "", false
	}
	return dir, st.Bavail*uint64(st.Bsize) >= free
}

// alive reports whether the process pid exists (signal 0 reaches it, or
// it belongs to another user).
func alive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || err == syscall.EPERM
}
