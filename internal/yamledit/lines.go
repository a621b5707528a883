package yamledit

import (
	"bytes"
	"regexp"
	"strings"
	"sync"
)

// Indent is the indentation of a line: its leading spaces (a tab is not
// YAML indentation).
func Indent(line string) int { return len(line) - len(strings.TrimLeft(line, " ")) }

// BlankOrComment reports whether a line holds no YAML content (outside a
// block scalar).
func BlankOrComment(line string) bool {
	s := strings.TrimLeft(line, " \t\r\n")
	return s == "" || s[0] == '#'
}

// TabLed reports whether a line's leading spaces are followed by a tab:
// such a line cannot start a node (YAML does not indent with tabs); in a
// valid file it continues a quoted scalar of the line above.
func TabLed(line string) bool {
	in := Indent(line)
	return in < len(line) && line[in] == '\t' && !BlankOrComment(line)
}

// blockScalarRe matches the content of a line (comment removed, trimmed)
// whose value is a block scalar header: "key: |", "- >-", "|2+" … A key
// may hold a '#' that does not start a comment ("0#: |"); a comment may
// follow the indicators with no space between ("|+#c"), as YAML parsers
// read it. The submatch is the header's indicators.
var blockScalarRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(?:[-?]\s+)*(?:[^#\s].*?:\s+)?(?:![^\s]*\s+)?(?:&[^\s]+\s+)?[|>]([1-9][-+]?|[-+][1-9]?)?(?:#.*)?$`)
})

// OpensBlockScalar reports whether the value on a line is a block scalar
// (| or >) whose content follows on the lines below.
func OpensBlockScalar(line string) bool {
	_, _, ok := blockHeaderAlone(line)
	return ok
}

// blockHeaderAlone reports whether the value on a line is a block scalar,
// whether its header has the keep chomping indicator ("|+", ">2+"), and
// whether the header is alone on its line (no key or "- " before it).
func blockHeaderAlone(line string) (keep, alone, ok bool) {
	if strings.IndexByte(line, '#') >= 0 {
		if c := CommentStart(line); c >= 0 {
			line = line[:c]
		}
	}
	s := strings.TrimSpace(line)
	if s == "" {
		return false, false, false
	}
	if c := s[len(s)-1]; c != '|' && c != '>' && c != '-' && c != '+' && (c < '1' || c > '9') && !strings.Contains(s, "#") {
		return false, false, false // the common case, without the expression
	}
	m := blockScalarRe().FindStringSubmatch(s)
	if m == nil {
		return false, false, false
	}
	return strings.Contains(m[1], "+"), strings.IndexByte("|>!&", s[0]) >= 0, true
}

// BlockEnd returns the index of the line after the block that starts at
// line start (of n lines; line returns one without its terminator) with
// indentation col: start, and the lines below it indented deeper than col
// (with seqAtCol, for a key whose value is a sequence written at the key's
// own indentation, also the "- " lines at col). Comment and blank lines
// belong to the block only when content of the block follows them; the
// lines of a block scalar are content whatever they start with; a
// tab-led line (TabLed) continues the block.
func BlockEnd(n int, line func(int) string, start, col int, seqAtCol bool) int {
	end, _ := blockEnd(n, line, start, col, seqAtCol)
	return end
}

// InsertionEnd is where lines added after the block that starts at line
// start go: BlockEnd, or, when the block ends with a block scalar that
// keeps its trailing line breaks ("key: |+"), after the blank lines that
// follow it, which are that scalar's content.
func InsertionEnd(n int, line func(int) string, start, col int, seqAtCol bool) int {
	end, keep := blockEnd(n, line, start, col, seqAtCol)
	if keep {
		end = blanksFrom(n, line, end)
	}
	return end
}

// RemovalEnd is where removing the block that starts at line start ends:
// BlockEnd, and the blank lines after it; and when a block scalar is open
// on the line before start, the comment lines among them indented past
// its content's indentation. Left in place, those lines would join that
// scalar (blank lines one that keeps its trailing line breaks, "key: |+";
// such comments any: "0: |\n1:\n #" without "1:" gives 0 the value
// "#"), changing its value; if the block itself ends with such a scalar,
// they are its content. Other comments stay (one indented under the
// removed key may be about the next).
func RemovalEnd(n int, line func(int) string, start, col int, seqAtCol bool) int {
	i := BlockEnd(n, line, start, col, seqAtCol)
	scalar, open := openScalarAt(line, start)
	for i < n {
		l := line(i)
		if strings.TrimLeft(l, " \t") != "" && !(open && BlankOrComment(l) && Indent(l) > scalar) {
			break
		}
		i++
	}
	return i
}

