package gitrepo

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/git-memcite/git-memcite/internal/regfile"
)

// worktreeIndex is the working tree's index as one run sees it, read once
// for both of its uses: which paths git tracks (guardedWorktree.known)
// and the stat data and blob of each entry (ContentID). Entries are kept
// sorted by path, as the index orders them, in one slice (a map of the
// same entries is twice the size, and 60,000 of them cost a hook run
// milliseconds to build), and looked up by binary search.
type worktreeIndex struct {
	entries  []indexEntry
	gitlinks bool // an entry is a submodule
	hashLen  int
	// stats says whether the entries hold stat data and object ids: false
	// when git listed them (a split index or a form not read here), which
	// gives names and modes only, and for a repository without an index
	stats bool
	mtime time.Time // of the index file: entries changed at or after it are racily clean
}

// indexEntry is one path of the index. A conflict's stages are one entry,
// not trusted.
type indexEntry struct {
	path string
	oid  [32]byte // the object id's bytes, hashLen of them
	st   indexStat
}

// contentID returns e's content id, "blob:" and the object id in hex.
func (x *worktreeIndex) contentID(e *indexEntry) string {
	var buf [5 + 2*32]byte
	return string(hex.AppendEncode(append(buf[:0], "blob:"...), e.oid[:x.hashLen]))
}

// statID returns a content id for e's working-tree file by the entry's
// path, blob and stat data: "stat:" and a SHA-256 of them in hex. A file
// whose stat data is its entry's (and not racily clean) holds what it
// held when git recorded that stat data, whether or not that is the
// blob's bytes (a file git converts); another file, or the same file
// changed, has other stat data (its ctime at least), so another name.
func (x *worktreeIndex) statID(e *indexEntry) string {
	h := sha256.New()
	var b [4]byte
	for _, v := range []uint32{e.st.ctimeSec, e.st.ctimeNsec, e.st.mtimeSec, e.st.mtimeNsec,
		e.st.dev, e.st.ino, e.st.mode, e.st.size} {
		binary.BigEndian.PutUint32(b[:], v)
		h.Write(b[:])
	}
	h.Write(e.oid[:x.hashLen])
	h.Write([]byte(e.path))
	var buf [5 + 2*sha256.Size]byte
	return string(hex.AppendEncode(append(buf[:0], "stat:"...), h.Sum(nil)))
}

// find returns the entry of path p, or nil.
func (x *worktreeIndex) find(p string) *indexEntry {
	// sort.Search, not slices.BinarySearchFunc, which passes each entry by value
	i := sort.Search(len(x.entries), func(i int) bool { return x.entries[i].path >= p })
	if i == len(x.entries) || x.entries[i].path != p {
		return nil
	}
	return &x.entries[i]
}

// dirAbove reports whether some entry lies below directory d: a path
// that begins with d and "/" (a sparse index's directory entry, "d/",
// included).
func (x *worktreeIndex) dirAbove(d string) bool {
	i := sort.Search(len(x.entries), func(i int) bool { return compareDir(x.entries[i].path, d) >= 0 })
	return i < len(x.entries) && len(x.entries[i].path) > len(d) &&
		x.entries[i].path[len(d)] == '/' && strings.HasPrefix(x.entries[i].path, d)
}

// compareDir compares p with d+"/" without building that string.
func compareDir(p, d string) int {
	n := min(len(p), len(d))
	if c := strings.Compare(p[:n], d[:n]); c != 0 {
		return c
	}
	if len(p) <= len(d) {
		return -1 // p is d, or a prefix of it
	}
	switch c := p[len(d)]; {
	case c < '/':
		return -1
	case c > '/':
		return 1
	case len(p) == len(d)+1:
		return 0
	}
	return 1
}

// known reports whether the index holds p, a directory above an entry,
// or a submodule above p (which the submodule tracks).
func (x *worktreeIndex) known(p string) bool {
	if x.find(p) != nil || x.dirAbove(p) {
		return true
	}
	if !x.gitlinks {
		return false
	}
	for d := p; ; {
		i := strings.LastIndexByte(d, '/')
		if i < 0 {
			return false
		}
		d = d[:i]
		if e := x.find(d); e != nil && e.st.mode&0o170000 == 0o160000 {
			return true
		}
	}
}

