//go:build !linux

package gctune

// hugePages does nothing but on Linux.
func hugePages(int) bool { return false }
