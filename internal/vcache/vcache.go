// Package vcache is the verification cache (docs/cache.md): verdicts of
// citations keyed by the exact inputs of the check, and parsed memory
// files keyed by their path and content, kept in one file in the git
// directory so that a run repeats no work an earlier one did on the same
// inputs.
//
// The cache is an optimisation only. A missing, unreadable, corrupt or
// foreign-version file is an empty cache; concurrent writers each replace
// the file whole (the last one wins); entries are never trusted beyond
// their keys, which hold everything the cached answer depends on.
package vcache

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"

	"github.com/git-memcite/git-memcite/internal/atomicfile"
	"github.com/git-memcite/git-memcite/internal/memfile"
	"github.com/git-memcite/git-memcite/internal/regfile"
)

// FormatVersion is the version of the file format; a file of another
// version is ignored (and replaced by the next write).
const FormatVersion = 2

// magic starts every cache file.
const magic = "MEMCITE-CACHE\n"

// MaxBytes bounds the encoded size of the cache: when a write would exceed
// it, the entries least recently used are dropped first.
const MaxBytes = 128 << 20

// FileName is the cache file's name inside its directory.
const FileName = "cache"

// Key identifies an entry: a SHA-256 of everything the cached answer
// depends on.
type Key [32]byte

// State says what was found when the cache was opened.
type State int

// States of a cache file.
const (
	StateMissing  State = iota // no cache file yet
	StateOK                    // read and used
	StateCorrupt               // unreadable or damaged: ignored
	StateVersion               // another format version: ignored
	StateStale                 // written by another build of the tool: ignored
	StateDisabled              // caching is off (--no-cache, MEMCITE_CACHE=off)
	StateSpecial               // a FIFO, device, socket or directory at its path: ignored
)

func (s State) String() string {
	return [...]string{"missing", "ok", "corrupt", "version mismatch", "stale (another build)", "disabled", "not a regular file"}[s]
}

// Verdict is a cached citation result.
type Verdict struct {
	Kind   int    // verify.Kind
	Reason string // the reason text ("" for valid)
}

type putVerdict struct {
	k Key
	v Verdict
}

type putFile struct {
	k Key
	e fileEntry
}

// chunks is a list grown in blocks of fixed size: a run that puts 250,000
// verdicts neither copies them as the list grows nor leaves a doubled
// capacity unused.
type chunks[T any] struct{ blocks [][]T }

const chunkLen = 4096

func (c *chunks[T]) add(v T) {
	if n := len(c.blocks); n == 0 || len(c.blocks[n-1]) == cap(c.blocks[n-1]) {
		c.blocks = append(c.blocks, make([]T, 0, chunkLen))
	}
	last := &c.blocks[len(c.blocks)-1]
	*last = append(*last, v)
}

// all returns the elements in one slice.
func (c *chunks[T]) all() []T {
	if len(c.blocks) == 1 {
		return c.blocks[0]
	}
	n := 0
	for _, b := range c.blocks {
		n += len(b)
	}
	out := make([]T, 0, n)
	for _, b := range c.blocks {
		out = append(out, b...)
	}
	return out
}

func (p putVerdict) key() Key { return p.k }
func (p putFile) key() Key    { return p.k }

// lastPut sorts puts by key and keeps the last put of each key.
func lastPut[P interface{ key() Key }](puts []P) []P {
	slices.SortStableFunc(puts, func(a, b P) int {
		ka, kb := a.key(), b.key()
		return bytes.Compare(ka[:], kb[:])
	})
	out := puts[:0]
	for i, p := range puts {
		if i+1 < len(puts) && puts[i+1].key() == p.key() {
			continue // a later put of the same key wins
		}
		out = append(out, p)
	}
	return out
}

type fileEntry struct {
	data  []byte   // as stored
	parts [][]byte // or, for entries put by this run, the pieces of data
}

func (e fileEntry) len() int {
	n := len(e.data)
	for _, p := range e.parts {
		n += len(p)
	}
	return n
}

