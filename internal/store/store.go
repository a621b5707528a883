// Package store finds and loads the memory files of a repository: every
// .md file below the memory directories (recursively), read from a
// source.Source so that the working tree, the index and commits all work.
package store

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/git-memcite/git-memcite/internal/memfile"
	"github.com/git-memcite/git-memcite/internal/regfile"
	"github.com/git-memcite/git-memcite/internal/source"
	"github.com/git-memcite/git-memcite/internal/trace"
	"github.com/git-memcite/git-memcite/internal/vcache"
)

// DefaultDir is the memory directory used when none is configured.
const DefaultDir = ".serena/memories"

// MaxFileSize is the largest memory file read, in bytes.
const MaxFileSize = 16 << 20

// ignored names are documentation, not memories.
var ignored = map[string]bool{"readme.md": true, "claude.md": true}

// Memory is one memory file.
type Memory struct {
	Path string        // repo-relative path of the file
	Dir  string        // the memory directory it was found in
	ID   string        // frontmatter id, or the path below Dir without .md
	File *memfile.File // nil when Err is set
	Err  error         // read or parse error (*memfile.ParseError for bad content)
	// ContentID names the file's content (source.Identifier) when the
	// verification cache keeps its parse under that name: found there
	// (the file was not read), or put there (named after the read, so
	// naming what was read). File.Src is that content. Empty otherwise,
	// and without a cache.
	ContentID string
}

// Stem is the file name without .md.
func (m *Memory) Stem() string { return strings.TrimSuffix(path.Base(m.Path), ".md") }

// RelID is the path below the memory directory without .md.
func (m *Memory) RelID() string {
	rel := strings.TrimPrefix(m.Path, strings.TrimSuffix(m.Dir, "/")+"/")
	if m.Dir == "." || m.Dir == "" {
		rel = m.Path
	}
	return strings.TrimSuffix(rel, ".md")
}

// ErrNoDir is returned (wrapped) for a memory directory that does not
// exist.
var ErrNoDir = errors.New("not found")

// Store is the set of memories found.
type Store struct {
	Dirs     []string
	Memories []*Memory // sorted by path
}

// Load reads every memory file below dirs from src, with the parses of
// cache (LoadAll). A directory that does not exist is an error; unreadable
// or malformed files are loaded with Err set so that the others are still
// used.
func Load(ctx context.Context, src source.Source, dirs []string, cache *vcache.Cache) (*Store, error) {
	mems, err := Find(src, dirs)
	if err != nil {
		return nil, err
	}
	if err := LoadAll(ctx, src, mems, cache); err != nil {
		return nil, err
	}
	return &Store{Dirs: dirs, Memories: mems}, nil
}

// Find lists the memory files below dirs without reading them: the
// returned memories have Path and Dir set, sorted by path. A directory that
// does not exist is an error.
func Find(src source.Source, dirs []string) ([]*Memory, error) {
	seen := map[string]bool{}
	var mems []*Memory
	for _, d := range dirs {
		c, err := source.Clean(d)
		if err != nil {
			return nil, fmt.Errorf("memory directory %q: %w", d, err)
		}
		e, err := src.Stat(c)
		if err != nil {
			if errors.Is(err, source.ErrNotExist) {
				return nil, fmt.Errorf("memory directory %s: %w in the %s", d, ErrNoDir, src.Name())
			}
			return nil, fmt.Errorf("memory directory %s: %w", d, err)
		}
		if e.Kind != source.KindDir {
			return nil, fmt.Errorf("memory directory %s: not a directory", d)
		}
		files, err := src.List(c)
		if err != nil {
			return nil, fmt.Errorf("list %s: %w", d, err)
		}
		multi := len(dirs) > 1 // paths of one listing are unique
		// the memories of a listing share one array: a store of 50,000
		// memories is one allocation, not 50,000
		backing := make([]Memory, 0, len(files))
		if mems == nil {
			mems = make([]*Memory, 0, len(files))
		}
		for _, p := range files {
			if !strings.HasSuffix(p, ".md") || isIgnored(path.Base(p)) || hiddenIn(relTo(p, c)) || (multi && seen[p]) {
				continue
			}
			if multi {
				seen[p] = true
			}
			backing = append(backing, Memory{Path: p, Dir: c})
			mems = append(mems, &backing[len(backing)-1])
		}
	}
	byPath := func(a, b *Memory) int { return strings.Compare(a.Path, b.Path) }
	if !slices.IsSortedFunc(mems, byPath) { // one listing is sorted already
		slices.SortFunc(mems, byPath)
	}
	return mems, nil
}

