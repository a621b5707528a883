//go:build !linux

package gitfixture

// ramDir reports that no RAM file system is known on this system.
func ramDir(uint64) (string, bool) { return "", false }

// alive reports true: no scratch directory is swept here.
func alive(int) bool { return true }
