package memfile

import (
	"bytes"
	"errors"
	"unicode/utf8"
)

// ParseLossy parses a memory file whose body has lines that are not valid
// UTF-8, for a reader that can do without them (adopt): such a line reads
// as blank (a space for each of its bytes), so that offsets and line
// numbers stay those of src. It returns the file (its Src is the repaired copy,
// not src) and the lines repaired. A file with no such line is parsed as
// Parse does; one whose frontmatter has such a line gets Parse's error.
func ParseLossy(name string, src []byte) (*File, []int, error) {
	if utf8.Valid(src) {
		f, err := Parse(name, src)
		return f, nil, err
	}
	fixed := append([]byte(nil), src...)
	var lines []int
	line := 1
	for start := 0; start < len(src); line++ {
		end := bytes.IndexByte(src[start:], '\n')
		if end < 0 {
			end = len(src)
		} else {
			end += start
		}
		if l := src[start:end]; !utf8.Valid(l) {
			lines = append(lines, line)
			for i := start; i < end; i++ {
				if src[i] != '\r' {
					fixed[i] = ' '
				}
			}
		}
		start = end + 1
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