// Cache is an open cache. A nil *Cache is a cache that is off: lookups
// miss and stores are dropped.
//
// The entries of the file read are looked up in its bytes (format.go);
// the entries a run puts are listed beside them until Save merges both
// into a new file: a lookup finds what the file held, and what a run puts
// is found by the next run.
type Cache struct {
	path string
	tool string

	mu           sync.Mutex
	state        State
	gen          uint32             // this run's generation: one more than the file's
	base         table              // the file read; empty when none was used
	usedV, usedF bitset             // base records looked up by this run
	verdicts     chunks[putVerdict] // put by this run, in order
	files        chunks[putFile]
	newV, newF   int // keys put that base does not hold
	added        int // entries added since Open
	size         int64
	noFilePuts   atomic.Bool // DropFilePuts
}

// DropFilePuts makes PutFile do nothing for the rest of the run: a run
// that reads a large store a group at a time (relocate) would otherwise
// hold every memory file it parsed, and its text, until it saves. Cached
// parses are still looked up.
func (c *Cache) DropFilePuts() {
	if c != nil {
		c.noFilePuts.Store(true)
	}
}

// Open reads the cache at dir/cache for the tool identity tool (its
// version and build; a cache written by another build is not used). Any
// problem reading it gives an empty cache with State saying why.
func Open(dir, tool string) *Cache {
	c := &Cache{path: filepath.Join(dir, FileName), tool: tool, gen: 1}
	data, err := regfile.ReadFile(c.path)
	if errors.Is(err, fs.ErrNotExist) {
		c.state = StateMissing
		return c
	}
	if errors.Is(err, regfile.ErrNotRegular) {
		c.state = StateSpecial
		return c
	}
	if err != nil {
		c.state = StateCorrupt
		return c
	}
	c.size = int64(len(data))
	t, err := decode(data)
	switch {
	case errors.Is(err, errVersion):
		c.state = StateVersion
	case err != nil:
		c.state = StateCorrupt
	case t.tool != tool:
		c.state = StateStale
	default:
		c.state, c.base, c.gen = StateOK, *t, t.gen+1
		c.usedV, c.usedF = newBitset(t.numVerdicts()), newBitset(t.numFiles())
	}
	return c
}

// Path is the cache file.
func (c *Cache) Path() string {
	if c == nil {
		return ""
	}
	return c.path
}

// Info describes a cache file for `doctor`.
type Info struct {
	Path     string
	State    State
	Size     int64 // bytes on disk
	Verdicts int   // citation verdicts held
	Files    int   // parsed memory files held
	// Summaries and SummaryBytes: the commit summaries kept beside it
	// (any build's), and their size on disk.
	Summaries    int
	SummaryBytes int64
	// Runs and RunBytes: the whole runs kept beside it (any build's), and
	// their size on disk.
	Runs     int
	RunBytes int64
}

// Inspect describes the cache file in dir for tool, reading it like Open.
func Inspect(dir, tool string) Info {
	info := inspectCache(dir, tool)
	for _, name := range summariesByAge(summaryDir(dir)) {
		if fi, err := os.Stat(filepath.Join(summaryDir(dir), name)); err == nil {
			info.Summaries++
			info.SummaryBytes += fi.Size()
		}
	}
	for _, name := range summariesByAge(runDir(dir)) {
		if fi, err := os.Stat(filepath.Join(runDir(dir), name)); err == nil {
			info.Runs++
			info.RunBytes += fi.Size()
		}
	}
	return info
}

func inspectCache(dir, tool string) Info {
	c := Open(dir, tool)
	if c.state == StateStale {
		// count what the file holds even if this build will not use it
		if data, err := regfile.ReadFile(c.path); err == nil {
			if t, err := decode(data); err == nil {
				return Info{Path: c.path, State: c.state, Size: c.size, Verdicts: t.numVerdicts(), Files: t.numFiles()}
			}
		}
	}
	v, f := c.Len()
	return Info{Path: c.path, State: c.state, Size: c.size, Verdicts: v, Files: f}
}

