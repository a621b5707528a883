//go:build unix

package regfile

import (
	"os"
	"syscall"
)

// openNonBlocking opens name read-only with O_NONBLOCK: opening a FIFO
// with no writer returns at once instead of waiting for one. On a regular
// file the flag changes nothing.
func openNonBlocking(name string) (*os.File, error) {
	return os.OpenFile(name, os.O_RDONLY|syscall.O_NONBLOCK, 0)
}
