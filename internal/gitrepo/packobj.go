package gitrepo

import (
	"bufio"
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/git-memcite/git-memcite/internal/regfile"
)

// maxPackedChain bounds the deltas followed to read one packed object:
// git writes chains of at most 50 (pack.depth) unless told otherwise; a
// longer one is git's to read, with its cache of delta bases.
const maxPackedChain = 1000

// packObjects reads objects from the repository's own packs
// (objects/pack/*.idx and the .pack each indexes) without git, for the
// single reads the loose reader cannot answer: in a cloned or packed
// repository the trees and blobs a hook reads are packed, and reading
// them here spares the hook the start of a cat-file process.
//
// It answers under the same conditions as the loose reader (looseObjects:
// no replace refs, no other object directory named by the environment,
// not MEMCITE_BACKEND=git), and only for what it reads whole and checked:
// a version-2 pack index and its pack, objects of at most maxLooseObject
// bytes (every delta base and delta too), chains of at most
// maxPackedChain deltas whose bases are in the same pack, each zlib
// stream read to its end (its checksum verified). Anything else (an
// object in no pack here, in an alternate, a partial clone's missing
// object, a damaged pack) is git's to read.
type packObjects struct {
	dir     string // objects/pack
	hashLen int    // 20 (SHA-1) or 32 (SHA-256)
	off     bool

	once  sync.Once
	packs []*pack // newest first, as git looks in them
	cache baseCache
}

// pack is one open pack and its version-2 index.
type pack struct {
	idx, data *os.File
	dataSize  int64
	n         int64 // objects
	fanout    [256]uint32
	hashLen   int
}

// newPackObjects makes the pack reader of the objects directory dir,
// off when the loose reader is (same conditions).
func newPackObjects(dir string, hexLen int, off bool) *packObjects {
	return &packObjects{dir: filepath.Join(dir, "pack"), hashLen: hexLen / 2, off: off}
}

// read returns the content of object oid if one of the repository's packs
// holds it as an object of type typ that this reader can read whole; ok
// is false where git must answer.
func (po *packObjects) read(oid, typ string) (data []byte, ok bool) {
	if po.off || forceGitBinary.Load() || len(oid) != 2*po.hashLen {
		return nil, false
	}
	raw, err := hex.DecodeString(oid)
	if err != nil {
		return nil, false
	}
	po.once.Do(po.open)
	for _, p := range po.packs {
		off, found, err := p.find(raw)
		if err != nil || !found {
			continue
		}
		t, data, err := po.object(p, off)
		return data, err == nil && t == typ
	}
	return nil, false
}

// open lists the packs: each index of version 2 whose pack is there,
// with the count its pack header gives; a pack that cannot be read is
// skipped (git will read it).
func (po *packObjects) open() {
	ents, err := os.ReadDir(po.dir)
	if err != nil {
		return
	}
	type dated struct {
		p *pack
		t time.Time
	}
	var found []dated
	for _, e := range ents {
		name, ok := strings.CutSuffix(e.Name(), ".idx")
		if !ok || !strings.HasPrefix(name, "pack-") {
			continue
		}
		p, t, err := openPack(filepath.Join(po.dir, name), po.hashLen)
		if err != nil {
			continue
		}
		found = append(found, dated{p, t})
	}
	slices.SortStableFunc(found, func(a, b dated) int { return b.t.Compare(a.t) })
	for _, d := range found {
		po.packs = append(po.packs, d.p)
	}
}

// ownsAll reports whether the repository's objects are all its own, loose
// or in its packs, and read here: not off, and no object directory
// borrowed (objects/info/alternates). A partial clone's missing objects
// are git's to fetch even so.
func (po *packObjects) ownsAll() bool {
	if po == nil || po.off {
		return false
	}
	_, err := os.Lstat(filepath.Join(filepath.Dir(po.dir), "info", "alternates"))
	return errors.Is(err, fs.ErrNotExist)
}

// close closes the packs' files.
func (po *packObjects) close() {
	for _, p := range po.packs {
		p.idx.Close()
		p.data.Close()
	}
	po.packs = nil
}

