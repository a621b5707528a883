package prose

import (
	"errors"

	"github.com/git-memcite/git-memcite/internal/bincode"
	"github.com/git-memcite/git-memcite/internal/memfile"
	"github.com/git-memcite/git-memcite/internal/verify"
)

// The cached judgment of a memory (memoEntry) is stored in a compact
// binary form: a warm run decodes one per memory. Every field is
// written; remember reads an entry back before storing it and keeps only
// one that decodes to what was judged, so a field this codec does not
// know makes the judgment uncached, never different.

// encoder writes a judgment on bincode's primitives.
type encoder struct{ bincode.Enc }

func (e *encoder) citation(c *memfile.Citation) {
	e.Int(c.Index)
	e.Str(c.Path)
	e.Str(c.URL)
	e.Int(c.Line)
	e.Int(c.LineEnd)
	e.Str(c.Snippet)
	e.Str(c.Verified)
	e.Str(c.Commit)
	e.Int(c.SrcLine)
	e.Uint(uint64(c.Form))
	e.Bool(c.HasLine)
	e.Bool(c.HasSnippet)
}

func (e *encoder) ref(r *Ref) {
	e.Uint(uint64(r.Kind))
	e.Str(r.Form)
	e.Str(r.Target)
	e.Int(r.Line)
	e.Int(r.End)
	e.Int(r.MemLine)
	e.Int(r.Start)
	e.Int(r.Stop)
	e.Str(r.Key)
	e.Bool(r.Bare)
}

// encodeMemo encodes an entry.
func encodeMemo(m *memoEntry) []byte {
	e := &encoder{bincode.Enc{B: make([]byte, 0, 256)}}
	e.Uint(uint64(len(m.Cites)))
	for i := range m.Cites {
		pc := &m.Cites[i]
		r := &pc.Ref
		for _, s := range []string{r.Kind, r.Form, r.Text} {
			e.Str(s)
		}
		e.Int(r.Line)
		e.Int(r.Start)
		e.Int(r.Stop)
		for _, s := range []string{r.Target, r.Written} {
			e.Str(s)
		}
		e.Bool(r.Unresolved)
		e.Str(r.Now)
		e.Str(r.Changed)
		e.citation(&pc.Citation)
		e.Bool(pc.Lines != nil)
		if pc.Lines != nil {
			e.citation(pc.Lines)
		}
		e.Int(pc.LinesAt)
		e.Uint(uint64(pc.Status))
		e.Uint(uint64(pc.Kind))
		e.Str(pc.Reason)
	}
	e.Uint(uint64(len(m.Syms)))
	for i := range m.Syms {
		e.ref(&m.Syms[i].Ref)
		e.Str(m.Syms[i].Written)
		e.Str(m.Syms[i].Name)
		e.Uint(uint64(len(m.Syms[i].Files)))
		for _, f := range m.Syms[i].Files {
			e.Str(f)
		}
	}
	e.Uint(uint64(len(m.Probes)))
	for _, p := range m.Probes {
		e.Bool(p.Read)
		e.Str(p.Path)
		e.Bool(p.OK)
		e.Str(p.Sum)
	}
	return e.B
}

var errMemo = errors.New("bad cached prose judgment")

// decoder reads one on bincode's primitives.
type decoder struct{ *bincode.Dec }

func (d *decoder) citation(c *memfile.Citation) {
	c.Index = d.Int()
	c.Path = d.Str()
	c.URL = d.Str()
	c.Line = d.Int()
	c.LineEnd = d.Int()
	c.Snippet = d.Str()
	c.Verified = d.Str()
	c.Commit = d.Str()
	c.SrcLine = d.Int()
	c.Form = memfile.Form(d.Uint())
	c.HasLine = d.Bool()
	c.HasSnippet = d.Bool()
}

func (d *decoder) ref(r *Ref) {
	r.Kind = Kind(d.Uint())
	r.Form = d.Str()
	r.Target = d.Str()
	r.Line = d.Int()
	r.End = d.Int()
	r.MemLine = d.Int()
	r.Start = d.Int()
	r.Stop = d.Int()
	r.Key = d.Str()
	r.Bare = d.Bool()
}

// decodeMemo decodes an entry of encodeMemo.
func decodeMemo(b []byte) (memoEntry, error) {
	d := decoder{bincode.NewDec(b, errMemo)}
	var m memoEntry
	if n := d.Count(); n > 0 {
		m.Cites = make([]verify.ProseCitation, n)
		for i := range m.Cites {
			pc := &m.Cites[i]
			r := &pc.Ref
			r.Kind, r.Form, r.Text = d.Str(), d.Str(), d.Str()
			r.Line, r.Start, r.Stop = d.Int(), d.Int(), d.Int()
			r.Target, r.Written = d.Str(), d.Str()
			r.Unresolved = d.Bool()
			r.Now, r.Changed = d.Str(), d.Str()
			d.citation(&pc.Citation)
			if d.Bool() {
				pc.Lines = &memfile.Citation{}
				d.citation(pc.Lines)
			}
			pc.LinesAt = d.Int()
			pc.Status = verify.Status(d.Uint())
			pc.Kind = verify.Kind(d.Uint())
			pc.Reason = d.Str()
		}
	}
	if n := d.Count(); n > 0 {
		m.Syms = make([]memoSym, n)
		for i := range m.Syms {
			d.ref(&m.Syms[i].Ref)
			m.Syms[i].Written = d.Str()
			m.Syms[i].Name = d.Str()
			if n := d.Count(); n > 0 {
				m.Syms[i].Files = make([]string, n)
				for k := range m.Syms[i].Files {
					m.Syms[i].Files[k] = d.Str()
				}
			}
		}
	}
	if n := d.Count(); n > 0 {
		m.Probes = make([]probe, n)
		for i := range m.Probes {
			p := &m.Probes[i]
			p.Read, p.Path, p.OK, p.Sum = d.Bool(), d.Str(), d.Bool(), d.Str()
		}
	}
	if d.Err == nil && len(d.B) != 0 {
		d.Fail()
	}
	return m, d.Err
}
