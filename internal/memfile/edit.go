package memfile

import (
	"bytes"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"github.com/git-memcite/git-memcite/internal/yamledit"
)

// Edit replaces Src[Start:End] with New.
type Edit = yamledit.Edit

// Field is a key and the value to write for it. Value is an int, a
// float64, a bool, a string, a Timestamp or nil (remove the key).
type Field struct {
	Key   string
	Value any
}

// Timestamp is a value written as a plain YAML timestamp (RFC 3339).
type Timestamp string

// ErrStringForm is returned when a field cannot be stored in a citation
// written as a shorthand string (only path and lines can).
var ErrStringForm = errors.New("citation is a shorthand string; only its path and lines can change")

// Compact drops the YAML tree kept for editing, leaving the fields read
// from it. Loading thousands of memories to verify them needs only the
// fields; the edit methods parse again when they are called.
func (f *File) Compact() {
	if f.root == nil {
		return
	}
	f.root, f.citKey, f.citVal, f.lineStarts = nil, nil, nil, nil
	for i := range f.Citations {
		f.Citations[i].node = nil
	}
	f.compacted = true
}

// nodes restores the YAML tree dropped by Compact.
func (f *File) nodes() error {
	if !f.compacted {
		return nil
	}
	g, err := Parse(f.Name, f.Src)
	if err != nil {
		return err
	}
	f.root, f.citKey, f.citVal, f.lineStarts = g.root, g.citKey, g.citVal, g.lineStarts
	for i := range f.Citations {
		f.Citations[i].node = g.Citations[i].node
	}
	f.compacted = false
	return nil
}

// Apply splices edits into src. Edits must not overlap; insertions at the
// same offset keep their order.
func Apply(src []byte, edits []Edit) ([]byte, error) { return yamledit.Apply(src, edits) }

// Rewrite applies edits to f's source, parses the result and checks that
// the body is byte-for-byte unchanged. It returns the new bytes and file.
func Rewrite(f *File, edits []Edit) ([]byte, *File, error) {
	out, err := Apply(f.Src, edits)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", f.Name, err)
	}
	g, err := Parse(f.Name, out)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: the edited file would not parse (not written): %w", f.Name, err)
	}
	if !bytes.Equal(g.Body(), f.Body()) {
		return nil, nil, fmt.Errorf("%s: the edit would change the markdown body (not written)", f.Name)
	}
	return out, g, nil
}

// SetCitation sets fields of citation i. Keys that exist are replaced in
// place; new keys are added after the citation's last line (or before the
// closing brace of a flow mapping). For shorthand strings only path, line
// and line_end may be set (ErrStringForm otherwise).
func (f *File) SetCitation(i int, fields ...Field) ([]Edit, error) {
	if err := f.nodes(); err != nil {
		return nil, err
	}
	if i < 0 || i >= len(f.Citations) {
		return nil, fmt.Errorf("%s: no citation %d", f.Name, i+1)
	}
	if err := checkFields(fields); err != nil {
		return nil, err
	}
	c := f.Citations[i]
	n := c.node
	if n.Kind == yaml.AliasNode {
		return nil, fmt.Errorf("%s:%d: citation %d is a YAML alias; edit it by hand", f.Name, c.SrcLine, i+1)
	}
	if c.Form == FormString {
		return f.setShorthand(c, fields)
	}
	for j := 0; j+1 < len(n.Content); j += 2 {
		if isMerge(n.Content[j]) {
			return nil, fmt.Errorf("%s:%d: citation %d takes keys from a YAML merge key (<<); edit it by hand", f.Name, c.SrcLine, i+1)
		}
	}
	if k := duplicate(n, append(fields, Field{Key: "line"}, Field{Key: "line_end"})); k != "" {
		return nil, fmt.Errorf("%s:%d: citation %d has the key %q more than once; fix it by hand", f.Name, c.SrcLine, i+1, k)
	}
	if c.backslashes && !hasKey(fields, "path") {
		fields = append([]Field{{Key: "path", Value: c.Path}}, fields...) // never leave backslashes in a citation written to
	}
	fields = foldRange(n, c, fields)
	var edits []Edit
	var added []Field
	for _, fl := range fields {
		k, v := yamledit.Lookup(n, fl.Key)
		switch {
		case k != nil && fl.Value == nil:
			e, err := f.deleteKey(n, k, v)
			if err != nil {
				return nil, err
			}
			edits = append(edits, e)
		case k != nil:
			start, end, err := f.valueSpan(n, k, v)
			if err != nil {
				return nil, err
			}
			e := replaceValue(start, end, fl.Value, f.inFlow(v))
			if q, ok := yamledit.QuoteLike(v, fl.Value); ok && start != end {
				e.New = q
			}
			edits = append(edits, e)
		case fl.Value != nil:
			added = append(added, fl)
		}
	}
	if len(added) > 0 {
		e, err := f.addKeys(n, added)
		if err != nil {
			return nil, err
		}
		edits = append(edits, e)
	}
	return edits, nil
}

