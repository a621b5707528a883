package memfile

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// ErrChanged is returned by WriteFile when the file on disk no longer holds
// the bytes the edit was computed from.
var ErrChanged = errors.New("file changed on disk since it was read; not written")

// WriteFile replaces the file at path with data atomically: it writes a
// temporary file in the same directory, syncs it, gives it the original
// mode and renames it over the original. When old is not nil, the file must
// still hold exactly old, or ErrChanged is returned and nothing is written.
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
	if _, err := tmp.Write(data); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := tmp.Sync(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := tmp.Chmod(mode); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := os.Rename(name, path); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	ok = true
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync()
		d.Close()
	}
	return nil
}
