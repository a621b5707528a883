package memfile

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/git-memcite/git-memcite/internal/atomicfile"
	"github.com/git-memcite/git-memcite/internal/regfile"
)

// ErrChanged is returned by WriteFile when the file on disk no longer holds
// the bytes the edit was computed from.
var ErrChanged = errors.New("file changed on disk since it was read; not written")

// fault lets tests fail or crash the write at each of its steps ("create",
// "write", "sync", "chmod", "close", "rename").
var fault = func(step string) error { return nil }

// WriteFile replaces the file at path with data atomically: it writes a
// temporary file in the same directory, syncs it, gives it the original
// mode and moves it over the original (atomicfile.Replace), then syncs the directory. When old
// is not nil, the file must still hold exactly old, or ErrChanged is
// returned and nothing is written. Whatever happens — an error at any step,
// a crash, a full disk — the file holds either the old or the new bytes.
//
// The temporary file is made in the same directory; WriteFileVia makes it
// in a directory of the caller's instead.
func WriteFile(path string, old, data []byte) error {
	return WriteFileVia("", path, old, data)
}

// IsTemporary reports whether name (a base name) is one of WriteFile's
// temporary files: ".<file>.memcite-<number>". One left beside a memory
// file is what a process killed mid-write leaves behind.
func IsTemporary(name string) bool {
	rest, ok := strings.CutPrefix(name, ".")
	if !ok {
		return false
	}
	i := strings.LastIndex(rest, ".memcite-")
	if i <= 0 {
		return false
	}
	num := rest[i+len(".memcite-"):]
	return num != "" && strings.Trim(num, "0123456789") == ""
}

// removeTemporaries removes the temporary files that interrupted writes of
// base left in dir. Callers hold the rewrite lock: no write is under way.
func removeTemporaries(dir, base string) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	prefix := "." + base + ".memcite-"
	for _, e := range ents {
		if n := e.Name(); strings.HasPrefix(n, prefix) && IsTemporary(n) && e.Type().IsRegular() {
			os.Remove(filepath.Join(dir, n))
		}
	}
}

// WriteFileVia is WriteFile with the temporary file made in tmpDir (created
// when missing), such as a directory inside .git where an interrupted write
// leaves nothing that `git add -A` would stage. When tmpDir is "" or on
// another file system than path, the temporary file is made beside path.
// Callers hold the rewrite lock.
func WriteFileVia(tmpDir, path string, old, data []byte) error {
	fi, err := os.Lstat(path)
	mode := os.FileMode(0o644)
	switch {
	case err == nil:
		if !fi.Mode().IsRegular() {
			return fmt.Errorf("write %s: not a regular file", path)
		}
		mode = fi.Mode().Perm()
	case errors.Is(err, os.ErrNotExist) && old == nil:
	default:
		return fmt.Errorf("write %s: %w", path, err)
	}
	if old != nil {
		cur, err := regfile.ReadFile(path)
		if err != nil {
			return fmt.Errorf("write %s: %w", path, err)
		}
		if !bytes.Equal(cur, old) {
			return fmt.Errorf("write %s: %w", path, ErrChanged)
		}
	}
	dir := filepath.Dir(path)
	removeTemporaries(dir, filepath.Base(path))
	tdir := dir
	if tmpDir != "" && os.MkdirAll(tmpDir, 0o700) == nil {
		tdir = tmpDir
	}
	err = replace(tdir, path, mode, data)
	if tdir != dir && atomicfile.CrossDevice(err) {
		// the temporary directory is on another file system
		err = replace(dir, path, mode, data)
	}
	if err != nil {
		return err
	}
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync()
		d.Close()
	}
	return nil
}

// replace writes data to a new temporary file in tdir and renames it to
// path; the temporary file is removed on any failure.
func replace(tdir, path string, mode os.FileMode, data []byte) error {
	if err := fault("create"); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	tmp, err := atomicfile.CreateTemp(tdir, "."+filepath.Base(path)+".memcite-*")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	name := tmp.Name()
	ok := false
	defer func() {
		if !ok {
			tmp.Close()
			os.Remove(name)
		}
	}()
	steps := []struct {
		name string
		do   func() error
	}{
		{"write", func() error { _, err := tmp.Write(data); return err }},
		{"sync", tmp.Sync},
		{"chmod", func() error { return tmp.Chmod(mode) }},
		{"close", tmp.Close},
		{"rename", func() error { return atomicfile.Replace(name, path) }},
	}
	for _, s := range steps {
		if err := fault(s.name); err != nil {
			return fmt.Errorf("write %s: %w", path, err)
		}
		if err := s.do(); err != nil {
			return fmt.Errorf("write %s: %s: %w", path, s.name, err)
		}
	}
	ok = true
	return nil
}
