package memfile

import (
	"bytes"
	"errors"
	"unicode/utf8"
)

// ParseLossy parses a memory file whose body has lines that are not valid
// UTF-8, for a reader that can do without them (adopt): every byte of such
// a line that is not UTF-8 reads as '?', so that offsets and line numbers
// stay those of src. It returns the file (its Src is the repaired copy,
// not src) and the lines repaired. A file with no such line is parsed as
// Parse does; one whose frontmatter has such a line gets Parse's error.
func ParseLossy(name string, src []byte) (*File, []int, error) {
	if utf8.Valid(src) {
		f, err := Parse(name, src)
		return f, nil, err
	}
	fixed := make([]byte, 0, len(src))
	var lines []int
	line := 1
	for i := 0; i < len(src); {
		r, size := utf8.DecodeRune(src[i:])
		if r == utf8.RuneError && size <= 1 {
			if len(lines) == 0 || lines[len(lines)-1] != line {
				lines = append(lines, line)
			}
			fixed = append(fixed, '?')
			i++
			continue
		}
		if r == '\n' {
			line++
		}
		fixed = append(fixed, src[i:i+size]...)
		i += size
	}
	f, err := Parse(name, fixed)
	if err != nil {
		return nil, nil, err
	}
	if lines[0] < f.BodyLine() {
		_, err := Parse(name, src) // the frontmatter's own error
		return nil, nil, err
	}
	return f, lines, nil
}

// RestoreBody returns data, an edit of a file ParseLossy repaired, with
// the body of the original src in place of the repaired one. The edit
// must have left the body alone.
func RestoreBody(data []byte, lossy *File, src []byte) ([]byte, error) {
	body := lossy.Body()
	if !bytes.HasSuffix(data, body) || len(src) < len(body) {
		return nil, errors.New(lossy.Name + ": the edit would change the markdown body (not written)")
	}
	out := append([]byte(nil), data[:len(data)-len(body)]...)
	return append(out, src[len(src)-len(body):]...), nil
}
