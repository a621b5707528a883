package gitrepo

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/go-git/go-billy/v5/osfs"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/cache"
	"github.com/go-git/go-git/v5/plumbing/format/idxfile"
	"github.com/go-git/go-git/v5/plumbing/format/packfile"
	"github.com/go-git/go-git/v5/plumbing/storer"
)

// Packed objects read through the pack's own index files, as git reads
// them: a lookup by id is a binary search in the .idx file's sorted ids,
// and one by offset (a delta's base) a binary search in the .rev file
// (the pack's objects in offset order), when the pack has one. go-git's
// storage decodes every .idx into memory and, at the first delta, builds
// a map from the offset of every object of the pack to its id: for a
// pack of 240,000 objects that is 0.2 s of CPU, paid by every run that
// reads one object, where these lookups cost microseconds.

// packIndex is a version 2 .idx file (and its .rev file) held in memory:
// an idxfile.Index for go-git's pack reader.
type packIndex struct {
	data  []byte // the .idx file
	n     int
	names int // offset of the sorted object ids
	offs  int // of the 32-bit offsets
	large int // of the 64-bit offsets
	rev   []byte

	byOffsetOnce sync.Once
	byOffset     []uint32 // positions in offset order, when there is no .rev
}

var errIdxForm = errors.New("not a version 2 pack index")

// readPackIndex reads the .idx file at path, and its .rev file if there
// is one.
func readPackIndex(path string) (*packIndex, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	if len(data) < 8+256*4 || !bytes.Equal(data[:8], []byte{0xff, 't', 'O', 'c', 0, 0, 0, 2}) {
		return nil, fmt.Errorf("%s: %w", path, errIdxForm)
	}
	n := int(binary.BigEndian.Uint32(data[8+255*4:]))
	x := &packIndex{data: data, n: n, names: 8 + 256*4}
	x.offs = x.names + n*(20+4)
	x.large = x.offs + n*4
	if len(data) < x.large+2*20 {
		return nil, fmt.Errorf("%s: %w", path, errIdxForm)
	}
	if rev, err := os.ReadFile(strings.TrimSuffix(path, ".idx") + ".rev"); err == nil &&
		len(rev) >= 12+4*n && string(rev[:4]) == "RIDX" && binary.BigEndian.Uint32(rev[4:]) == 1 {
		x.rev = rev[12 : 12+4*n]
	}
	return x, nil
}

func (x *packIndex) name(i int) []byte { return x.data[x.names+20*i : x.names+20*i+20] }

// offset returns the pack offset of the object at position i.
func (x *packIndex) offset(i int) int64 {
	o := binary.BigEndian.Uint32(x.data[x.offs+4*i:])
	if o&0x80000000 == 0 {
		return int64(o)
	}
	j := x.large + 8*int(o&0x7fffffff)
	if j+8 > len(x.data) {
		return -1
	}
	return int64(binary.BigEndian.Uint64(x.data[j:]))
}

// find returns the position of h, or -1.
func (x *packIndex) find(h plumbing.Hash) int {
	lo := 0
	if h[0] > 0 {
		lo = int(binary.BigEndian.Uint32(x.data[8+4*(int(h[0])-1):]))
	}
	hi := int(binary.BigEndian.Uint32(x.data[8+4*int(h[0]):]))
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		switch c := bytes.Compare(x.name(m), h[:]); {
		case c == 0:
			return m
		case c < 0:
			lo = m + 1
		default:
			hi = m
		}
	}
	return -1
}

// Contains implements idxfile.Index.
func (x *packIndex) Contains(h plumbing.Hash) (bool, error) { return x.find(h) >= 0, nil }

// FindOffset implements idxfile.Index.
func (x *packIndex) FindOffset(h plumbing.Hash) (int64, error) {
	i := x.find(h)
	if i < 0 {
		return 0, plumbing.ErrObjectNotFound
	}
	return x.offset(i), nil
}

// FindCRC32 implements idxfile.Index.
func (x *packIndex) FindCRC32(h plumbing.Hash) (uint32, error) {
	i := x.find(h)
	if i < 0 {
		return 0, plumbing.ErrObjectNotFound
	}
	return binary.BigEndian.Uint32(x.data[x.names+20*x.n+4*i:]), nil
}

// FindHash implements idxfile.Index: a binary search of the positions in
// offset order (the .rev file's, else sorted once).
func (x *packIndex) FindHash(o int64) (plumbing.Hash, error) {
	pos := func(k int) int { return int(binary.BigEndian.Uint32(x.rev[4*k:])) }
	if x.rev == nil {
		x.byOffsetOnce.Do(func() { x.byOffset = x.positionsByOffset() })
		pos = func(k int) int { return int(x.byOffset[k]) }
	}
	lo, hi := 0, x.n
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		switch off := x.offset(pos(m)); {
		case off == o:
			var h plumbing.Hash
			copy(h[:], x.name(pos(m)))
			return h, nil
		case off < o:
			lo = m + 1
		default:
			hi = m
		}
	}
	return plumbing.ZeroHash, plumbing.ErrObjectNotFound
}

// positionsByOffset sorts the positions of the pack's objects by their
// offsets: a radix sort, 16 bits of the offsets at a time, as many passes
// as the largest offset needs (two below 4 GiB). A comparison sort that
// reads the offsets as it compares took most of a commit hook's time in a
// pack of 200,000 objects.
func (x *packIndex) positionsByOffset() []uint32 {
	keys := make([]uint64, x.n)
	for i := range keys {
		keys[i] = uint64(x.offset(i) + 1) // a damaged entry (-1) first, as int64s sort
	}
	return radixOrder(keys)
}

