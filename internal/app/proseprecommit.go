package app

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/gob"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"time"

	"github.com/git-memcite/git-memcite/internal/gitrepo"
	"github.com/git-memcite/git-memcite/internal/hookrun"
	"github.com/git-memcite/git-memcite/internal/memfile"
	"github.com/git-memcite/git-memcite/internal/prose"
	"github.com/git-memcite/git-memcite/internal/regfile"
	"github.com/git-memcite/git-memcite/internal/source"
	"github.com/git-memcite/git-memcite/internal/store"
	"github.com/git-memcite/git-memcite/internal/trace"
	"github.com/git-memcite/git-memcite/internal/vcache"
)

// ProseHookResult is what the pre-commit hook found in the prose of the
// memories (docs/hooks.md): the references the commit breaks.
type ProseHookResult struct {
	Findings []prose.StagedFinding
	// Level is the prose setting (error, warn, block); Blocked is true
	// when the findings block the commit (prose: block, and
	// memcite.preCommit is not warn).
	Level   string
	Blocked bool
	// Fixed are the memory files memcite.preCommit fix rewrote and added
	// to the commit, with how many references each; NotFixed says why a
	// file with references to rewrite was not (its path: the reason).
	Fixed    []FixedFile
	NotFixed map[string]string
	fixed    map[prose.StagedFinding]bool
}

// IsFixed reports whether memcite.preCommit fix rewrote the finding.
func (r *ProseHookResult) IsFixed(f prose.StagedFinding) bool { return r.fixed[f] }

// ProsePreCommit checks the prose of the memories against what is being
// committed (prose.CheckStaged), unless the prose setting is off. res is
// the hook's PreCommit result: its list of staged paths is reused, and
// memory files it fixed are not rewritten again.
func (h *Hook) ProsePreCommit(ctx context.Context, ws *Workspace, res *HookResult) (*ProseHookResult, error) {
	level := ws.ProseLevel()
	if level == "off" || !h.Pre {
		return nil, nil
	}
	start := time.Now()
	staged := res.Outcome.Staged
	if staged == nil {
		var err error
		if staged, err = hookrun.StagedSet(ctx, h.Repo, h.Src); err != nil {
			return nil, nil // no HEAD: the commit breaks nothing that held
		}
	}
	changed := make([]string, 0, len(staged))
	for p := range staged {
		changed = append(changed, p)
	}
	sort.Strings(changed)
	headTree, born, err := h.Repo.HeadTree(ctx)
	if err != nil || !born {
		return nil, err
	}
	idx := blobSource{Source: h.Src, repo: h.Repo}
	refs := h.newMemoryRefs(idx, presentMemoryDirs(h.Src, h.Dirs))
	if ws.Cfg != nil {
		refs.ignored = ws.Cfg.Ignored // the ignore globs leave memories out
	}
	findings, err := prose.CheckStaged(ctx, prose.Staged{
		Head:    h.Repo.TreeReader(headTree),
		Index:   idx,
		Changed: changed,
		Dirs:    h.Dirs,
		Refs:    refs.all,
		Names:   refs.names,
		Renames: func() (map[string]string, error) { return h.Repo.StagedRenames(ctx) },
		Grep: func(names, pathspecs []string) (map[string]bool, error) {
			return h.Repo.GrepIndexWords(ctx, names, pathspecs)
		},
	})
	trace.Printf("hook: prose of the memories checked against the %d paths the commit changes: %d references broken, in %s",
		len(changed), len(findings), time.Since(start).Round(time.Millisecond))
	if err != nil {
		return nil, fmt.Errorf("checking the prose of the memories: %w", err)
	}
	if len(findings) == 0 {
		return nil, nil
	}
	out := &ProseHookResult{Findings: findings, Level: level}
	if h.Cfg.PreCommit == hookrun.Fix {
		h.fixProse(ctx, out, res)
	}
	if level == "block" && h.Cfg.PreCommit != hookrun.Warn {
		for _, f := range findings {
			out.Blocked = out.Blocked || !out.fixed[f]
		}
	}
	return out, nil
}

// presentMemoryDirs are the memory directories src holds.
func presentMemoryDirs(src source.Source, dirs []string) []string {
	var out []string
	for _, d := range dirs {
		if c, err := source.Clean(d); err == nil {
			if e, err := src.Stat(c); err == nil && e.Kind == source.KindDir {
				out = append(out, c)
			}
		}
	}
	return out
}

