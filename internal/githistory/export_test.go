package githistory

import "github.com/git-memcite/git-memcite/internal/gitblame"

// UsesCatFile reports whether blobs are read through git cat-file.
func (r *Repo) UsesCatFile() bool { return r.cat != nil }

// GoGitBlobForTest reads a blob of r through go-git only.
func (*Repo) GoGitBlobForTest(r *Repo, h gitblame.Hash) ([]byte, error) { return r.goGitBlob(h) }
