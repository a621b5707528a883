package gitrepo

import (
	"bytes"
	"fmt"
	"io"
	"path"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/go-git/go-git/v5/plumbing/filemode"

	"github.com/git-memcite/git-memcite/internal/source"
)

// entry is a path in a tree or index.
type entry struct {
	path string
	oid  string // full hexadecimal object name
	mode filemode.FileMode
	// sub is set for a file inside a submodule: the gitlink's path and
	// commit, and the file's path inside the submodule.
	sub *subFile
	// stat is the index's stat data of the entry, when git compares it
	// with the working tree (index entries only).
	stat *indexStat
}

// subFile is a file inside a submodule, at the commit the superproject
// records.
type subFile struct {
	prefix, commit, rest string
}

// table is a source.Source over a sorted list of entries (an index or a
// commit's tree) whose blobs come from read.
type table struct {
	name    string
	entries []entry // sorted by path
	// byPath maps a path to its entry's position, built once a table has
	// answered manyLookups lookups by binary search: a hook that looks up
	// a few paths of a large index builds no map.
	byPath   atomic.Pointer[map[string]int]
	lookups  atomic.Int32
	pathOnce sync.Once
	read     func(e entry) (io.ReadCloser, error)
	// submodule reads a file inside a submodule (nil: not readable).
	submodule func(f *subFile) ([]byte, error)
	// ids: entries may be named by their blob (ContentID).
	ids bool
	// committable: the entries are exactly what committing the index
	// records (decoded in-process: intent-to-add entries left out).
	committable bool
	// intentToAdd: the index has entries added with intent to add (not
	// entries: git commits none of them, but git diff-index lists them).
	intentToAdd bool

	// cacheTree is the body of the index's cache-tree extension, which
	// holds the tree ids of the directories git has not invalidated since
	// (treeIDs).
	cacheTree []byte

	treeOnce sync.Once
	trees    map[string][]byte // treeIDs
}

func newTable(name string, entries []entry, read func(entry) (io.ReadCloser, error)) *table {
	byPath := func(a, b entry) int { return strings.Compare(a.path, b.path) }
	if !slices.IsSortedFunc(entries, byPath) { // an index and git's listings are sorted already
		slices.SortFunc(entries, byPath)
	}
	return &table{name: name, entries: entries, read: read}
}

// manyLookups is how many lookups a table answers by binary search
// before it builds its map of paths.
const manyLookups = 4096

func (t *table) Name() string { return t.name }

// index returns the position of the entry p in t (nil: none).
func (t *table) index(p string) (int, bool) {
	if t == nil {
		return 0, false
	}
	if m := t.byPath.Load(); m != nil {
		i, ok := (*m)[p]
		return i, ok
	}
	if t.lookups.Add(1) > manyLookups {
		t.pathOnce.Do(func() {
			m := make(map[string]int, len(t.entries))
			for i, e := range t.entries {
				m[e.path] = i
			}
			t.byPath.Store(&m)
		})
	}
	return slices.BinarySearchFunc(t.entries, p, func(e entry, p string) int { return strings.Compare(e.path, p) })
}

// lookup resolves p (following in-repository symlinks) to an entry, or
// reports a directory.
func (t *table) lookup(p string) (entry, source.Kind, error) {
	c, err := source.Clean(p)
	if err != nil {
		return entry{}, 0, err
	}
	for hops := 0; hops < 16; hops++ {
		if c == "." {
			return entry{}, source.KindDir, nil
		}
		if i, ok := t.index(c); ok {
			e := t.entries[i]
			switch {
			case e.mode == filemode.Symlink:
				target, err := t.readAll(e)
				if err != nil {
					return entry{}, 0, err
				}
				tp := string(target)
				if strings.HasPrefix(tp, "/") {
					return entry{}, 0, source.ErrOutside
				}
				next, err := source.Clean(path.Join(path.Dir(c), tp))
				if err != nil {
					return entry{}, 0, err
				}
				c = next
				continue
			case e.mode == filemode.Submodule:
				return e, source.KindOther, nil
			}
			return e, source.KindFile, nil
		}
		if t.isDir(c) {
			return entry{}, source.KindDir, nil
		}
		// a symlinked directory on the way: resolve the first symlink prefix
		if next, ok, err := t.resolvePrefix(c); err != nil {
			return entry{}, 0, err
		} else if ok {
			c = next
			continue
		}
		// a file inside a submodule: at the commit the gitlink records
		if f := t.inSubmodule(c); f != nil {
			return entry{path: c, mode: filemode.Regular, sub: f}, source.KindFile, nil
		}
		return entry{}, 0, source.ErrNotExist
	}
	return entry{}, 0, fmt.Errorf("%s: too many levels of symbolic links", p)
}