// blobSource reads the files of an index by their blob ids, in-process
// (gitrepo.Repo.ReadBlob): what is committed, without the working-tree
// shortcut of the index source, which looks at attributes first.
type blobSource struct {
	source.Source
	repo *gitrepo.Repo
}

func (b blobSource) ReadFile(p string) ([]byte, error) {
	if ider, ok := b.Source.(source.Identifier); ok {
		if id, ok := ider.ContentID(p); ok {
			if data, err := b.repo.ReadBlob(id); err == nil {
				return data, nil
			}
		}
	}
	return b.Source.ReadFile(p)
}

// ContentID keeps the index's names of content (the cache of references
// is keyed by them).
func (b blobSource) ContentID(p string) (string, bool) {
	if ider, ok := b.Source.(source.Identifier); ok {
		return ider.ContentID(p)
	}
	return "", false
}

// proseRefsFile, in the cache directory of the git directory, holds the
// references extracted from memory files, by the blob id of each
// (docs/cache.md): a hook reads no memory file it read before.
const proseRefsFile = "prose-refs"

// proseRefsHead is the first value of that file: what the references of
// the memory files it was written for name (Key: those files' paths and
// blob ids), so that a commit that removes nothing they name decodes
// nothing more.
type proseRefsHead struct {
	Version string
	Key     string
	Names   *prose.RefNames
}

// proseRefsBody is its second value: the references by blob id.
type proseRefsBody struct {
	Refs map[string][]prose.Ref
}

// memoryRefs gives the memory files of src below dirs and the references
// in each, from the cache of references when the source names a file's
// content (its blob id), else by reading it.
type memoryRefs struct {
	h       *Hook
	src     source.Source
	dirs    []string
	ignored func(string) bool // nil: none

	listed  bool
	mems    []*store.Memory
	ids     []string // blob ids ("" when the source names none)
	key     string   // of every path and id; "" when one has no id
	head    proseRefsHead
	dec     *gob.Decoder // positioned at the body, when the head was read
	version string
	file    string
}

func (h *Hook) newMemoryRefs(src source.Source, dirs []string) *memoryRefs {
	return &memoryRefs{h: h, src: src, dirs: dirs,
		version: prose.ExtractVersion() + "\x00" + h.refsTool,
		file:    filepath.Join(vcache.Dir(h.Repo.GitDir), proseRefsFile)}
}

// list finds the memory files and their blob ids, and reads the head of
// the cache file.
func (r *memoryRefs) list() error {
	if r.listed {
		return nil
	}
	r.listed = true
	mems, err := store.Find(r.src, r.dirs)
	if err != nil {
		return err
	}
	if r.ignored != nil {
		mems = slices.DeleteFunc(mems, func(m *store.Memory) bool { return r.ignored(m.Path) })
	}
	r.mems = mems
	r.ids = make([]string, len(mems))
	ider, _ := r.src.(source.Identifier)
	sum := sha256.New()
	keyed := ider != nil
	for i, m := range mems {
		if ider != nil {
			if id, ok := ider.ContentID(m.Path); ok {
				r.ids[i] = id
			}
		}
		if r.ids[i] == "" {
			keyed = false
		}
		sum.Write([]byte(m.Path + "\x00" + r.ids[i] + "\n"))
	}
	if keyed {
		r.key = hex.EncodeToString(sum.Sum(nil))
	}
	if r.h.refsTool == "" {
		return nil
	}
	data, err := regfile.ReadFile(r.file)
	if err != nil {
		return nil
	}
	dec := gob.NewDecoder(bytes.NewReader(data))
	var head proseRefsHead
	if dec.Decode(&head) == nil && head.Version == r.version {
		r.head, r.dec = head, dec
	}
	return nil
}

// names is what the references name: from the head of the cache file
// when it was written for these memory files.
func (r *memoryRefs) names() (*prose.RefNames, error) {
	if err := r.list(); err != nil {
		return nil, err
	}
	if r.key != "" && r.head.Key == r.key && r.head.Names != nil {
		return r.head.Names, nil
	}
	mems, err := r.all()
	if err != nil {
		return nil, err
	}
	return prose.NamesOf(mems), nil
}

