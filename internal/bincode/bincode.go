// Package bincode holds the primitives of the verification cache's
// compact binary entries (internal/memfile's parsed memory files,
// internal/prose's judgments): varints, booleans and strings appended to
// a byte slice, and read back with every length checked against what is
// left, so that damaged data is an error, never a panic or a huge
// allocation.
package bincode

import (
	"encoding/binary"
	"math"
)

// Enc appends values to B.
type Enc struct{ B []byte }

// Uint appends v as a uvarint.
func (e *Enc) Uint(v uint64) { e.B = binary.AppendUvarint(e.B, v) }

// Int appends v as a varint.
func (e *Enc) Int(v int) { e.B = binary.AppendVarint(e.B, int64(v)) }

// Bool appends v as one byte, 0 or 1.
func (e *Enc) Bool(v bool) {
	if v {
		e.B = append(e.B, 1)
	} else {
		e.B = append(e.B, 0)
	}
}

// Str appends s's length and bytes.
func (e *Enc) Str(s string) { e.Uint(uint64(len(s))); e.B = append(e.B, s...) }

// Dec reads values from B. The first value that does not decode sets Err
// to the error it was made with (NewDec) and empties B; every read after
// returns the zero value.
type Dec struct {
	B   []byte
	Err error
	bad error
}

// NewDec returns a decoder of b whose failures are bad.
func NewDec(b []byte, bad error) *Dec { return &Dec{B: b, bad: bad} }

// Fail records a failure (for the readers built on Dec).
func (d *Dec) Fail() { d.Err, d.B = d.bad, nil }

// Uint reads a uvarint.
func (d *Dec) Uint() uint64 {
	if d.Err != nil {
		return 0
	}
	v, n := binary.Uvarint(d.B)
	if n <= 0 {
		d.Fail()
		return 0
	}
	d.B = d.B[n:]
	return v
}

// Int reads a varint, which must fit in 32 bits.
func (d *Dec) Int() int {
	if d.Err != nil {
		return 0
	}
	v, n := binary.Varint(d.B)
	if n <= 0 || v > math.MaxInt32 || v < math.MinInt32 {
		d.Fail()
		return 0
	}
	d.B = d.B[n:]
	return int(v)
}

// Bool reads a byte, 0 or 1.
func (d *Dec) Bool() bool {
	if d.Err != nil || len(d.B) == 0 || d.B[0] > 1 {
		d.Fail()
		return false
	}
	v := d.B[0] == 1
	d.B = d.B[1:]
	return v
}

// Count reads a length no larger than the bytes left (every element it
// counts takes at least one).
func (d *Dec) Count() int {
	n := d.Uint()
	if n > uint64(len(d.B)) {
		d.Fail()
		return 0
	}
	return int(n)
}

// Str reads a length and that many bytes.
func (d *Dec) Str() string {
	n := d.Uint()
	if n > uint64(len(d.B)) {
		d.Fail()
		return ""
	}
	s := string(d.B[:n])
	d.B = d.B[n:]
	return s
}
