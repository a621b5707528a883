package memfile

import (
	"strconv"
	"strings"
	"unicode/utf8"
	"unsafe"

	"go.yaml.in/yaml/v3"
)

// fastYAML parses the plain subset of YAML that nearly every memory
// frontmatter uses — block mappings and sequences of one-line plain or
// quoted scalars, one-line flow sequences of scalars, comments — into the
// same node tree yaml.v3 builds, several times faster. Anything outside
// that subset (block scalars, anchors, tags, flow mappings, multi-line
// scalars, tabs, unusual line breaks, …) returns ok == false and the caller
// uses yaml.v3. FuzzFastYAML checks the two agree on every input the fast
// path accepts.
func fastYAML(text []byte) (doc *yaml.Node, ok bool) {
	for _, b := range text {
		if (b < 0x20 && b != '\n' && b != '\r') || b == 0x7f {
			return nil, false // tabs and control characters: leave them to yaml.v3
		}
	}
	if !utf8.Valid(text) {
		return nil, false
	}
	// the scalars' strings alias text, a part of the File's Src, which
	// does not change (Parse): a copy would double what a store holds
	s := unsafe.String(unsafe.SliceData(text), len(text))
	if strings.Contains(s, "\u0085") || strings.Contains(s, "\u2028") || strings.Contains(s, "\u2029") || strings.Contains(s, "\ufeff") {
		return nil, false
	}
	for _, r := range s {
		if (r >= 0x80 && r < 0xa0) || r == 0xfffe || r == 0xffff {
			return nil, false // not printable for YAML: yaml.v3 rejects them
		}
	}
	raw := strings.Split(s, "\n")
	p := &fastParser{}
	for i, l := range raw {
		l = strings.TrimSuffix(l, "\r")
		if strings.Contains(l, "\r") {
			return nil, false
		}
		t := strings.TrimLeft(l, " ")
		if t == "" || strings.HasPrefix(t, "#") {
			continue
		}
		if len(l) != len(strings.TrimRight(l, " ")) && strings.HasSuffix(t, ":") {
			// "key: " with trailing spaces is fine, but keep the rules simple
			return nil, false
		}
		p.lines = append(p.lines, fastLine{no: i + 1, indent: len(l) - len(t), text: t, raw: l})
	}
	if len(p.lines) == 0 || p.lines[0].indent != 0 {
		return nil, false
	}
	root, ok := p.mapping(0)
	if !ok || p.pos != len(p.lines) {
		return nil, false
	}
	return &yaml.Node{Kind: yaml.DocumentNode, Line: 1, Column: 1, Content: []*yaml.Node{root}}, true
}

type fastLine struct {
	no     int    // 1-based line number
	indent int    // leading spaces
	text   string // the line without its indentation
	raw    string
}

type fastParser struct {
	lines []fastLine
	pos   int
}

// mapping parses a block mapping whose keys sit at the given indent.
func (p *fastParser) mapping(indent int) (*yaml.Node, bool) {
	first := p.lines[p.pos]
	m := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Line: first.no, Column: indent + 1}
	for p.pos < len(p.lines) {
		l := p.lines[p.pos]
		if l.indent < indent {
			break
		}
		if l.indent > indent {
			return nil, false
		}
		k, v, ok := p.pair(l, l.text, indent)
		if !ok {
			return nil, false
		}
		m.Content = append(m.Content, k, v)
	}
	return m, true
}

// pair parses "key: value" (text starts at column col, 0-based) on line l
// and, for an empty value, the block below it.
func (p *fastParser) pair(l fastLine, text string, col int) (k, v *yaml.Node, ok bool) {
	i := strings.Index(text, ":")
	if i <= 0 || !plainKey(text[:i]) {
		return nil, nil, false
	}
	rest := text[i+1:]
	if rest != "" && rest[0] != ' ' {
		return nil, nil, false
	}
	k = &yaml.Node{Kind: yaml.ScalarNode, Value: text[:i], Line: l.no, Column: runeCol(l.raw, col)}
	k.Tag = k.ShortTag()
	if k.Tag != "!!str" {
		return nil, nil, false
	}
	p.pos++
	vt := strings.TrimLeft(rest, " ")
	vcol := col + i + 1 + (len(rest) - len(vt))
	if vt == "" || vt[0] == '#' {
		// an empty value: a nested block, or null
		if p.pos < len(p.lines) {
			next := p.lines[p.pos]
			switch {
			case next.indent >= col && isDash(next.text):
				v, ok = p.sequence(next.indent)
				return k, v, ok
			case next.indent > col:
				v, ok = p.mapping(next.indent)
				return k, v, ok
			}
		}
		return k, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null"}, true
	}
	v, ok = inlineValue(l, vt, vcol)
	return k, v, ok
}