// foldRange keeps a range written in the line value (line: 23-25) written
// that way: new line and line_end fields become one line field, "6-8", or
// a plain number when the range is dropped.
func foldRange(n *yaml.Node, c Citation, fields []Field) []Field {
	_, v := yamledit.Lookup(n, "line")
	if v == nil || v.Kind != yaml.ScalarNode || v.Tag != "!!str" || !rangeRe().MatchString(strings.TrimSpace(v.Value)) {
		return fields
	}
	for _, key := range []string{"line_end", "end_line"} {
		if k, _ := yamledit.Lookup(n, key); k != nil {
			return fields // a separate line_end wins over the range; leave both alone
		}
	}
	start, end, touched := c.Line, c.LineEnd, false
	var rest []Field
	for _, fl := range fields {
		switch fl.Key {
		case "line":
			x, ok := fl.Value.(int)
			if !ok {
				return fields
			}
			start, touched = x, true
		case "line_end":
			switch x := fl.Value.(type) {
			case nil:
				end = 0
			case int:
				end = x
			default:
				return fields
			}
			touched = true
		default:
			rest = append(rest, fl)
		}
	}
	if !touched {
		return fields
	}
	var line any = start
	if end > 0 {
		line = fmt.Sprintf("%d-%d", start, end)
	}
	return append([]Field{{Key: "line", Value: line}}, rest...)
}

func (f *File) setShorthand(c Citation, fields []Field) ([]Edit, error) {
	nc := c
	for _, fl := range fields {
		switch fl.Key {
		case "path":
			s, _ := fl.Value.(string)
			nc.Path = s
		case "line":
			n, ok := fl.Value.(int)
			if ok && n < 1 {
				return nil, fmt.Errorf("line %d cannot be written in a shorthand citation", n)
			}
			nc.Line, nc.HasLine = n, ok
		case "line_end":
			n, _ := fl.Value.(int)
			if n < 0 {
				return nil, fmt.Errorf("line_end %d cannot be written in a shorthand citation", n)
			}
			nc.LineEnd = n
		default:
			return nil, ErrStringForm
		}
	}
	start := f.offset(c.node)
	end, err := f.scalarEnd(start, c.node)
	if err != nil {
		return nil, err
	}
	text := yamledit.QuoteString(nc.shorthand(), c.node.Style&yaml.FlowStyle != 0 || f.inFlow(c.node))
	if q, ok := yamledit.QuoteLike(c.node, nc.shorthand()); ok {
		text = q
	}
	return []Edit{{Start: start, End: end, New: text}}, nil
}