// openPack opens base.idx and base.pack and checks that they belong
// together as far as their headers say.
func openPack(base string, hashLen int) (*pack, time.Time, error) {
	idx, err := regfile.Open(base + ".idx") // (never blocks on a FIFO planted there)
	if err != nil {
		return nil, time.Time{}, err
	}
	p := &pack{idx: idx, hashLen: hashLen}
	fail := func(err error) (*pack, time.Time, error) {
		idx.Close()
		if p.data != nil {
			p.data.Close()
		}
		return nil, time.Time{}, err
	}
	st, err := idx.Stat()
	if err != nil {
		return fail(err)
	}
	head := make([]byte, 8+256*4)
	if _, err := idx.ReadAt(head, 0); err != nil {
		return fail(err)
	}
	if err := p.parseIndexHead(head, st.Size()); err != nil {
		return fail(fmt.Errorf("%s.idx: %w", base, err))
	}
	if p.data, err = regfile.Open(base + ".pack"); err != nil {
		return fail(err)
	}
	pst, err := p.data.Stat()
	if err != nil {
		return fail(err)
	}
	p.dataSize = pst.Size()
	var ph [12]byte
	if _, err := p.data.ReadAt(ph[:], 0); err != nil {
		return fail(err)
	}
	if v := binary.BigEndian.Uint32(ph[4:]); string(ph[:4]) != "PACK" || v != 2 && v != 3 || int64(binary.BigEndian.Uint32(ph[8:])) != p.n {
		return fail(fmt.Errorf("%s.pack: header does not match its index", base))
	}
	return p, pst.ModTime(), nil
}

// errBadPack: a pack or pack index that is not as git writes it.
var errBadPack = errors.New("pack: unexpected content")

// parseIndexHead reads a version-2 index's magic, version and fan-out
// table, and checks the file's size against the count they give.
func (p *pack) parseIndexHead(head []byte, size int64) error {
	if len(head) < 8+256*4 || string(head[:4]) != "\xfftOc" || binary.BigEndian.Uint32(head[4:]) != 2 {
		return errBadPack
	}
	prev := uint32(0)
	for i := range p.fanout {
		v := binary.BigEndian.Uint32(head[8+4*i:])
		if v < prev {
			return errBadPack
		}
		p.fanout[i], prev = v, v
	}
	p.n = int64(prev)
	// names, CRCs, 4-byte offsets, 8-byte offsets, two checksums
	min := int64(8+256*4) + p.n*int64(p.hashLen+8) + int64(2*p.hashLen)
	if size < min || (size-min)%8 != 0 || (size-min)/8 > p.n {
		return errBadPack
	}
	return nil
}

// find returns the pack offset of the object whose raw name is oid.
func (p *pack) find(oid []byte) (off int64, found bool, err error) {
	lo := int64(0)
	if oid[0] > 0 {
		lo = int64(p.fanout[oid[0]-1])
	}
	hi := int64(p.fanout[oid[0]])
	names := int64(8 + 256*4)
	name := make([]byte, p.hashLen)
	for lo < hi {
		mid := lo + (hi-lo)/2
		if _, err := p.idx.ReadAt(name, names+mid*int64(p.hashLen)); err != nil {
			return 0, false, err
		}
		switch c := bytes.Compare(name, oid); {
		case c == 0:
			off, err := p.offset(mid)
			return off, err == nil, err
		case c < 0:
			lo = mid + 1
		default:
			hi = mid
		}
	}
	return 0, false, nil
}

// offset returns the pack offset of the i-th object of the index.
func (p *pack) offset(i int64) (int64, error) {
	base := int64(8+256*4) + p.n*int64(p.hashLen+4)
	var b [8]byte
	if _, err := p.idx.ReadAt(b[:4], base+4*i); err != nil {
		return 0, err
	}
	v := binary.BigEndian.Uint32(b[:4])
	if v&0x80000000 == 0 {
		return int64(v), nil
	}
	if _, err := p.idx.ReadAt(b[:], base+4*p.n+8*int64(v&0x7fffffff)); err != nil {
		return 0, err
	}
	off := binary.BigEndian.Uint64(b[:])
	if off >= 1<<62 {
		return 0, errBadPack
	}
	return int64(off), nil
}