// DirOf returns the memory directory among dirs that holds the file p (a
// clean repo-relative path) as a memory, the way Find lists memories: a
// .md file below the directory, not README.md or CLAUDE.md, not in a
// hidden folder below it.
func DirOf(p string, dirs []string) (string, bool) {
	if !strings.HasSuffix(p, ".md") || isIgnored(path.Base(p)) {
		return "", false
	}
	for _, d := range dirs {
		c, err := source.Clean(d)
		if err != nil {
			continue
		}
		if (c == "." || strings.HasPrefix(p, c+"/")) && !hiddenBelow(p, c) {
			return c, true
		}
	}
	return "", false
}

// hiddenBelow reports whether p lies in a hidden folder (.obsidian, .trash)
// below the memory directory.
func hiddenBelow(p, dir string) bool {
	return hiddenIn(relTo(p, dir))
}

// relTo is p below the memory directory dir (p itself below ".").
func relTo(p, dir string) string {
	if dir == "." {
		return p
	}
	if len(p) > len(dir) && p[len(dir)] == '/' && strings.HasPrefix(p, dir) {
		return p[len(dir)+1:]
	}
	return p
}

// hiddenIn reports whether the relative path rel lies in a hidden folder.
func hiddenIn(rel string) bool {
	for {
		i := strings.IndexByte(rel, '/')
		if i < 0 {
			return false
		}
		if rel[0] == '.' {
			return true
		}
		rel = rel[i+1:]
	}
}

// isIgnored reports whether a file name is documentation (README.md,
// CLAUDE.md in any case) rather than a memory.
func isIgnored(base string) bool {
	if len(base) != len("readme.md") {
		return false
	}
	for name := range ignored {
		if strings.EqualFold(base, name) {
			return true
		}
	}
	return false
}

// LoadFile reads one memory file that may lie outside the memory
// directories (a path given on the command line), with the parses of
// cache (LoadAll).
func LoadFile(ctx context.Context, src source.Source, p, dir string, cache *vcache.Cache) *Memory {
	m := &Memory{Path: p, Dir: dir}
	_ = loadAll(ctx, src, []*Memory{m}, cache)
	return m
}

// LoadAll reads and parses mems (as returned by Find) in parallel, setting
// File and ID, or Err. It stops early only when ctx is cancelled. A parse
// is taken from cache (the verification cache; nil: none) when it holds
// that of the same file content, and kept there.
func LoadAll(ctx context.Context, src source.Source, mems []*Memory, cache *vcache.Cache) error {
	return loadAll(ctx, src, mems, cache)
}

// Load reads and parses one memory found by Find.
func (m *Memory) Load(src source.Source) { load(src, m) }

func loadAll(ctx context.Context, src source.Source, mems []*Memory, cache *vcache.Cache) error {
	if ids, ok := src.(source.Identifier); ok && cache != nil {
		ids.ContentID("") // read what names content (the index) before any file
	}
	// look parses up only in a cache that held some when the run began:
	// in one filled by this run's own loads, every lookup misses (and
	// naming a file before reading it costs an lstat)
	lookups := false
	if cache != nil {
		_, n := cache.Len()
		lookups = n > 0
	}
	work := make(chan *Memory)
	var wg sync.WaitGroup
	for i := 0; i < 4*runtime.GOMAXPROCS(0); i++ { // reads block: more workers than cores
		wg.Add(1)
		go func() {
			defer wg.Done()
			for m := range work {
				loadCached(src, m, cache, lookups)
			}
		}()
	}
	var err error
	for _, m := range mems {
		if err = ctx.Err(); err != nil {
			break
		}
		work <- m
	}
	close(work)
	wg.Wait()
	return err
}

func load(src source.Source, m *Memory) { loadCached(src, m, nil, false) }

// loadCached reads and parses m, taking the parse from cache when the
// file's path and content are those of an earlier parse: by the content's
// name when the source has one (the file is then not read at all), else by
// the content read. Files that do not parse are parsed every time. The
// name stored under is taken after the read: it vouches for what was read
// (source.Identifier). lookups is false when the cache held no parse
// when the run began.
func loadCached(src source.Source, m *Memory, cache *vcache.Cache, lookups bool) {
	ids, _ := src.(source.Identifier)
	lookups = lookups && cache != nil
	named := false
	if lookups && ids != nil {
		if id, ok := ids.ContentID(m.Path); ok {
			named = true
			if f := fromCache(cache, vcache.FileIDKey(m.Path, id), m.Path, nil); f != nil {
				m.setFile(f)
				m.ContentID = id
				return
			}
		}
	}
	trace.Printf("read memory %s from the %s", m.Path, src.Name())
	data, err := readLimited(src, m.Path)
	if err != nil {
		m.Err = err
		m.ID = m.RelID()
		return
	}
	if lookups && !named {
		if f := fromCache(cache, vcache.FileKey(m.Path, data), m.Path, data); f != nil {
			m.setFile(f)
			return
		}
	}
	f, err := memfile.Parse(m.Path, data)
	if err != nil {
		m.Err = err
		m.ID = m.RelID()
		return
	}
	f.Compact() // keep the fields, drop the YAML tree: edits parse again
	if cache != nil {
		if enc, ok := f.EncodeCache(); ok {
			if id, ok := contentID(ids, m.Path); ok {
				cache.PutFile(vcache.FileIDKey(m.Path, id), binary.AppendUvarint([]byte{1}, uint64(len(data))), data, enc)
				m.ContentID = id // named after the read: it names what was read
			} else {
				cache.PutFile(vcache.FileKey(m.Path, data), []byte{0}, enc)
			}
		}
	}
	m.setFile(f)
}

