//go:build !unix

package gitrepo

import "io/fs"

// ownedByUs: where ownership is not compared, git is asked.
func ownedByUs(fs.FileInfo) bool { return false }
