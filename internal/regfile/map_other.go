//go:build !unix

package regfile

import "os"

// Map returns the bytes of f: read (a mapping only on Unix, where
// Windows would keep the file from being replaced while it is mapped).
func Map(f *os.File, size int64) ([]byte, error) { return ReadAll(f) }
