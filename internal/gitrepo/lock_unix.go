//go:build unix

package gitrepo

import "syscall"

var sigZero = syscall.Signal(0)
