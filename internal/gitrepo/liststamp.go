package gitrepo

import (
	"bytes"
	"encoding/binary"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/git-memcite/git-memcite/internal/source"
)

// A listing of the working tree (List("")) reads every directory of the
// checkout; in a repository of 10,000 files that is most of what a hook
// run answering one memory costs. ListStamped lists and returns a stamp
// of what the listing depended on; SameList tells, from the stamp, with
// one lstat per directory and one stat of the index, whether List("")
// would return the same paths now:
//
//   - every directory read, by its lstat taken before it was read (an
//     entry added, removed or renamed changes its directory's mtime and
//     ctime);
//   - the index, by the stat of the file this run read (which paths are
//     tracked decides which are filtered as ignored).
//
// There is no stamp when the answer could change without those changing:
// the listing held a path the index does not track (the ignore rules then
// decide, from files the stamp does not follow), a directory or the index
// was changed within the last listStampMargin (a change in the same tick
// of the file system's clock would keep its mtime), the platform's stat
// data has no inode and ctime, or the index was not read from its file.

// listStampMargin is how old the mtime and ctime of every directory and
// of the index must be for a listing to be stamped: more than the
// coarsest timestamp granularity of common file systems (2 s on FAT).
var listStampMargin = 3 * time.Second

// listStampVersion starts every stamp.
const listStampVersion = "memcite-list-stamp-1"

// worktree returns the checkout's source.Worktree, or nil.
func (w *guardedWorktree) worktree() *source.Worktree {
	switch s := w.Source.(type) {
	case *source.Worktree:
		return s
	case *lfsWorktree:
		return s.Worktree
	}
	return nil
}

// ListStamped is List(""), with a stamp SameList checks later; the stamp
// is nil when the listing cannot be vouched for that way.
func (w *guardedWorktree) ListStamped() ([]string, []byte, error) {
	return w.ListStampedDir("")
}

// ListStampedDir is List(dir), with a stamp SameList checks later (nil
// when the listing cannot be vouched for that way).
func (w *guardedWorktree) ListStampedDir(dir string) ([]string, []byte, error) {
	wt := w.worktree()
	if wt == nil {
		paths, err := w.List(dir)
		return paths, nil, err
	}
	before := time.Now().Add(-listStampMargin)
	stamp := appendStampString([]byte(listStampVersion), wt.Root())
	ok := true
	all, err := wt.ListDirs(dir, func(rel string, fi fs.FileInfo) {
		st, fresh := statStamp(fi, before)
		if fi == nil || fresh || st == nil {
			ok = false
			return
		}
		stamp = appendStampString(stamp, rel)
		stamp = append(stamp, st...)
	})
	if err != nil {
		return nil, nil, err
	}
	paths, untracked, err := w.filter(all)
	if err != nil {
		return nil, nil, err
	}
	idx := w.indexStamp(before)
	if !ok || untracked > 0 || idx == nil {
		return paths, nil, nil
	}
	// the index stamp last: SameList reads the directories after it
	return paths, append(appendStampString(stamp, ""), idx...), nil
}

// indexStamp returns the stamp of the index file this run read (w.load),
// or nil: no index, one git listed, or one changed since listStampMargin
// before before.
func (w *guardedWorktree) indexStamp(before time.Time) []byte {
	if w.load() != nil {
		return nil
	}
	w.r.wtMu.Lock()
	fi, same := w.r.wtStat, w.r.wtIndex == w.index
	w.r.wtMu.Unlock()
	if fi == nil || !same {
		return nil
	}
	st, fresh := statStamp(fi, before)
	if fresh {
		return nil
	}
	return st
}

// SameList reports whether List("") (List(dir)) returns now what it
// returned when ListStamped (ListStampedDir(dir)) made stamp.
func (w *guardedWorktree) SameList(stamp []byte) bool {
	wt := w.worktree()
	if wt == nil {
		return false
	}
	rest, ok := bytes.CutPrefix(stamp, []byte(listStampVersion))
	if !ok {
		return false
	}
	root, rest, ok := cutStampString(rest)
	if !ok || root != wt.Root() {
		return false
	}
	for {
		rel, r, ok := cutStampString(rest)
		if !ok {
			return false
		}
		rest = r
		if rel == "" { // the index's stamp follows
			fi, err := os.Stat(w.r.IndexPath())
			if err != nil {
				return false
			}
			st, _ := statStamp(fi, time.Time{})
			return st != nil && bytes.Equal(st, rest)
		}
		fi, err := os.Lstat(filepath.Join(root, filepath.FromSlash(rel)))
		if err != nil {
			return false
		}
		st, _ := statStamp(fi, time.Time{})
		if st == nil || len(rest) < len(st) || !bytes.Equal(st, rest[:len(st)]) {
			return false
		}
		rest = rest[len(st):]
	}
}

func appendStampString(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

func cutStampString(b []byte) (string, []byte, bool) {
	n, k := binary.Uvarint(b)
	if k <= 0 || uint64(len(b)-k) < n {
		return "", nil, false
	}
	return string(b[k : k+int(n)]), b[k+int(n):], true
}
