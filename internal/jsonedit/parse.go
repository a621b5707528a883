// Package jsonedit edits JSON documents without encoding them again. Parse
// reads a document (RFC 8259, strictly) into values that know their byte
// spans; the edit functions return small splices (Edit) of the original
// bytes that add or remove one member or element, written in the
// document's own style (indentation, line endings, one-line or multi-line
// containers). Everything an edit does not touch — key order, spacing,
// number spellings, string escapes — stays byte for byte.
//
// Removing a member or element is the exact inverse of adding it, with one
// documented exception: a container that was empty but held white space
// ("{ }", "[\n]") comes back as "{}" or "[]".
package jsonedit

import (
	"encoding/json"
	"fmt"
	"unicode/utf8"
)

// Kind is the type of a JSON value.
type Kind int

// Kinds of values.
const (
	Null Kind = iota + 1
	Bool
	Number
	String
	Array
	Object
)

var kindNames = [...]string{"", "null", "boolean", "number", "string", "array", "object"}

// String returns the JSON name of k.
func (k Kind) String() string {
	if k < Null || k > Object {
		return fmt.Sprintf("Kind(%d)", int(k))
	}
	return kindNames[k]
}

// Value is a parsed JSON value and where it lies in the document.
type Value struct {
	Kind       Kind
	Start, End int      // the value is src[Start:End]
	Members    []Member // an object's members, in document order
	Elems      []*Value // an array's elements
	Str        string   // a string's decoded text
}

// Member is one key and value of an object.
type Member struct {
	Key      string // decoded
	KeyStart int    // offset of the key's opening quote
	Value    *Value
}

// Get returns the value of the last member named key (JSON.parse's rule
// for duplicate keys), or nil.
func (v *Value) Get(key string) *Value {
	if v == nil || v.Kind != Object {
		return nil
	}
	for i := len(v.Members) - 1; i >= 0; i-- {
		if v.Members[i].Key == key {
			return v.Members[i].Value
		}
	}
	return nil
}

// Index returns the position of the last member named key, or -1.
func (v *Value) Index(key string) int {
	if v == nil || v.Kind != Object {
		return -1
	}
	for i := len(v.Members) - 1; i >= 0; i-- {
		if v.Members[i].Key == key {
			return i
		}
	}
	return -1
}

// SyntaxError is a document that is not JSON, with the place (1-based
// line and column, in bytes) where that became clear.
type SyntaxError struct {
	Line, Col int
	Msg       string
}

func (e *SyntaxError) Error() string {
	return fmt.Sprintf("line %d, column %d: %s", e.Line, e.Col, e.Msg)
}

// MaxDepth bounds the nesting of arrays and objects Parse accepts.
const MaxDepth = 512

// Doc is a parsed document.
type Doc struct {
	Src  []byte
	Root *Value
}

// Parse reads one JSON value from src, surrounded only by white space (a
// UTF-8 byte order mark at the start is allowed and kept).
func Parse(src []byte) (*Doc, error) {
	p := &parser{src: src}
	if len(src) >= 3 && src[0] == 0xef && src[1] == 0xbb && src[2] == 0xbf {
		p.pos = 3
	}
	p.ws()
	root, err := p.value(0)
	if err != nil {
		return nil, err
	}
	p.ws()
	if p.pos < len(src) {
		return nil, p.errorf("unexpected %s after the document", p.what())
	}
	return &Doc{Src: src, Root: root}, nil
}

type parser struct {
	src []byte
	pos int
}

func (p *parser) errorf(format string, args ...any) error {
	line, col := 1, 1
	for _, b := range p.src[:min(p.pos, len(p.src))] {
		if b == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
	}
	return &SyntaxError{Line: line, Col: col, Msg: fmt.Sprintf(format, args...)}
}

// what names the byte at the current position for messages.
func (p *parser) what() string {
	if p.pos >= len(p.src) {
		return "end of input"
	}
	r, _ := utf8.DecodeRune(p.src[p.pos:])
	if r < 0x20 || r == utf8.RuneError {
		return fmt.Sprintf("byte %#02x", p.src[p.pos])
	}
	return fmt.Sprintf("%q", r)
}

func (p *parser) ws() {
	for p.pos < len(p.src) {
		switch p.src[p.pos] {
		case ' ', '\t', '\n', '\r':
			p.pos++
		default:
			return
		}
	}
}

func (p *parser) value(depth int) (*Value, error) {
	if p.pos >= len(p.src) {
		return nil, p.errorf("unexpected end of input: a value is missing")
	}
	start := p.pos
	switch c := p.src[p.pos]; {
	case c == '{':
		return p.object(depth)
	case c == '[':
		return p.array(depth)
	case c == '"':
		s, err := p.str()
		if err != nil {
			return nil, err
		}
		return &Value{Kind: String, Start: start, End: p.pos, Str: s}, nil
	case c == '-' || (c >= '0' && c <= '9'):
		if err := p.number(); err != nil {
			return nil, err
		}
		return &Value{Kind: Number, Start: start, End: p.pos}, nil
	}
	for _, lit := range []struct {
		text string
		kind Kind
	}{{"true", Bool}, {"false", Bool}, {"null", Null}} {
		if len(p.src)-p.pos >= len(lit.text) && string(p.src[p.pos:p.pos+len(lit.text)]) == lit.text {
			p.pos += len(lit.text)
			return &Value{Kind: lit.kind, Start: start, End: p.pos}, nil
		}
	}
	return nil, p.errorf("unexpected %s: a value is expected", p.what())
}