// SetCitationAsMapping rewrites shorthand citation i as a flow mapping
// ({path: a.go, line: 5, commit: …}) holding its path and lines with
// fields set: the way to record fields, such as the commit at which an
// edit was accepted, that a shorthand string cannot hold. The mapping
// takes the string's place, so a comment after it stays. A shorthand with
// an anchor or an explicit tag is refused (edit it by hand); a citation
// already a mapping gets SetCitation.
func (f *File) SetCitationAsMapping(i int, fields ...Field) ([]Edit, error) {
	if err := f.nodes(); err != nil {
		return nil, err
	}
	if i < 0 || i >= len(f.Citations) {
		return nil, fmt.Errorf("%s: no citation %d", f.Name, i+1)
	}
	c := f.Citations[i]
	if c.Form != FormString {
		return f.SetCitation(i, fields...)
	}
	if err := checkFields(fields); err != nil {
		return nil, err
	}
	n := c.node
	if n.Kind != yaml.ScalarNode || n.Anchor != "" || n.Style&yaml.TaggedStyle != 0 {
		return nil, fmt.Errorf("%s:%d: citation %d has an anchor, a tag or an alias; edit it by hand", f.Name, c.SrcLine, i+1)
	}
	if c.URL != "" || !c.HasLine {
		return nil, fmt.Errorf("%s:%d: citation %d has no lines to write as a mapping", f.Name, c.SrcLine, i+1)
	}
	keys := []Field{{Key: "path", Value: c.Path}, {Key: "line", Value: c.Line}}
	if c.LineEnd > c.Line {
		keys = append(keys, Field{Key: "line_end", Value: c.LineEnd})
	}
	for _, fl := range fields {
		if j := slices.IndexFunc(keys, func(k Field) bool { return k.Key == fl.Key }); j >= 0 {
			keys[j] = fl
		} else {
			keys = append(keys, fl)
		}
	}
	keys = slices.DeleteFunc(keys, func(k Field) bool { return k.Value == nil })
	text := "{" + flowEntries(keys) + "}"
	if n == f.citVal {
		text = "[" + text + "]" // citations: a.go:5, one string for the list
	}
	start := f.offset(n)
	end, err := f.scalarEnd(start, n)
	if err != nil {
		return nil, err
	}
	return []Edit{{Start: start, End: end, New: text}}, nil
}

// SetTop sets top-level keys (confidence, last_verified, …).
func (f *File) SetTop(fields ...Field) ([]Edit, error) {
	if err := f.nodes(); err != nil {
		return nil, err
	}
	if err := checkFields(fields); err != nil {
		return nil, err
	}
	if f.root != nil {
		if k := duplicate(f.root, fields); k != "" {
			return nil, fmt.Errorf("%s: the frontmatter has the key %q more than once; fix it by hand", f.Name, k)
		}
	}
	var edits []Edit
	var added []Field
	for _, fl := range fields {
		var k, v *yaml.Node
		if f.root != nil {
			k, v = yamledit.Lookup(f.root, fl.Key)
		}
		switch {
		case k != nil && fl.Value == nil:
			e, err := f.deleteKey(f.root, k, v)
			if err != nil {
				return nil, err
			}
			edits = append(edits, e)
		case k != nil:
			start, end, err := f.valueSpan(f.root, k, v)
			if err != nil {
				return nil, err
			}
			edits = append(edits, replaceValue(start, end, fl.Value, f.inFlow(v)))
		case fl.Value != nil:
			added = append(added, fl)
		}
	}
	if len(added) > 0 {
		var b strings.Builder
		for _, fl := range added {
			b.WriteString(fl.Key + ": " + formatValue(fl.Value, false) + f.nl)
		}
		edits = append(edits, f.insertTop(b.String()))
	}
	return edits, nil
}

// insertTop inserts whole lines at the end of the frontmatter, creating the
// frontmatter when the file has none.
func (f *File) insertTop(lines string) Edit {
	if f.HasFrontmatter {
		// (a flow-style "{a: 1}" frontmatter would not parse after this;
		// Rewrite refuses such an edit)
		return Edit{Start: f.fmEnd, End: f.fmEnd, New: lines}
	}
	nl := "\n"
	switch {
	case bytes.Contains(f.Src, []byte("\r\n")):
		nl = "\r\n"
	case bytes.ContainsRune(f.Src, '\r') && !bytes.ContainsRune(f.Src, '\n'):
		nl = "\r"
	}
	lines = strings.ReplaceAll(lines, f.nl, nl)
	return Edit{Start: f.bomLen, End: f.bomLen, New: "---" + nl + lines + "---" + nl}
}

