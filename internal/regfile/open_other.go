//go:build !unix

package regfile

import "os"

// openNonBlocking opens name read-only. Outside Unix no file a path names
// in the file system blocks its open.
func openNonBlocking(name string) (*os.File, error) { return os.Open(name) }
