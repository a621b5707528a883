package gitrepo

import (
	"bytes"
	"context"
	"crypto/sha1"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"hash"
	"sort"
	"strconv"
	"strings"

	"github.com/git-memcite/git-memcite/internal/source"
)

// IndexTree returns the id of the tree that committing src would record
// (what `git write-tree` prints), computed in-process without writing any
// object. src must be an index from Index that this package decoded
// itself; ok is false for anything else (a split or sparse index listed by
// git, a working tree, a commit), for an index git cannot commit as it is
// (unmerged paths), and in a repository with a local git-lfs store, where
// what a tree's files read as depends on what was fetched (so a tree id
// does not name what was verified).
func IndexTree(src source.Source) (id OID, ok bool) {
	t, isTable := src.(*table)
	if !isTable || !t.committable || !t.ids || len(t.entries) == 0 {
		return "", false
	}
	dirs := t.treeIDs()
	if dirs == nil {
		return "", false
	}
	return OID(hex.EncodeToString(dirs[""])), true
}

// treeIDs returns the raw ids of the trees of every directory of the
// committable table t ("" the top, else ending in "/"), computed once;
// nil when they cannot be. A directory the index's cache-tree extension
// holds a valid id for takes that id, as git does when it writes the
// tree of a commit: only the directories git has invalidated since (the
// ones holding what was staged since, and their parents) are hashed.
func (t *table) treeIDs() map[string][]byte {
	t.treeOnce.Do(func() {
		var newHash func() hash.Hash
		switch len(t.entries[0].oid) {
		case 40:
			newHash = sha1.New
		case 64:
			newHash = sha256.New
		default:
			return
		}
		dirs := parseCacheTree(t.cacheTree, len(t.entries[0].oid)/2)
		if dirs == nil {
			dirs = map[string][]byte{}
		}
		if _, _, err := hashTreeDirs(t.entries, "", newHash, dirs); err == nil {
			t.trees = dirs
		}
	})
	return t.trees
}

// parseCacheTree reads the body of an index's cache-tree extension: the
// raw tree id of every directory it holds as valid ("" the top, else
// ending in "/"). Invalidated directories (entry count -1) are left out;
// a malformed extension gives nil, so that every directory is hashed.
func parseCacheTree(b []byte, hashLen int) map[string][]byte {
	if len(b) == 0 {
		return nil
	}
	out := map[string][]byte{}
	var node func(dir string, depth int) bool
	node = func(dir string, depth int) bool {
		// name NUL entry-count SP subtree-count LF [id]
		nul := bytes.IndexByte(b, 0)
		lf := bytes.IndexByte(b, '\n')
		if nul < 0 || lf < nul || depth > 4096 {
			return false
		}
		name := string(b[:nul])
		count, subs, ok := strings.Cut(string(b[nul+1:lf]), " ")
		if !ok || (depth == 0) != (name == "") || strings.ContainsRune(name, '/') {
			return false
		}
		n, err1 := strconv.Atoi(count)
		k, err2 := strconv.Atoi(subs)
		if err1 != nil || err2 != nil || k < 0 || n < -1 {
			return false
		}
		b = b[lf+1:]
		if name != "" {
			dir += name + "/"
		}
		if n >= 0 {
			if len(b) < hashLen {
				return false
			}
			out[dir] = b[:hashLen:hashLen]
			b = b[hashLen:]
		}
		for range k {
			if !node(dir, depth+1) {
				return false
			}
		}
		return true
	}
	if !node("", 0) {
		return nil
	}
	return out
}

// hashTreeDirs hashes the tree of the directory dir ("" for the root,
// else ending in "/") from es, the index entries in index order whose
// paths start with dir; it returns the raw id and how many entries it
// used, and records the id of every directory in dirs. A directory dirs
// already holds (from the cache-tree) is not hashed: its entries are
// skipped. Index order is tree order: a directory's entries are
// contiguous, and a name compares as git compares tree entries (a
// directory as if followed by "/").
func hashTreeDirs(es []entry, dir string, newHash func() hash.Hash, dirs map[string][]byte) ([]byte, int, error) {
	if id, ok := dirs[dir]; ok {
		// the entries below dir are contiguous from 0
		n := sort.Search(len(es), func(i int) bool { return !strings.HasPrefix(es[i].path, dir) })
		return id, n, nil
	}
	var buf []byte
	i := 0
	for i < len(es) && strings.HasPrefix(es[i].path, dir) {
		rel := es[i].path[len(dir):]
		if k := strings.IndexByte(rel, '/'); k >= 0 {
			name := rel[:k]
			id, n, err := hashTreeDirs(es[i:], dir+name+"/", newHash, dirs)
			if err != nil {
				return nil, 0, err
			}
			buf = append(buf, "40000 "...)
			buf = append(buf, name...)
			buf = append(buf, 0)
			buf = append(buf, id...)
			i += n
			continue
		}
		e := es[i]
		if rel == "" {
			return nil, 0, fmt.Errorf("index entry %q: not a tree entry", e.path)
		}
		buf = strconv.AppendUint(buf, uint64(e.mode), 8)
		buf = append(buf, ' ')
		buf = append(buf, rel...)
		buf = append(buf, 0)
		n := len(buf)
		buf = append(buf, e.oid...) // decoded in place: the id is half as long
		if _, err := hex.Decode(buf[n:], buf[n:]); err != nil {
			return nil, 0, fmt.Errorf("index entry %q: bad object id", e.path)
		}
		buf = buf[:n+len(e.oid)/2]
		i++
	}
	h := newHash()
	fmt.Fprintf(h, "tree %d\x00", len(buf))
	h.Write(buf)
	id := h.Sum(nil)
	dirs[dir] = id
	return id, i, nil
}

// TreeNamesContent reports whether src, an index or commit from this
// package, reads as its tree says whatever was fetched: false in a
// repository with a local git-lfs store, and for any other source.
func TreeNamesContent(src source.Source) bool {
	t, ok := src.(*table)
	return ok && t.ids
}

// HeadTree returns the tree HEAD's commit records; ok is false on an
// unborn branch.
func (r *Repo) HeadTree(ctx context.Context) (OID, bool, error) {
	head, born, err := r.Head()
	if err != nil || !born {
		return "", false, err
	}
	tree, err := r.TreeOf(ctx, head)
	return tree, err == nil, err
}

// TreeOf returns the tree the commit head records.
func (r *Repo) TreeOf(ctx context.Context, head OID) (OID, error) {
	objs, err := r.objects()
	if err != nil {
		return "", err
	}
	data, err := objs.read(string(head), "commit")
	if err != nil {
		return "", err
	}
	line, _, _ := bytes.Cut(data, []byte{'\n'})
	tree, ok := bytes.CutPrefix(line, []byte("tree "))
	if !ok || !isHex(string(tree)) || (len(tree) != 40 && len(tree) != 64) {
		return "", fmt.Errorf("HEAD's commit %s names no tree", head.Short())
	}
	return OID(tree), nil
}

// HasTree reports whether the object database holds the tree oid (false
// when it cannot tell).
func (r *Repo) HasTree(oid OID) bool {
	objs, err := r.objects()
	if err != nil || !isHex(string(oid)) {
		return false
	}
	_, err = objs.read(string(oid), "tree")
	return err == nil
}