func (p *parser) object(depth int) (*Value, error) {
	if depth >= MaxDepth {
		return nil, p.errorf("nested deeper than %d levels", MaxDepth)
	}
	v := &Value{Kind: Object, Start: p.pos}
	p.pos++ // {
	p.ws()
	if p.pos < len(p.src) && p.src[p.pos] == '}' {
		p.pos++
		v.End = p.pos
		return v, nil
	}
	for {
		if p.pos >= len(p.src) || p.src[p.pos] != '"' {
			return nil, p.errorf("unexpected %s: a member name (a string) is expected", p.what())
		}
		keyStart := p.pos
		key, err := p.str()
		if err != nil {
			return nil, err
		}
		p.ws()
		if p.pos >= len(p.src) || p.src[p.pos] != ':' {
			return nil, p.errorf("unexpected %s: ':' is expected after a member name", p.what())
		}
		p.pos++
		p.ws()
		val, err := p.value(depth + 1)
		if err != nil {
			return nil, err
		}
		v.Members = append(v.Members, Member{Key: key, KeyStart: keyStart, Value: val})
		p.ws()
		if p.pos >= len(p.src) {
			return nil, p.errorf("unexpected end of input: the object is not closed")
		}
		switch p.src[p.pos] {
		case ',':
			p.pos++
			p.ws()
		case '}':
			p.pos++
			v.End = p.pos
			return v, nil
		default:
			return nil, p.errorf("unexpected %s: ',' or '}' is expected", p.what())
		}
	}
}

func (p *parser) array(depth int) (*Value, error) {
	if depth >= MaxDepth {
		return nil, p.errorf("nested deeper than %d levels", MaxDepth)
	}
	v := &Value{Kind: Array, Start: p.pos}
	p.pos++ // [
	p.ws()
	if p.pos < len(p.src) && p.src[p.pos] == ']' {
		p.pos++
		v.End = p.pos
		return v, nil
	}
	for {
		el, err := p.value(depth + 1)
		if err != nil {
			return nil, err
		}
		v.Elems = append(v.Elems, el)
		p.ws()
		if p.pos >= len(p.src) {
			return nil, p.errorf("unexpected end of input: the array is not closed")
		}
		switch p.src[p.pos] {
		case ',':
			p.pos++
			p.ws()
		case ']':
			p.pos++
			v.End = p.pos
			return v, nil
		default:
			return nil, p.errorf("unexpected %s: ',' or ']' is expected", p.what())
		}
	}
}

// str reads a string at the current position and returns its decoded text.
func (p *parser) str() (string, error) {
	start := p.pos
	p.pos++ // "
	escaped := false
	for p.pos < len(p.src) {
		c := p.src[p.pos]
		switch {
		case c == '"':
			p.pos++
			raw := p.src[start:p.pos]
			if !escaped {
				return string(raw[1 : len(raw)-1]), nil
			}
			var s string
			if err := json.Unmarshal(raw, &s); err != nil {
				p.pos = start
				return "", p.errorf("invalid string: %v", err)
			}
			return s, nil
		case c == '\\':
			escaped = true
			if p.pos+1 >= len(p.src) {
				p.pos++
				return "", p.errorf("unexpected end of input in a string")
			}
			switch e := p.src[p.pos+1]; e {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				p.pos += 2
			case 'u':
				if p.pos+6 > len(p.src) || !isHex4(p.src[p.pos+2:p.pos+6]) {
					return "", p.errorf("invalid \\u escape in a string")
				}
				p.pos += 6
			default:
				return "", p.errorf("invalid escape \\%c in a string", e)
			}
		case c < 0x20:
			return "", p.errorf("unexpected %s in a string (control characters must be escaped)", p.what())
		case c < utf8.RuneSelf:
			p.pos++
		default:
			r, n := utf8.DecodeRune(p.src[p.pos:])
			if r == utf8.RuneError && n <= 1 {
				return "", p.errorf("invalid UTF-8 in a string")
			}
			p.pos += n
		}
	}
	return "", p.errorf("unexpected end of input: the string is not closed")
}

func isHex4(b []byte) bool {
	for _, c := range b {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
			return false
		}
	}
	return true
}

// number reads a number: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func (p *parser) number() error {
	if p.src[p.pos] == '-' {
		p.pos++
	}
	digits := func() int {
		n := 0
		for p.pos < len(p.src) && p.src[p.pos] >= '0' && p.src[p.pos] <= '9' {
			p.pos++
			n++
		}
		return n
	}
	switch {
	case p.pos < len(p.src) && p.src[p.pos] == '0':
		p.pos++
	case digits() == 0:
		return p.errorf("invalid number: a digit is expected")
	}
	if p.pos < len(p.src) && p.src[p.pos] == '.' {
		p.pos++
		if digits() == 0 {
			return p.errorf("invalid number: a digit is expected after '.'")
		}
	}
	if p.pos < len(p.src) && (p.src[p.pos] == 'e' || p.src[p.pos] == 'E') {
		p.pos++
		if p.pos < len(p.src) && (p.src[p.pos] == '+' || p.src[p.pos] == '-') {
			p.pos++
		}
		if digits() == 0 {
			return p.errorf("invalid number: a digit is expected in the exponent")
		}
	}
	return nil
}
