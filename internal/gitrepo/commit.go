package gitrepo

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"strconv"

	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/git-memcite/git-memcite/internal/source"
)

// Commit returns the tree of a commit as a source.
func (r *Repo) Commit(ctx context.Context, oid OID) (source.Source, error) {
	objs, err := r.objects()
	if err != nil {
		return nil, err
	}
	var es []entry
	if objs.store == nil {
		es, err = r.lsTree(ctx, oid)
	} else {
		es, err = goGitTree(ctx, objs, oid)
	}
	if err != nil {
		return nil, err
	}
	return newTable("commit "+oid.Short(), es, objs.blobReader()), nil
}

func goGitTree(ctx context.Context, objs *objects, oid OID) ([]entry, error) {
	c, err := object.GetCommit(objs.store, oid.plumbing())
	if err != nil {
		return nil, fmt.Errorf("read commit %s: %w", oid, err)
	}
	tree, err := c.Tree()
	if err != nil {
		return nil, fmt.Errorf("read tree of %s: %w", oid, err)
	}
	var es []entry
	w := object.NewTreeWalker(tree, true, nil)
	defer w.Close()
	for {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		name, te, err := w.Next()
		if err == io.EOF {
			return es, nil
		}
		if err != nil {
			return nil, fmt.Errorf("walk tree of %s: %w", oid, err)
		}
		if !te.Mode.IsFile() && te.Mode != filemode.Submodule {
			continue
		}
		es = append(es, entry{path: name, oid: te.Hash.String(), mode: te.Mode})
	}
}

// lsTree lists a commit's tree with git (the git-binary backend).
func (r *Repo) lsTree(ctx context.Context, oid OID) ([]entry, error) {
	out, err := r.cmd().Run(ctx, "ls-tree", "-r", "-z", "--full-tree", string(oid))
	if err != nil {
		return nil, fmt.Errorf("read tree of %s: %w", oid, err)
	}
	var es []entry
	for _, rec := range bytes.Split(out, []byte{0}) {
		meta, name, ok := bytes.Cut(rec, []byte{'\t'})
		if !ok {
			continue
		}
		f := bytes.Fields(meta) // mode type oid
		if len(f) != 3 {
			continue
		}
		mode, err := strconv.ParseUint(string(f[0]), 8, 32)
		if err != nil {
			continue
		}
		fm := filemode.FileMode(mode)
		if !fm.IsFile() && fm != filemode.Submodule {
			continue
		}
		es = append(es, entry{path: string(name), oid: string(f[2]), mode: fm})
	}
	return es, nil
}

// blobReader reads the blobs of table entries.
func (o *objects) blobReader() func(entry) (io.ReadCloser, error) {
	return func(e entry) (io.ReadCloser, error) {
		b, err := o.readBlob(e.oid)
		if err != nil {
			return nil, err
		}
		return io.NopCloser(bytes.NewReader(b)), nil
	}
}