func contentID(ids source.Identifier, p string) (string, bool) {
	if ids == nil {
		return "", false
	}
	return ids.ContentID(p)
}

func (m *Memory) setFile(f *memfile.File) {
	m.File = f
	m.ID = f.ID
	if m.ID == "" {
		m.ID = m.RelID()
	}
}

// fromCache decodes a cached parse: content is the file's, or nil when
// the entry holds it. A damaged entry is a miss.
func fromCache(cache *vcache.Cache, k vcache.Key, p string, content []byte) *memfile.File {
	b, ok := cache.File(k)
	if !ok || len(b) == 0 {
		return nil
	}
	switch b[0] {
	case 0:
		if content == nil {
			return nil
		}
		b = b[1:]
	case 1:
		n, k := binary.Uvarint(b[1:])
		if k <= 0 || n > uint64(len(b)-1-k) {
			return nil
		}
		end := 1 + k + int(n)
		content, b = b[1+k:end:end], b[end:]
	default:
		return nil
	}
	f, err := memfile.DecodeCache(p, content, b)
	if err != nil {
		return nil
	}
	return f
}

func readLimited(src source.Source, p string) ([]byte, error) {
	rc, err := src.Open(p)
	if err != nil {
		if errors.Is(err, source.ErrOutside) {
			return nil, &memfile.ParseError{File: p, Msg: "memory file is a symlink that leaves the repository; not read"}
		}
		return nil, fmt.Errorf("%s: %w", p, err)
	}
	defer rc.Close()
	var data []byte
	if f, ok := rc.(*os.File); ok {
		if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() && fi.Size() <= MaxFileSize {
			data, err = regfile.ReadAll(f) // one buffer of the file's size
			if err != nil {
				return nil, fmt.Errorf("%s: %w", p, err)
			}
		}
	}
	if data == nil {
		data, err = io.ReadAll(io.LimitReader(rc, MaxFileSize+1))
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", p, err)
	}
	if len(data) > MaxFileSize {
		return nil, &memfile.ParseError{File: p, Msg: fmt.Sprintf("memory file is larger than %d MiB; not read", MaxFileSize>>20)}
	}
	return data, nil
}

// ErrNoMemory is returned by Resolve when nothing matches.
var ErrNoMemory = errors.New("no such memory")

// Resolve finds a memory by repo-relative file path, by "<dir>/<id>.md",
// by "<dir>/<name>", by frontmatter id, or by bare file stem when that is
// unambiguous.
func (s *Store) Resolve(arg string) (*Memory, error) {
	clean := strings.TrimPrefix(path.Clean(strings.ReplaceAll(arg, "\\", "/")), "./")
	for _, m := range s.Memories {
		if m.Path == clean {
			return m, nil
		}
	}
	for _, d := range s.Dirs {
		for _, cand := range []string{path.Join(d, clean+".md"), path.Join(d, clean)} {
			for _, m := range s.Memories {
				if m.Path == cand {
					return m, nil
				}
			}
		}
	}
	var byID, byStem []*Memory
	for _, m := range s.Memories {
		if m.ID == arg {
			byID = append(byID, m)
		}
		if m.Stem() == strings.TrimSuffix(arg, ".md") {
			byStem = append(byStem, m)
		}
	}
	for _, group := range [][]*Memory{byID, byStem} {
		switch len(group) {
		case 0:
			continue
		case 1:
			return group[0], nil
		default:
			var paths []string
			for _, m := range group {
				paths = append(paths, m.Path)
			}
			return nil, fmt.Errorf("%q is ambiguous: %s", arg, strings.Join(paths, ", "))
		}
	}
	return nil, fmt.Errorf("%q: %w in %s", arg, ErrNoMemory, strings.Join(s.Dirs, ", "))
}
