package gitrepo

import (
	"encoding/hex"
	"os"
	"path"
	"path/filepath"
	"sync"
	"sync/atomic"

	"github.com/git-memcite/git-memcite/internal/source"
	"github.com/git-memcite/git-memcite/internal/trace"
)

// worktreeIDs names working-tree files by the blob the index records for
// them, when git would call them unchanged without reading them.
type worktreeIDs struct {
	once  sync.Once
	index *worktreeIndex // the guardedWorktree's, when it holds stat data
	ok    bool

	// read holds, for each file read through Open (by clean path), whether
	// its stat taken after the read was still its index entry's
	// (unchanged), once named says files get names. (A plain map: a
	// sync.Map copies itself over and over when most keys are new.)
	readMu  sync.Mutex
	read    map[string]bool
	anyRead atomic.Bool // read holds something: lookups before any read take no lock
	named   atomic.Bool
	conv    *conversions // the paths git may convert, named by their stat data (statID)

	// root is the working tree's root directory, open for lstats relative
	// to it (unchangedAt); closed when the worktreeIDs is collected.
	rootOnce sync.Once
	root     *os.File
}

// rootDir opens the root directory once; nil if it cannot be opened.
func (ids *worktreeIDs) rootDir(path string) *os.File {
	ids.rootOnce.Do(func() {
		if f, err := os.Open(path); err == nil {
			ids.root = f
		}
	})
	return ids.root
}

// readStat records whether file p, by its stat taken after it was read,
// is what its index entry records.
func (ids *worktreeIDs) readStat(p string, fi os.FileInfo) {
	e := ids.index.find(p)
	clean := e != nil && ids.unchanged(fi, e.st)
	ids.readMu.Lock()
	if ids.read == nil {
		ids.read = map[string]bool{}
	}
	ids.read[p] = clean
	ids.readMu.Unlock()
	ids.anyRead.Store(true)
}

// cleanAfterRead returns what readStat recorded for p.
func (ids *worktreeIDs) cleanAfterRead(p string) (clean, read bool) {
	if !ids.anyRead.Load() {
		return false, false
	}
	ids.readMu.Lock()
	clean, read = ids.read[p]
	ids.readMu.Unlock()
	return clean, read
}

func (w *guardedWorktree) loadIDs() {
	w.ids.once.Do(func() {
		r := w.r
		if r.hasLFS() {
			trace.Printf("content ids: a git-lfs store: working-tree files are read")
			return
		}
		if err := w.load(); err != nil || !w.index.stats {
			trace.Printf("content ids: the index was not read in-process: working-tree files are read")
			return
		}
		idx := w.index
		files := make([]string, 0, len(idx.entries))
		var attrFiles []attrFile
		for i := range idx.entries {
			e := &idx.entries[i]
			if e.st.mode&0o170000 != 0o100000 {
				continue
			}
			files = append(files, e.path)
			if isAttrFile(e.path) {
				attrFiles = append(attrFiles, attrFile{e.path, hex.EncodeToString(e.oid[:idx.hashLen])})
			}
		}
		conv := r.conversions(files, attrFiles)
		if conv.all {
			trace.Printf("content ids: git may convert any working-tree file: files are named by their stat data")
		}
		w.ids.conv = conv
		w.ids.index, w.ids.ok = idx, true
		w.ids.named.Store(true)
	})
}

// ContentID implements source.Identifier for the working tree: a file is
// named by the blob its index entry records when git would call it clean
// by its stat data alone — a regular file, not through a symlinked
// directory, whose size, mtime, ctime, inode and device match the entry,
// and not racily clean (modified at or after the index was written, when
// equal stat data does not prove equal content). Entries git does not
// compare (assume-unchanged, skip-worktree, intent-to-add, conflicts),
// symlinks and submodules get no identifier.
//
// A file git may convert (conversions) is not known to hold its blob's
// bytes even when its stat data is the entry's: `git add` of a file with
// CRLF line endings under text=auto records the LF blob and the stat of
// the CRLF file. Such a file is named by its stat data instead (statID):
// the same trust git's status gives it (the file is what it was when the
// entry's stat data was recorded), without a claim about the blob.
func (w *guardedWorktree) ContentID(p string) (string, bool) {
	e, c, ok := w.cleanEntry(p)
	if !ok {
		return "", false
	}
	if w.ids.conv.converts(c) {
		return w.ids.index.statID(e), true
	}
	return w.ids.index.contentID(e), true
}

// BlobID is the content id ("blob:" and its object name) of the blob a
// tracked file, unchanged since git wrote it, was checked out from, when
// git changed at most its line endings on the way (no ident, filter or
// working-tree-encoding may apply to it): the file then holds the blob's
// words, if not all its bytes, where ContentID names it by its stat data.
// It vouches for no byte of the file: a caller may only take the blob
// to hold the words the file holds (internal/prose does, to know which
// blobs of history lack a name).
func (w *guardedWorktree) BlobID(p string) (string, bool) {
	e, c, ok := w.cleanEntry(p)
	if !ok || w.ids.conv.changesWords(c) {
		return "", false
	}
	return w.ids.index.contentID(e), true
}

// cleanEntry returns the index entry of the regular file at p, and p
// cleaned, when the working tree's file is the one git wrote (its stat
// data the entry's, not racily clean, reached without a symbolic link).
func (w *guardedWorktree) cleanEntry(p string) (*indexEntry, string, bool) {
	wt, ok := w.Source.(*source.Worktree)
	if !ok {
		return nil, "", false
	}
	w.loadIDs()
	if !w.ids.ok {
		return nil, "", false
	}
	c, err := source.Clean(p)
	if err != nil {
		return nil, "", false
	}
	e := w.ids.index.find(c)
	if e == nil || !e.st.trusted || e.st.mode&0o170000 != 0o100000 {
		return nil, "", false
	}
	st := e.st
	if !wt.Direct(path.Dir(c)) {
		return nil, "", false
	}
	clean, read := w.ids.cleanAfterRead(c) // read this run: named by what was read
	if !read {
		var ok bool
		if clean, ok = w.ids.unchangedAt(w.ids.rootDir(wt.Root()), c, st); !ok {
			fi, err := os.Lstat(filepath.Join(wt.Root(), filepath.FromSlash(c)))
			clean = err == nil && w.ids.unchanged(fi, st)
		}
	}
	if !clean {
		return nil, "", false // modified, racily clean, or not a regular file
	}
	return e, c, true
}
