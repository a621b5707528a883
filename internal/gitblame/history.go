package gitblame

import (
	"encoding/hex"
	"errors"
	"time"
)

// Hash identifies a git object (commit, tree or blob) by its SHA-1.
type Hash [20]byte

// ZeroHash is the absent hash.
var ZeroHash Hash

// IsZero reports whether h is the zero hash.
func (h Hash) IsZero() bool { return h == ZeroHash }

// String returns the full hexadecimal form.
func (h Hash) String() string { return hex.EncodeToString(h[:]) }

// Short returns the first 7 hexadecimal digits.
func (h Hash) Short() string { return h.String()[:7] }

// ParseHash parses a 40-digit hexadecimal object name.
func ParseHash(s string) (Hash, error) {
	var h Hash
	if len(s) != 40 {
		return h, errors.New("gitblame: hash must have 40 hex digits")
	}
	if _, err := hex.Decode(h[:], []byte(s)); err != nil {
		return h, errors.New("gitblame: invalid hex in hash")
	}
	return h, nil
}

// ErrNotFound is returned (wrapped) by History implementations when a
// revision or object does not exist in the repository.
var ErrNotFound = errors.New("object not found")

// Commit is the part of a commit object the tracker needs.
type Commit struct {
	Hash        Hash
	Tree        Hash
	Parents     []Hash
	Author      string
	AuthorEmail string
	AuthorDate  time.Time
	CommitDate  time.Time
	Subject     string
}

// Change is one file-level difference between two trees. From is empty
// for an added file and To is empty for a deleted one; both are set (and
// may differ) for a modification, a rename or a copy.
type Change struct {
	From, To         string
	FromBlob, ToBlob Hash
}

// History is the read access to a repository that the tracker needs.
// internal/gitrepo implements it; tests may implement it
// over any store. Implementations should cache: the tracker calls Entry for
// every tracked path at every commit of the walk.
type History interface {
	// Resolve returns the commit a revision (hash, branch, tag, HEAD)
	// names. Missing revisions return an error wrapping ErrNotFound.
	Resolve(rev string) (Hash, error)
	// Commit reads a commit. Missing commits return an error wrapping
	// ErrNotFound.
	Commit(h Hash) (*Commit, error)
	// Entry returns the blob hash of the regular file at the slash
	// separated path in the given tree, and false if there is none.
	Entry(tree Hash, path string) (Hash, bool, error)
	// Blob returns the content of a blob.
	Blob(h Hash) ([]byte, error)
	// Changes returns the file changes from commit from to commit to. With
	// renames, deleted and added files are paired as renames when they are
	// at least 50% similar (git diff -M's default); without, a rename shows
	// as a deletion and an addition.
	Changes(from, to Hash, renames bool) ([]Change, error)
	// Files returns every regular file of a tree with its blob hash.
	Files(tree Hash) (map[string]Hash, error)
}
