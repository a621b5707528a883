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
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"sync"

	"github.com/git-memcite/git-memcite/internal/atomicfile"
	"github.com/git-memcite/git-memcite/internal/memfile"
)

// FormatVersion is the version of the file format; a file of another
// version is ignored (and replaced by the next write).
const FormatVersion = 1

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
)

func (s State) String() string {
	return [...]string{"missing", "ok", "corrupt", "version mismatch", "stale (another build)", "disabled"}[s]
}

// Verdict is a cached citation result.
type Verdict struct {
	Kind   int    // verify.Kind
	Reason string // the reason text ("" for valid)
}

type verdictEntry struct {
	Verdict
	gen uint64
}

type fileEntry struct {
	data  []byte   // as stored
	parts [][]byte // or, for entries put by this run, the pieces of data
	gen   uint64
}

func (e fileEntry) len() int {
	n := len(e.data)
	for _, p := range e.parts {
		n += len(p)
	}
	return n
}

func (e fileEntry) bytes() []byte {
	if e.parts == nil {
		return e.data
	}
	out := make([]byte, 0, e.len())
	for _, p := range e.parts {
		out = append(out, p...)
	}
	return out
}

// Cache is an open cache. A nil *Cache is a cache that is off: lookups
// miss and stores are dropped.
type Cache struct {
	path string
	tool string

	mu       sync.Mutex
	state    State
	gen      uint64 // this run's generation: one more than the file's
	verdicts map[Key]verdictEntry
	files    map[Key]fileEntry
	added    int // entries added since Open
	hits     int // lookups that found an entry
	size     int64
}

// Open reads the cache at dir/cache for the tool identity tool (its
// version and build; a cache written by another build is not used). Any
// problem reading it gives an empty cache with State saying why.
func Open(dir, tool string) *Cache {
	c := &Cache{path: filepath.Join(dir, FileName), tool: tool, verdicts: map[Key]verdictEntry{}, files: map[Key]fileEntry{}, gen: 1}
	data, err := os.ReadFile(c.path)
	if errors.Is(err, fs.ErrNotExist) {
		c.state = StateMissing
		return c
	}
	if err != nil {
		c.state = StateCorrupt
		return c
	}
	c.size = int64(len(data))
	d, err := decode(data)
	switch {
	case errors.Is(err, errVersion):
		c.state = StateVersion
	case err != nil:
		c.state = StateCorrupt
	case d.tool != tool:
		c.state = StateStale
	default:
		c.state, c.verdicts, c.files, c.gen = StateOK, d.verdicts, d.files, d.gen+1
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
	return info
}

func inspectCache(dir, tool string) Info {
	c := Open(dir, tool)
	if c.state == StateStale || c.state == StateVersion {
		// count what the file holds even if this build will not use it
		if data, err := os.ReadFile(c.path); err == nil {
			if d, err := decode(data); err == nil {
				return Info{Path: c.path, State: c.state, Size: c.size, Verdicts: len(d.verdicts), Files: len(d.files)}
			}
		}
	}
	return Info{Path: c.path, State: c.state, Size: c.size, Verdicts: len(c.verdicts), Files: len(c.files)}
}

// State says what Open found.
func (c *Cache) State() State {
	if c == nil {
		return StateDisabled
	}
	return c.state
}

// Verdict returns the cached verdict for k.
func (c *Cache) Verdict(k Key) (Verdict, bool) {
	if c == nil {
		return Verdict{}, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.verdicts[k]
	if ok {
		c.hits++
	}
	if ok && e.gen != c.gen {
		e.gen = c.gen
		c.verdicts[k] = e
	}
	return e.Verdict, ok
}

// PutVerdict stores a verdict under k.
func (c *Cache) PutVerdict(k Key, v Verdict) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.verdicts[k]; !ok {
		c.added++
	}
	c.verdicts[k] = verdictEntry{v, c.gen}
}

// File returns the cached parse of a memory file under k.
func (c *Cache) File(k Key) ([]byte, bool) {
	if c == nil {
		return nil, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.files[k]
	if ok {
		c.hits++
	}
	if ok && e.gen != c.gen {
		e.gen = c.gen
		c.files[k] = e
	}
	return e.bytes(), ok
}

// PutFile stores the parse of a memory file under k: the concatenation
// of parts, which the cache keeps without copying (they must not change).
func (c *Cache) PutFile(k Key, parts ...[]byte) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.files[k]; !ok {
		c.added++
	}
	c.files[k] = fileEntry{parts: parts, gen: c.gen}
}

// Hits counts the lookups that found an entry.
func (c *Cache) Hits() int {
	if c == nil {
		return 0
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.hits
}

// Len counts the entries held.
func (c *Cache) Len() (verdicts, files int) {
	if c == nil {
		return 0, 0
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.verdicts), len(c.files)
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
	c.evict(MaxBytes)
	var size int64
	err := writeReplacing(c.path, tmpDir, "cache-*.tmp", func(w io.Writer) (err error) {
		size, err = encodeTo(w, c.tool, c.gen, c.verdicts, c.files)
		return err
	})
	if err != nil {
		return fmt.Errorf("cache: %w", err)
	}
	c.added, c.state, c.size = 0, StateOK, size
	return nil
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
	f, err := os.CreateTemp(tmpDir, pattern)
	if err != nil {
		return err
	}
	tmp := f.Name()
	bw := bufio.NewWriterSize(f, 1<<20)
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

// evict drops the least recently used entries until the encoded size is
// at most limit.
func (c *Cache) evict(limit int64) {
	size := int64(headerSize(c.tool))
	type ref struct {
		gen  uint64
		size int64
		k    Key
		file bool
	}
	refs := make([]ref, 0, len(c.verdicts)+len(c.files))
	for k, e := range c.verdicts {
		n := verdictSize(e.Reason)
		size += n
		refs = append(refs, ref{e.gen, n, k, false})
	}
	for k, e := range c.files {
		n := fileSize(e.len())
		size += n
		refs = append(refs, ref{e.gen, n, k, true})
	}
	if size <= limit {
		return
	}
	sort.Slice(refs, func(i, j int) bool { return refs[i].gen < refs[j].gen })
	for _, r := range refs {
		if size <= limit {
			break
		}
		if r.file {
			delete(c.files, r.k)
		} else {
			delete(c.verdicts, r.k)
		}
		size -= r.size
	}
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
	b := make([]byte, 0, 64+len(contentID)+len(c.Path)+len(c.Snippet))
	b = append(b, "citation\x00"...)
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
	b := make([]byte, 0, 32+len(path)+len(contentID))
	b = append(b, "memory-id\x00"...)
	b = appendString(b, path)
	b = appendString(b, contentID)
	return sha256.Sum256(b)
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
