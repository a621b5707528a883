package gitrepo

import (
	"bytes"
	"context"
	"encoding/hex"
	"slices"
	"strings"

	"github.com/git-memcite/git-memcite/internal/source"
	"github.com/git-memcite/git-memcite/internal/trace"
)

// IndexChanges lists the paths where the index idx differs from the tree
// base, sorted, exactly as ChangedSince(base) lists them ('git diff-index
// --cached' without rename detection: added, modified, deleted and
// type-changed paths, a submodule whose recorded commit changes).
//
// When idx is an index this package decoded itself (IndexTree answers for
// it), without entries added with intent to add, and objects are read
// in-process, no git process starts: the ids of
// the index's directories are computed as `git write-tree` would, and only
// the directories whose ids differ from base's are read and compared,
// entry by entry, so a commit of a few files reads a few trees. Otherwise
// it is ChangedSince.
func (r *Repo) IndexChanges(ctx context.Context, idx source.Source, base OID) ([]string, error) {
	if paths, ok := r.indexDiff(idx, base); ok {
		trace.Printf("index against tree %s: %d paths differ (in-process)", base.Short(), len(paths))
		return paths, nil
	}
	return r.ChangedSince(ctx, string(base))
}

// indexDiff is IndexChanges in-process; ok is false where it cannot
// answer.
func (r *Repo) indexDiff(idx source.Source, base OID) (paths []string, ok bool) {
	t, isTable := idx.(*table)
	if !isTable || !t.committable || t.intentToAdd || !t.ids || len(t.entries) == 0 || len(base) != 40 || !isHex(string(base)) {
		return nil, false
	}
	objs, err := r.objects()
	if err != nil || forceGitBinary.Load() || len(t.entries[0].oid) != 40 {
		return nil, false
	}
	d := &indexDiffer{objs: objs, dirs: t.treeIDs(), changed: map[string]bool{}}
	if d.dirs == nil {
		return nil, false
	}
	raw, err := hex.DecodeString(string(base))
	if err != nil {
		return nil, false
	}
	if err := d.dir(t.entries, "", raw); err != nil {
		trace.Printf("index against tree %s: %v: asking git", base.Short(), err)
		return nil, false
	}
	return d.sorted(), true
}

// indexDiffer compares index entries with trees of the object database.
type indexDiffer struct {
	objs    *objects          // trees read through cat-file
	dirs    map[string][]byte // raw tree id of each index directory ("" the top, else ending in "/")
	changed map[string]bool
}

// dir compares es, the index entries under dir, with the tree whose raw
// id is tree.
func (d *indexDiffer) dir(es []entry, dir string, tree []byte) error {
	if bytes.Equal(d.dirs[dir], tree) {
		return nil
	}
	entries, err := d.tree(tree)
	if err != nil {
		return err
	}
	inTree := byName(entries) // what is left once the index's entries are taken out
	var id [2 * sha1HexLen]byte
	for i := 0; i < len(es); {
		rel := es[i].path[len(dir):]
		if k := strings.IndexByte(rel, '/'); k >= 0 { // a directory of the index
			name := rel[:k]
			sub := dir + name + "/"
			j := i + 1
			for j < len(es) && strings.HasPrefix(es[j].path, sub) {
				j++
			}
			te, ok := inTree[name]
			delete(inTree, name)
			switch {
			case ok && te.mode == modeDir:
				if err := d.dir(es[i:j], sub, te.hash.Bytes()); err != nil {
					return err
				}
			case ok: // a file in the tree, a directory in the index
				d.changed[dir+name] = true
				d.addIndex(es[i:j])
			default:
				d.addIndex(es[i:j])
			}
			i = j
			continue
		}
		e := es[i]
		te, ok := inTree[rel]
		delete(inTree, rel)
		switch {
		case ok && te.mode == modeDir: // a directory in the tree, a file in the index
			d.changed[e.path] = true
			if err := d.addTree(dir+rel+"/", te.hash.Bytes()); err != nil {
				return err
			}
		case !ok || te.mode != uint32(e.mode) || string(id[:hex.Encode(id[:], te.hash.Bytes())]) != e.oid:
			d.changed[e.path] = true
		}
		i++
	}
	for _, te := range inTree { // in the tree only
		if err := d.side(dir, te); err != nil {
			return err
		}
	}
	return nil
}

