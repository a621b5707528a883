package gitrepo

import (
	"os"
	"path"
	"path/filepath"

	"github.com/git-memcite/git-memcite/internal/source"
	"github.com/git-memcite/git-memcite/internal/trace"
)

// TextID names a working-tree file by the blob its index entry records
// when git would call it unchanged by its stat data alone (as ContentID
// does), also where git converts content on checkout (line endings,
// filters): the file then holds the blob's text up to that conversion.
// For what does not depend on the bytes of line endings — the names a
// file defines, the words it holds — that is the same content. Nothing is
// named in a git-lfs store.
func (w *guardedWorktree) TextID(p string) (string, bool) {
	wt, ok := w.Source.(*source.Worktree)
	if !ok {
		return "", false
	}
	w.textOnce.Do(func() {
		if w.r.hasLFS() {
			trace.Printf("text ids: a git-lfs store: working-tree files are read")
			return
		}
		if err := w.load(); err != nil || !w.index.stats {
			return
		}
		w.text.index, w.text.ok = w.index, true
	})
	if !w.text.ok {
		return "", false
	}
	c, err := source.Clean(p)
	if err != nil {
		return "", false
	}
	e := w.text.index.find(c)
	if e == nil || !e.st.trusted || e.st.mode&0o170000 != 0o100000 || !wt.Direct(path.Dir(c)) {
		return "", false
	}
	clean, ok := w.text.unchangedAt(w.text.rootDir(wt.Root()), c, e.st)
	if !ok {
		fi, err := os.Lstat(filepath.Join(wt.Root(), filepath.FromSlash(c)))
		clean = err == nil && w.text.unchanged(fi, e.st)
	}
	if !clean {
		return "", false
	}
	return w.text.index.contentID(e), true
}
