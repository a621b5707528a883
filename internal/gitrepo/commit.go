package gitrepo

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"path/filepath"

	"github.com/go-git/go-git/v5/plumbing/filemode"

	"github.com/git-memcite/git-memcite/internal/source"
)

// Commit returns the tree of a commit as a source.
func (r *Repo) Commit(ctx context.Context, oid OID) (source.Source, error) {
	objs, err := r.objects()
	if err != nil {
		return nil, err
	}
	es, err := r.lsTree(ctx, oid)
	if err != nil {
		return nil, err
	}
	t := newTable("commit "+oid.Short(), es, r.blobReader(objs))
	t.submodule = r.submoduleFile
	t.ids = !r.hasLFS()
	return t, nil
}

// submoduleFile reads a file of a submodule at the commit its gitlink
// records, from the submodule's own repository (which must be checked
// out: its objects are there).
func (r *Repo) submoduleFile(f *subFile) ([]byte, error) {
	r.subMu.Lock()
	defer r.subMu.Unlock()
	if r.subs == nil {
		r.subs = map[string]*Repo{}
	}
	sr, ok := r.subs[f.prefix]
	if !ok {
		dir := filepath.Join(r.Top, filepath.FromSlash(f.prefix))
		var err error
		sr, err = Discover(dir)
		if err != nil || filepath.Clean(sr.Top) != filepath.Clean(dir) {
			sr = nil
		}
		r.subs[f.prefix] = sr
	}
	if sr == nil {
		return nil, fmt.Errorf("submodule %s is not checked out (git submodule update --init %s): %w", f.prefix, f.prefix, source.ErrNotExist)
	}
	src, err := sr.Commit(context.Background(), OID(f.commit))
	if err != nil {
		return nil, fmt.Errorf("submodule %s at %s: %w", f.prefix, OID(f.commit).Short(), err)
	}
	b, err := src.ReadFile(f.rest)
	if err != nil {
		return nil, fmt.Errorf("submodule %s at %s: %s: %w", f.prefix, OID(f.commit).Short(), f.rest, err)
	}
	return b, nil
}

// lsTree lists a commit's tree with git: one process, faster than walking
// every tree object through cat-file.
func (r *Repo) lsTree(ctx context.Context, oid OID) ([]entry, error) {
	out, err := r.cmd().Run(ctx, "ls-tree", "-r", "-z", "--full-tree", string(oid))
	if err != nil {
		return nil, fmt.Errorf("read tree of %s: %w", oid, err)
	}
	var es []entry
	keep := func(m uint32) bool { fm := filemode.FileMode(m); return fm.IsFile() || fm == filemode.Submodule }
	parseLsTree(out, keep, func(path, oid string, mode uint32) {
		es = append(es, entry{path: path, oid: oid, mode: filemode.FileMode(mode)})
	})
	return es, nil
}

// blobReader reads the blobs of table entries (git-lfs pointers resolved
// from the local git-lfs object store).
func (r *Repo) blobReader(o *objects) func(entry) (io.ReadCloser, error) {
	lfs := r.hasLFS()
	return func(e entry) (io.ReadCloser, error) {
		b, err := o.readBlob(e.oid)
		if err != nil {
			return nil, err
		}
		if lfs {
			b = r.lfsResolve(b)
		}
		return io.NopCloser(bytes.NewReader(b)), nil
	}
}