// radixOrder returns the positions of keys in ascending key order (equal
// keys in position order): a least-significant-digit radix sort, 16 bits
// at a time, as many passes as the largest key needs.
func radixOrder(keys []uint64) []uint32 {
	type item struct {
		key uint64
		pos uint32
	}
	a, b := make([]item, len(keys)), make([]item, len(keys))
	var most uint64
	for i, k := range keys {
		a[i] = item{k, uint32(i)}
		most = max(most, k)
	}
	var count [1 << 16]int
	for shift := uint(0); shift < 64 && (shift == 0 || most>>shift != 0); shift += 16 {
		clear(count[:])
		for _, it := range a {
			count[(it.key>>shift)&0xffff]++
		}
		sum := 0
		for d, c := range count {
			count[d], sum = sum, sum+c
		}
		for _, it := range a {
			d := (it.key >> shift) & 0xffff
			b[count[d]] = it
			count[d]++
		}
		a, b = b, a
	}
	out := make([]uint32, len(keys))
	for i, it := range a {
		out[i] = it.pos
	}
	return out
}

// Count implements idxfile.Index.
func (x *packIndex) Count() (int64, error) { return int64(x.n), nil }

var errNoEntries = errors.New("pack index: entries are not listed")

// Entries implements idxfile.Index (not used by the pack reader).
func (x *packIndex) Entries() (idxfile.EntryIter, error) { return nil, errNoEntries }

// EntriesByOffset implements idxfile.Index (not used by the pack reader).
func (x *packIndex) EntriesByOffset() (idxfile.EntryIter, error) { return nil, errNoEntries }

var _ idxfile.Index = (*packIndex)(nil)

// packs reads the objects of an object directory's packs through their
// index files. A go-git Packfile is not safe for concurrent use: each
// pack keeps a few open readers, taken one per read.
type packs struct {
	once  sync.Once
	dir   string // the object directory
	cache cache.Object
	list  []*pack
	// others: a pack whose index is not read here (go-git's storage reads
	// it)
	others bool
}

type pack struct {
	idx  *packIndex
	path string
	free chan *packfile.Packfile
}

// load lists the packs of the directory and reads their indexes; a pack
// whose index cannot be read is left to go-git's storage.
func (ps *packs) load() {
	ps.once.Do(func() {
		names, _ := filepath.Glob(filepath.Join(ps.dir, "pack", "pack-*.idx"))
		for _, n := range names {
			p := strings.TrimSuffix(n, ".idx") + ".pack"
			if _, err := os.Stat(p); err != nil {
				continue
			}
			idx, err := readPackIndex(n)
			if err != nil {
				ps.others = true
				continue
			}
			ps.list = append(ps.list, &pack{idx: idx, path: p, free: make(chan *packfile.Packfile, 4)})
		}
	})
}

// object returns the object h from the packs; plumbing.ErrObjectNotFound
// when none holds it.
func (ps *packs) object(t plumbing.ObjectType, h plumbing.Hash) (plumbing.EncodedObject, error) {
	ps.load()
	for _, p := range ps.list {
		if p.idx.find(h) < 0 {
			continue
		}
		var pf *packfile.Packfile
		select {
		case pf = <-p.free:
		default:
			f, err := osfs.New(filepath.Dir(p.path)).Open(filepath.Base(p.path))
			if err != nil {
				return nil, err
			}
			pf = packfile.NewPackfileWithCache(p.idx, nil, f, ps.cache, 0)
		}
		o, err := pf.Get(h)
		select {
		case p.free <- pf:
		default:
			pf.Close()
		}
		if err != nil {
			return nil, fmt.Errorf("object %s in %s: %w", h, filepath.Base(p.path), err)
		}
		if t != plumbing.AnyObject && o.Type() != t {
			return nil, plumbing.ErrObjectNotFound
		}
		return o, nil
	}
	return nil, plumbing.ErrObjectNotFound
}

// lookup returns the object h of the object directory: from the packs
// read here, else from go-git's storage st of the directory when it may
// hold it (a loose object, or a pack not read here).
func (ps *packs) lookup(st storer.EncodedObjectStorer, t plumbing.ObjectType, h plumbing.Hash) (plumbing.EncodedObject, error) {
	o, err := ps.object(t, h)
	if err == nil || !errors.Is(err, plumbing.ErrObjectNotFound) || ps.has(h) {
		return o, err // (not found and held: of another type)
	}
	if !ps.others {
		hex := h.String()
		if _, err := os.Lstat(filepath.Join(ps.dir, hex[:2], hex[2:])); err != nil {
			return nil, plumbing.ErrObjectNotFound
		}
	}
	return st.EncodedObject(t, h)
}

// has says whether a pack holds h.
func (ps *packs) has(h plumbing.Hash) bool {
	ps.load()
	for _, p := range ps.list {
		if p.idx.find(h) >= 0 {
			return true
		}
	}
	return false
}

// close closes the readers the packs keep.
func (ps *packs) close() {
	for _, p := range ps.list {
		for {
			select {
			case pf := <-p.free:
				pf.Close()
				continue
			default:
			}
			break
		}
	}
}
