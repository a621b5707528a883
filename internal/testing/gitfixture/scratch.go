package gitfixture

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// scratchPrefix begins the name of a scratch directory, followed by the
// id of the process that made it.
const scratchPrefix = "memcite-tests-"

// minScratch is the free space a RAM file system must have for Scratch to
// use it: many times what the suite holds at its peak (about 40 MB).
const minScratch = 512 << 20

// Scratch moves the tests' temporary directory (os.TempDir: t.TempDir,
// testscript's work directories, and the git processes the tests start)
// into a new directory on a RAM file system, /dev/shm on Linux, when
// TMPDIR is not set and one with room is there. The tests create and
// delete many files; some disk file systems (ext4
// without a journal) slow down creating files right after many were
// deleted (on one such machine that was a fifth of the suite's CPU).
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
	sweep(base)
	dir, err := os.MkdirTemp(base, fmt.Sprintf("%s%d-", scratchPrefix, os.Getpid()))
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

// sweep removes the scratch directories in base whose process is gone: a
// test binary that exits without returning from its tests (a panic, a
// timeout, a bad flag) leaves its directory behind, and on a RAM file
// system that is memory until the next boot. A directory whose process
// runs, or whose name says no process, is left alone.
func sweep(base string) {
	ents, err := os.ReadDir(base)
	if err != nil {
		return
	}
	for _, e := range ents {
		rest, ok := strings.CutPrefix(e.Name(), scratchPrefix)
		if !ok || !e.IsDir() {
			continue
		}
		pid, _, ok := strings.Cut(rest, "-")
		n, err := strconv.Atoi(pid)
		if !ok || err != nil || n <= 0 || n == os.Getpid() || alive(n) {
			continue
		}
		os.RemoveAll(filepath.Join(base, e.Name()))
	}
}