// AppendCitation adds a citation at the end of the citations list. With
// asString the citation is written as a shorthand string (Cortex style);
// otherwise as a mapping of the given fields in order.
func (f *File) AppendCitation(asString bool, fields ...Field) ([]Edit, error) {
	if err := f.nodes(); err != nil {
		return nil, err
	}
	if err := checkFields(fields); err != nil {
		return nil, err
	}
	var c Citation
	for _, fl := range fields {
		switch fl.Key {
		case "path":
			c.Path, _ = fl.Value.(string)
		case "line":
			c.Line, c.HasLine = fl.Value.(int)
		case "line_end":
			c.LineEnd, _ = fl.Value.(int)
		}
	}
	nl := f.nl
	v := f.citVal
	if v != nil && v.Kind == yaml.AliasNode {
		return nil, fmt.Errorf("%s: citations is a YAML alias; edit it by hand", f.Name)
	}
	if v != nil && v.Kind == yaml.SequenceNode && v.Style&yaml.FlowStyle != 0 {
		end, err := f.flowEnd(f.offset(v), '[', ']')
		if err != nil {
			return nil, err
		}
		item := yamledit.QuoteString(c.Location(), true)
		if !asString {
			item = flowMapping(fields)
		}
		if len(v.Content) > 0 {
			item = ", " + item
		}
		return []Edit{{Start: end - 1, End: end - 1, New: item}}, nil
	}
	if v != nil && v.Kind == yaml.SequenceNode && len(v.Content) > 0 {
		dashCol := v.Column - 1
		keyCol := dashCol + 2
		for _, it := range v.Content {
			if it.Kind == yaml.MappingNode && it.Style&yaml.FlowStyle == 0 {
				keyCol = it.Column - 1
				break
			}
		}
		last := v.Content[len(v.Content)-1]
		at := f.insertionEnd(f.lineOf(last), dashCol)
		return []Edit{{Start: at, End: at, New: blockItem(dashCol, keyCol, asString, c, fields, nl)}}, nil
	}
	item := blockItem(2, 4, asString, c, fields, nl)
	if v == nil {
		return []Edit{f.insertTop("citations:" + nl + item)}, nil
	}
	// null, empty or a single string: rewrite the key's line(s) as a block list
	keyLine := f.lineOf(f.citKey)
	start := f.fmStart + f.lineStarts[keyLine]
	end := f.blockEnd(keyLine, f.citKey.Column-1)
	var keep string
	if v.Kind == yaml.ScalarNode && !isNull(v) {
		vs := f.offset(v)
		ve, err := f.scalarEnd(vs, v)
		if err != nil {
			return nil, err
		}
		keep = strings.Repeat(" ", 2) + "- " + string(f.Src[vs:ve]) + nl
	}
	indent := strings.Repeat(" ", f.citKey.Column-1)
	if indent != "" {
		return nil, fmt.Errorf("%s: citations key is nested; edit it by hand", f.Name)
	}
	return []Edit{{Start: start, End: end, New: "citations:" + nl + keep + item}}, nil
}