// The object types of a pack entry.
const (
	packCommit   = 1
	packTree     = 2
	packBlob     = 3
	packTag      = 4
	packOfsDelta = 6
	packRefDelta = 7
)

var packTypeNames = [...]string{packCommit: "commit", packTree: "tree", packBlob: "blob", packTag: "tag"}

// packEntry is a pack entry's header.
type packEntry struct {
	typ     int
	size    int64 // inflated size
	baseOff int64 // an offset delta's base
	baseOID []byte
	data    int64 // where its zlib stream starts
}

// entryAt reads the header of the entry at off.
func (p *pack) entryAt(off int64) (packEntry, error) {
	if off < 12 || off >= p.dataSize {
		return packEntry{}, errBadPack
	}
	var buf [64]byte
	n, err := p.data.ReadAt(buf[:], off)
	if n == 0 {
		return packEntry{}, fmt.Errorf("pack entry at %d: %w", off, err)
	}
	return parseEntry(buf[:n], off, p.hashLen)
}

// parseEntry decodes the header b of the entry at off: type and size,
// then an offset delta's base offset or a reference delta's base name.
func parseEntry(b []byte, off int64, hashLen int) (packEntry, error) {
	if len(b) == 0 {
		return packEntry{}, errBadPack
	}
	c := b[0]
	e := packEntry{typ: int(c>>4) & 7, size: int64(c & 15)}
	i, shift := 1, 4
	for c&0x80 != 0 {
		if i >= len(b) || shift > 56 {
			return packEntry{}, errBadPack
		}
		c = b[i]
		e.size |= int64(c&0x7f) << shift
		i++
		shift += 7
	}
	switch e.typ {
	case packCommit, packTree, packBlob, packTag:
	case packOfsDelta:
		if i >= len(b) {
			return packEntry{}, errBadPack
		}
		c = b[i]
		i++
		rel := int64(c & 0x7f)
		for c&0x80 != 0 {
			if i >= len(b) || rel >= 1<<55 {
				return packEntry{}, errBadPack
			}
			c = b[i]
			i++
			rel = (rel+1)<<7 | int64(c&0x7f)
		}
		if rel <= 0 || rel >= off {
			return packEntry{}, errBadPack
		}
		e.baseOff = off - rel
	case packRefDelta:
		if i+hashLen > len(b) {
			return packEntry{}, errBadPack
		}
		e.baseOID = b[i : i+hashLen : i+hashLen]
		i += hashLen
	default:
		return packEntry{}, errBadPack
	}
	e.data = off + int64(i)
	return e, nil
}

// inflate reads the zlib stream of e: exactly e.size bytes, then its end.
func (p *pack) inflate(e packEntry) ([]byte, error) {
	if e.size > maxLooseObject {
		return nil, errTooLarge
	}
	zr, err := zlib.NewReader(bufio.NewReaderSize(io.NewSectionReader(p.data, e.data, p.dataSize-e.data), 4096))
	if err != nil {
		return nil, err
	}
	defer zr.Close()
	data := make([]byte, e.size)
	if _, err := io.ReadFull(zr, data); err != nil {
		return nil, err
	}
	// the stream must end here, which also checks its checksum
	if n, err := zr.Read(make([]byte, 1)); n != 0 || err != io.EOF {
		return nil, errBadPack
	}
	return data, nil
}

// errTooLarge: a packed object or delta larger than this reader takes.
var errTooLarge = errors.New("pack: object too large to read in-process")