// sequence parses a block sequence whose dashes sit at indent.
func (p *fastParser) sequence(indent int) (*yaml.Node, bool) {
	first := p.lines[p.pos]
	seq := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Line: first.no, Column: indent + 1}
	for p.pos < len(p.lines) {
		l := p.lines[p.pos]
		if l.indent < indent || (l.indent == indent && !isDash(l.text)) {
			break
		}
		if l.indent > indent {
			return nil, false
		}
		item := strings.TrimLeft(l.text[1:], " ")
		icol := indent + len(l.text) - len(item)
		if item == "" || item[0] == '#' || icol != indent+2 {
			return nil, false // "-" alone, or unusual spacing
		}
		if isPair(item) {
			// "- key: value" opens a mapping at icol
			n, ok := p.itemMapping(l, item, icol)
			if !ok {
				return nil, false
			}
			seq.Content = append(seq.Content, n)
			continue
		}
		v, ok := inlineValue(l, item, icol)
		if !ok {
			return nil, false
		}
		p.pos++
		seq.Content = append(seq.Content, v)
	}
	return seq, true
}

// itemMapping parses the mapping that starts after "- " on line l.
func (p *fastParser) itemMapping(l fastLine, item string, col int) (*yaml.Node, bool) {
	m := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Line: l.no, Column: runeCol(l.raw, col)}
	k, v, ok := p.pair(l, item, col)
	if !ok {
		return nil, false
	}
	m.Content = append(m.Content, k, v)
	for p.pos < len(p.lines) {
		n := p.lines[p.pos]
		if n.indent < col || (n.indent == col && isDash(n.text)) {
			break
		}
		if n.indent > col {
			return nil, false
		}
		k, v, ok := p.pair(n, n.text, col)
		if !ok {
			return nil, false
		}
		m.Content = append(m.Content, k, v)
	}
	return m, true
}

func isDash(t string) bool { return t == "-" || strings.HasPrefix(t, "- ") }

// isPair reports whether an item's text is "key: …" or "key:".
func isPair(t string) bool {
	i := strings.Index(t, ":")
	return i > 0 && plainKey(t[:i]) && (i+1 == len(t) || t[i+1] == ' ')
}

func plainKey(k string) bool {
	if len(k) > 1000 {
		return false // YAML allows implicit keys of at most 1024 characters
	}
	for i := 0; i < len(k); i++ {
		c := k[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || (i > 0 && (c == '-' || c == '.'))) {
			return false
		}
	}
	return k != ""
}

// inlineValue parses a one-line value: a plain or quoted scalar, or a flow
// sequence of them, followed only by an optional comment.
func inlineValue(l fastLine, t string, col int) (*yaml.Node, bool) {
	if t[0] == '[' {
		return flowSeq(l, t, col)
	}
	n, rest, ok := scalar(l, t, col, false)
	if !ok || !onlyComment(rest) {
		return nil, false
	}
	return n, true
}

func onlyComment(rest string) bool {
	r := strings.TrimLeft(rest, " ")
	return r == "" || (r[0] == '#' && len(r) < len(rest))
}

// flowSeq parses "[a, 'b', "c"]" on one line.
func flowSeq(l fastLine, t string, col int) (*yaml.Node, bool) {
	seq := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Style: yaml.FlowStyle, Line: l.no, Column: runeCol(l.raw, col)}
	i := 1
	for {
		for i < len(t) && t[i] == ' ' {
			i++
		}
		if i >= len(t) {
			return nil, false
		}
		if t[i] == ']' {
			if len(seq.Content) > 0 && t[i-1] == ',' {
				return nil, false
			}
			break
		}
		n, rest, ok := scalar(l, t[i:], col+i, true)
		if !ok {
			return nil, false
		}
		seq.Content = append(seq.Content, n)
		i = len(t) - len(rest)
		for i < len(t) && t[i] == ' ' {
			i++
		}
		if i < len(t) && t[i] == ',' {
			i++
			continue
		}
		if i < len(t) && t[i] == ']' {
			break
		}
		return nil, false
	}
	if !onlyComment(t[i+1:]) {
		return nil, false
	}
	return seq, true
}

