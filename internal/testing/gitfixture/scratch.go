package gitfixture

import (
	"fmt"
	"os"
)

// minScratch is the free space a RAM file system must have for Scratch to
// use it: many times what the suite holds at its peak (about 40 MB).
const minScratch = 512 << 20

// Scratch moves the tests' temporary directory (os.TempDir: t.TempDir,
// testscript's work directories, and the git processes the tests start)
// into a new directory on a RAM file system, /dev/shm on Linux, when
// TMPDIR is not set and one with room is there. The tests create and
// delete tens of thousands of files; some disk file systems (ext4
// without a journal) slow down creating files right after many were
// deleted, and on a RAM file system the suite takes a third less time.
// A TMPDIR set by whoever runs the tests is kept. It returns a function
// that removes the directory and restores the environment.
func Scratch() (done func()) {
	if os.Getenv("TMPDIR") != "" {
		return func() {}
	}
	base, ok := ramDir(minScratch)
	if !ok {
		return func() {}
	}
	dir, err := os.MkdirTemp(base, "memcite-tests-")
	if err != nil {
		fmt.Fprintln(os.Stderr, "gitfixture: scratch directory:", err)
		return func() {}
	}
	os.Setenv("TMPDIR", dir)
	return func() {
		os.Unsetenv("TMPDIR")
		os.RemoveAll(dir)
	}
}