// State says what Open found.
func (c *Cache) State() State {
	if c == nil {
		return StateDisabled
	}
	return c.state
}

// Verdict returns the cached verdict for k. Lookups may run in parallel
// with each other and with puts.
func (c *Cache) Verdict(k Key) (Verdict, bool) {
	if c == nil {
		return Verdict{}, false
	}
	i := find(c.base.verdicts, &k) // base does not change: no lock
	if i < 0 {
		return Verdict{}, false
	}
	c.usedV.set(i)
	v, _ := c.base.verdictAt(i)
	return v, true
}

// PutVerdict stores a verdict under k.
func (c *Cache) PutVerdict(k Key, v Verdict) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if i := find(c.base.verdicts, &k); i >= 0 {
		c.usedV.set(i)
		if old, _ := c.base.verdictAt(i); old == v {
			return // held already
		}
	} else {
		c.newV++ // an estimate: a key put twice counts twice until Save
		c.added++
	}
	c.verdicts.add(putVerdict{k, v})
}

// File returns the cached parse of a memory file under k.
func (c *Cache) File(k Key) ([]byte, bool) {
	if c == nil {
		return nil, false
	}
	i := find(c.base.files, &k) // base does not change: no lock
	if i < 0 {
		return nil, false
	}
	c.usedF.set(i)
	data, _ := c.base.fileAt(i)
	return data, true
}

