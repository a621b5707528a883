package memfile

import (
	"encoding/binary"
	"errors"
	"math"
	"unsafe"
)

// cacheVersion changes whenever File or the encoding below changes.
const cacheVersion = 2

// errCacheData: bytes EncodeCache did not write.
var errCacheData = errors.New("memory file cache data: corrupt")

// EncodeCache encodes a compacted File (see Compact) without its source,
// for the verification cache (internal/vcache): DecodeCache with the same
// name and source gives the File back, field for field.
func (f *File) EncodeCache() ([]byte, bool) {
	if f.root != nil || f.citKey != nil || f.citVal != nil {
		return nil, false // not compacted: the YAML tree cannot be kept
	}
	e := cacheEnc{b: make([]byte, 0, 128), src: f.Src}
	e.uint(cacheVersion)
	e.bool(f.HasFrontmatter)
	e.str(f.ID)
	e.str(f.Subject)
	e.bool(f.Citations != nil)
	e.uint(uint64(len(f.Citations)))
	for _, c := range f.Citations {
		if c.node != nil {
			return nil, false
		}
		e.int(c.Index)
		e.int(int(c.Form))
		e.str(c.Path)
		e.str(c.URL)
		e.int(c.Line)
		e.bool(c.HasLine)
		e.int(c.LineEnd)
		e.str(c.Snippet)
		e.bool(c.HasSnippet)
		e.str(c.Verified)
		e.str(c.Commit)
		e.int(c.SrcLine)
		e.int(int(c.short))
		e.bool(c.backslashes)
	}
	e.bool(f.Links != nil)
	e.uint(uint64(len(f.Links)))
	for _, l := range f.Links {
		e.str(l.Type)
		e.str(l.Target)
		e.int(l.SrcLine)
	}
	e.strs(f.Tags)
	e.uint(math.Float64bits(f.Confidence))
	e.bool(f.HasConfidence)
	e.str(f.LastVerified)
	e.bool(f.Exempt)
	e.bool(f.Warnings != nil)
	e.uint(uint64(len(f.Warnings)))
	for _, w := range f.Warnings {
		e.str(w.File)
		e.int(w.Line)
		e.str(w.Msg)
	}
	e.str(f.nl)
	for _, v := range []int{f.bomLen, f.fmStart, f.fmEnd, f.bodyStart, f.fmLine, f.aliasRefs} {
		e.int(v)
	}
	e.bool(f.lineStarts != nil)
	e.uint(uint64(len(f.lineStarts)))
	for _, v := range f.lineStarts {
		e.int(v)
	}
	e.bool(f.compacted)
	return e.b, true
}

// DecodeCache rebuilds the File EncodeCache encoded, for the file name
// with content src. The File's strings alias src and data (nothing is
// copied: a large store would copy megabytes): neither may change
// afterwards.
func DecodeCache(name string, src, data []byte) (*File, error) {
	d := cacheDec{b: data, src: src}
	if d.uint() != cacheVersion {
		return nil, errCacheData
	}
	f := &File{Name: name, Src: src}
	f.HasFrontmatter = d.bool()
	f.ID = d.str()
	f.Subject = d.str()
	if set, n := d.bool(), d.count(); set {
		f.Citations = make([]Citation, n)
		for i := range f.Citations {
			c := &f.Citations[i]
			c.Index = d.int()
			c.Form = Form(d.int())
			c.Path = d.str()
			c.URL = d.str()
			c.Line = d.int()
			c.HasLine = d.bool()
			c.LineEnd = d.int()
			c.Snippet = d.str()
			c.HasSnippet = d.bool()
			c.Verified = d.str()
			c.Commit = d.str()
			c.SrcLine = d.int()
			c.short = shortStyle(d.int())
			c.backslashes = d.bool()
		}
	}
	if set, n := d.bool(), d.count(); set {
		f.Links = make([]Link, n)
		for i := range f.Links {
			f.Links[i] = Link{Type: d.str(), Target: d.str(), SrcLine: d.int()}
		}
	}
	f.Tags = d.strs()
	f.Confidence = math.Float64frombits(d.uint())
	f.HasConfidence = d.bool()
	f.LastVerified = d.str()
	f.Exempt = d.bool()
	if set, n := d.bool(), d.count(); set {
		f.Warnings = make([]Diagnostic, n)
		for i := range f.Warnings {
			f.Warnings[i] = Diagnostic{File: d.str(), Line: d.int(), Msg: d.str()}
		}
	}
	f.nl = d.str()
	for _, p := range []*int{&f.bomLen, &f.fmStart, &f.fmEnd, &f.bodyStart, &f.fmLine, &f.aliasRefs} {
		*p = d.int()
	}
	hasStarts := d.bool()
	n := d.count()
	if hasStarts {
		f.lineStarts = make([]int, n)
		for i := range f.lineStarts {
			f.lineStarts[i] = d.int()
		}
	}
	f.compacted = d.bool()
	if d.err != nil || len(d.b) != 0 {
		return nil, errCacheData
	}
	if f.bodyStart < 0 || f.bodyStart > len(src) || f.bomLen < 0 || f.bomLen > len(src) ||
		f.fmStart < 0 || f.fmStart > len(src) || f.fmEnd < 0 || f.fmEnd > len(src) {
		return nil, errCacheData
	}
	return f, nil
}

