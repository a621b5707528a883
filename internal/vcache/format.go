package vcache

import (
	"bytes"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"io"
	"math"
	"math/bits"
	"slices"
	"sync/atomic"
	"unsafe"
)

// The file format (integers are unsigned varints unless said otherwise):
//
//	magic "MEMCITE-CACHE\n"
//	format version (4 bytes, big endian)
//	tool identity (length, bytes)
//	generation
//	verdict count, file count, blob length
//	verdict records, sorted by key (strictly increasing), each 44 bytes:
//	  key (32), generation, kind, reason offset (4 bytes each, little
//	  endian); the reason is a length and bytes at that offset of the blob
//	file records, sorted by key (strictly increasing), each 44 bytes:
//	  key (32), generation, data offset, data length (4 bytes each,
//	  little endian); the data is at that offset of the blob
//	blob (the reasons and the file data; it starts with a zero byte, the
//	  empty reason at offset 0)
//	CRC-32C of everything before it (4 bytes, big endian)
//
// Fixed-size sorted records let a run look entries up in the bytes read,
// without building a map of them first: opening a cache of 250,000
// verdicts costs reading the file and checking it, and nothing it holds
// is copied.

const recordSize = 44

var (
	errCorrupt = errors.New("corrupt cache file")
	errVersion = errors.New("cache file of another format version")
)

// table is a cache file decoded: views into its bytes.
type table struct {
	tool     string
	gen      uint32
	verdicts []byte // records
	files    []byte // records
	blob     []byte
}

func (t *table) numVerdicts() int { return len(t.verdicts) / recordSize }
func (t *table) numFiles() int    { return len(t.files) / recordSize }

// find returns the index of the record with key k among recs, or -1.
// Keys are SHA-256 sums, spread evenly: the search starts where the key's
// first bytes put it and widens from there.
func find(recs []byte, k *Key) int {
	n := len(recs) / recordSize
	if n == 0 {
		return -1
	}
	guess := int((uint64(binary.BigEndian.Uint32(k[:4])) * uint64(n)) >> 32)
	lo, hi := guess, guess+1 // the key is in [lo, hi) if anywhere
	for step := 8; lo > 0 && cmpKey(recKey(recs, lo), k) > 0; step *= 2 {
		hi, lo = lo, max(lo-step, 0)
	}
	for step := 8; hi < n && cmpKey(recKey(recs, hi-1), k) < 0; step *= 2 {
		lo, hi = hi, min(hi+step, n)
	}
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		switch c := cmpKey(recKey(recs, mid), k); {
		case c == 0:
			return mid
		case c < 0:
			lo = mid + 1
		default:
			hi = mid
		}
	}
	return -1
}

// cmpKey orders keys as bytes.Compare does, by their first 8 bytes
// first (which decide almost always).
func cmpKey(a, b *Key) int {
	x, y := binary.BigEndian.Uint64(a[:8]), binary.BigEndian.Uint64(b[:8])
	switch {
	case x < y:
		return -1
	case x > y:
		return 1
	}
	return bytes.Compare(a[8:], b[8:])
}

func recKey(recs []byte, i int) *Key { return (*Key)(recs[i*recordSize : i*recordSize+32]) }

func recU32(recs []byte, i, field int) uint32 {
	return binary.LittleEndian.Uint32(recs[i*recordSize+32+4*field:])
}

// verdictAt decodes verdict record i (checked by decode).
func (t *table) verdictAt(i int) (Verdict, uint32) {
	off := recU32(t.verdicts, i, 2)
	n, k := binary.Uvarint(t.blob[off:])
	start := int(off) + k
	v := Verdict{Kind: int(recU32(t.verdicts, i, 1))}
	if n > 0 {
		// the reason aliases the file read, which never changes (as a
		// parsed file's strings do): 250,000 verdicts copy no text
		v.Reason = unsafe.String(&t.blob[start], int(n))
	}
	return v, recU32(t.verdicts, i, 0)
}

// fileAt returns file record i's data (an alias of the file read) and
// generation.
func (t *table) fileAt(i int) ([]byte, uint32) {
	off, n := recU32(t.files, i, 1), recU32(t.files, i, 2)
	return t.blob[off : off+n : off+n], recU32(t.files, i, 0)
}