// PutFile stores the parse of a memory file under k: the concatenation
// of parts, which the cache keeps without copying (they must not change).
func (c *Cache) PutFile(k Key, parts ...[]byte) {
	if c == nil || c.noFilePuts.Load() {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if i := find(c.base.files, &k); i >= 0 {
		c.usedF.set(i)
	} else {
		c.newF++
		c.added++
	}
	c.files.add(putFile{k, fileEntry{parts: parts}})
}

// Hits counts the entries of the file read that lookups found, each
// once. (Not a count of lookups: a counter that every lookup adds to,
// from every goroutine, cost the parallel lookups more than the lookups
// themselves.)
func (c *Cache) Hits() int {
	if c == nil {
		return 0
	}
	return c.usedV.count() + c.usedF.count()
}

// Len counts the entries held.
func (c *Cache) Len() (verdicts, files int) {
	if c == nil {
		return 0, 0
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.base.numVerdicts() + c.newV, c.base.numFiles() + c.newF
}

// Save writes the cache when this run added entries: to a temporary file
// in tmpDir, renamed over the cache file (a reader sees the old file or
// the new one, never a mix). Entries beyond MaxBytes are dropped, least
// recently used first.
func (c *Cache) Save(tmpDir string) error {
	if c == nil {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.added == 0 && c.state == StateOK {
		return nil
	}
	e := c.encoding()
	e.evict(MaxBytes)
	var size int64
	err := writeReplacing(c.path, tmpDir, "cache-*.tmp", func(w io.Writer) (err error) {
		size, err = e.writeTo(w)
		return err
	})
	if err != nil {
		return fmt.Errorf("cache: %w", err)
	}
	c.added, c.state, c.size = 0, StateOK, size
	return nil
}

// encoding lists what Save writes: the file's entries and this run's,
// merged.
func (c *Cache) encoding() *encoding {
	vs, fs := lastPut(c.verdicts.all()), lastPut(c.files.all())
	c.verdicts, c.files = chunks[putVerdict]{[][]putVerdict{vs}}, chunks[putFile]{[][]putFile{fs}}
	e := &encoding{tool: c.tool, gen: c.gen, t: &c.base, putV: vs, putF: fs}
	e.verdicts = merged(c.base.verdicts, c.usedV, len(vs), func(j int) *Key { return &vs[j].k }, c.gen)
	e.files = merged(c.base.files, c.usedF, len(fs), func(j int) *Key { return &fs[j].k }, c.gen)
	c.newV, c.newF = len(e.verdicts)-c.base.numVerdicts(), len(e.files)-c.base.numFiles()
	return e
}

// writeReplacing writes dst through a temporary file in tmpDir (named
// after pattern) renamed over it: a reader sees the old file or the new
// one, never a mix.
func writeReplacing(dst, tmpDir, pattern string, write func(io.Writer) error) error {
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	if err := os.MkdirAll(tmpDir, 0o755); err != nil {
		return err
	}
	f, err := atomicfile.CreateTemp(tmpDir, pattern)
	if err != nil {
		return err
	}
	tmp := f.Name()
	bw := bufio.NewWriterSize(f, 64<<10)
	err = write(bw)
	if err == nil {
		err = bw.Flush()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = atomicfile.Replace(tmp, dst)
	}
	if err != nil {
		os.Remove(tmp)
		return fmt.Errorf("write %s: %w", dst, err)
	}
	return nil
}

// Tool is the identity a cache is written for: the tool's version and,
// for builds without a release version, the executable's size and
// modification time, so that a rebuilt binary does not trust a cache an
// older build wrote.
func Tool(version string) string {
	id := "git-memcite " + version
	if exe, err := os.Executable(); err == nil {
		if fi, err := os.Stat(exe); err == nil {
			id += " " + strconv.FormatInt(fi.Size(), 10) + " " + strconv.FormatInt(fi.ModTime().UnixNano(), 10)
		}
	}
	return id
}

// CitationKey is the key of a citation's verdict: the content it is
// checked against (a source.Identifier id) and every field of the
// citation the check reads.
func CitationKey(contentID string, c memfile.Citation) Key {
	var buf [256]byte // most keys fit: no allocation
	b := append(buf[:0], "citation\x00"...)
	b = appendString(b, contentID)
	b = appendString(b, c.Path)
	b = appendBool(b, c.HasLine)
	b = binary.AppendVarint(b, int64(c.Line))
	b = binary.AppendVarint(b, int64(c.LineEnd))
	b = appendBool(b, c.HasSnippet)
	b = appendString(b, c.Snippet)
	return sha256.Sum256(b)
}

// FileKey is the key of a memory file's parse: its path (messages name
// it) and content.
func FileKey(path string, content []byte) Key {
	h := sha256.New()
	var n [binary.MaxVarintLen64]byte
	h.Write([]byte("memory\x00"))
	h.Write(n[:binary.PutUvarint(n[:], uint64(len(path)))])
	h.Write([]byte(path))
	h.Write(content)
	var k Key
	h.Sum(k[:0])
	return k
}

// FileIDKey is the key of a memory file's parse and content when its
// source names the content without reading it (source.Identifier).
func FileIDKey(path, contentID string) Key {
	var buf [256]byte // most keys fit: no allocation
	b := append(buf[:0], "memory-id\x00"...)
	b = appendString(b, path)
	b = appendString(b, contentID)
	return sha256.Sum256(b)
}

// keyLen bounds the length of KeyOf's encoding of kind and parts.
func keyLen(kind string, parts []string) int {
	n := len("other\x00") + len(kind) + binary.MaxVarintLen64
	for _, p := range parts {
		n += len(p) + binary.MaxVarintLen64
	}
	return n
}

func appendString(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

func appendBool(b []byte, v bool) []byte {
	if v {
		return append(b, 1)
	}
	return append(b, 0)
}

// castagnoli is the CRC-32C table, made when first used (not when any
// command starts).
var castagnoli = sync.OnceValue(func() *crc32.Table { return crc32.MakeTable(crc32.Castagnoli) })

// KeyOf is the key of any other cached answer: a kind that no other key
// uses and every input the answer depends on, each length-prefixed.
func KeyOf(kind string, parts ...string) Key {
	var buf [512]byte // most keys fit: no allocation
	b := buf[:0]
	if n := keyLen(kind, parts); n > len(buf) {
		b = make([]byte, 0, n)
	}
	b = append(b, "other\x00"...)
	b = appendString(b, kind)
	for _, p := range parts {
		b = appendString(b, p)
	}
	return sha256.Sum256(b)
}
