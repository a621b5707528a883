package gitrepo

import (
	"context"
	"fmt"
	"os"
	"strings"
)

// StagedRenames lists the renames of the commit of the index being
// committed against HEAD, old path → new path, as git's rename detection
// pairs them ('git diff-index --cached -M'): one git process.
func (r *Repo) StagedRenames(ctx context.Context) (map[string]string, error) {
	c := r.cmd()
	if os.Getenv("GIT_INDEX_FILE") != "" {
		c.Env = []string{"GIT_INDEX_FILE=" + r.IndexPath()}
	}
	out, err := c.Run(ctx, "diff-index", "--cached", "-z", "--name-status", "-M", "--diff-filter=R", "HEAD", "--")
	if err != nil {
		return nil, fmt.Errorf("renames staged against HEAD: %w", err)
	}
	renames := map[string]string{}
	f := strings.Split(string(out), "\x00")
	for i := 0; i+2 < len(f); i += 3 {
		if strings.HasPrefix(f[i], "R") {
			renames[f[i+1]] = f[i+2]
		}
	}
	return renames, nil
}

// GrepIndexWords reports which of names occur as a whole word in the
// files of the index being committed whose paths match pathspecs ('git
// grep --cached -w -F -o -h'): one git process, which reads the code
// once. Its output is every occurrence, so names should be few and
// specific (the pre-commit prose check asks only for names whose
// definition a commit removes).
func (r *Repo) GrepIndexWords(ctx context.Context, names, pathspecs []string) (map[string]bool, error) {
	found := map[string]bool{}
	if len(names) == 0 {
		return found, nil
	}
	c := r.cmd()
	if os.Getenv("GIT_INDEX_FILE") != "" {
		c.Env = []string{"GIT_INDEX_FILE=" + r.IndexPath()}
	}
	args := []string{"grep", "--cached", "-I", "-w", "-F", "-o", "-h", "--no-color"}
	for _, n := range names {
		args = append(args, "-e", n)
	}
	args = append(args, "--")
	args = append(args, pathspecs...)
	out, err := c.Run(ctx, args...)
	if err != nil && ExitCode(err) != 1 { // 1: nothing found
		return nil, fmt.Errorf("grep in the index: %w", err)
	}
	for _, l := range strings.Split(string(out), "\n") {
		if l != "" {
			found[l] = true
		}
	}
	return found, nil
}

// TreeReader reads regular files of one tree by path, looking up only
// the trees on each path (cached), never listing the whole tree: for a
// hook that needs a few files of HEAD.
type TreeReader struct {
	r     *Repo
	root  string
	trees map[string][]treeEntry
}

// TreeReader returns a reader of the files of tree.
func (r *Repo) TreeReader(tree OID) *TreeReader {
	return &TreeReader{r: r, root: string(tree), trees: map[string][]treeEntry{}}
}

// Read returns the content of the regular file p (a clean slash path)
// of the tree; ok is false when the tree has no regular file there (no
// entry, a directory, a symbolic link, a submodule).
func (t *TreeReader) Read(p string) ([]byte, bool, error) {
	e, ok, err := t.entry(p)
	if err != nil || !ok {
		return nil, false, err
	}
	objs, err := t.r.objects()
	if err != nil {
		return nil, false, err
	}
	data, err := objs.readBlob(e.hash.String())
	if err != nil {
		return nil, false, err
	}
	return data, true, nil
}

// entry returns the entry of the regular file p (a clean slash path) of
// the tree, reading only the trees on its way; ok is false when the tree
// has no regular file there.
func (t *TreeReader) entry(p string) (treeEntry, bool, error) {
	objs, err := t.r.objects()
	if err != nil {
		return treeEntry{}, false, err
	}
	oid := t.root
	for {
		name, rest, sub := strings.Cut(p, "/")
		es, err := t.tree(objs, oid)
		if err != nil {
			return treeEntry{}, false, err
		}
		var e *treeEntry
		for i := range es {
			if es[i].name == name {
				e = &es[i]
				break
			}
		}
		switch {
		case e == nil:
			return treeEntry{}, false, nil
		case sub && e.mode == modeDir:
			oid, p = e.hash.String(), rest
			continue
		case sub || !regularMode(e.mode):
			return treeEntry{}, false, nil
		}
		return *e, true, nil
	}
}

// tree reads and parses the tree object oid.
func (t *TreeReader) tree(objs *objects, oid string) ([]treeEntry, error) {
	if es, ok := t.trees[oid]; ok {
		return es, nil
	}
	data, err := objs.read(oid, "tree")
	if err != nil {
		return nil, err
	}
	es, err := parseTree(data, len(oid)/2)
	if err != nil {
		return nil, fmt.Errorf("tree %s: %w", oid, err)
	}
	t.trees[oid] = es
	return es, nil
}

// ReadBlob returns the content of the blob oid (as ContentID names it,
// with or without its "blob:" prefix).
func (r *Repo) ReadBlob(oid string) ([]byte, error) {
	objs, err := r.objects()
	if err != nil {
		return nil, err
	}
	return objs.readBlob(strings.TrimPrefix(oid, "blob:"))
}
