//go:build !unix

package source

import "errors"

// mkfifo: this platform has no named pipes in the file tree.
func mkfifo(string) error { return errors.ErrUnsupported }
