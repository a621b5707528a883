package graph

import (
	"bytes"
	"context"
	"io"
	"runtime"
	"strings"
	"sync"

	"github.com/git-memcite/git-memcite/internal/store"
)

// idScanBytes is how much of a file the id scan reads: frontmatter ids sit
// near the top. A file whose frontmatter does not close within it is parsed
// in full.
const idScanBytes = 4096

// indexIDs fills byID with the frontmatter id of every memory. Memories
// already read use their parsed id; the others are scanned for a plain
// top-level "id:" line without a YAML parse, and parsed in full only when
// the line is not plain (quoted, a block scalar, an alias …). This is what
// resolving a target that matches no file name costs.
func (g *Graph) indexIDs(ctx context.Context) error {
	if g.byID != nil {
		return nil
	}
	ids := make([]string, len(g.mems))
	work := make(chan int, 256)
	var wg sync.WaitGroup
	for w := 0; w < 2*runtime.GOMAXPROCS(0); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			buf := make([]byte, idScanBytes)
			for i := range work {
				ids[i] = g.scanID(i, buf)
			}
		}()
	}
	var err error
	for i := range g.mems {
		if err = ctx.Err(); err != nil {
			break
		}
		work <- i
	}
	close(work)
	wg.Wait()
	if err != nil {
		return err
	}
	g.byID = make(map[string][]int)
	for i, id := range ids {
		if id != "" {
			g.byID[id] = append(g.byID[id], i)
		}
	}
	return nil
}

// scanID returns the frontmatter id of memory i ("" for none). It runs in
// parallel with other scans and must not touch shared state except through
// a full parse into a private Memory.
func (g *Graph) scanID(i int, buf []byte) string {
	m := g.mems[i]
	if g.loaded[i] {
		return fileID(m)
	}
	id, ok := quickID(g, m.Path, buf)
	if ok {
		return id
	}
	private := &store.Memory{Path: m.Path, Dir: m.Dir}
	private.Load(g.src)
	return fileID(private)
}

func fileID(m *store.Memory) string {
	if m.File == nil {
		return ""
	}
	return m.File.ID
}

// quickID reads the start of a memory and finds a plain top-level id line
// in its frontmatter. ok is false when only a full parse can tell.
func quickID(g *Graph, p string, buf []byte) (id string, ok bool) {
	rc, err := g.src.Open(p)
	if err != nil {
		return "", true // unreadable: no id (the error shows when it is read)
	}
	n, err := io.ReadFull(rc, buf)
	rc.Close()
	if err != nil && err != io.ErrUnexpectedEOF && err != io.EOF {
		return "", true
	}
	data := bytes.TrimPrefix(buf[:n], []byte("\xef\xbb\xbf"))
	line := func() ([]byte, bool) { // the next line without its break
		if len(data) == 0 {
			return nil, false
		}
		i := bytes.IndexByte(data, '\n')
		var l []byte
		if i < 0 {
			l, data = data, nil
		} else {
			l, data = data[:i], data[i+1:]
		}
		return bytes.TrimRight(l, "\r"), true
	}
	l, ok := line()
	for ok && len(bytes.TrimSpace(l)) == 0 {
		l, ok = line()
	}
	if !ok || string(bytes.TrimRight(l, " \t")) != "---" {
		return "", n < len(buf) // no frontmatter (unless the file is longer than we read)
	}
	for l, ok = line(); ok; l, ok = line() {
		if t := bytes.TrimRight(l, " \t"); string(t) == "---" || string(t) == "..." {
			return id, true
		}
		if !bytes.HasPrefix(l, []byte("id:")) {
			continue
		}
		v := strings.TrimSpace(string(l[3:]))
		if v == "" || strings.ContainsAny(v[:1], "\"'&*!|>{[%@`#") || strings.Contains(v, " #") || id != "" ||
			strings.EqualFold(v, "null") || v == "~" {
			return "", false
		}
		id = v
	}
	return "", false // frontmatter did not close within the bytes read
}