func (t *table) resolvePrefix(c string) (string, bool, error) {
	parts := strings.Split(c, "/")
	for i := 1; i < len(parts); i++ {
		prefix := strings.Join(parts[:i], "/")
		j, ok := t.index(prefix)
		if !ok || t.entries[j].mode != filemode.Symlink {
			continue
		}
		target, err := t.readAll(t.entries[j])
		if err != nil {
			return "", false, err
		}
		if strings.HasPrefix(string(target), "/") {
			return "", false, source.ErrOutside
		}
		next, err := source.Clean(path.Join(path.Dir(prefix), string(target), strings.Join(parts[i:], "/")))
		return next, err == nil, err
	}
	return "", false, nil
}

// inSubmodule returns the submodule file c names, if a prefix of c is a
// gitlink.
func (t *table) inSubmodule(c string) *subFile {
	if t.submodule == nil {
		return nil
	}
	for i := strings.IndexByte(c, '/'); i > 0; {
		if j, ok := t.index(c[:i]); ok && t.entries[j].mode == filemode.Submodule {
			return &subFile{prefix: c[:i], commit: t.entries[j].oid, rest: c[i+1:]}
		}
		k := strings.IndexByte(c[i+1:], '/')
		if k < 0 {
			break
		}
		i += k + 1
	}
	return nil
}

func (t *table) isDir(c string) bool {
	prefix := c + "/"
	i := sort.Search(len(t.entries), func(i int) bool { return t.entries[i].path >= prefix })
	return i < len(t.entries) && strings.HasPrefix(t.entries[i].path, prefix)
}

func (t *table) readAll(e entry) ([]byte, error) {
	rc, err := t.read(e)
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	var b bytes.Buffer
	_, err = io.Copy(&b, rc)
	return b.Bytes(), err
}

// Stat implements source.Source.
func (t *table) Stat(p string) (source.Entry, error) {
	e, kind, err := t.lookup(p)
	if err != nil {
		return source.Entry{}, err
	}
	_ = e
	return source.Entry{Kind: kind, Size: -1}, nil
}

// Open implements source.Source.
func (t *table) Open(p string) (io.ReadCloser, error) {
	e, kind, err := t.lookup(p)
	if err != nil {
		return nil, err
	}
	switch kind {
	case source.KindDir:
		return nil, source.ErrIsDir
	case source.KindOther:
		return nil, source.ErrNotRegular
	}
	if e.sub != nil {
		b, err := t.submodule(e.sub)
		if err != nil {
			return nil, err
		}
		return io.NopCloser(bytes.NewReader(b)), nil
	}
	return t.read(e)
}

// ReadFile implements source.Source.
func (t *table) ReadFile(p string) ([]byte, error) {
	rc, err := t.Open(p)
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	return io.ReadAll(rc)
}

// List implements source.Source.
func (t *table) List(dir string) ([]string, error) {
	prefix := ""
	if dir != "" && dir != "." {
		c, err := source.Clean(dir)
		if err != nil {
			return nil, err
		}
		// a symlinked memory directory: list its target
		if _, kind, err := t.lookup(c); err == nil && kind == source.KindDir && !t.isDir(c) {
			if next, ok, _ := t.resolvePrefix(c + "/x"); ok {
				c = path.Dir(next)
			} else if i, ok := t.index(c); ok && t.entries[i].mode == filemode.Symlink {
				target, _ := t.readAll(t.entries[i])
				c = path.Join(path.Dir(c), string(target))
			}
		}
		prefix = c + "/"
	}
	i := sort.Search(len(t.entries), func(i int) bool { return t.entries[i].path >= prefix })
	// the entries below prefix are contiguous from i
	end := i + sort.Search(len(t.entries)-i, func(k int) bool { return !strings.HasPrefix(t.entries[i+k].path, prefix) })
	var out []string
	if end > i {
		out = make([]string, 0, end-i)
	}
	for ; i < end; i++ {
		if m := t.entries[i].mode; m == filemode.Regular || m == filemode.Executable || m == filemode.Deprecated || m == filemode.Symlink {
			out = append(out, t.entries[i].path)
		}
	}
	return out, nil
}

var _ source.Source = (*table)(nil)

// ContentID implements source.Identifier: a regular file that is an entry
// of the index or tree itself (not reached through a symlink, not inside a
// submodule) is named by its blob. Repositories with a local git-lfs store
// get no identifiers: what a pointer blob reads as depends on which
// objects have been fetched.
func (t *table) ContentID(p string) (string, bool) {
	if !t.ids {
		return "", false
	}
	c, err := source.Clean(p)
	if err != nil {
		return "", false
	}
	i, ok := t.index(c)
	if !ok {
		return "", false
	}
	e := t.entries[i]
	if !e.mode.IsRegular() || e.sub != nil || e.oid == "" {
		return "", false
	}
	return "blob:" + e.oid, true
}
