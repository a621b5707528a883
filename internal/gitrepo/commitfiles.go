package gitrepo

import (
	"context"
	"fmt"

	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/git-memcite/git-memcite/internal/source"
)

// CommitFiles returns a source over just the named paths of a commit,
// looked up one by one instead of walking the whole tree, for callers that
// need a handful of files from a large commit (a hook comparing a few
// citations with HEAD). ok is false when a path is not a regular file in
// the commit (missing, a directory, a symlink, a submodule, or below a
// symlinked directory), and with the git-binary backend: the caller must
// then use Commit, whose full tree gives those cases their exact meaning.
func (r *Repo) CommitFiles(ctx context.Context, oid OID, paths []string) (src source.Source, ok bool, err error) {
	objs, err := r.objects()
	if err != nil {
		return nil, false, err
	}
	if objs.store == nil {
		return nil, false, nil
	}
	c, err := object.GetCommit(objs.store, oid.plumbing())
	if err != nil {
		return nil, false, fmt.Errorf("read commit %s: %w", oid, err)
	}
	tree, err := c.Tree()
	if err != nil {
		return nil, false, fmt.Errorf("read tree of %s: %w", oid, err)
	}
	seen := map[string]bool{}
	var es []entry
	for _, p := range paths {
		if err := ctx.Err(); err != nil {
			return nil, false, err
		}
		if seen[p] {
			continue
		}
		seen[p] = true
		te, err := tree.FindEntry(p)
		if err != nil || (te.Mode != filemode.Regular && te.Mode != filemode.Executable) {
			return nil, false, nil
		}
		es = append(es, entry{path: p, oid: te.Hash.String(), mode: te.Mode})
	}
	return newTable("commit "+oid.Short(), es, r.blobReader(objs)), true, nil
}
