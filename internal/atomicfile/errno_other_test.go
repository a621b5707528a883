//go:build !windows

package atomicfile

import "syscall"

var crossDeviceErrno = syscall.EXDEV
