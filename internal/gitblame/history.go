package gitblame

import (
	"crypto/sha1"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"hash"
	"strconv"
	"time"
)

// Hash identifies a git object (commit, tree or blob) by its object name:
// 20 bytes in a SHA-1 repository, 32 in a SHA-256 one. It is comparable
// (a map key) and copied by value; the zero Hash is the absent one.
type Hash struct {
	b [32]byte
	n uint8 // 0 (absent), 20 or 32
}

// Object name sizes in bytes.
const (
	SHA1Size   = 20
	SHA256Size = 32
)

// ZeroHash is the absent hash.
var ZeroHash Hash

// NewHash returns the hash with the raw object name b (20 or 32 bytes).
// Any other length gives the zero hash.
func NewHash(b []byte) Hash {
	var h Hash
	if len(b) != SHA1Size && len(b) != SHA256Size {
		return h
	}
	h.n = uint8(copy(h.b[:], b))
	return h
}

// IsZero reports whether h is the zero hash.
func (h Hash) IsZero() bool { return h.n == 0 }

// Size is the length of the raw object name: 20 (SHA-1), 32 (SHA-256),
// or 0 for the zero hash.
func (h Hash) Size() int { return int(h.n) }

// Bytes returns the raw object name.
func (h Hash) Bytes() []byte { return h.b[:h.n:h.n] }

// String returns the full hexadecimal form (40 zeros for the zero hash, as
// git writes an absent object).
func (h Hash) String() string {
	if h.n == 0 {
		return "0000000000000000000000000000000000000000"
	}
	return hex.EncodeToString(h.b[:h.n])
}

// Short returns the first 7 hexadecimal digits.
func (h Hash) Short() string { return h.String()[:7] }

// ParseHash parses a full hexadecimal object name: 40 digits (SHA-1) or 64
// (SHA-256).
func ParseHash(s string) (Hash, error) {
	var h Hash
	if len(s) != 2*SHA1Size && len(s) != 2*SHA256Size {
		return h, errors.New("gitblame: hash must have 40 or 64 hex digits")
	}
	if _, err := hex.Decode(h.b[:], []byte(s)); err != nil {
		return Hash{}, errors.New("gitblame: invalid hex in hash")
	}
	h.n = uint8(len(s) / 2)
	return h, nil
}

// HashOrZero is ParseHash's hash, or ZeroHash for "" or anything that
// does not parse (a value read back from a cache).
func HashOrZero(s string) Hash {
	h, err := ParseHash(s)
	if err != nil {
		return ZeroHash
	}
	return h
}

// BlobHash returns the git object name of a blob with content b, as git
// hash-object computes it, in the object format of like (SHA-256 when like
// is a 32-byte name, SHA-1 otherwise): pass any object name of the
// repository the blob is compared in.
func BlobHash(b []byte, like Hash) Hash {
	var s hash.Hash
	if like.n == SHA256Size {
		s = sha256.New()
	} else {
		s = sha1.New()
	}
	s.Write([]byte("blob " + strconv.Itoa(len(b)) + "\x00"))
	s.Write(b)
	return NewHash(s.Sum(nil))
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

// BlobsReader is what a History may add: many blobs read in one round
// trip to git. f is called for each, in order, with its content (valid
// only until f returns) or the error reading it.
type BlobsReader interface {
	Blobs(hs []Hash, f func(i int, data []byte, err error))
}

// ReadBlobs reads blobs through h: at once when it is a BlobsReader,
// else one by one.
func ReadBlobs(h History, hs []Hash, f func(i int, data []byte, err error)) {
	if br, ok := h.(BlobsReader); ok {
		br.Blobs(hs, f)
		return
	}
	for i, x := range hs {
		data, err := h.Blob(x)
		f(i, data, err)
	}
}

// CommitsReader is what a History may add: many commits read in one
// round trip to git, for the Commit calls that follow (an error is
// reported by Commit).
type CommitsReader interface {
	ReadCommits(hs []Hash)
}

// ReadCommits reads commits through h at once, when it is a
// CommitsReader, for the Commit calls that follow.
func ReadCommits(h History, hs []Hash) {
	if cr, ok := h.(CommitsReader); ok && len(hs) > 0 {
		cr.ReadCommits(hs)
	}
}

// EntryAter is what a History may add: Entry of a commit's tree
// answered without reading the tree (internal/gitrepo answers from the
// log of the whole first-parent chain, once it was read); known is false
// when it cannot answer, and Entry is asked then.
type EntryAter interface {
	EntryAt(commit Hash, path string) (blob Hash, ok, known bool, err error)
}

// PathHistory is what a History may add so that a walk over a long
// first-parent chain need not read every commit of it: the chain's commit
// names, and which of its commits change given paths, as git answers both
// (git prunes by pathspec in its own tree walk). internal/gitrepo
// implements it. The tracker then reads and steps through only the
// commits that change a path holding tracked lines, which are the only
// ones where a step can change anything. A History without it, or whose
// methods return an error wrapping errors.ErrUnsupported, is walked
// commit by commit.
type PathHistory interface {
	// Chain lists head's first-parent chain, newest (head) first: the
	// commits Commit's first parents lead through, down to the first one
	// until accepts (until nil: none), else to the root commit or the
	// shallow boundary.
	Chain(head Hash, until func(Hash) bool) ([]Hash, error)
	// Touching lists, in any order, the commits C after oldest on head's
	// first-parent chain (oldest is on it) where Entry of some path of
	// paths in C's tree may differ from Entry in C's first parent's (the
	// file added, deleted, modified, or its type changed), each with
	// those paths. Listing more commits or paths costs time, never a
	// result; listing fewer would lose steps.
	Touching(oldest, head Hash, paths []string) ([]Touch, error)
}

// Touch is one commit of PathHistory.Touching and the asked paths it
// changes.
type Touch struct {
	Commit Hash
	Paths  []string
}
