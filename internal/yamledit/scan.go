package yamledit

import (
	"errors"
	"fmt"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Why ScalarEnd or FlowEnd cannot give a span.
var (
	ErrBlockScalar      = errors.New("block scalar cannot be replaced in place")
	ErrMultiLinePlain   = errors.New("multi-line plain scalar cannot be replaced in place")
	ErrUnterminated     = errors.New("unterminated quoted scalar")
	ErrUnterminatedFlow = errors.New("unterminated flow collection")
)

// LineEnd returns the end of the line starting at pos (before its line
// break) and the start of the next line. Line breaks are LF, CRLF or CR.
func LineEnd(src []byte, pos int) (end, next int) {
	for i := pos; i < len(src); i++ {
		switch src[i] {
		case '\n':
			return i, i + 1
		case '\r':
			if i+1 < len(src) && src[i+1] == '\n' {
				return i, i + 2
			}
			return i, i + 1
		}
	}
	return len(src), len(src)
}

// ScalarEnd returns the end offset in src of the scalar n that starts at
// start; flow tells whether it sits inside a flow collection (where ',',
// ']' and '}' end a plain scalar).
func ScalarEnd(src []byte, start int, n *yaml.Node, flow bool) (int, error) {
	if start >= len(src) {
		return start, nil
	}
	switch src[start] {
	case '"':
		for i := start + 1; i < len(src); i++ {
			switch src[i] {
			case '\\':
				i++
			case '"':
				return i + 1, nil
			}
		}
	case '\'':
		for i := start + 1; i < len(src); i++ {
			if src[i] == '\'' {
				if i+1 < len(src) && src[i+1] == '\'' {
					i++
					continue
				}
				return i + 1, nil
			}
		}
	default:
		if n.Style&(yaml.LiteralStyle|yaml.FoldedStyle) != 0 {
			return 0, ErrBlockScalar
		}
		end, _ := LineEnd(src, start)
		i := start
		for ; i < end; i++ {
			ch := src[i]
			if i > start && CommentAt(src, i) {
				break
			}
			if flow && (ch == ',' || ch == ']' || ch == '}') {
				break
			}
			if ch == ':' && !flow && (i+1 == end || src[i+1] == ' ' || src[i+1] == '\t') && n.Value != strings.TrimSpace(string(src[start:end])) {
				break
			}
		}
		raw := strings.TrimRight(string(src[start:i]), " \t")
		// A plain scalar has no escapes: text that differs from the value
		// continues on later lines ("0\n  0" folds to "0 0").
		if raw != n.Value {
			return 0, ErrMultiLinePlain
		}
		return start + len(raw), nil
	}
	return 0, ErrUnterminated
}

// FlowEnd returns the offset just after the bracket that closes the flow
// collection opening at start (src[start] is open).
func FlowEnd(src []byte, start int, open, closeb byte) (int, error) {
	if start >= len(src) || src[start] != open {
		return 0, fmt.Errorf("expected %q at byte %d", open, start)
	}
	depth := 0
	for i := start; i < len(src); i++ {
		switch src[i] {
		case '"':
			for i++; i < len(src) && src[i] != '"'; i++ {
				if src[i] == '\\' {
					i++
				}
			}
		case '\'':
			for i++; i < len(src); i++ {
				if src[i] == '\'' {
					if i+1 < len(src) && src[i+1] == '\'' {
						i++
						continue
					}
					break
				}
			}
		case '[', '{':
			depth++
		case ']', '}':
			depth--
			if depth == 0 {
				return i + 1, nil
			}
		case '#':
			if CommentAt(src, i) {
				e, _ := LineEnd(src, i)
				i = e - 1
			}
		}
	}
	return 0, ErrUnterminatedFlow
}
