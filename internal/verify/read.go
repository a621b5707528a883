package verify

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"sync"
	"unicode/utf8"

	"github.com/git-memcite/git-memcite/internal/source"
	"github.com/git-memcite/git-memcite/internal/trace"
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
	invalidUTF8 []int    // the lines read (1-based, ascending) that are not UTF-8
	untracked   bool     // git does not track the file (working tree only)
}

const (
	sniffLen   = 8000 // git's binary heuristic looks at this many bytes
	lfsPrefix  = "version https://git-lfs.github.com/spec/v1"
	maxLineLen = 1 << 20
)

// readers recycles buffered readers: allocating and zeroing a fresh buffer
// per cited file dominated the run time on large stores.
var readers = sync.Pool{New: func() any { return bufio.NewReaderSize(nil, 16<<10) }}

// want is the set of lines needed of one file, as inclusive spans, and
// the citations checked against them.
type want struct {
	n     int // the last line needed; 0 for existence only
	spans [][2]int
	cites []*CitationResult // the results of the citations of the file
}

func (w *want) add(a, b int) {
	w.n = max(w.n, b)
	w.spans = append(w.spans, [2]int{a, b})
}

// keep reports whether line i (1-based) is needed.
func (w *want) keep(i int) bool {
	for _, s := range w.spans {
		if i >= s[0] && i <= s[1] {
			return true
		}
	}
	return false
}

// readFile reads the needed lines of p (and counts lines up to the last one
// needed, or to the end when the file is shorter).
func readFile(src source.Source, p string, w *want) *fileData {
	if w == nil {
		w = &want{}
	}
	n := w.n
	trace.Printf("read cited %s from the %s (lines needed: %d)", p, src.Name(), n)
	fd := &fileData{}
	c, err := source.Clean(p)
	if err != nil {
		fd.statErr = err
		return fd
	}
	if u, ok := src.(source.Untracker); ok {
		fd.untracked = u.Untracked(c)
	}
	if n == 0 {
		e, err := src.Stat(c)
		fd.kind, fd.statErr = e.Kind, err
		return fd
	}
	rc, err := src.Open(c)
	switch {
	case errors.Is(err, source.ErrIsDir):
		fd.kind = source.KindDir
		return fd
	case errors.Is(err, source.ErrNotRegular):
		fd.kind = source.KindOther
		return fd
	case errors.Is(err, source.ErrNotExist) || errors.Is(err, source.ErrOutside) || errors.Is(err, source.ErrSymlinkLoop):
		fd.statErr = err
		return fd
	case err != nil:
		fd.kind, fd.readErr = source.KindFile, err
		return fd
	}
	fd.kind = source.KindFile
	defer rc.Close()
	br := readers.Get().(*bufio.Reader)
	br.Reset(rc)
	defer func() { br.Reset(nil); readers.Put(br) }()
	head, _ := br.Peek(sniffLen)
	if bytes.IndexByte(head, 0) >= 0 {
		fd.binary = true
		return fd
	}
	if bytes.HasPrefix(head, []byte(lfsPrefix)) && len(head) < 1024 {
		fd.lfs = true
		return fd
	}
	fd.lines, fd.complete, fd.readErr = readLines(br, n, w.keep)
	for i, l := range fd.lines {
		if !utf8.ValidString(l) {
			fd.invalidUTF8 = append(fd.invalidUTF8, i+1)
		}
	}
	return fd
}

// readLines reads up to n lines, splitting at LF, CRLF or CR; only lines
// for which keep is true (or keep is nil) hold their text, the others are
// empty. complete reports that the reader was exhausted.
func readLines(br *bufio.Reader, n int, keep func(int) bool) ([]string, bool, error) {
	lines := make([]string, 0, min(n, 64))
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
			lines = appendSplitCR(lines, cur, keep)
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
func appendSplitCR(lines []string, b []byte, keep func(int) bool) []string {
	b = bytes.TrimSuffix(b, []byte("\n"))
	b = bytes.TrimSuffix(b, []byte("\r"))
	text := func(t []byte) string {
		if keep == nil || keep(len(lines)+1) {
			return string(t)
		}
		return ""
	}
	for {
		i := bytes.IndexByte(b, '\r')
		if i < 0 {
			break
		}
		lines = append(lines, text(b[:i]))
		b = b[i+1:]
	}
	return append(lines, text(b))
}
