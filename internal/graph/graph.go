// Package graph follows the typed links between memories (frontmatter
// `links:`, in both the `- related: target` and the `{link_type,
// target_id}` shapes that memfile reads).
//
// A Graph starts from the list of memory files only; a memory is read the
// first time it is needed, so a traversal of a few levels reads a few
// dozen files even in a store of 100,000. Whole-graph questions (roots,
// backlinks, cycles, export) read every memory (LoadAll).
//
// Link targets resolve in this order:
//
//  1. the path of the memory below its memory directory without .md
//     ("topic/name"), or its repo-relative path (with or without .md);
//  2. the file name without .md ("name"), when exactly one memory has it;
//  3. the frontmatter id, when exactly one memory declares it.
//
// File names come before frontmatter ids because they can be checked
// without reading the store; only a target that matches no file name (or
// several) makes the graph read every memory's frontmatter. A target that
// matches nothing is dangling; one that matches several memories is
// ambiguous (and reported as dangling with that reason).
package graph

import (
	"context"
	"errors"
	"fmt"
	"path"
	"strings"

	"github.com/git-memcite/git-memcite/internal/memfile"
	"github.com/git-memcite/git-memcite/internal/source"
	"github.com/git-memcite/git-memcite/internal/store"
	"github.com/git-memcite/git-memcite/internal/vcache"
)

// ErrNotFound is returned when a name matches no memory.
var ErrNotFound = errors.New("no such memory")

// ErrAmbiguous is returned when a name matches several memories (as an
// *AmbiguousError).
var ErrAmbiguous = errors.New("ambiguous")

// AmbiguousError says which memories a name matches; errors.Is(err,
// ErrAmbiguous) holds for it.
type AmbiguousError struct {
	Name  string // the name resolved
	Match string // what it matched: "frontmatter id" or "file name"
	Paths string // the memories it matched, comma-separated
}

func (e *AmbiguousError) Error() string { return fmt.Sprintf("%q: %s", e.Name, e.Detail()) }

// Detail is the message without the name.
func (e *AmbiguousError) Detail() string {
	return fmt.Sprintf("%v: %s of %s", ErrAmbiguous, e.Match, e.Paths)
}

// Is reports whether target is ErrAmbiguous.
func (e *AmbiguousError) Is(target error) bool { return target == ErrAmbiguous }

// Graph is the link graph of a memory store.
type Graph struct {
	src     source.Source
	mems    []*store.Memory // sorted by path; File nil until loaded
	loaded  []bool
	all     bool           // every memory loaded and byID filled
	byRel   map[string]int // path below the memory directory, without .md
	byStem  map[string]int // file name without .md; -1 when several share it
	byID    map[string][]int
	dirList []string // memory directories
	edges   [][]Edge // outgoing edges per memory, resolved on first use
	// NoProse leaves out the links of the memories' prose (prose.go).
	NoProse bool
	// Cache is the verification cache LoadAll takes parses from (nil:
	// none).
	Cache *vcache.Cache
}

// Edge is one link of a memory.
type Edge struct {
	From   int    // index of the linking memory
	To     int    // index of the target, -1 when dangling
	Type   string // link type, lower case
	Target string // the target as written
	Line   int    // line of the memory file where the link is written
	Reason string // why a dangling link does not resolve
}

// Dangling reports whether the link's target was not found.
func (e Edge) Dangling() bool { return e.To < 0 }

// New lists the memories below dirs, leaving out the paths ignore reports
// (nil: none); nothing is read yet.
func New(src source.Source, dirs []string, ignore func(path string) bool) (*Graph, error) {
	mems, err := store.Find(src, dirs)
	if err != nil {
		return nil, err
	}
	if ignore != nil {
		kept := mems[:0]
		for _, m := range mems {
			if !ignore(m.Path) {
				kept = append(kept, m)
			}
		}
		mems = kept
	}
	return fromMemories(src, mems, false), nil
}

// FromStore builds a graph from an already loaded store.
func FromStore(st *store.Store) *Graph {
	return fromMemories(nil, st.Memories, true)
}

func fromMemories(src source.Source, mems []*store.Memory, loaded bool) *Graph {
	g := &Graph{
		src:    src,
		mems:   mems,
		loaded: make([]bool, len(mems)),
		byRel:  make(map[string]int, len(mems)),
		byStem: make(map[string]int, len(mems)),
		edges:  make([][]Edge, len(mems)),
	}
	for i, m := range mems {
		rel := m.RelID()
		g.byRel[rel] = i
		stem := rel[strings.LastIndexByte(rel, '/')+1:]
		if _, dup := g.byStem[stem]; dup {
			g.byStem[stem] = -1
		} else {
			g.byStem[stem] = i
		}
		g.loaded[i] = loaded
		if !contains(g.dirList, m.Dir) {
			g.dirList = append(g.dirList, m.Dir)
		}
	}
	g.all = loaded
	return g
}

// withStem lists the memories whose file name (without .md) is stem.
func (g *Graph) withStem(stem string) []int {
	switch i, ok := g.byStem[stem]; {
	case !ok:
		return nil
	case i >= 0:
		return []int{i}
	}
	var out []int
	for i, m := range g.mems {
		if m.Stem() == stem {
			out = append(out, i)
		}
	}
	return out
}