// cacheEnc writes a string that lies in the source (most do: the parser's
// strings alias it) as its place there, and any other as its bytes: an
// entry then holds little more than numbers.
type cacheEnc struct {
	b   []byte
	src []byte
}

func (e *cacheEnc) uint(v uint64) { e.b = binary.AppendUvarint(e.b, v) }
func (e *cacheEnc) int(v int)     { e.b = binary.AppendVarint(e.b, int64(v)) }
func (e *cacheEnc) bool(v bool) {
	if v {
		e.b = append(e.b, 1)
	} else {
		e.b = append(e.b, 0)
	}
}

// str writes len<<1|1 and the offset of a string inside src, or len<<1
// and its bytes.
func (e *cacheEnc) str(s string) {
	if off, ok := within(e.src, s); ok {
		e.uint(uint64(len(s))<<1 | 1)
		e.uint(uint64(off))
		return
	}
	e.uint(uint64(len(s)) << 1)
	e.b = append(e.b, s...)
}

// within returns the offset of s in src when s's bytes are src's memory
// (a comparison of addresses only: nothing is dereferenced).
func within(src []byte, s string) (int, bool) {
	if len(s) == 0 || len(s) > len(src) {
		return 0, false
	}
	base := uintptr(unsafe.Pointer(unsafe.SliceData(src)))
	p := uintptr(unsafe.Pointer(unsafe.StringData(s)))
	if p < base || p-base > uintptr(len(src)-len(s)) {
		return 0, false
	}
	return int(p - base), true
}
func (e *cacheEnc) strs(ss []string) {
	e.bool(ss != nil)
	e.uint(uint64(len(ss)))
	for _, s := range ss {
		e.str(s)
	}
}

type cacheDec struct {
	b   []byte
	src []byte
	err error
}

func (d *cacheDec) uint() uint64 {
	if d.err != nil {
		return 0
	}
	v, n := binary.Uvarint(d.b)
	if n <= 0 {
		d.err = errCacheData
		return 0
	}
	d.b = d.b[n:]
	return v
}

func (d *cacheDec) int() int {
	if d.err != nil {
		return 0
	}
	v, n := binary.Varint(d.b)
	if n <= 0 || v > math.MaxInt32 || v < math.MinInt32 {
		d.err = errCacheData
		return 0
	}
	d.b = d.b[n:]
	return int(v)
}

func (d *cacheDec) bool() bool {
	if d.err != nil || len(d.b) == 0 || d.b[0] > 1 {
		d.err = errCacheData
		return false
	}
	v := d.b[0] == 1
	d.b = d.b[1:]
	return v
}

// count reads a length no larger than the bytes left (every element
// takes at least one).
func (d *cacheDec) count() int {
	n := d.uint()
	if n > uint64(len(d.b)) {
		d.err = errCacheData
		return 0
	}
	return int(n)
}

func (d *cacheDec) str() string {
	v := d.uint()
	n := v >> 1
	if d.err != nil {
		return ""
	}
	if v&1 == 1 { // a place in the source
		off := d.uint()
		if d.err != nil || off > uint64(len(d.src)) || n > uint64(len(d.src))-off {
			d.err = errCacheData
			return ""
		}
		if n == 0 {
			return ""
		}
		return unsafe.String(&d.src[off], n) // src does not change (DecodeCache)
	}
	if n > uint64(len(d.b)) {
		d.err = errCacheData
		return ""
	}
	if n == 0 {
		return ""
	}
	s := unsafe.String(&d.b[0], n) // data does not change (DecodeCache)
	d.b = d.b[n:]
	return s
}

func (d *cacheDec) strs() []string {
	isSet := d.bool()
	n := d.count()
	if !isSet || d.err != nil {
		return nil
	}
	out := make([]string, n)
	for i := range out {
		out[i] = d.str()
	}
	return out
}