// scalar parses a plain, single- or double-quoted scalar at the start of t
// and returns the rest of the line.
func scalar(l fastLine, t string, col int, flow bool) (*yaml.Node, string, bool) {
	n := &yaml.Node{Kind: yaml.ScalarNode, Line: l.no, Column: runeCol(l.raw, col)}
	var rest string
	var ok bool
	switch t[0] {
	case '\'':
		n.Value, rest, ok = singleQuoted(t)
		n.Style, n.Tag = yaml.SingleQuotedStyle, "!!str"
	case '"':
		n.Value, rest, ok = doubleQuoted(t)
		n.Style, n.Tag = yaml.DoubleQuotedStyle, "!!str"
	default:
		n.Value, rest, ok = plain(t, flow)
		n.Tag = n.ShortTag()
	}
	if !ok {
		return nil, "", false
	}
	return n, rest, true
}

// singleQuoted reads a single-quoted scalar (a doubled quote stands for
// one).
func singleQuoted(t string) (string, string, bool) {
	if i := strings.IndexByte(t[1:], '\''); i >= 0 && (i+2 == len(t) || t[i+2] != '\'') {
		return t[1 : i+1], t[i+2:], true // no doubled quote: the text itself, not a copy
	}
	var b strings.Builder
	for i := 1; i < len(t); i++ {
		if t[i] == '\'' {
			if i+1 < len(t) && t[i+1] == '\'' {
				b.WriteByte('\'')
				i++
				continue
			}
			return b.String(), t[i+1:], true
		}
		b.WriteByte(t[i])
	}
	return "", "", false
}

// doubleQuoted reads a double-quoted scalar with the escapes \\, \",
// \n, \t and \uXXXX; any other escape is left to yaml.v3.
func doubleQuoted(t string) (string, string, bool) {
	if i := strings.IndexAny(t[1:], `"\\`); i >= 0 && t[i+1] == '"' {
		return t[1 : i+1], t[i+2:], true // no escape: the text itself, not a copy
	}
	var b strings.Builder
	for i := 1; i < len(t); i++ {
		switch t[i] {
		case '"':
			return b.String(), t[i+1:], true
		case '\\':
			if i+1 >= len(t) {
				return "", "", false
			}
			i++
			switch t[i] {
			case '\\', '"':
				b.WriteByte(t[i])
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			case 'u':
				if i+4 >= len(t) {
					return "", "", false
				}
				r, err := strconv.ParseUint(t[i+1:i+5], 16, 32)
				if err != nil || (r >= 0xd800 && r <= 0xdfff) {
					return "", "", false
				}
				b.WriteRune(rune(r))
				i += 4
			default:
				return "", "", false
			}
		default:
			b.WriteByte(t[i])
		}
	}
	return "", "", false
}

// plain reads a plain scalar, up to a comment (or, in flow context, a
// flow indicator); one that starts with an indicator or holds ": " is left
// to yaml.v3.
func plain(t string, flow bool) (string, string, bool) {
	if strings.ContainsRune("-?:,[]{}#&*!|>'\"%@`", rune(t[0])) {
		return "", "", false
	}
	end := len(t)
	for i := 0; i < len(t); i++ {
		c := t[i]
		if c == '#' && t[i-1] == ' ' {
			end = i
			break
		}
		if c == ':' && (i+1 == len(t) || t[i+1] == ' ' || (flow && strings.IndexByte(",[]{}", t[i+1]) >= 0)) {
			return "", "", false
		}
		if flow && strings.IndexByte(",[]{}", c) >= 0 {
			end = i
			break
		}
	}
	v := strings.TrimRight(t[:end], " ")
	if v == "" || (flow && strings.IndexByte(v, '?') >= 0) {
		// libyaml rejects some plain scalars with '?' in flow context
		// ("[0?]"): leave those to yaml.v3
		return "", "", false
	}
	return v, t[len(v):], true
}

// runeCol converts a 0-based byte column on a raw line to yaml.v3's 1-based
// rune column.
func runeCol(raw string, col int) int {
	if col > len(raw) {
		return col + 1
	}
	return utf8.RuneCountInString(raw[:col]) + 1
}
