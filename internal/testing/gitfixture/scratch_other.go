//go:build !linux

package gitfixture

// ramDir reports that no RAM file system is known on this system.
func ramDir(uint64) (string, bool) { return "", false }
