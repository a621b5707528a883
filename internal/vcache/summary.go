package vcache

import (
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"sort"
	"time"
	"unsafe"

	"github.com/git-memcite/git-memcite/internal/regfile"
)

// A Summary is what the commit hook needs to know of every memory file of
// one tree without reading any of them: which paths each one cites and
// how many of its citations are stale in that tree. With the summary of
// HEAD's tree, a commit check reads only the memory files the commit
// touches, directly or through the paths they cite (docs/cache.md).
type Summary struct {
	Tree     string          // the tree it describes (hexadecimal object id)
	Dirs     []string        // the memory directories it was made for, as configured
	Cited    []string        // the cited paths (clean, repo-relative), referred to by index
	Memories []SummaryMemory // sorted by path
}

// SummaryMemory is one memory file of a Summary.
type SummaryMemory struct {
	Path string
	// Broken: the file cannot be read or parsed (it is read again every
	// time, to report it). Exempt: it asks not to be verified.
	Broken, Exempt bool
	// Volatile: a verdict of one of its citations may change while the
	// tree does not (a file in a submodule, an unreadable object): it is
	// verified every time.
	Volatile bool
	// Stale is how many of its citations are stale in the tree, -1 when
	// that is not known.
	Stale int
	Cites []int32 // indices into Summary.Cited
}

// SummaryVersion is the summary file format's version.
const SummaryVersion = 1

// SummaryKeep is how many summaries a git directory keeps (the newest
// written or used): HEAD's, and those of commits that were blocked or
// reset and may be committed again.
const SummaryKeep = 4

// summaryMagic starts a summary file: the magic, the format version, the
// tool identity, the tree, the memory directories, the cited paths, the
// memories (path, flags, stale count + 1, cited path indices), and a
// CRC-32C of everything before it. Strings are a uvarint length and
// bytes; counts are uvarints.
const summaryMagic = "MEMCITE-SUMMARY\n"

const (
	sumBroken = 1 << iota
	sumExempt
	sumVolatile
)

// summaryDir is where the summaries of a cache directory go, one file per
// tree.
func summaryDir(dir string) string { return filepath.Join(dir, "summaries") }

// ReadSummary reads the summary of tree kept in the cache directory dir
// (Dir of a git directory) for the tool identity tool. It returns nil
// when there is none, or one that another build wrote or that does not
// decode: a summary is an optimisation, and a miss costs only time.
func ReadSummary(dir, tool, tree string) *Summary {
	if tree == "" || !isHexName(tree) {
		return nil
	}
	var s *Summary
	readUsed(filepath.Join(summaryDir(dir), tree), func(data []byte) bool {
		got, gotTool, err := decodeSummary(data)
		if err != nil || gotTool != tool || got.Tree != tree {
			return false
		}
		s = got
		return true
	})
	return s
}

// readUsed reads the file p, never blocking on a FIFO planted there, and
// when accept takes its content marks it used (its modification time):
// kept over older ones (pruneOldest).
func readUsed(p string, accept func(data []byte) bool) {
	data, err := regfile.MapFile(p) // read-only: decoding never writes it
	if err != nil || !accept(data) {
		return
	}
	now := time.Now()
	os.Chtimes(p, now, now)
}

// ReadLatestSummary reads the most recently written or used summary kept
// in dir for which usable(tree) holds (the tree is in the object database:
// a check can compare the index with it), or returns nil.
func ReadLatestSummary(dir, tool string, usable func(tree string) bool) *Summary {
	for _, tree := range summariesByAge(summaryDir(dir)) {
		if !isHexName(tree) || !usable(tree) {
			continue
		}
		if s := ReadSummary(dir, tool, tree); s != nil {
			return s
		}
	}
	return nil
}

// WriteSummary writes s into the cache directory dir for the tool
// identity tool, through a temporary file in tmpDir renamed over any
// older summary of the same tree, and removes all but the SummaryKeep
// newest summaries.
func WriteSummary(dir, tmpDir, tool string, s *Summary) error {
	if !isHexName(s.Tree) {
		return fmt.Errorf("summary: tree %q is not an object id", s.Tree)
	}
	sd := summaryDir(dir)
	err := writeReplacing(filepath.Join(sd, s.Tree), tmpDir, "summary-*.tmp", func(w io.Writer) error {
		_, err := w.Write(encodeSummary(tool, s))
		return err
	})
	if err != nil {
		return fmt.Errorf("summary: %w", err)
	}
	pruneOldest(sd, SummaryKeep)
	return nil
}

// pruneOldest removes all but the keep most recently modified files of
// sd (summaries, runs).
func pruneOldest(sd string, keep int) {
	names := summariesByAge(sd)
	for _, name := range names[min(keep, len(names)):] {
		os.Remove(filepath.Join(sd, name))
	}
}

