// Package regfile opens the files git-memcite reads for itself (its
// cache, commit summaries and lock, git's metadata, configuration and hook
// scripts) without ever blocking in open(2): a FIFO, device or socket at
// such a path would otherwise hold the process in the kernel, where no
// signal ends it. Such a file is refused with ErrNotRegular, and callers
// treat it as damaged.
//
// Files the user names (a --baseline, MEMCITE_CONFIG) are not opened
// here: reading a pipe the user passes on purpose is a feature.
package regfile

import (
	"errors"
	"fmt"
	"io"
	"os"
)

// ErrNotRegular is the error (wrapped in a *fs.PathError) for a path that
// names something other than a regular file: a FIFO, a device, a socket
// or a directory.
var ErrNotRegular = errors.New("not a regular file")

// Open opens name for reading when it is a regular file (a symbolic link
// to one is followed). The open itself cannot block (O_NONBLOCK on Unix).
func Open(name string) (*os.File, error) {
	f, err := openNonBlocking(name)
	if err != nil {
		return nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		f.Close()
		return nil, &os.PathError{Op: "open", Path: name, Err: fmt.Errorf("%w (%s)", ErrNotRegular, kind(fi.Mode()))}
	}
	return f, nil
}

// ReadFile reads the regular file name, as os.ReadFile does, refusing
// anything else with ErrNotRegular.
func ReadFile(name string) ([]byte, error) {
	f, err := Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ReadAll(f)
}

// MapFile returns the bytes of the regular file name, mapped where Map
// maps them (read-only, valid for the life of the process), refusing
// anything else with ErrNotRegular.
func MapFile(name string) ([]byte, error) {
	f, err := Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	return Map(f, fi.Size())
}

// ReadAll reads f to its end into one buffer of the size its stat gives
// (and room to see the end), as os.ReadFile does, not into one grown
// from 512 bytes; a file whose stat gives no size is read as it comes.
func ReadAll(f *os.File) ([]byte, error) {
	var size int
	if fi, err := f.Stat(); err == nil && fi.Size() < 1<<40 {
		size = int(fi.Size())
	}
	data := make([]byte, 0, size+512)
	for {
		n, err := f.Read(data[len(data):cap(data)])
		data = data[:len(data)+n]
		if err == io.EOF {
			return data, nil
		}
		if err != nil {
			return data, err
		}
		if len(data) == cap(data) {
			data = append(data, 0)[:len(data)]
		}
	}
}

// kind names a file's type for messages.
func kind(m os.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&os.ModeNamedPipe != 0:
		return "a FIFO"
	case m&os.ModeSocket != 0:
		return "a socket"
	case m&os.ModeDevice != 0:
		return "a device"
	}
	return "type " + m.Type().String()
}
