//go:build unix

package regfile

import (
	"os"
	"syscall"
)

// Map returns the first size bytes of f, mapped read-only from the page
// cache rather than copied: the whole index or a commit summary costs a
// hook a few page faults so, where a copy costs one for every page of a
// freshly allocated buffer. The bytes must not be written, and stay
// valid for the life of the process: the mapping is never unmapped, as
// parts of it may be kept (git-memcite's files and git's index are
// replaced by a rename, never rewritten in place). A file that cannot be
// mapped, or is empty, is read.
func Map(f *os.File, size int64) ([]byte, error) {
	if size <= 0 || int64(int(size)) != size {
		return ReadAll(f)
	}
	data, err := syscall.Mmap(int(f.Fd()), 0, int(size), syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		return ReadAll(f)
	}
	return data, nil
}
