package jsonedit

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
)

// Edit replaces Src[Start:End] with New.
type Edit struct {
	Start, End int
	New        string
}

// Apply returns src with the edits spliced in. Edits must not overlap.
func Apply(src []byte, edits ...Edit) ([]byte, error) {
	es := append([]Edit(nil), edits...)
	sort.SliceStable(es, func(i, j int) bool { return es[i].Start < es[j].Start })
	var out bytes.Buffer
	pos := 0
	for _, e := range es {
		if e.Start < pos || e.End < e.Start || e.End > len(src) {
			return nil, fmt.Errorf("jsonedit: edit %d..%d overlaps another or leaves the document", e.Start, e.End)
		}
		out.Write(src[pos:e.Start])
		out.WriteString(e.New)
		pos = e.End
	}
	out.Write(src[pos:])
	return out.Bytes(), nil
}

// newline is the document's line ending: CRLF when its first line break
// is one.
func (d *Doc) newline() string {
	if i := bytes.IndexByte(d.Src, '\n'); i > 0 && d.Src[i-1] == '\r' {
		return "\r\n"
	}
	return "\n"
}

// oneLine reports whether the document is written on one line ("{}"
// alone says nothing: it is taken as multi-line).
func (d *Doc) oneLine() bool {
	return len(childStarts(d.Root)) > 0 && !bytes.ContainsAny(d.Src[d.Root.Start:d.Root.End], "\r\n")
}

// lineIndent is the white space that starts the line holding pos.
func (d *Doc) lineIndent(pos int) string {
	start := bytes.LastIndexByte(d.Src[:pos], '\n') + 1
	end := start
	for end < len(d.Src) && (d.Src[end] == ' ' || d.Src[end] == '\t') {
		end++
	}
	return string(d.Src[start:end])
}

// unit is the document's indentation step: the first multi-line
// container's child indentation beyond the container's own; two spaces
// when no container shows one.
func (d *Doc) unit() string {
	var find func(v *Value) string
	find = func(v *Value) string {
		starts := childStarts(v)
		if len(starts) > 0 {
			if ci, ok := d.childIndent(v, starts[0]); ok {
				if own := d.lineIndent(v.Start); strings.HasPrefix(ci, own) && len(ci) > len(own) {
					return ci[len(own):]
				}
			}
		}
		for _, c := range children(v) {
			if u := find(c); u != "" {
				return u
			}
		}
		return ""
	}
	if u := find(d.Root); u != "" {
		return u
	}
	return "  "
}

// childIndent reports the indentation of a container's first child when
// that child starts its own line.
func (d *Doc) childIndent(v *Value, first int) (string, bool) {
	between := d.Src[v.Start+1 : first]
	i := bytes.LastIndexByte(between, '\n')
	if i < 0 {
		return "", false
	}
	return strings.TrimPrefix(string(between[i+1:]), "\r"), true
}

func children(v *Value) []*Value {
	if v.Kind == Array {
		return v.Elems
	}
	out := make([]*Value, len(v.Members))
	for i, m := range v.Members {
		out[i] = m.Value
	}
	return out
}

// childStarts and childEnds give the span of each child: an element, or
// a member from its key to the end of its value.
func childStarts(v *Value) []int {
	var out []int
	switch v.Kind {
	case Array:
		for _, e := range v.Elems {
			out = append(out, e.Start)
		}
	case Object:
		for _, m := range v.Members {
			out = append(out, m.KeyStart)
		}
	}
	return out
}

func childEnds(v *Value) []int {
	var out []int
	for _, c := range children(v) {
		out = append(out, c.End)
	}
	return out
}

// encode writes x as JSON: on several lines, each after prefix and
// indented by unit, or on one line.
func encode(x any, multiline bool, prefix, unit, nl string) (string, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if multiline {
		enc.SetIndent(prefix, unit)
	}
	if err := enc.Encode(x); err != nil {
		return "", fmt.Errorf("jsonedit: %w", err)
	}
	s := strings.TrimSuffix(b.String(), "\n")
	if !multiline {
		return spaceOut(s), nil
	}
	if nl != "\n" {
		s = strings.ReplaceAll(s, "\n", nl)
	}
	return s, nil
}