// RemoveCitation removes citation i from the list.
func (f *File) RemoveCitation(i int) ([]Edit, error) {
	if err := f.nodes(); err != nil {
		return nil, err
	}
	if i < 0 || i >= len(f.Citations) {
		return nil, fmt.Errorf("%s: no citation %d", f.Name, i+1)
	}
	v := f.citVal
	if v.Kind != yaml.SequenceNode {
		// a single string citation: clear the list
		start, end, err := f.valueSpan(f.root, f.citKey, v)
		if err != nil {
			return nil, err
		}
		return []Edit{{Start: start, End: end, New: "[]"}}, nil
	}
	if v.Style&yaml.FlowStyle != 0 {
		item := v.Content[i]
		s := f.offset(item)
		e, err := f.nodeEnd(item)
		if err != nil {
			return nil, err
		}
		if i+1 < len(v.Content) {
			e = f.offset(v.Content[i+1])
		} else if i > 0 {
			prev := v.Content[i-1]
			pe, err := f.nodeEnd(prev)
			if err != nil {
				return nil, err
			}
			s = pe
		}
		return []Edit{{Start: s, End: e, New: ""}}, nil
	}
	if len(v.Content) == 1 {
		// the last one: "citations: []" on the key's line (a block list
		// starts on the next line, where "[]" alone would not parse)
		_, end, err := f.valueSpan(f.root, f.citKey, v)
		if err != nil {
			return nil, err
		}
		ks := f.offset(f.citKey)
		ke, err := f.scalarEnd(ks, f.citKey)
		if err != nil {
			return nil, err
		}
		colon := bytes.IndexByte(f.Src[ke:], ':')
		if colon < 0 {
			return nil, fmt.Errorf("%s:%d: cannot find ':' after key %q", f.Name, f.line(f.citKey), f.citKey.Value)
		}
		at := ke + colon + 1
		eol := bytes.IndexAny(f.Src[at:], "\r\n")
		if eol < 0 || at+eol >= end {
			return []Edit{{Start: at, End: end, New: " []"}}, nil
		}
		// keep the rest of the key's line (a comment), drop the items
		lineEnd := at + eol
		return []Edit{{Start: at, End: at, New: " []"}, {Start: lineEnd, End: end, New: ""}}, nil
	}
	dashCol := v.Column - 1
	start := f.fmStart + f.lineStarts[f.dashLine(v.Content[i], dashCol)]
	var end int
	if i+1 < len(v.Content) {
		end = f.fmStart + f.lineStarts[f.dashLine(v.Content[i+1], dashCol)]
	} else {
		end = f.removalEnd(f.lineOf(v.Content[i]), dashCol)
	}
	return []Edit{{Start: start, End: end, New: ""}}, nil
}

// dashLine finds the (0-based) line holding the "-" of a block sequence item.
func (f *File) dashLine(item *yaml.Node, dashCol int) int {
	l := f.lineOf(item)
	for ; l > 0; l-- {
		t := f.lineText(l)
		if len(t) > dashCol && t[dashCol] == '-' && strings.TrimSpace(t[:dashCol]) == "" {
			return l
		}
	}
	return l
}

// checkFields rejects values a memory file cannot hold (it must stay UTF-8).
func hasKey(fields []Field, key string) bool {
	for _, f := range fields {
		if f.Key == key {
			return true
		}
	}
	return false
}

func checkFields(fields []Field) error {
	for _, fl := range fields {
		var s string
		switch v := fl.Value.(type) {
		case string:
			s = v
		case Timestamp:
			s = string(v)
		}
		if !utf8.ValidString(s) {
			return fmt.Errorf("value of %s is not valid UTF-8", fl.Key)
		}
	}
	return nil
}

// duplicate returns the first of fields whose key m holds more than once
// (YAML forbids it; readers keep the last value, an edit could not know
// which to change), or "".
func duplicate(m *yaml.Node, fields []Field) string {
	for _, fl := range fields {
		n := 0
		for i := 0; i+1 < len(m.Content); i += 2 {
			if m.Content[i].Value == fl.Key {
				n++
			}
		}
		if n > 1 {
			return fl.Key
		}
	}
	return ""
}