// decode checks a cache file and returns its table, whose slices alias
// data. Every offset and length is checked here, so that lookups need not.
func decode(data []byte) (*table, error) {
	if len(data) < len(magic)+4+4 || string(data[:len(magic)]) != magic {
		return nil, errCorrupt
	}
	if binary.BigEndian.Uint32(data[len(magic):]) != FormatVersion {
		return nil, errVersion
	}
	body := data[:len(data)-4]
	if crc32.Checksum(body, castagnoli()) != binary.BigEndian.Uint32(data[len(data)-4:]) {
		return nil, errCorrupt
	}
	r := reader{b: body[len(magic)+4:]}
	t := &table{}
	t.tool = string(r.bytes())
	gen := r.uvarint()
	nv, nf, nb := r.uvarint(), r.uvarint(), r.uvarint()
	if r.err != nil || gen > math.MaxUint32 || nv > uint64(len(r.b))/recordSize || nf > uint64(len(r.b))/recordSize ||
		(nv+nf)*recordSize+nb != uint64(len(r.b)) || nb > math.MaxUint32 {
		return nil, errCorrupt
	}
	t.gen = uint32(gen)
	t.verdicts, r.b = r.b[:nv*recordSize], r.b[nv*recordSize:]
	t.files, t.blob = r.b[:nf*recordSize], r.b[nf*recordSize:]
	if (nv > 0 && (len(t.blob) == 0 || t.blob[0] != 0)) || !sorted(t.verdicts) || !sorted(t.files) {
		return nil, errCorrupt
	}
	for i := 0; i < int(nv); i++ {
		off := uint64(recU32(t.verdicts, i, 2))
		if off >= uint64(len(t.blob)) {
			return nil, errCorrupt
		}
		n, k := binary.Uvarint(t.blob[off:])
		if k <= 0 || n > uint64(len(t.blob))-off-uint64(k) || recU32(t.verdicts, i, 1) > 1<<16 {
			return nil, errCorrupt
		}
	}
	for i := 0; i < int(nf); i++ {
		if uint64(recU32(t.files, i, 1))+uint64(recU32(t.files, i, 2)) > uint64(len(t.blob)) {
			return nil, errCorrupt
		}
	}
	return t, nil
}

// sorted reports whether the records' keys strictly increase.
func sorted(recs []byte) bool {
	for i := 1; i < len(recs)/recordSize; i++ {
		if bytes.Compare(recs[(i-1)*recordSize:(i-1)*recordSize+32], recs[i*recordSize:i*recordSize+32]) >= 0 {
			return false
		}
	}
	return true
}

// entry is one entry to write: a record of the file read (base >= 0) or
// one this run put (put >= 0, an index of encoding's puts).
type entry struct {
	key       *Key
	base, put int32
	gen       uint32
}

// merged lists the entries of base's records and of the nput keys put
// (sorted), sorted by key; put wins for a key in both. used marks base records used by this run
// (their generation is then gen).
func merged(recs []byte, used bitset, nput int, put func(int) *Key, gen uint32) []entry {
	n := len(recs) / recordSize
	out := make([]entry, 0, n+nput)
	i, j := 0, 0
	for i < n || j < nput {
		var c int
		switch {
		case i == n:
			c = 1
		case j == nput:
			c = -1
		default:
			c = bytes.Compare(recKey(recs, i)[:], put(j)[:])
		}
		switch {
		case c < 0:
			g := recU32(recs, i, 0)
			if used.has(i) {
				g = gen
			}
			out = append(out, entry{key: recKey(recs, i), base: int32(i), put: -1, gen: g})
			i++
		default:
			if c == 0 {
				i++ // replaced
			}
			out = append(out, entry{key: put(j), base: -1, put: int32(j), gen: gen})
			j++
		}
	}
	return out
}

// encoding is what Save writes: the generation and the entries, with
// their values looked up in t (base records) and in the maps (entries
// put by this run).
type encoding struct {
	tool     string
	gen      uint32
	t        *table
	verdicts []entry
	files    []entry
	putV     []putVerdict
	putF     []putFile
}

func (e *encoding) verdict(x *entry) Verdict {
	if x.base >= 0 {
		v, _ := e.t.verdictAt(int(x.base))
		return v
	}
	return e.putV[x.put].v
}

func (e *encoding) file(x *entry) fileEntry {
	if x.base >= 0 {
		d, _ := e.t.fileAt(int(x.base))
		return fileEntry{data: d}
	}
	return e.putF[x.put].e
}

func reasonSize(r string) int64 {
	if r == "" {
		return 0 // offset 0
	}
	return int64(uvarintLen(uint64(len(r))) + len(r))
}

func uvarintLen(v uint64) int {
	n := 1
	for v >= 0x80 {
		v >>= 7
		n++
	}
	return n
}

// size is the encoded size of x.
func (e *encoding) size(x *entry, file bool) int64 {
	if file {
		return recordSize + int64(e.file(x).len())
	}
	return recordSize + reasonSize(e.verdict(x).Reason)
}

func headerSize(tool string) int64 {
	return int64(len(magic) + 4 + uvarintLen(uint64(len(tool))) + len(tool) + 4*binary.MaxVarintLen64 + 1 + 4)
}

// evict drops the entries least recently used until the encoded size is
// at most limit.
func (e *encoding) evict(limit int64) {
	total := headerSize(e.tool)
	type ref struct {
		gen  uint32
		size int64
		file bool
		i    int
	}
	refs := make([]ref, 0, len(e.verdicts)+len(e.files))
	for i := range e.verdicts {
		n := e.size(&e.verdicts[i], false)
		total += n
		refs = append(refs, ref{e.verdicts[i].gen, n, false, i})
	}
	for i := range e.files {
		n := e.size(&e.files[i], true)
		total += n
		refs = append(refs, ref{e.files[i].gen, n, true, i})
	}
	if total <= limit {
		return
	}
	slices.SortStableFunc(refs, func(a, b ref) int { return int(int64(a.gen) - int64(b.gen)) })
	dropV := make([]bool, len(e.verdicts))
	dropF := make([]bool, len(e.files))
	for _, r := range refs {
		if total <= limit {
			break
		}
		if r.file {
			dropF[r.i] = true
		} else {
			dropV[r.i] = true
		}
		total -= r.size
	}
	e.verdicts = keep(e.verdicts, dropV)
	e.files = keep(e.files, dropF)
}