// byPath finds a memory by its repo-relative path without .md.
func (g *Graph) byPath(p string) (int, bool) {
	for _, d := range g.dirList {
		if rel, ok := strings.CutPrefix(p, d+"/"); ok {
			if i, ok := g.byRel[rel]; ok && g.mems[i].Dir == d {
				return i, true
			}
		}
	}
	return 0, false
}

// Len is the number of memories.
func (g *Graph) Len() int { return len(g.mems) }

// Memory returns memory i, reading it when needed.
func (g *Graph) Memory(i int) *store.Memory {
	if !g.loaded[i] {
		g.mems[i].Load(g.src)
		g.loaded[i] = true
	}
	return g.mems[i]
}

// ID is the id shown for memory i: its frontmatter id, else its path below
// the memory directory without .md.
func (g *Graph) ID(i int) string {
	m := g.Memory(i)
	if m.ID == "" {
		return m.RelID()
	}
	return m.ID
}

// Path is the repo-relative path of memory i.
func (g *Graph) Path(i int) string { return g.mems[i].Path }

// Folder is the folder of memory i below its memory directory ("." for
// the top).
func (g *Graph) Folder(i int) string { return path.Dir(g.mems[i].RelID()) }

// LoadAll reads every memory that is not read yet, in parallel.
func (g *Graph) LoadAll(ctx context.Context) error {
	if g.all {
		return nil
	}
	var todo []*store.Memory
	for i, m := range g.mems {
		if !g.loaded[i] {
			todo = append(todo, m)
		}
	}
	if err := store.LoadAll(ctx, g.src, todo, g.Cache); err != nil {
		return err
	}
	for i := range g.loaded {
		g.loaded[i] = true
	}
	g.all = true
	if g.byID == nil {
		return g.indexIDs(ctx)
	}
	return nil
}

// Resolve finds the memory a name (a link target or a command-line
// argument) refers to, in the order of the package documentation.
func (g *Graph) Resolve(ctx context.Context, name string) (int, error) {
	t := strings.TrimSpace(strings.ReplaceAll(name, "\\", "/"))
	t = strings.TrimSuffix(strings.TrimPrefix(path.Clean(t), "./"), ".md")
	if i, ok := g.byRel[t]; ok {
		return i, nil
	}
	if i, ok := g.byPath(t); ok {
		return i, nil
	}
	stems := g.withStem(t)
	if len(stems) == 1 {
		return stems[0], nil
	}
	if err := g.indexIDs(ctx); err != nil {
		return -1, err
	}
	ids := g.byID[strings.TrimSpace(name)]
	switch {
	case len(ids) == 1:
		return ids[0], nil
	case len(ids) > 1:
		return -1, &AmbiguousError{Name: name, Match: "frontmatter id", Paths: g.paths(ids)}
	case len(stems) > 1:
		return -1, &AmbiguousError{Name: name, Match: "file name", Paths: g.paths(stems)}
	}
	return -1, fmt.Errorf("%q: %w", name, ErrNotFound)
}

func (g *Graph) paths(idx []int) string {
	ps := make([]string, len(idx))
	for k, i := range idx {
		ps[k] = g.mems[i].Path
	}
	return strings.Join(ps, ", ")
}

// Edges returns the links of memory i with their targets resolved. A
// memory that cannot be read has none.
func (g *Graph) Edges(ctx context.Context, i int) ([]Edge, error) {
	if g.edges[i] != nil {
		return g.edges[i], nil
	}
	m := g.Memory(i)
	out := []Edge{}
	if m.File != nil {
		for _, l := range m.File.Links {
			e := Edge{From: i, To: -1, Type: l.Type, Target: l.Target, Line: l.SrcLine}
			to, err := g.Resolve(ctx, l.Target)
			var ambiguous *AmbiguousError
			switch {
			case err == nil:
				e.To = to
			case errors.Is(err, ErrNotFound):
				e.Reason = "no such memory"
			case errors.As(err, &ambiguous):
				e.Reason = ambiguous.Detail()
			default:
				return nil, err
			}
			out = append(out, e)
		}
		pe, err := g.proseEdges(ctx, i)
		if err != nil {
			return nil, err
		}
		out = append(out, pe...)
	}
	g.edges[i] = out
	return out, nil
}

// AllEdges resolves every link of the store (reading every memory).
func (g *Graph) AllEdges(ctx context.Context) ([]Edge, error) {
	if err := g.LoadAll(ctx); err != nil {
		return nil, err
	}
	var all []Edge
	for i := range g.mems {
		es, err := g.Edges(ctx, i)
		if err != nil {
			return nil, err
		}
		all = append(all, es...)
	}
	return all, nil
}

// Filter keeps the edges whose type is in types (all when types is empty).
func Filter(es []Edge, types []string) []Edge {
	if len(types) == 0 {
		return es
	}
	out := es[:0:0]
	for _, e := range es {
		if contains(types, e.Type) {
			out = append(out, e)
		}
	}
	return out
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// CheckTypes rejects link types the schema does not know.
func CheckTypes(types []string) error {
	for _, t := range types {
		if !contains(memfile.LinkTypes, t) && t != TypeReferences {
			return fmt.Errorf("unknown link type %q (known: %s)", t, strings.Join(memfile.LinkTypes, ", "))
		}
	}
	return nil
}