// valueSpan returns the byte span of the value of key k in mapping m.
func (f *File) valueSpan(m, k, v *yaml.Node) (int, int, error) {
	if v.Kind == yaml.ScalarNode && isNull(v) && v.Value == "" {
		// implicit null: "key:" with nothing after it
		ks := f.offset(k)
		ke, err := f.scalarEnd(ks, k)
		if err != nil {
			return 0, 0, err
		}
		// the colon follows on the key's line; a key in a flow mapping may
		// have none ("{path: a, line}"), and the next ':' is another key's
		colon := ke
		for colon < f.fmEnd && (f.Src[colon] == ' ' || f.Src[colon] == '\t') {
			colon++
		}
		if colon >= f.fmEnd || f.Src[colon] != ':' {
			return 0, 0, fmt.Errorf("%s:%d: key %q has no ':' after it; edit it by hand", f.Name, f.line(k), k.Value)
		}
		at := colon + 1
		return at, at, nil
	}
	if v.Kind == yaml.ScalarNode && v.Style&(yaml.LiteralStyle|yaml.FoldedStyle) == 0 {
		s := f.offset(v)
		e, err := f.scalarEnd(s, v)
		return s, e, err
	}
	if v.Style&yaml.FlowStyle != 0 && (v.Kind == yaml.SequenceNode || v.Kind == yaml.MappingNode) {
		open, closeb := byte('['), byte(']')
		if v.Kind == yaml.MappingNode {
			open, closeb = '{', '}'
		}
		s := f.offset(v)
		e, err := f.flowEnd(s, open, closeb)
		return s, e, err
	}
	// block scalar or block collection: from the value start to the end of
	// the block belonging to the key (lines indented deeper than the key)
	s := f.offset(v)
	if v.Kind != yaml.ScalarNode {
		// block collections start on the next line: replace from after the colon
		ks := f.offset(k)
		ke, err := f.scalarEnd(ks, k)
		if err != nil {
			return 0, 0, err
		}
		s = ke + bytes.IndexByte(f.Src[ke:], ':') + 1
	}
	end := f.blockEnd(f.lineOf(k), k.Column-1)
	if v.Kind == yaml.SequenceNode && len(v.Content) > 0 && v.Column <= k.Column {
		// an indentless sequence (PyYAML's default style): its "-" are in
		// the key's column, so the block ends after its last item
		last := v.Content[len(v.Content)-1]
		end = max(end, f.blockEnd(f.lineOf(last), v.Column-1))
	}
	// keep the line break that ends the block
	for end > s && (f.Src[end-1] == '\n' || f.Src[end-1] == '\r') {
		end--
	}
	return s, end, nil
}

// replaceValue replaces a value span; an empty span (after "key:") gets a
// separating space.
func replaceValue(start, end int, v any, flow bool) Edit {
	s := formatValue(v, flow)
	if start == end {
		s = " " + s
	}
	return Edit{Start: start, End: end, New: s}
}

// deleteKey removes a key and its value (whole lines in block mappings).
func (f *File) deleteKey(m, k, v *yaml.Node) (Edit, error) {
	if m.Style&yaml.FlowStyle != 0 || f.inFlow(m) {
		s, e, err := f.valueSpan(m, k, v)
		if err != nil {
			return Edit{}, err
		}
		return Edit{Start: s, End: e, New: "null"}, nil
	}
	kl := f.lineOf(k)
	ks := f.offset(k)
	ls := f.fmStart + f.lineStarts[kl]
	if strings.TrimSpace(string(f.Src[ls:ks])) != "" {
		// the key shares its line with a "- ": blank the key instead
		s, e, err := f.valueSpan(m, k, v)
		if err != nil {
			return Edit{}, err
		}
		return Edit{Start: s, End: e, New: "null"}, nil
	}
	return Edit{Start: ls, End: f.removalEnd(f.valueLastLine(m, k, v), k.Column-1), New: ""}, nil
}

// valueLastLine is the line (0-based) where the value of key k ends: the
// key's own line, or a later one for a quoted or plain scalar that runs
// over several lines (whose continuation lines need not be indented).
func (f *File) valueLastLine(m, k, v *yaml.Node) int {
	l := f.lineOf(k)
	if v.Kind != yaml.ScalarNode || v.Style&(yaml.LiteralStyle|yaml.FoldedStyle) != 0 {
		return l // block scalars and collections: blockEnd follows indentation
	}
	_, end, err := f.valueSpan(m, k, v)
	if err != nil || end <= f.fmStart {
		return l
	}
	rel := end - 1 - f.fmStart
	for l+1 < len(f.lineStarts) && f.lineStarts[l+1] <= rel {
		l++
	}
	return l
}

