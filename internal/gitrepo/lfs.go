package gitrepo

import (
	"bufio"
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/git-memcite/git-memcite/internal/regfile"
	"github.com/git-memcite/git-memcite/internal/source"
)

// lfsPrefix starts every git-lfs pointer file.
const lfsPrefix = "version https://git-lfs.github.com/spec/v1"

// hasLFS reports whether the repository has a local git-lfs object store.
func (r *Repo) hasLFS() bool {
	_, err := os.Stat(filepath.Join(r.CommonDir, "lfs", "objects"))
	return err == nil
}

// lfsObject returns the path of the local git-lfs object a pointer names,
// or "" when b is not a pointer.
func (r *Repo) lfsObject(b []byte) string {
	if len(b) >= 1024 || !bytes.HasPrefix(b, []byte(lfsPrefix)) {
		return ""
	}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		oid, ok := strings.CutPrefix(sc.Text(), "oid sha256:")
		if !ok {
			continue
		}
		if len(oid) != 64 || !isHex(oid) {
			return ""
		}
		return filepath.Join(r.CommonDir, "lfs", "objects", oid[:2], oid[2:4], oid)
	}
	return ""
}

// lfsResolve returns the content a git-lfs pointer stands for, from the
// repository's local git-lfs object store, so that a file stored with
// git-lfs is judged by the same content in the working tree (where git-lfs
// put it), in the index and in commits. b itself is returned when it is
// not a pointer or the object was never fetched (verification then says
// so).
func (r *Repo) lfsResolve(b []byte) []byte {
	p := r.lfsObject(b)
	if p == "" {
		return b
	}
	content, err := regfile.ReadFile(p)
	if err != nil {
		return b
	}
	return content
}

// Worktree returns the working tree as a source: the files as they are,
// git-lfs pointers (files git-lfs did not check out) resolved like the
// index's and the commits' blobs.
//
// Files git ignores are not read (source.ErrIgnored) unless the index
// tracks them, and the source reports which paths are untracked
// (source.Untracker).
func (r *Repo) Worktree() (source.Source, error) {
	wt, err := source.NewWorktree(r.Top)
	if err != nil {
		return nil, err
	}
	var src source.Source = wt
	if r.hasLFS() {
		src = &lfsWorktree{Worktree: wt, r: r}
	}
	return &guardedWorktree{Source: src, r: r}, nil
}

type lfsWorktree struct {
	*source.Worktree
	r *Repo
}

// ReadFile implements source.Source.
func (w *lfsWorktree) ReadFile(p string) ([]byte, error) {
	b, err := w.Worktree.ReadFile(p)
	if err != nil {
		return nil, err
	}
	return w.r.lfsResolve(b), nil
}

// Open implements source.Source.
func (w *lfsWorktree) Open(p string) (io.ReadCloser, error) {
	rc, err := w.Worktree.Open(p)
	if err != nil {
		return nil, err
	}
	br := bufio.NewReaderSize(rc, 1024)
	head, _ := br.Peek(1024)
	if !bytes.HasPrefix(head, []byte(lfsPrefix)) || len(head) >= 1024 {
		return readCloser{br, rc}, nil
	}
	defer rc.Close()
	b, err := io.ReadAll(br)
	if err != nil {
		return nil, err
	}
	return io.NopCloser(bytes.NewReader(w.r.lfsResolve(b))), nil
}

type readCloser struct {
	io.Reader
	io.Closer
}