// addIndex marks every path of es changed.
func (d *indexDiffer) addIndex(es []entry) {
	for _, e := range es {
		d.changed[e.path] = true
	}
}

// addTree marks every file of the tree (raw id tree) under dir changed.
func (d *indexDiffer) addTree(dir string, tree []byte) error {
	entries, err := d.tree(tree)
	if err != nil {
		return err
	}
	for _, e := range entries {
		if err := d.side(dir, e); err != nil {
			return err
		}
	}
	return nil
}

// tree reads the entries of the tree with raw id raw.
func (d *indexDiffer) tree(raw []byte) ([]treeEntry, error) {
	data, err := d.objs.read(hex.EncodeToString(raw), "tree")
	if err != nil {
		return nil, err
	}
	return parseTree(data, len(raw))
}

// byName maps tree entries by name.
func byName(entries []treeEntry) map[string]treeEntry {
	m := make(map[string]treeEntry, len(entries))
	for _, e := range entries {
		m[e.name] = e
	}
	return m
}

// commitDiff is ChangedBetween in-process: the trees of the commits old
// and new compared, descending only into the subtrees whose ids differ.
// ok is false where it cannot answer.
func (r *Repo) commitDiff(ctx context.Context, old, new OID) (paths []string, ok bool) {
	if forceGitBinary.Load() || len(old) != 40 || len(new) != 40 {
		return nil, false
	}
	a, err := r.TreeOf(ctx, old)
	if err != nil {
		return nil, false
	}
	b, err := r.TreeOf(ctx, new)
	if err != nil {
		return nil, false
	}
	return r.treeDiff(a, b)
}

// treeDiff lists the paths where the trees a and b differ, in-process; ok
// is false where it cannot answer.
func (r *Repo) treeDiff(a, b OID) (paths []string, ok bool) {
	objs, err := r.objects()
	if err != nil || forceGitBinary.Load() || len(a) != 40 || len(b) != 40 {
		return nil, false
	}
	ra, errA := hex.DecodeString(string(a))
	rb, errB := hex.DecodeString(string(b))
	if errA != nil || errB != nil {
		return nil, false
	}
	d := &indexDiffer{objs: objs, changed: map[string]bool{}}
	if err := d.trees("", ra, rb); err != nil {
		trace.Printf("%s against %s: %v: asking git", a.Short(), b.Short(), err)
		return nil, false
	}
	return d.sorted(), true
}

// trees compares the trees with raw ids a and b, the directory dir ("" the
// top, else ending in "/") on either side.
func (d *indexDiffer) trees(dir string, a, b []byte) error {
	if bytes.Equal(a, b) {
		return nil
	}
	ea, err := d.tree(a)
	if err != nil {
		return err
	}
	eb, err := d.tree(b)
	if err != nil {
		return err
	}
	inB := byName(eb) // what is left once a's entries are taken out
	for _, x := range ea {
		y, ok := inB[x.name]
		delete(inB, x.name)
		switch {
		case !ok:
			err = d.side(dir, x)
		case x.mode == modeDir && y.mode == modeDir:
			err = d.trees(dir+x.name+"/", x.hash.Bytes(), y.hash.Bytes())
		case x.mode == modeDir || y.mode == modeDir: // a file on one side, a directory on the other
			if err = d.side(dir, x); err == nil {
				err = d.side(dir, y)
			}
		case x.mode != y.mode || x.hash != y.hash:
			d.changed[dir+x.name] = true
		}
		if err != nil {
			return err
		}
	}
	for _, y := range inB { // in b only
		if err := d.side(dir, y); err != nil {
			return err
		}
	}
	return nil
}

// side marks changed the entry e of the directory dir, on one side only:
// the file, or every file of the tree.
func (d *indexDiffer) side(dir string, e treeEntry) error {
	if e.mode == modeDir {
		return d.addTree(dir+e.name+"/", e.hash.Bytes())
	}
	d.changed[dir+e.name] = true
	return nil
}

// sorted returns the paths marked changed, sorted.
func (d *indexDiffer) sorted() []string {
	paths := make([]string, 0, len(d.changed))
	for p := range d.changed {
		paths = append(paths, p)
	}
	slices.Sort(paths)
	return paths
}
