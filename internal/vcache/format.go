package vcache

import (
	"bytes"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"io"
)

// The file format (all integers unsigned varints unless said otherwise):
//
//	magic "MEMCITE-CACHE\n"
//	format version (4 bytes, big endian)
//	tool identity (length, bytes)
//	generation
//	verdict count, then per verdict: key (32 bytes), generation, kind,
//	  reason (length, bytes)
//	file count, then per file: key (32 bytes), generation, data (length,
//	  bytes)
//	CRC-32C of everything before it (4 bytes, big endian)

var (
	errCorrupt = errors.New("corrupt cache file")
	errVersion = errors.New("cache file of another format version")
)

type decoded struct {
	tool     string
	gen      uint64
	verdicts map[Key]verdictEntry
	files    map[Key]fileEntry
}

func headerSize(tool string) int {
	return len(magic) + 4 + binary.MaxVarintLen64*2 + len(tool) + 2*binary.MaxVarintLen64 + 4
}

func verdictSize(reason string) int64 {
	return int64(32 + binary.MaxVarintLen64*3 + len(reason))
}

func fileSize(n int) int64 {
	return int64(32 + binary.MaxVarintLen64*2 + n)
}

// encode returns the file encodeTo writes.
func encode(tool string, gen uint64, verdicts map[Key]verdictEntry, files map[Key]fileEntry) []byte {
	var buf bytes.Buffer
	_, _ = encodeTo(&buf, tool, gen, verdicts, files)
	return buf.Bytes()
}

// encodeTo writes the cache file to w and returns its size.
func encodeTo(w io.Writer, tool string, gen uint64, verdicts map[Key]verdictEntry, files map[Key]fileEntry) (int64, error) {
	crc := crc32.New(castagnoli())
	var size int64
	var werr error
	b := make([]byte, 0, 64<<10)
	flush := func() {
		if werr == nil {
			crc.Write(b)
			_, werr = w.Write(b)
			size += int64(len(b))
		}
		b = b[:0]
	}
	b = append(b, magic...)
	b = binary.BigEndian.AppendUint32(b, FormatVersion)
	b = appendString(b, tool)
	b = binary.AppendUvarint(b, gen)
	b = binary.AppendUvarint(b, uint64(len(verdicts)))
	for k, e := range verdicts {
		b = append(b, k[:]...)
		b = binary.AppendUvarint(b, e.gen)
		b = binary.AppendUvarint(b, uint64(e.Kind))
		b = appendString(b, e.Reason)
		if len(b) > 60<<10 {
			flush()
		}
	}
	b = binary.AppendUvarint(b, uint64(len(files)))
	for k, e := range files {
		b = append(b, k[:]...)
		b = binary.AppendUvarint(b, e.gen)
		b = binary.AppendUvarint(b, uint64(e.len()))
		b = append(b, e.data...)
		for _, p := range e.parts {
			b = append(b, p...)
		}
		if len(b) > 60<<10 {
			flush()
		}
	}
	flush()
	b = binary.BigEndian.AppendUint32(b, crc.Sum32())
	if werr == nil {
		_, werr = w.Write(b)
		size += int64(len(b))
	}
	return size, werr
}

// decode reads a cache file. File entries' data alias data.
func decode(data []byte) (*decoded, error) {
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
	d := &decoded{}
	d.tool = string(r.bytes())
	d.gen = r.uvarint()
	nv := r.count(33)
	d.verdicts = make(map[Key]verdictEntry, nv)
	for i := 0; i < nv && r.err == nil; i++ {
		var e verdictEntry
		k := r.key()
		e.gen = r.uvarint()
		kind := r.uvarint()
		if kind > 1<<16 {
			r.err = errCorrupt
		}
		e.Kind = int(kind)
		e.Reason = string(r.bytes())
		d.verdicts[k] = e
	}
	nf := r.count(34)
	d.files = make(map[Key]fileEntry, nf)
	for i := 0; i < nf && r.err == nil; i++ {
		var e fileEntry
		k := r.key()
		e.gen = r.uvarint()
		e.data = r.bytes()
		d.files[k] = e
	}
	if r.err == nil && len(r.b) != 0 {
		r.err = errCorrupt
	}
	if r.err != nil {
		return nil, r.err
	}
	return d, nil
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

func (r *reader) key() Key {
	var k Key
	if r.err != nil {
		return k
	}
	if len(r.b) < len(k) {
		r.err = errCorrupt
		return k
	}
	copy(k[:], r.b)
	r.b = r.b[len(k):]
	return k
}
