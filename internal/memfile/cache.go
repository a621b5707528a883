package memfile

import (
	"errors"
	"math"
	"unsafe"

	"github.com/git-memcite/git-memcite/internal/bincode"
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
	e := cacheEnc{Enc: bincode.Enc{B: make([]byte, 0, 128)}, src: f.Src}
	e.Uint(cacheVersion)
	e.Bool(f.HasFrontmatter)
	e.str(f.ID)
	e.str(f.Subject)
	e.Bool(f.Citations != nil)
	e.Uint(uint64(len(f.Citations)))
	for _, c := range f.Citations {
		if c.node != nil {
			return nil, false
		}
		e.Int(c.Index)
		e.Int(int(c.Form))
		e.str(c.Path)
		e.str(c.URL)
		e.Int(c.Line)
		e.Bool(c.HasLine)
		e.Int(c.LineEnd)
		e.str(c.Snippet)
		e.Bool(c.HasSnippet)
		e.str(c.Verified)
		e.str(c.Commit)
		e.Int(c.SrcLine)
		e.Int(int(c.short))
		e.Bool(c.backslashes)
	}
	e.Bool(f.Links != nil)
	e.Uint(uint64(len(f.Links)))
	for _, l := range f.Links {
		e.str(l.Type)
		e.str(l.Target)
		e.Int(l.SrcLine)
	}
	e.strs(f.Tags)
	e.Uint(math.Float64bits(f.Confidence))
	e.Bool(f.HasConfidence)
	e.str(f.LastVerified)
	e.Bool(f.Exempt)
	e.Bool(f.Warnings != nil)
	e.Uint(uint64(len(f.Warnings)))
	for _, w := range f.Warnings {
		e.str(w.File)
		e.Int(w.Line)
		e.str(w.Msg)
	}
	e.str(f.nl)
	for _, v := range []int{f.bomLen, f.fmStart, f.fmEnd, f.bodyStart, f.fmLine, f.aliasRefs} {
		e.Int(v)
	}
	e.Bool(f.lineStarts != nil)
	e.Uint(uint64(len(f.lineStarts)))
	for _, v := range f.lineStarts {
		e.Int(v)
	}
	e.Bool(f.compacted)
	return e.B, true
}

// DecodeCache rebuilds the File EncodeCache encoded, for the file name
// with content src. The File's strings alias src and data (nothing is
// copied: a large store would copy megabytes): neither may change
// afterwards.
func DecodeCache(name string, src, data []byte) (*File, error) {
	d := cacheDec{Dec: bincode.NewDec(data, errCacheData), src: src}
	if d.Uint() != cacheVersion {
		return nil, errCacheData
	}
	f := &File{Name: name, Src: src}
	f.HasFrontmatter = d.Bool()
	f.ID = d.str()
	f.Subject = d.str()
	if set, n := d.Bool(), d.Count(); set {
		f.Citations = make([]Citation, n)
		for i := range f.Citations {
			c := &f.Citations[i]
			c.Index = d.Int()
			c.Form = Form(d.Int())
			c.Path = d.str()
			c.URL = d.str()
			c.Line = d.Int()
			c.HasLine = d.Bool()
			c.LineEnd = d.Int()
			c.Snippet = d.str()
			c.HasSnippet = d.Bool()
			c.Verified = d.str()
			c.Commit = d.str()
			c.SrcLine = d.Int()
			c.short = shortStyle(d.Int())
			c.backslashes = d.Bool()
		}
	}
	if set, n := d.Bool(), d.Count(); set {
		f.Links = make([]Link, n)
		for i := range f.Links {
			f.Links[i] = Link{Type: d.str(), Target: d.str(), SrcLine: d.Int()}
		}
	}
	f.Tags = d.strs()
	f.Confidence = math.Float64frombits(d.Uint())
	f.HasConfidence = d.Bool()
	f.LastVerified = d.str()
	f.Exempt = d.Bool()
	if set, n := d.Bool(), d.Count(); set {
		f.Warnings = make([]Diagnostic, n)
		for i := range f.Warnings {
			f.Warnings[i] = Diagnostic{File: d.str(), Line: d.Int(), Msg: d.str()}
		}
	}
	f.nl = d.str()
	for _, p := range []*int{&f.bomLen, &f.fmStart, &f.fmEnd, &f.bodyStart, &f.fmLine, &f.aliasRefs} {
		*p = d.Int()
	}
	hasStarts := d.Bool()
	n := d.Count()
	if hasStarts {
		f.lineStarts = make([]int, n)
		for i := range f.lineStarts {
			f.lineStarts[i] = d.Int()
		}
	}
	f.compacted = d.Bool()
	if d.Err != nil || len(d.B) != 0 {
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
	bincode.Enc
	src []byte
}

// str writes len<<1|1 and the offset of a string inside src, or len<<1
// and its bytes.
func (e *cacheEnc) str(s string) {
	if off, ok := within(e.src, s); ok {
		e.Uint(uint64(len(s))<<1 | 1)
		e.Uint(uint64(off))
		return
	}
	e.Uint(uint64(len(s)) << 1)
	e.B = append(e.B, s...)
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
	e.Bool(ss != nil)
	e.Uint(uint64(len(ss)))
	for _, s := range ss {
		e.str(s)
	}
}

type cacheDec struct {
	*bincode.Dec
	src []byte
}

func (d *cacheDec) str() string {
	v := d.Uint()
	n := v >> 1
	if d.Err != nil {
		return ""
	}
	if v&1 == 1 { // a place in the source
		off := d.Uint()
		if d.Err != nil || off > uint64(len(d.src)) || n > uint64(len(d.src))-off {
			d.Fail()
			return ""
		}
		if n == 0 {
			return ""
		}
		return unsafe.String(&d.src[off], n) // src does not change (DecodeCache)
	}
	if n > uint64(len(d.B)) {
		d.Fail()
		return ""
	}
	if n == 0 {
		return ""
	}
	s := unsafe.String(&d.B[0], n) // data does not change (DecodeCache)
	d.B = d.B[n:]
	return s
}

func (d *cacheDec) strs() []string {
	isSet := d.Bool()
	n := d.Count()
	if !isSet || d.Err != nil {
		return nil
	}
	out := make([]string, n)
	for i := range out {
		out[i] = d.str()
	}
	return out
}
