//go:build unix

package source

import "golang.org/x/sys/unix"

// mkfifo makes a named pipe at p.
func mkfifo(p string) error { return unix.Mkfifo(p, 0o644) }