// object reads the object at off of pack p: its type name and content,
// with every delta on its chain applied. The chain stops at the first
// object the cache of delta bases holds; every object built on the way
// goes into it, as git's delta base cache keeps them, so that reads of
// objects that share a chain (the versions of a file, the trees of a
// commit) inflate each base once.
func (po *packObjects) object(p *pack, off int64) (string, []byte, error) {
	type link struct {
		off int64
		e   packEntry
	}
	var (
		chain []link
		typ   int
		data  []byte
	)
	for {
		if c, ok := po.cache.get(p, off); ok {
			typ, data = c.typ, c.data
			break
		}
		e, err := p.entryAt(off)
		if err != nil {
			return "", nil, err
		}
		if e.typ != packOfsDelta && e.typ != packRefDelta {
			if data, err = p.inflate(e); err != nil {
				return "", nil, err
			}
			typ = e.typ
			po.cache.put(p, off, typ, data)
			break
		}
		if chain = append(chain, link{off, e}); len(chain) > maxPackedChain {
			return "", nil, errTooLarge
		}
		if e.typ == packOfsDelta {
			off = e.baseOff
			continue
		}
		base, found, err := p.find(e.baseOID)
		if err != nil || !found {
			return "", nil, errBadPack // a base elsewhere: git's to find
		}
		off = base
	}
	for i := len(chain) - 1; i >= 0; i-- {
		d, err := p.inflate(chain[i].e)
		if err != nil {
			return "", nil, err
		}
		if data, err = applyDelta(data, d); err != nil {
			return "", nil, err
		}
		po.cache.put(p, chain[i].off, typ, data)
	}
	// the cache keeps its copy: the caller gets its own
	return packTypeNames[typ], bytes.Clone(data), nil
}

// maxBaseCache bounds the bytes the cache of delta bases holds.
const maxBaseCache = 32 << 20

// baseCache holds objects read from packs by pack and offset, up to
// maxBaseCache bytes (emptied when full). Safe for concurrent use.
type baseCache struct {
	mu    sync.Mutex
	m     map[baseKey]cachedObject
	bytes int
}

type baseKey struct {
	p   *pack
	off int64
}

type cachedObject struct {
	typ  int
	data []byte
}

func (c *baseCache) get(p *pack, off int64) (cachedObject, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	o, ok := c.m[baseKey{p, off}]
	return o, ok
}

func (c *baseCache) put(p *pack, off int64, typ int, data []byte) {
	if len(data) > maxBaseCache/4 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil || c.bytes+len(data) > maxBaseCache {
		c.m, c.bytes = map[baseKey]cachedObject{}, 0
	}
	if _, ok := c.m[baseKey{p, off}]; !ok {
		c.m[baseKey{p, off}] = cachedObject{typ, data}
		c.bytes += len(data)
	}
}

// applyDelta applies a git delta to base: the sizes of the base and of
// the result, then instructions that copy a range of the base or insert
// the bytes that follow them.
func applyDelta(base, delta []byte) ([]byte, error) {
	src, n := binary.Uvarint(delta)
	if n <= 0 || src != uint64(len(base)) {
		return nil, errBadDelta
	}
	delta = delta[n:]
	dst, n := binary.Uvarint(delta)
	if n <= 0 {
		return nil, errBadDelta
	}
	if dst > maxLooseObject {
		return nil, errTooLarge
	}
	delta = delta[n:]
	out := make([]byte, 0, dst)
	for len(delta) > 0 {
		op := delta[0]
		delta = delta[1:]
		switch {
		case op&0x80 != 0:
			var off, size uint64
			for bit := range 7 {
				if op&(1<<bit) == 0 {
					continue
				}
				if len(delta) == 0 {
					return nil, errBadDelta
				}
				if bit < 4 {
					off |= uint64(delta[0]) << (8 * bit)
				} else {
					size |= uint64(delta[0]) << (8 * (bit - 4))
				}
				delta = delta[1:]
			}
			if size == 0 {
				size = 0x10000
			}
			if off+size > uint64(len(base)) || uint64(len(out))+size > dst {
				return nil, errBadDelta
			}
			out = append(out, base[off:off+size]...)
		case op != 0:
			if int(op) > len(delta) || uint64(len(out))+uint64(op) > dst {
				return nil, errBadDelta
			}
			out = append(out, delta[:op]...)
			delta = delta[op:]
		default:
			return nil, errBadDelta
		}
	}
	if uint64(len(out)) != dst {
		return nil, errBadDelta
	}
	return out, nil
}

// errBadDelta: a delta that does not apply to its base.
var errBadDelta = errors.New("pack: delta does not apply")
