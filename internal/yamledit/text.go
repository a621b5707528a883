package yamledit

import (
	"bytes"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Text is a file split into lines, each with its line terminator (the
// last may have none), for edits that insert and remove whole lines.
type Text struct {
	Lines []string
	EOL   string // "\n", or "\r\n" when the file uses it
}

// SplitText splits b into lines.
func SplitText(b []byte) Text {
	t := Text{EOL: "\n"}
	if bytes.Contains(b, []byte("\r\n")) {
		t.EOL = "\r\n"
	}
	if len(b) > 0 {
		t.Lines = strings.SplitAfter(string(b), "\n")
		if t.Lines[len(t.Lines)-1] == "" {
			t.Lines = t.Lines[:len(t.Lines)-1]
		}
	}
	return t
}

// Bytes joins the lines back.
func (t Text) Bytes() []byte { return []byte(strings.Join(t.Lines, "")) }

// endsOpen reports whether the last line has no terminator.
func (t Text) endsOpen() bool {
	return len(t.Lines) > 0 && !strings.HasSuffix(t.Lines[len(t.Lines)-1], "\n")
}

// Insert puts block (lines ending in "\n") before line i; at the end of a
// file whose last line has no terminator it adds one before the block and
// leaves the block's last line without one, so that Remove can give the
// file back exactly.
func (t *Text) Insert(i int, block []string) {
	block = withEOL(block, t.EOL)
	if i >= len(t.Lines) && t.endsOpen() {
		last := len(block) - 1
		block[last] = strings.TrimRight(block[last], "\r\n")
		t.Lines[len(t.Lines)-1] += t.EOL
	}
	t.Lines = append(t.Lines[:i], append(block, t.Lines[i:]...)...)
}

// Remove deletes lines [i, j), undoing Insert.
func (t *Text) Remove(i, j int) {
	open := j >= len(t.Lines) && t.endsOpen()
	t.Lines = append(t.Lines[:i], t.Lines[j:]...)
	if open && i > 0 && i == len(t.Lines) {
		t.Lines[i-1] = strings.TrimRight(t.Lines[i-1], "\r\n")
	}
}

// Find returns the index of the first run of lines equal to block (line
// terminators aside) at or after line from, or -1.
func (t Text) Find(block []string, from int) int {
	for i := from; i+len(block) <= len(t.Lines); i++ {
		ok := true
		for k, l := range block {
			if TrimEOL(t.Lines[i+k]) != TrimEOL(l) {
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
		out[i] = TrimEOL(l) + eol
	}
	return out
}

// TrimEOL drops a line's terminator.
func TrimEOL(s string) string { return strings.TrimRight(s, "\r\n") }

// line is line i without its terminator.
func (t Text) line(i int) string { return TrimEOL(t.Lines[i]) }

// BlockEnd is the package's BlockEnd on t's lines.
func (t Text) BlockEnd(start, col int, seqAtCol bool) int {
	return BlockEnd(len(t.Lines), t.line, start, col, seqAtCol)
}

// RemovalEnd is the package's RemovalEnd on t's lines.
func (t Text) RemovalEnd(start, col int, seqAtCol bool) int {
	return RemovalEnd(len(t.Lines), t.line, start, col, seqAtCol)
}

// InsertionEnd is the package's InsertionEnd on t's lines.
func (t Text) InsertionEnd(start, col int, seqAtCol bool) int {
	return InsertionEnd(len(t.Lines), t.line, start, col, seqAtCol)
}

// ItemStart returns the line index and the column of the "- " that starts
// the sequence item n (a node inside a block sequence).
func (t Text) ItemStart(n *yaml.Node) (line, col int, ok bool) {
	line = n.Line - 1
	for ; line >= 0 && line < len(t.Lines); line-- {
		l := t.line(line)
		in := Indent(l)
		if in < len(l) && l[in] == '-' {
			return line, in, true
		}
		if line < n.Line-1 && !BlankOrComment(l) {
			break
		}
	}
	return 0, 0, false
}

// UnitIndent is the indentation step the file uses: the smallest
// indentation of a content line, else 2.
func (t Text) UnitIndent() int {
	unit := 0
	for _, l := range t.Lines {
		if BlankOrComment(l) {
			continue
		}
		if in := Indent(TrimEOL(l)); in > 0 && (unit == 0 || in < unit) {
			unit = in
		}
	}
	if unit == 0 {
		return 2
	}
	return unit
}

// Pad is n spaces.
func Pad(n int) string { return strings.Repeat(" ", n) }
