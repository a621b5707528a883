package gitrepo

import (
	"context"
	"fmt"

	"github.com/go-git/go-git/v5/plumbing/filemode"

	"github.com/git-memcite/git-memcite/internal/source"
)

// CommitFiles returns a source over just the named paths of a commit,
// looked up one by one instead of walking the whole tree, for callers that
// need a handful of files from a large commit (a hook comparing a few
// citations with HEAD). ok is false when a path is not a regular file in
// the commit (missing, a directory, a symlink, a submodule, or below a
// symlinked directory), and with MEMCITE_BACKEND=git: the caller must then
// use Commit, whose full tree gives those cases their exact meaning.
//
// With an index idx (from Index) and changed (the paths where idx differs
// from the commit, as StagedPaths or ChangedSince list them), the entries
// of the paths idx holds as regular files and changed does not name are
// taken from idx: git lists no difference there, so the commit has the
// same entry. Only the other paths are looked up in the commit's tree; all
// of them when changed is nil (nothing listed).
func (r *Repo) CommitFiles(ctx context.Context, oid OID, paths []string, idx source.Source, changed map[string]bool) (src source.Source, ok bool, err error) {
	objs, err := r.objects()
	if err != nil {
		return nil, false, err
	}
	if forceGitBinary.Load() {
		return nil, false, nil
	}
	it, _ := idx.(*table)
	if it != nil && (!it.committable || changed == nil) {
		it = nil
	}
	var tree *TreeReader
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
		if i, ok := it.index(p); ok && !changed[p] && it.entries[i].mode.IsRegular() && it.entries[i].sub == nil {
			e := it.entries[i]
			es = append(es, entry{path: p, oid: e.oid, mode: e.mode})
			continue
		}
		if tree == nil {
			root, err := r.TreeOf(ctx, oid)
			if err != nil {
				return nil, false, fmt.Errorf("read commit %s: %w", oid, err)
			}
			tree = r.TreeReader(root)
		}
		te, ok, err := tree.entry(p)
		if err != nil {
			return nil, false, fmt.Errorf("read tree of %s: %w", oid, err)
		}
		if !ok {
			return nil, false, nil
		}
		es = append(es, entry{path: p, oid: te.hash.String(), mode: filemode.FileMode(te.mode)})
	}
	return newTable("commit "+oid.Short(), es, r.blobReader(objs)), true, nil
}