// readWorktreeIndex reads the index file (the worktree's, or
// $GIT_INDEX_FILE's). A missing index is an empty one. An index this
// package does not decode (a split index, an unknown version) is listed
// by git: names and modes only.
//
// A Repo keeps the last index it read: working-tree sources opened one
// after the other share it while the file is the one read (git replaces
// the index file on every write, so a new inode, and its size, mtime and
// ctime, tell a rewrite). The entries are never modified.
func (r *Repo) readWorktreeIndex(ctx context.Context) (*worktreeIndex, error) {
	r.wtMu.Lock()
	defer r.wtMu.Unlock()
	if r.wtIndex != nil {
		if fi, err := os.Stat(r.IndexPath()); err == nil && sameFile(fi, r.wtStat) {
			return r.wtIndex, nil
		}
		r.wtIndex, r.wtStat = nil, nil
	}
	hashLen, _ := r.hashLen()
	x := &worktreeIndex{hashLen: hashLen}
	data, fi, err := readIndexFile(r.IndexPath())
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return x, nil // no index yet: nothing is tracked
	case err == nil:
		if err = x.decode(data); err == nil {
			x.stats, x.mtime = true, fi.ModTime()
			r.wtIndex, r.wtStat = x, fi
			return x, nil
		}
	}
	// a split index, or an index this reader does not know: ask git
	out, err := r.cmd().Run(ctx, "ls-files", "-z", "--stage")
	if err != nil {
		return nil, fmt.Errorf("list the index: %w", err)
	}
	for _, rec := range bytes.Split(out, []byte{0}) {
		meta, name, ok := bytes.Cut(rec, []byte{'\t'})
		if !ok {
			continue
		}
		if n := len(x.entries); n > 0 && x.entries[n-1].path == string(name) {
			continue // another stage of a conflict
		}
		var mode uint32
		if m, _, ok := bytes.Cut(meta, []byte{' '}); ok {
			for _, c := range m {
				mode = mode<<3 | uint32(c-'0')
			}
		}
		x.entries = append(x.entries, indexEntry{path: string(name), st: indexStat{mode: mode}})
		x.gitlinks = x.gitlinks || mode&0o170000 == 0o160000
	}
	x.sort()
	return x, nil
}

// readIndexFile returns the index file's bytes and stat.
func readIndexFile(p string) ([]byte, os.FileInfo, error) {
	f, err := regfile.Open(p)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, nil, err
	}
	data, err := regfile.Map(f, fi.Size()) // read-only: nothing here writes it
	return data, fi, err
}

// decode reads the entries of an index file (versions 2, 3 and 4), with
// object ids of x.hashLen bytes: every path's stat data and object id. Paths share one string. A split index
// or unknown form is errIndexForm.
func (x *worktreeIndex) decode(data []byte) error {
	hashLen := x.hashLen
	n := 0
	if len(data) >= 12 {
		n = int(min(binary.BigEndian.Uint32(data[8:12]), uint32(len(data)/64)))
	}
	entries := make([]indexEntry, 0, n)
	names := make([]byte, 0, len(data)/2)
	var ends []int
	_, err := walkIndex(data, hashLen, func(name, raw []byte, flags, ext uint16) {
		if k := len(entries); k > 0 && flags&flagStage != 0 {
			start := 0
			if k > 1 {
				start = ends[k-2]
			}
			if string(names[start:ends[k-1]]) == string(name) {
				entries[k-1].st.trusted = false // another stage of a conflict
				return
			}
		}
		e := indexEntry{st: decodeStatData(raw, flags, ext)}
		copy(e.oid[:], raw[40:40+hashLen])
		entries = append(entries, e)
		names = append(names, name...)
		ends = append(ends, len(names))
	})
	if err != nil {
		return err
	}
	all := string(names)
	for i := range entries {
		start := 0
		if i > 0 {
			start = ends[i-1]
		}
		entries[i].path = all[start:ends[i]]
		x.gitlinks = x.gitlinks || entries[i].st.mode&0o170000 == 0o160000
	}
	x.entries = entries
	x.sort()
	return nil
}

// sort keeps the entries sorted by path, as git writes them; an index
// that is not (which git would refuse) is sorted here rather than
// misread.
func (x *worktreeIndex) sort() {
	cmp := func(a, b indexEntry) int { return strings.Compare(a.path, b.path) }
	if !slices.IsSortedFunc(x.entries, cmp) {
		slices.SortStableFunc(x.entries, cmp)
	}
}