// all returns every memory file's references, and rewrites the cache
// file when they are not those it holds.
func (r *memoryRefs) all() ([]prose.MemoryRefs, error) {
	start := time.Now()
	if err := r.list(); err != nil {
		return nil, err
	}
	var body proseRefsBody
	if r.dec != nil && r.dec.Decode(&body) != nil {
		body.Refs = nil
	}
	r.dec = nil
	kept := make(map[string][]prose.Ref, len(r.mems))
	out := make([]prose.MemoryRefs, 0, len(r.mems))
	read, dirty := 0, false
	for i, m := range r.mems {
		id := r.ids[i]
		refs, hit := body.Refs[id]
		if id == "" || !hit {
			data, err := r.src.ReadFile(m.Path)
			if err != nil {
				continue // unreadable: the hook's check reports it
			}
			read++
			refs = prose.Extract(data, prose.Options{})
			dirty = dirty || id != ""
		}
		if id != "" {
			kept[id] = refs
		}
		out = append(out, prose.MemoryRefs{Path: m.Path, Dir: m.Dir, Refs: refs})
	}
	if r.h.refsTool != "" && r.key != "" && (dirty || len(kept) != len(body.Refs) || r.head.Key != r.key) {
		var buf bytes.Buffer
		enc := gob.NewEncoder(&buf)
		head := proseRefsHead{Version: r.version, Key: r.key, Names: prose.NamesOf(out)}
		if enc.Encode(head) == nil && enc.Encode(proseRefsBody{Refs: kept}) == nil {
			if err := os.MkdirAll(filepath.Dir(r.file), 0o777); err == nil {
				if err := WriteReport(r.file, buf.Bytes()); err != nil {
					trace.Printf("hook: %v", err)
				}
			}
		}
	}
	trace.Printf("hook: references of %d memory files (%d read) in %s", len(r.mems), read, time.Since(start).Round(time.Millisecond))
	return out, nil
}

// fixProse is memcite.preCommit fix for the prose: the references to a
// path or memory the commit renamed are rewritten (prose.FixFor: only
// their bytes) in each memory file whose working-tree content is exactly
// what is staged, and the file is added to the commit. A file the
// citation fix rewrote already, or with unstaged changes, is left alone.
func (h *Hook) fixProse(ctx context.Context, out *ProseHookResult, res *HookResult) {
	out.fixed = map[prose.StagedFinding]bool{}
	out.NotFixed = map[string]string{}
	byMem := map[string][]prose.StagedFinding{}
	var order []string
	for _, f := range out.Findings {
		if _, ok := prose.FixFor(f.Memory, f.Ref); !ok {
			continue
		}
		if byMem[f.Memory] == nil {
			order = append(order, f.Memory)
		}
		byMem[f.Memory] = append(byMem[f.Memory], f)
	}
	if len(order) == 0 {
		return
	}
	done := map[string]bool{}
	for _, f := range res.Fixed {
		done[f.Path] = true
	}
	unlock, err := Lock(ctx, h.Repo)
	if err != nil {
		for _, p := range order {
			out.NotFixed[p] = err.Error()
		}
		return
	}
	defer unlock()
	for _, p := range order {
		if done[p] {
			out.NotFixed[p] = "its citations were relocated in this commit; commit again to fix its prose"
			continue
		}
		old, err := h.Src.ReadFile(p)
		if err != nil {
			out.NotFixed[p] = err.Error()
			continue
		}
		var fixes []prose.Fix
		for _, f := range byMem[p] {
			fx, _ := prose.FixFor(p, f.Ref)
			fixes = append(fixes, fx)
		}
		data, err := prose.Apply(old, fixes)
		if err != nil {
			out.NotFixed[p] = err.Error()
			continue
		}
		err = WriteMemory(h.Repo, h.Repo.Top, p, old, data)
		switch {
		case errors.Is(err, memfile.ErrChanged), errors.Is(err, fs.ErrNotExist):
			out.NotFixed[p] = "it has changes that are not staged; stage or stash them, then commit again"
			continue
		case err != nil:
			out.NotFixed[p] = err.Error()
			continue
		}
		if err := h.Repo.Stage(ctx, []string{p}); err != nil {
			_ = WriteMemory(h.Repo, h.Repo.Top, p, data, old)
			out.NotFixed[p] = err.Error()
			continue
		}
		for _, f := range byMem[p] {
			out.fixed[f] = true
		}
		out.Fixed = append(out.Fixed, FixedFile{Path: p, Citations: len(byMem[p])})
	}
}