// summariesByAge lists the files of sd, the most recently modified first.
func summariesByAge(sd string) []string {
	ents, err := os.ReadDir(sd)
	if err != nil {
		return nil
	}
	type file struct {
		name string
		mod  time.Time
	}
	var files []file
	for _, e := range ents {
		if fi, err := e.Info(); err == nil && fi.Mode().IsRegular() {
			files = append(files, file{e.Name(), fi.ModTime()})
		}
	}
	sort.Slice(files, func(i, j int) bool { return files[i].mod.After(files[j].mod) })
	names := make([]string, len(files))
	for i, f := range files {
		names[i] = f.name
	}
	return names
}

func isHexName(s string) bool {
	if len(s) != 40 && len(s) != 64 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}

func encodeSummary(tool string, s *Summary) []byte {
	n := len(summaryMagic) + 64 + len(tool) + len(s.Tree)
	for _, c := range s.Cited {
		n += len(c) + 2
	}
	for _, m := range s.Memories {
		n += len(m.Path) + 6 + 3*len(m.Cites)
	}
	b := make([]byte, 0, n)
	b = append(b, summaryMagic...)
	b = binary.BigEndian.AppendUint32(b, SummaryVersion)
	b = appendString(b, tool)
	b = appendString(b, s.Tree)
	b = binary.AppendUvarint(b, uint64(len(s.Dirs)))
	for _, d := range s.Dirs {
		b = appendString(b, d)
	}
	b = binary.AppendUvarint(b, uint64(len(s.Cited)))
	for _, c := range s.Cited {
		b = appendString(b, c)
	}
	b = binary.AppendUvarint(b, uint64(len(s.Memories)))
	for _, m := range s.Memories {
		b = appendString(b, m.Path)
		var flags byte
		if m.Broken {
			flags |= sumBroken
		}
		if m.Exempt {
			flags |= sumExempt
		}
		if m.Volatile {
			flags |= sumVolatile
		}
		b = append(b, flags)
		b = binary.AppendUvarint(b, uint64(max(m.Stale, -1)+1))
		b = binary.AppendUvarint(b, uint64(len(m.Cites)))
		for _, c := range m.Cites {
			b = binary.AppendUvarint(b, uint64(c))
		}
	}
	return binary.BigEndian.AppendUint32(b, crc32.Checksum(b, castagnoli()))
}

// decodeSummary reads a summary file. Its strings share one copy of
// data.
func decodeSummary(data []byte) (*Summary, string, error) {
	if len(data) < len(summaryMagic)+4+4 || string(data[:len(summaryMagic)]) != summaryMagic {
		return nil, "", errCorrupt
	}
	if binary.BigEndian.Uint32(data[len(summaryMagic):]) != SummaryVersion {
		return nil, "", errVersion
	}
	body := data[:len(data)-4]
	if crc32.Checksum(body, castagnoli()) != binary.BigEndian.Uint32(data[len(data)-4:]) {
		return nil, "", errCorrupt
	}
	// every string below is a part of data, which nothing writes again
	all := unsafe.String(unsafe.SliceData(body), len(body))
	off := len(summaryMagic) + 4
	r := reader{b: body[off:]}
	str := func() string {
		b := r.bytes()
		if r.err != nil {
			return ""
		}
		start := len(body) - len(r.b) - len(b)
		return all[start : start+len(b)]
	}
	s := &Summary{}
	tool := str()
	s.Tree = str()
	s.Dirs = make([]string, r.count(1))
	for i := range s.Dirs {
		s.Dirs[i] = str()
	}
	s.Cited = make([]string, r.count(1))
	for i := range s.Cited {
		s.Cited[i] = str()
	}
	s.Memories = make([]SummaryMemory, r.count(4))
	var cites []int32 // one array for every memory's indices
	for i := range s.Memories {
		m := &s.Memories[i]
		m.Path = str()
		if r.err != nil || len(r.b) == 0 {
			r.err = errCorrupt
			break
		}
		flags := r.b[0]
		r.b = r.b[1:]
		m.Broken, m.Exempt, m.Volatile = flags&sumBroken != 0, flags&sumExempt != 0, flags&sumVolatile != 0
		stale := r.uvarint()
		if stale > 1<<31 {
			r.err = errCorrupt
		}
		m.Stale = int(stale) - 1
		n := r.count(1)
		if cap(cites)-len(cites) < n {
			cites = make([]int32, 0, max(n, 1<<16))
		}
		start := len(cites)
		for j := 0; j < n && r.err == nil; j++ {
			c := r.uvarint()
			if c >= uint64(len(s.Cited)) {
				r.err = errCorrupt
			}
			cites = append(cites, int32(c))
		}
		m.Cites = cites[start:len(cites):len(cites)]
		if i > 0 && s.Memories[i-1].Path >= m.Path {
			r.err = errCorrupt // not sorted, or a path twice
		}
	}
	if r.err == nil && len(r.b) != 0 {
		r.err = errCorrupt
	}
	if r.err != nil {
		return nil, "", r.err
	}
	return s, tool, nil
}
