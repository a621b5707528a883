package hookinstall

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"

	"go.yaml.in/yaml/v3"
)

// The hook managers' configuration files belong to the user and are
// usually committed, so they are edited by splicing lines, never by
// re-encoding: comments, quoting, key order and blank lines stay as they
// are, and what install inserts is a block of whole lines that uninstall
// finds again and removes, giving back the file byte for byte. YAML is
// parsed (read-only) only to find where things are.

// errUnsupported marks a configuration laid out in a way the editor does
// not change (flow style, aliases, several documents, tabs): the caller
// prints the lines to add by hand instead.
var errUnsupported = errors.New("laid out in a way git-memcite does not edit")

// text is a file split into lines, each with its line terminator (the
// last may have none).
type text struct {
	lines []string
	eol   string // "\n", or "\r\n" when the file uses it
}

func splitText(b []byte) text {
	t := text{eol: "\n"}
	if bytes.Contains(b, []byte("\r\n")) {
		t.eol = "\r\n"
	}
	if len(b) > 0 {
		t.lines = strings.SplitAfter(string(b), "\n")
		if t.lines[len(t.lines)-1] == "" {
			t.lines = t.lines[:len(t.lines)-1]
		}
	}
	return t
}

func (t text) bytes() []byte { return []byte(strings.Join(t.lines, "")) }

// endsOpen reports whether the last line has no terminator.
func (t text) endsOpen() bool {
	return len(t.lines) > 0 && !strings.HasSuffix(t.lines[len(t.lines)-1], "\n")
}

// insert puts block (lines ending in "\n") before line i; at the end of a
// file whose last line has no terminator it adds one before the block and
// leaves the block's last line without one, so that remove can give the
// file back exactly.
func (t *text) insert(i int, block []string) {
	block = withEOL(block, t.eol)
	if i >= len(t.lines) && t.endsOpen() {
		last := len(block) - 1
		block[last] = strings.TrimRight(block[last], "\r\n")
		t.lines[len(t.lines)-1] += t.eol
	}
	t.lines = append(t.lines[:i], append(block, t.lines[i:]...)...)
}

// remove deletes lines [i, j), undoing insert.
func (t *text) remove(i, j int) {
	open := j >= len(t.lines) && t.endsOpen()
	t.lines = append(t.lines[:i], t.lines[j:]...)
	if open && i > 0 && i == len(t.lines) {
		t.lines[i-1] = strings.TrimRight(t.lines[i-1], "\r\n")
	}
}

// find returns the index of the first run of lines equal to block (line
// terminators aside) at or after line from, or -1.
func (t text) find(block []string, from int) int {
	for i := from; i+len(block) <= len(t.lines); i++ {
		ok := true
		for k, l := range block {
			if trimEOL(t.lines[i+k]) != trimEOL(l) {
				ok = false
				break
			}
		}
		if ok {
			return i
		}
	}
	return -1
}

func withEOL(block []string, eol string) []string {
	out := make([]string, len(block))
	for i, l := range block {
		out[i] = trimEOL(l) + eol
	}
	return out
}

func trimEOL(s string) string { return strings.TrimRight(s, "\r\n") }

// indent is the number of leading spaces of a line.
func indent(line string) int { return len(line) - len(strings.TrimLeft(line, " ")) }

// blankOrComment reports whether a line holds no YAML content.
func blankOrComment(line string) bool {
	s := strings.TrimSpace(line)
	return s == "" || strings.HasPrefix(s, "#")
}

// blockEnd returns the index of the line after the last line of the block
// that starts at line start with the given indentation: the lines below it
// that are indented deeper (and, for a key whose value is a sequence
// written at the key's own indentation, the "- " lines at that
// indentation). Blank lines and comments belong to the block only when
// content of the block follows them.
func (t text) blockEnd(start, col int, seqAtCol bool) int {
	last := start
	for i := start + 1; i < len(t.lines); i++ {
		l := trimEOL(t.lines[i])
		if blankOrComment(l) {
			continue
		}
		in := indent(l)
		switch {
		case in > col:
			last = i
		case in == col && seqAtCol && (strings.HasPrefix(l[in:], "- ") || l[in:] == "-"):
			last = i
		default:
			return last + 1
		}
	}
	return last + 1
}