// addKeys inserts keys at the end of mapping m.
func (f *File) addKeys(m *yaml.Node, fields []Field) (Edit, error) {
	if m.Style&yaml.FlowStyle != 0 {
		end, err := f.flowEnd(f.offset(m), '{', '}')
		if err != nil {
			return Edit{}, err
		}
		// after the last entry: a comma, unless the mapping is empty or
		// written with one already ({a: 1,}, {a: 1, })
		sep := ""
		if len(m.Content) > 0 {
			sep = ", "
			before := bytes.TrimRight(f.Src[f.offset(m):end-1], " \t\r\n")
			if bytes.HasSuffix(before, []byte(",")) {
				sep = " "
				if len(before) < end-1-f.offset(m) {
					sep = "" // a space already follows it
				}
			}
		}
		return Edit{Start: end - 1, End: end - 1, New: sep + flowEntries(fields)}, nil
	}
	keyCol := m.Column - 1
	lastKey, lastVal := m.Content[len(m.Content)-2], m.Content[len(m.Content)-1]
	at := f.insertionEnd(f.valueLastLine(m, lastKey, lastVal), keyCol)
	var b strings.Builder
	for _, fl := range fields {
		b.WriteString(strings.Repeat(" ", keyCol) + fl.Key + ": " + formatValue(fl.Value, false) + f.nl)
	}
	return Edit{Start: at, End: at, New: b.String()}, nil
}

// flowEntries writes fields as the entries of a flow mapping: "k: v, k: v".
func flowEntries(fields []Field) string {
	parts := make([]string, len(fields))
	for i, fl := range fields {
		parts[i] = fl.Key + ": " + formatValue(fl.Value, true)
	}
	return strings.Join(parts, ", ")
}

// blockEnd returns the offset just after the block that starts on line l
// (0-based, within the YAML text) at indentation col, as
// yamledit.BlockEnd finds it. A block ending at the last YAML line without
// a line break gets none added by callers, because fmEnd always follows a
// line break.
func (f *File) blockEnd(l, col int) int { return f.lineEnd(yamledit.BlockEnd, l, col) }

// insertionEnd is where lines added after the block that starts on line l
// go (yamledit.InsertionEnd: after the blank lines that a block scalar
// with keep chomping holds).
func (f *File) insertionEnd(l, col int) int { return f.lineEnd(yamledit.InsertionEnd, l, col) }

// removalEnd is where removing the block that starts on line l ends
// (yamledit.RemovalEnd: the blank lines after it go too, or a block scalar
// with keep chomping before it would take them in).
func (f *File) removalEnd(l, col int) int { return f.lineEnd(yamledit.RemovalEnd, l, col) }

// lineEnd is the offset of the line that end (one of yamledit's block
// ends) finds after the block starting on line l.
func (f *File) lineEnd(end func(n int, line func(int) string, start, col int, seqAtCol bool) int, l, col int) int {
	n := len(f.lineStarts)
	for n > 0 && f.fmStart+f.lineStarts[n-1] >= f.fmEnd {
		n--
	}
	next := end(n, f.lineText, l, col, false)
	if next < len(f.lineStarts) {
		return min(f.fmStart+f.lineStarts[next], f.fmEnd)
	}
	return f.fmEnd
}

// lineText returns line l (0-based) of the YAML text without its break.
func (f *File) lineText(l int) string {
	s := f.fmStart + f.lineStarts[l]
	e := f.fmEnd
	if l+1 < len(f.lineStarts) {
		e = min(f.fmStart+f.lineStarts[l+1], f.fmEnd)
	}
	return strings.TrimRight(string(f.Src[s:e]), "\r\n")
}

func (f *File) lineOf(n *yaml.Node) int { return n.Line - 1 }

