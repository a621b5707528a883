package memfile

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/git-memcite/git-memcite/internal/atomicfile"
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
func WriteFile(path string, old, data []byte) error {
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
		cur, err := os.ReadFile(path)
		if err != nil {
			return fmt.Errorf("write %s: %w", path, err)
		}
		if !bytes.Equal(cur, old) {
			return fmt.Errorf("write %s: %w", path, ErrChanged)
		}
	}
	dir := filepath.Dir(path)
	if err := fault("create"); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".memcite-*")
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
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync()
		d.Close()
	}
	return nil
}
