package verify

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"unicode/utf8"

	"github.com/git-memcite/git-memcite/internal/source"
)

// fileData is what verification needs of one cited file.
type fileData struct {
	kind        source.Kind
	statErr     error
	readErr     error
	binary      bool
	lfs         bool
	lines       []string // the first lines (without line breaks)
	complete    bool     // lines holds the whole file
	invalidUTF8 int      // first line (1-based) that is not UTF-8, 0 if none
}

const (
	sniffLen   = 8000 // git's binary heuristic looks at this many bytes
	lfsPrefix  = "version https://git-lfs.github.com/spec/v1"
	maxLineLen = 1 << 20
)

// readFile reads up to n lines of p (all lines when the file is shorter).
func readFile(src source.Source, p string, n int) *fileData {
	fd := &fileData{}
	c, err := source.Clean(p)
	if err != nil {
		fd.statErr = err
		return fd
	}
	e, err := src.Stat(c)
	if err != nil {
		fd.statErr = err
		return fd
	}
	fd.kind = e.Kind
	if e.Kind != source.KindFile || n == 0 {
		return fd
	}
	rc, err := src.Open(c)
	if err != nil {
		if errors.Is(err, source.ErrNotExist) || errors.Is(err, source.ErrOutside) {
			fd.statErr = err // vanished or changed since Stat
		} else {
			fd.readErr = err
		}
		return fd
	}
	defer rc.Close()
	br := bufio.NewReaderSize(rc, 64<<10)
	head, _ := br.Peek(sniffLen)
	if bytes.IndexByte(head, 0) >= 0 {
		fd.binary = true
		return fd
	}
	if bytes.HasPrefix(head, []byte(lfsPrefix)) && len(head) < 1024 {
		fd.lfs = true
		return fd
	}
	fd.lines, fd.complete, fd.readErr = readLines(br, n)
	for i, l := range fd.lines {
		if !utf8.ValidString(l) {
			fd.invalidUTF8 = i + 1
			break
		}
	}
	return fd
}

// readLines reads up to n lines, splitting at LF, CRLF or CR. complete
// reports that the reader was exhausted.
func readLines(br *bufio.Reader, n int) ([]string, bool, error) {
	lines := make([]string, 0, min(n, 4096))
	var cur []byte
	for len(lines) < n {
		chunk, err := br.ReadSlice('\n')
		cur = append(cur, chunk...)
		if errors.Is(err, bufio.ErrBufferFull) {
			if len(cur) > maxLineLen {
				// a huge line: keep its head, skip the rest
				for errors.Is(err, bufio.ErrBufferFull) {
					_, err = br.ReadSlice('\n')
				}
			} else {
				continue
			}
		}
		if len(cur) > 0 {
			lines = appendSplitCR(lines, cur)
			cur = cur[:0]
		}
		if err == io.EOF {
			return lines, true, nil
		}
		if err != nil && !errors.Is(err, bufio.ErrBufferFull) {
			return lines, false, err
		}
	}
	// exactly n lines read: complete if nothing follows
	_, err := br.Peek(1)
	return lines[:min(len(lines), n)], err == io.EOF, nil
}

// appendSplitCR appends the line in b (which ends with LF, or not at all at
// EOF), splitting it further at lone CRs.
func appendSplitCR(lines []string, b []byte) []string {
	b = bytes.TrimSuffix(b, []byte("\n"))
	b = bytes.TrimSuffix(b, []byte("\r"))
	for {
		i := bytes.IndexByte(b, '\r')
		if i < 0 {
			break
		}
		lines = append(lines, string(b[:i]))
		b = b[i+1:]
	}
	return append(lines, string(b))
}
