package gitrepo

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/go-git/go-billy/v5"
	"github.com/go-git/go-billy/v5/helper/mount"
	"github.com/go-git/go-billy/v5/helper/polyfill"
	"github.com/go-git/go-billy/v5/osfs"

	"github.com/git-memcite/git-memcite/internal/regfile"
)

// maxAlternateDepth is how deep git follows alternates of alternates
// (link_alt_odb_entries in git's object-file.c refuses beyond 5).
const maxAlternateDepth = 5

// alternateDirs lists the object directories the object directory objDir
// borrows from, as git reads objects/info/alternates: one directory a
// line, blank lines and lines starting with '#' skipped, a line starting
// with '"' C-quoted, a relative path relative to objDir; the alternates of
// each alternate follow it (to git's depth), each directory once, and
// objDir itself never.
func alternateDirs(objDir string) []string {
	seen := map[string]bool{canonicalDir(objDir): true}
	var out []string
	var walk func(dir string, depth int)
	walk = func(dir string, depth int) {
		b, err := regfile.ReadFile(filepath.Join(dir, "info", "alternates"))
		if err != nil {
			return
		}
		sc := bufio.NewScanner(bytes.NewReader(b))
		for sc.Scan() {
			line := strings.TrimRight(sc.Text(), "\r")
			if line == "" || line[0] == '#' {
				continue
			}
			if line[0] == '"' {
				u, err := strconv.Unquote(line)
				if err != nil {
					continue
				}
				line = u
			}
			if !filepath.IsAbs(line) {
				line = filepath.Join(dir, line)
			}
			key := canonicalDir(line)
			if seen[key] {
				continue
			}
			seen[key] = true
			if fi, err := os.Stat(line); err != nil || !fi.IsDir() {
				continue // git warns and goes on
			}
			out = append(out, filepath.Clean(line))
			if depth < maxAlternateDepth {
				walk(line, depth+1)
			}
		}
	}
	walk(objDir, 0)
	return out
}

// canonicalDir is dir with symbolic links resolved, to tell whether two
// names are the same directory.
func canonicalDir(dir string) string {
	if p, err := filepath.EvalSymlinks(dir); err == nil {
		return p
	}
	return filepath.Clean(dir)
}

// objectsFS is a file system whose "objects" is the object directory
// dir, for go-git's storage, which reads objects below "objects".
func objectsFS(dir string) billy.Filesystem {
	if filepath.Base(dir) == "objects" {
		return osfs.New(filepath.Dir(dir))
	}
	// a mount gives "objects" any name; polyfill adds what a mount lacks
	// (Chroot, TempFile: the object storage does not use them)
	return polyfill.New(mount.New(osfs.New(dir), "objects", osfs.New(dir)))
}

// noAlternates hides objects/info/alternates from go-git's storage: go-git
// opens the storage of every alternate again for each object it looks up
// there (its index of every pack included), which made a shared clone
// hundreds of times slower than a plain one. gitrepo opens each alternate
// once instead (alternateDirs, objectStore).
type noAlternates struct{ billy.Filesystem }

var alternatesFile = filepath.Join("objects", "info", "alternates")

func (fs noAlternates) hidden(name string) bool {
	return filepath.Clean(name) == alternatesFile
}

// Open implements billy.Filesystem.
func (fs noAlternates) Open(name string) (billy.File, error) {
	if fs.hidden(name) {
		return nil, &os.PathError{Op: "open", Path: name, Err: os.ErrNotExist}
	}
	return fs.Filesystem.Open(name)
}

// OpenFile implements billy.Filesystem.
func (fs noAlternates) OpenFile(name string, flag int, perm os.FileMode) (billy.File, error) {
	if fs.hidden(name) {
		return nil, &os.PathError{Op: "open", Path: name, Err: os.ErrNotExist}
	}
	return fs.Filesystem.OpenFile(name, flag, perm)
}

// Stat implements billy.Filesystem.
func (fs noAlternates) Stat(name string) (os.FileInfo, error) {
	if fs.hidden(name) {
		return nil, &os.PathError{Op: "stat", Path: name, Err: os.ErrNotExist}
	}
	return fs.Filesystem.Stat(name)
}
