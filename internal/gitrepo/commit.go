package gitrepo

import (
	"context"
	"fmt"
	"io"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/plumbing/storer"

	"github.com/git-memcite/git-memcite/internal/source"
)

// Commit returns the tree of a commit as a source.
func (r *Repo) Commit(ctx context.Context, h plumbing.Hash) (source.Source, error) {
	repo, err := r.Git()
	if err != nil {
		return nil, err
	}
	c, err := repo.CommitObject(h)
	if err != nil {
		return nil, fmt.Errorf("read commit %s: %w", h, err)
	}
	tree, err := c.Tree()
	if err != nil {
		return nil, fmt.Errorf("read tree of %s: %w", h, err)
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
			break
		}
		if err != nil {
			return nil, fmt.Errorf("walk tree of %s: %w", h, err)
		}
		if !te.Mode.IsFile() && te.Mode != filemode.Submodule {
			continue
		}
		es = append(es, entry{path: name, hash: te.Hash, mode: te.Mode})
	}
	read := func(e entry) (io.ReadCloser, error) { return openBlob(repo.Storer, e.hash) }
	return newTable("commit "+h.String()[:12], es, read), nil
}

func openBlob(s storer.EncodedObjectStorer, h plumbing.Hash) (io.ReadCloser, error) {
	o, err := s.EncodedObject(plumbing.BlobObject, h)
	if err != nil {
		return nil, fmt.Errorf("read blob %s: %w", h, err)
	}
	return o.Reader()
}