func keep(es []entry, drop []bool) []entry {
	out := es[:0]
	for i, x := range es {
		if !drop[i] {
			out = append(out, x)
		}
	}
	return out
}

// writeTo writes the cache file to w and returns its size.
func (e *encoding) writeTo(w io.Writer) (int64, error) {
	crc := crc32.New(castagnoli())
	var size int64
	var werr error
	b := make([]byte, 0, 64<<10)
	flush := func(force bool) {
		if len(b) < 60<<10 && !force {
			return
		}
		if werr == nil {
			crc.Write(b)
			_, werr = w.Write(b)
			size += int64(len(b))
		}
		b = b[:0]
	}
	// the blob: the empty reason, then each entry's reason or data in
	// the order of the records
	blobLen := uint64(1)
	for i := range e.verdicts {
		blobLen += uint64(reasonSize(e.verdict(&e.verdicts[i]).Reason))
	}
	for i := range e.files {
		blobLen += uint64(e.file(&e.files[i]).len())
	}
	if blobLen > math.MaxUint32 {
		return 0, errors.New("cache larger than 4 GiB")
	}
	b = append(b, magic...)
	b = binary.BigEndian.AppendUint32(b, FormatVersion)
	b = appendString(b, e.tool)
	b = binary.AppendUvarint(b, uint64(e.gen))
	b = binary.AppendUvarint(b, uint64(len(e.verdicts)))
	b = binary.AppendUvarint(b, uint64(len(e.files)))
	b = binary.AppendUvarint(b, blobLen)
	off := uint32(1)
	for i := range e.verdicts {
		x := &e.verdicts[i]
		v := e.verdict(x)
		b = append(b, x.key[:]...)
		b = binary.LittleEndian.AppendUint32(b, x.gen)
		b = binary.LittleEndian.AppendUint32(b, uint32(v.Kind))
		if v.Reason == "" {
			b = binary.LittleEndian.AppendUint32(b, 0)
		} else {
			b = binary.LittleEndian.AppendUint32(b, off)
			off += uint32(reasonSize(v.Reason))
		}
		flush(false)
	}
	for i := range e.files {
		x := &e.files[i]
		n := uint32(e.file(x).len())
		b = append(b, x.key[:]...)
		b = binary.LittleEndian.AppendUint32(b, x.gen)
		b = binary.LittleEndian.AppendUint32(b, off)
		b = binary.LittleEndian.AppendUint32(b, n)
		off += n
		flush(false)
	}
	b = append(b, 0)
	for i := range e.verdicts {
		if r := e.verdict(&e.verdicts[i]).Reason; r != "" {
			b = appendString(b, r)
			flush(false)
		}
	}
	for i := range e.files {
		f := e.file(&e.files[i])
		b = append(b, f.data...)
		for _, p := range f.parts {
			b = append(b, p...)
		}
		flush(false)
	}
	flush(true)
	b = binary.BigEndian.AppendUint32(b, crc.Sum32())
	if werr == nil {
		_, werr = w.Write(b)
		size += int64(len(b))
	}
	return size, werr
}

// reader decodes a byte slice; the first error sticks.
type reader struct {
	b   []byte
	err error
}

func (r *reader) uvarint() uint64 {
	if r.err != nil {
		return 0
	}
	v, n := binary.Uvarint(r.b)
	if n <= 0 {
		r.err = errCorrupt
		return 0
	}
	r.b = r.b[n:]
	return v
}

// count reads an entry count, each entry at least min bytes long.
func (r *reader) count(min int) int {
	n := r.uvarint()
	if n > uint64(len(r.b)/min) {
		r.err = errCorrupt
		return 0
	}
	return int(n)
}

func (r *reader) bytes() []byte {
	n := r.uvarint()
	if r.err != nil {
		return nil
	}
	if n > uint64(len(r.b)) {
		r.err = errCorrupt
		return nil
	}
	out := r.b[:n:n]
	r.b = r.b[n:]
	return out
}

// bitset marks records by index.
type bitset []uint64

func newBitset(n int) bitset    { return make(bitset, (n+63)/64) }
func (s bitset) has(i int) bool { return i/64 < len(s) && s[i/64]&(1<<(i%64)) != 0 }

// set sets bit i; lookups run in parallel. A bit already set is not
// written again: a write moves the word's cache line to this core.
func (s bitset) set(i int) {
	if atomic.LoadUint64(&s[i/64])&(1<<(i%64)) == 0 {
		atomic.OrUint64(&s[i/64], 1<<(i%64))
	}
}

// count counts the bits set.
func (s bitset) count() int {
	n := 0
	for i := range s {
		n += bits.OnesCount64(atomic.LoadUint64(&s[i]))
	}
	return n
}
