package prose

import (
	"encoding/binary"
	"errors"

	"github.com/git-memcite/git-memcite/internal/memfile"
	"github.com/git-memcite/git-memcite/internal/verify"
)

// The cached judgment of a memory (memoEntry) is stored in a compact
// binary form: a warm run decodes one per memory. Every field is
// written; remember reads an entry back before storing it and keeps only
// one that decodes to what was judged, so a field this codec does not
// know makes the judgment uncached, never different.

type encoder struct{ b []byte }

func (e *encoder) uint(v uint64) { e.b = binary.AppendUvarint(e.b, v) }
func (e *encoder) int(v int)     { e.b = binary.AppendVarint(e.b, int64(v)) }
func (e *encoder) str(s string)  { e.uint(uint64(len(s))); e.b = append(e.b, s...) }
func (e *encoder) bool(v bool) {
	if v {
		e.b = append(e.b, 1)
	} else {
		e.b = append(e.b, 0)
	}
}

func (e *encoder) citation(c *memfile.Citation) {
	e.int(c.Index)
	e.str(c.Path)
	e.str(c.URL)
	e.int(c.Line)
	e.int(c.LineEnd)
	e.str(c.Snippet)
	e.str(c.Verified)
	e.str(c.Commit)
	e.int(c.SrcLine)
	e.uint(uint64(c.Form))
	e.bool(c.HasLine)
	e.bool(c.HasSnippet)
}

func (e *encoder) ref(r *Ref) {
	e.uint(uint64(r.Kind))
	e.str(r.Form)
	e.str(r.Target)
	e.int(r.Line)
	e.int(r.End)
	e.int(r.MemLine)
	e.int(r.Start)
	e.int(r.Stop)
	e.str(r.Key)
	e.bool(r.Bare)
}

// encodeMemo encodes an entry.
func encodeMemo(m *memoEntry) []byte {
	e := &encoder{b: make([]byte, 0, 256)}
	e.uint(uint64(len(m.Cites)))
	for i := range m.Cites {
		pc := &m.Cites[i]
		r := &pc.Ref
		for _, s := range []string{r.Kind, r.Form, r.Text} {
			e.str(s)
		}
		e.int(r.Line)
		e.int(r.Start)
		e.int(r.Stop)
		for _, s := range []string{r.Target, r.Written} {
			e.str(s)
		}
		e.bool(r.Unresolved)
		e.str(r.Now)
		e.str(r.Changed)
		e.citation(&pc.Citation)
		e.bool(pc.Lines != nil)
		if pc.Lines != nil {
			e.citation(pc.Lines)
		}
		e.uint(uint64(pc.Status))
		e.uint(uint64(pc.Kind))
		e.str(pc.Reason)
	}
	e.uint(uint64(len(m.Syms)))
	for i := range m.Syms {
		e.ref(&m.Syms[i].Ref)
		e.str(m.Syms[i].Written)
		e.str(m.Syms[i].Name)
		e.uint(uint64(len(m.Syms[i].Files)))
		for _, f := range m.Syms[i].Files {
			e.str(f)
		}
	}
	e.uint(uint64(len(m.Probes)))
	for _, p := range m.Probes {
		e.bool(p.Read)
		e.str(p.Path)
		e.bool(p.OK)
		e.str(p.Sum)
	}
	return e.b
}

var errMemo = errors.New("bad cached prose judgment")

type decoder struct {
	b   []byte
	err error
}

func (d *decoder) uint() uint64 {
	v, n := binary.Uvarint(d.b)
	if n <= 0 {
		d.err, d.b = errMemo, nil
		return 0
	}
	d.b = d.b[n:]
	return v
}

func (d *decoder) int() int {
	v, n := binary.Varint(d.b)
	if n <= 0 {
		d.err, d.b = errMemo, nil
		return 0
	}
	d.b = d.b[n:]
	return int(v)
}

func (d *decoder) str() string {
	n := d.uint()
	if n > uint64(len(d.b)) {
		d.err, d.b = errMemo, nil
		return ""
	}
	s := string(d.b[:n])
	d.b = d.b[n:]
	return s
}

func (d *decoder) bool() bool {
	if len(d.b) == 0 || d.b[0] > 1 {
		d.err, d.b = errMemo, nil
		return false
	}
	v := d.b[0] == 1
	d.b = d.b[1:]
	return v
}

// count reads a length, bounded by the bytes left (each element takes
// at least one).
func (d *decoder) count() int {
	n := d.uint()
	if n > uint64(len(d.b)) {
		d.err, d.b = errMemo, nil
		return 0
	}
	return int(n)
}

func (d *decoder) citation(c *memfile.Citation) {
	c.Index = d.int()
	c.Path = d.str()
	c.URL = d.str()
	c.Line = d.int()
	c.LineEnd = d.int()
	c.Snippet = d.str()
	c.Verified = d.str()
	c.Commit = d.str()
	c.SrcLine = d.int()
	c.Form = memfile.Form(d.uint())
	c.HasLine = d.bool()
	c.HasSnippet = d.bool()
}

func (d *decoder) ref(r *Ref) {
	r.Kind = Kind(d.uint())
	r.Form = d.str()
	r.Target = d.str()
	r.Line = d.int()
	r.End = d.int()
	r.MemLine = d.int()
	r.Start = d.int()
	r.Stop = d.int()
	r.Key = d.str()
	r.Bare = d.bool()
}

// decodeMemo decodes an entry of encodeMemo.
func decodeMemo(b []byte) (memoEntry, error) {
	d := &decoder{b: b}
	var m memoEntry
	if n := d.count(); n > 0 {
		m.Cites = make([]verify.ProseCitation, n)
		for i := range m.Cites {
			pc := &m.Cites[i]
			r := &pc.Ref
			r.Kind, r.Form, r.Text = d.str(), d.str(), d.str()
			r.Line, r.Start, r.Stop = d.int(), d.int(), d.int()
			r.Target, r.Written = d.str(), d.str()
			r.Unresolved = d.bool()
			r.Now, r.Changed = d.str(), d.str()
			d.citation(&pc.Citation)
			if d.bool() {
				pc.Lines = &memfile.Citation{}
				d.citation(pc.Lines)
			}
			pc.Status = verify.Status(d.uint())
			pc.Kind = verify.Kind(d.uint())
			pc.Reason = d.str()
		}
	}
	if n := d.count(); n > 0 {
		m.Syms = make([]memoSym, n)
		for i := range m.Syms {
			d.ref(&m.Syms[i].Ref)
			m.Syms[i].Written = d.str()
			m.Syms[i].Name = d.str()
			if n := d.count(); n > 0 {
				m.Syms[i].Files = make([]string, n)
				for k := range m.Syms[i].Files {
					m.Syms[i].Files[k] = d.str()
				}
			}
		}
	}
	if n := d.count(); n > 0 {
		m.Probes = make([]probe, n)
		for i := range m.Probes {
			p := &m.Probes[i]
			p.Read, p.Path, p.OK, p.Sum = d.bool(), d.str(), d.bool(), d.str()
		}
	}
	if d.err == nil && len(d.b) != 0 {
		d.err = errMemo
	}
	return m, d.err
}
