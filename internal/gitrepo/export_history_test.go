package gitrepo

import "github.com/git-memcite/git-memcite/internal/gitblame"

// UsesCatFile reports whether blobs are read through git cat-file.
func (r *History) UsesCatFile() bool { return r.cat != nil && !r.catOff && r.cat.proc != nil }

// GoGitBlobForTest reads a blob of r through go-git only.
func (*History) GoGitBlobForTest(r *History, h gitblame.Hash) ([]byte, error) { return r.goGitBlob(h) }