// parseYAML parses a single YAML document whose top level is a block
// mapping (or empty) and returns that mapping (nil when the file is
// empty or holds only comments).
func parseYAML(b []byte) (*yaml.Node, error) {
	if bytes.Contains(b, []byte("\t")) {
		// tabs are legal in places but make line-based edits guesswork
		for _, l := range strings.Split(string(b), "\n") {
			if strings.HasPrefix(strings.TrimLeft(l, " "), "\t") {
				return nil, fmt.Errorf("tab indentation: %w", errUnsupported)
			}
		}
	}
	if bytes.Count(b, []byte("\r")) != bytes.Count(b, []byte("\r\n")) {
		// YAML breaks lines at a lone CR too; lines here end in LF
		return nil, fmt.Errorf("carriage return without line feed: %w", errUnsupported)
	}
	dec := yaml.NewDecoder(bytes.NewReader(b))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, nil
		}
		return nil, fmt.Errorf("not valid YAML: %w", err)
	}
	var more yaml.Node
	if err := dec.Decode(&more); err == nil {
		return nil, fmt.Errorf("several YAML documents: %w", errUnsupported)
	}
	if len(doc.Content) == 0 {
		return nil, nil
	}
	root := doc.Content[0]
	switch {
	case root.Kind == yaml.ScalarNode && root.Tag == "!!null":
		return nil, nil
	case root.Kind != yaml.MappingNode:
		return nil, fmt.Errorf("the top level is not a mapping: %w", errUnsupported)
	case root.Style&yaml.FlowStyle != 0:
		return nil, fmt.Errorf("flow style: %w", errUnsupported)
	}
	return root, nil
}

// lookup returns the key and value nodes of key in a mapping node.
func lookup(m *yaml.Node, key string) (k, v *yaml.Node) {
	if m == nil || m.Kind != yaml.MappingNode {
		return nil, nil
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i], m.Content[i+1]
		}
	}
	return nil, nil
}

// scalar returns the value of key in a mapping when it is a scalar.
func scalar(m *yaml.Node, key string) (string, bool) {
	_, v := lookup(m, key)
	if v == nil || v.Kind != yaml.ScalarNode {
		return "", false
	}
	return v.Value, true
}

// keys lists the keys of a mapping node.
func keys(m *yaml.Node) []string {
	var out []string
	if m != nil && m.Kind == yaml.MappingNode {
		for i := 0; i+1 < len(m.Content); i += 2 {
			out = append(out, m.Content[i].Value)
		}
	}
	return out
}

// block reports whether n is a non-empty block collection (mapping or
// sequence) that line edits can extend.
func block(n *yaml.Node, kind yaml.Kind) bool {
	return n != nil && n.Kind == kind && n.Style&yaml.FlowStyle == 0 && len(n.Content) > 0 && n.Anchor == "" && n.Alias == nil
}

// itemStart returns the line index and the column of the "- " that starts
// the sequence item n (a node inside a block sequence).
func (t text) itemStart(n *yaml.Node) (line, col int, ok bool) {
	line = n.Line - 1
	for ; line >= 0 && line < len(t.lines); line-- {
		l := trimEOL(t.lines[line])
		in := indent(l)
		if in < len(l) && l[in] == '-' {
			return line, in, true
		}
		if line < n.Line-1 && !blankOrComment(l) {
			break
		}
	}
	return 0, 0, false
}

// unitIndent is the indentation step the file uses: the smallest
// indentation of a content line, else 2.
func (t text) unitIndent() int {
	unit := 0
	for _, l := range t.lines {
		if blankOrComment(l) {
			continue
		}
		if in := indent(trimEOL(l)); in > 0 && (unit == 0 || in < unit) {
			unit = in
		}
	}
	if unit == 0 {
		return 2
	}
	return unit
}

func pad(n int) string { return strings.Repeat(" ", n) }

// sameMeaning checks an edit of a configuration file: out, with our
// additions taken out by strip, must decode to the same values as src,
// so that inserting lines never changed what the lines around them mean.
func sameMeaning(src, out []byte, strip func(map[string]any)) error {
	var a, b map[string]any
	if err := yaml.Unmarshal(src, &a); err != nil {
		return fmt.Errorf("not valid YAML: %w", err)
	}
	if err := yaml.Unmarshal(out, &b); err != nil {
		return fmt.Errorf("the edit would not be valid YAML (%v): %w", err, errUnsupported)
	}
	if b == nil {
		b = map[string]any{}
	}
	strip(b)
	if a == nil {
		a = map[string]any{}
	}
	if !reflect.DeepEqual(a, b) {
		return fmt.Errorf("the edit would change other settings: %w", errUnsupported)
	}
	return nil
}