// spaceOut puts a space after the colons and commas of compact JSON that
// separate members and elements (not those inside strings), the way
// one-line JSON is usually written by hand.
func spaceOut(s string) string {
	var b strings.Builder
	inStr, esc := false, false
	for i := 0; i < len(s); i++ {
		c := s[i]
		b.WriteByte(c)
		switch {
		case inStr && esc:
			esc = false
		case inStr && c == '\\':
			esc = true
		case c == '"':
			inStr = !inStr
		case !inStr && (c == ',' || c == ':'):
			b.WriteByte(' ')
		}
	}
	return b.String()
}

// insert returns the edit that adds child text (made by render, given
// the layout) as the last child of container v.
func (d *Doc) insert(v *Value, render func(multiline bool, prefix, unit string) (string, error)) (Edit, error) {
	nl, unit := d.newline(), d.unit()
	starts, ends := childStarts(v), childEnds(v)
	if len(starts) == 0 && d.oneLine() {
		text, err := render(false, "", "")
		if err != nil {
			return Edit{}, err
		}
		return Edit{Start: v.Start + 1, End: v.End - 1, New: text}, nil
	}
	if len(starts) == 0 {
		own := d.lineIndent(v.Start)
		text, err := render(true, own+unit, unit)
		if err != nil {
			return Edit{}, err
		}
		return Edit{Start: v.Start + 1, End: v.End - 1, New: nl + own + unit + text + nl + own}, nil
	}
	last := ends[len(ends)-1]
	if ci, ok := d.childIndent(v, starts[0]); ok {
		text, err := render(true, ci, unit)
		if err != nil {
			return Edit{}, err
		}
		return Edit{Start: last, End: last, New: "," + nl + ci + text}, nil
	}
	sep := ", "
	if len(starts) > 1 {
		sep = string(d.Src[ends[0]:starts[1]])
	}
	text, err := render(false, "", "")
	if err != nil {
		return Edit{}, err
	}
	return Edit{Start: last, End: last, New: sep + text}, nil
}

// AppendElem returns the edit that adds x (encoded as JSON) as the last
// element of array arr.
func (d *Doc) AppendElem(arr *Value, x any) (Edit, error) {
	if arr == nil || arr.Kind != Array {
		return Edit{}, fmt.Errorf("jsonedit: append to a non-array")
	}
	nl := d.newline()
	return d.insert(arr, func(multiline bool, prefix, unit string) (string, error) {
		return encode(x, multiline, prefix, unit, nl)
	})
}

// AddMember returns the edit that adds the member key: x (encoded as
// JSON) as the last member of object obj. It does not check whether obj
// has the key already.
func (d *Doc) AddMember(obj *Value, key string, x any) (Edit, error) {
	if obj == nil || obj.Kind != Object {
		return Edit{}, fmt.Errorf("jsonedit: add a member to a non-object")
	}
	nl := d.newline()
	k, err := encode(key, false, "", "", nl)
	if err != nil {
		return Edit{}, err
	}
	return d.insert(obj, func(multiline bool, prefix, unit string) (string, error) {
		val, err := encode(x, multiline, prefix, unit, nl)
		if err != nil {
			return "", err
		}
		return k + ": " + val, nil
	})
}

// remove returns the edit that removes child i of container v: with the
// separator before it (or, for the first child, after it); the only child
// leaves the container empty ("{}", "[]").
func (d *Doc) remove(v *Value, i int) (Edit, error) {
	starts, ends := childStarts(v), childEnds(v)
	switch {
	case i < 0 || i >= len(starts):
		return Edit{}, fmt.Errorf("jsonedit: no child %d to remove", i)
	case len(starts) == 1:
		return Edit{Start: v.Start + 1, End: v.End - 1}, nil
	case i > 0:
		return Edit{Start: ends[i-1], End: ends[i]}, nil
	}
	return Edit{Start: starts[0], End: starts[1]}, nil
}

// RemoveElem returns the edit that removes element i of array arr.
func (d *Doc) RemoveElem(arr *Value, i int) (Edit, error) {
	if arr == nil || arr.Kind != Array {
		return Edit{}, fmt.Errorf("jsonedit: remove from a non-array")
	}
	return d.remove(arr, i)
}

// RemoveMember returns the edit that removes member i of object obj.
func (d *Doc) RemoveMember(obj *Value, i int) (Edit, error) {
	if obj == nil || obj.Kind != Object {
		return Edit{}, fmt.Errorf("jsonedit: remove from a non-object")
	}
	return d.remove(obj, i)
}