// openScalarAt reports whether a block scalar is open at the end of the
// lines before start, and the indentation past which lines are its
// content.
func openScalarAt(line func(int) string, start int) (int, bool) {
	inScalar, scalar, owner := false, 0, 0
	for i := 0; i < start; i++ {
		l := line(i)
		if strings.TrimLeft(l, " \t") == "" {
			continue
		}
		in := Indent(l)
		if inScalar && in > scalar {
			continue
		}
		inScalar = false
		if BlankOrComment(l) {
			continue
		}
		if _, alone, ok := blockHeaderAlone(l); ok {
			inScalar, scalar = true, contentFloor(in, owner, alone)
		}
		owner = in
	}
	return scalar, inScalar
}

// contentFloor is the indentation past which the lines after a block
// scalar's header (on a line of indentation in, below a line of structure
// of indentation owner) are its content: the header's line's, or, for a
// header alone on the line below its key, the key's line's (the content
// may sit left of the header; with the key out of sight, owner is in).
func contentFloor(in, owner int, alone bool) int {
	if alone {
		return min(in-1, owner)
	}
	return in
}

// blanksFrom is the index of the first line at or after i that is not
// blank.
func blanksFrom(n int, line func(int) string, i int) int {
	for i < n && strings.TrimLeft(line(i), " \t") == "" {
		i++
	}
	return i
}

// blockEnd is BlockEnd, and whether the block's last line is the content
// (or header) of a block scalar with keep chomping ("|+", ">2+").
func blockEnd(n int, line func(int) string, start, col int, seqAtCol bool) (int, bool) {
	last := start
	inScalar := false // a block scalar is open
	scalar := 0       // the indentation above which lines are its content
	keep := false     // the open block scalar keeps its line breaks
	owner := 0        // the indentation of the last line of structure (a key, an item)
	if start < n {
		owner = Indent(line(start))
		if k, alone, ok := blockHeaderAlone(line(start)); ok {
			inScalar, scalar, keep = true, contentFloor(owner, owner, alone), k
		}
	}
	lastKeeps := keep // line last is in (or opens) a scalar that keeps its line breaks
	for i := start + 1; i < n; i++ {
		l := line(i)
		in := Indent(l)
		if inScalar {
			if strings.TrimLeft(l, " \t") == "" {
				if len(l) > scalar {
					// spaces past the scalar's indentation may be its
					// content ("00\n  \n" for ">\n 00\n   "): the block
					// takes them (an empty line it takes changes no value)
					last, lastKeeps = i, keep
				}
				continue // else blank: content only if more content follows
			}
			if in > scalar {
				last, lastKeeps = i, keep
				continue
			}
			inScalar = false
		}
		if BlankOrComment(l) {
			continue
		}
		switch {
		case in > col, TabLed(l):
			last = i
		case in == col && seqAtCol && (strings.HasPrefix(l[in:], "- ") || l[in:] == "-"):
			last = i
		default:
			return last + 1, lastKeeps
		}
		lastKeeps = false
		if k, alone, ok := blockHeaderAlone(l); ok {
			inScalar, scalar, keep, lastKeeps = true, contentFloor(in, owner, alone), k, k
		}
		owner = in
	}
	return last + 1, lastKeeps
}

// CommentStart returns the index of the '#' that starts a comment on a
// line, or -1: a '#' at the start of the line or after a space or tab,
// outside a quoted scalar. A quoted scalar that does not close on the
// line runs on to the next: nothing after its quote is a comment.
func CommentStart(line string) int {
	start := true // a scalar may start here
	for i := 0; i < len(line); i++ {
		c := line[i]
		if c == '#' && (i == 0 || line[i-1] == ' ' || line[i-1] == '\t') {
			return i
		}
		if start && (c == '!' || c == '&') {
			// a tag or an anchor: the scalar, if any, starts after it
			for i+1 < len(line) && line[i+1] != ' ' && line[i+1] != '\t' {
				i++
			}
			continue
		}
		if start && (c == '"' || c == '\'') {
			j := quoteEnd(line, i)
			if j < 0 {
				return -1
			}
			i, start = j, false
			continue
		}
		next := i+1 == len(line) || line[i+1] == ' ' || line[i+1] == '\t'
		switch c {
		case ' ', '\t':
		case '[', '{', ',':
			start = true
		case '-', '?':
			start = start && next
		case ':':
			start = next
		default:
			start = false
		}
	}
	return -1
}

// quoteEnd returns the index of the quote that closes the quoted scalar
// opening at s[i], or -1.
func quoteEnd(s string, i int) int {
	q := s[i]
	for j := i + 1; j < len(s); j++ {
		switch {
		case q == '"' && s[j] == '\\':
			j++
		case s[j] == q && q == '\'' && j+1 < len(s) && s[j+1] == '\'':
			j++
		case s[j] == q:
			return j
		}
	}
	return -1
}

// CommentAt reports whether src[i] is a '#' that starts a comment, given
// that src[i] is outside any quoted scalar: at the start of a line or
// after a space or tab.
func CommentAt(src []byte, i int) bool {
	return src[i] == '#' && (i == 0 || bytes.IndexByte([]byte(" \t\r\n"), src[i-1]) >= 0)
}