// offset is the byte offset in Src where node n starts.
func (f *File) offset(n *yaml.Node) int {
	l := n.Line - 1
	if l < 0 || l >= len(f.lineStarts) {
		return f.fmStart
	}
	pos := f.fmStart + f.lineStarts[l]
	for c := 1; c < n.Column && pos < len(f.Src); c++ {
		_, size := utf8.DecodeRune(f.Src[pos:])
		pos += size
	}
	return pos
}

// inFlow reports whether n sits inside a flow collection (its scalar ends at
// ',', ']' or '}').
func (f *File) inFlow(n *yaml.Node) bool {
	var walk func(p *yaml.Node, flow bool) (bool, bool)
	walk = func(p *yaml.Node, flow bool) (bool, bool) {
		if p == n {
			return flow, true
		}
		fl := flow || (p.Style&yaml.FlowStyle != 0 && p.Kind != yaml.ScalarNode)
		for _, c := range p.Content {
			if r, ok := walk(c, fl); ok {
				return r, true
			}
		}
		return false, false
	}
	if f.root == nil {
		return false
	}
	r, _ := walk(f.root, false)
	return r
}

// scalarEnd returns the end offset of the scalar that starts at start.
func (f *File) scalarEnd(start int, n *yaml.Node) (int, error) {
	src := f.Src[:f.fmEnd]
	flow := start < len(src) && src[start] != '"' && src[start] != '\'' && f.inFlow(n)
	end, err := yamledit.ScalarEnd(src, start, n, flow)
	if err != nil {
		return 0, fmt.Errorf("%s:%d: %w", f.Name, f.line(n), err)
	}
	return end, nil
}

// nodeEnd returns the end offset of a scalar or flow collection.
func (f *File) nodeEnd(n *yaml.Node) (int, error) {
	s := f.offset(n)
	switch {
	case n.Kind == yaml.MappingNode:
		return f.flowEnd(s, '{', '}')
	case n.Kind == yaml.SequenceNode:
		return f.flowEnd(s, '[', ']')
	}
	return f.scalarEnd(s, n)
}

// flowEnd returns the offset just after the bracket that closes the flow
// collection opening at start.
func (f *File) flowEnd(start int, open, closeb byte) (int, error) {
	end, err := yamledit.FlowEnd(f.Src[:f.fmEnd], start, open, closeb)
	if err != nil {
		return 0, fmt.Errorf("%s: %w", f.Name, err)
	}
	return end, nil
}

func blockItem(dashCol, keyCol int, asString bool, c Citation, fields []Field, nl string) string {
	pad := strings.Repeat(" ", dashCol)
	if asString {
		return pad + "- " + yamledit.QuoteString(c.Location(), false) + nl
	}
	var b strings.Builder
	for i, fl := range fields {
		if fl.Value == nil {
			continue
		}
		if i == 0 {
			b.WriteString(pad + "- " + strings.Repeat(" ", max(0, keyCol-dashCol-2)))
		} else {
			b.WriteString(strings.Repeat(" ", keyCol))
		}
		b.WriteString(fl.Key + ": " + formatValue(fl.Value, false) + nl)
	}
	return b.String()
}

func flowMapping(fields []Field) string {
	var parts []string
	for _, fl := range fields {
		if fl.Value != nil {
			parts = append(parts, fl.Key+": "+formatValue(fl.Value, true))
		}
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

// formatValue renders a value as a YAML scalar.
func formatValue(v any, flow bool) string {
	switch x := v.(type) {
	case int:
		return strconv.Itoa(x)
	case float64:
		s := strconv.FormatFloat(x, 'f', -1, 64)
		if !strings.ContainsAny(s, ".eE") {
			s += ".0"
		}
		return s
	case string:
		return yamledit.QuoteString(x, flow)
	case Timestamp:
		if timestampRe().MatchString(string(x)) {
			return string(x)
		}
		return yamledit.QuoteString(string(x), flow)
	case bool:
		return strconv.FormatBool(x)
	case nil:
		return "null"
	}
	return yamledit.QuoteString(fmt.Sprint(v), flow)
}

var timestampRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^\d{4}-\d\d-\d\d(T\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d))?$`)
})
