package verify

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"runtime"
	"slices"
	"sync"

	"github.com/git-memcite/git-memcite/internal/memfile"
	"github.com/git-memcite/git-memcite/internal/source"
	"github.com/git-memcite/git-memcite/internal/store"
	"github.com/git-memcite/git-memcite/internal/vcache"
	"github.com/git-memcite/git-memcite/internal/workers"
)

// citationCache looks citations up in the verification cache and stores
// the verdicts it can vouch for. A nil *citationCache caches nothing.
//
// A file's content is named twice: before reading, to look its citations
// up (skipped when the cache holds no verdicts), and after, to store
// verdicts. The name taken after the read is the one that vouches for
// what was read: it is only given while the file's stat data is still the
// index entry's, ctime included, which no write leaves unchanged.
type citationCache struct {
	cache *vcache.Cache
	ids   source.Identifier
	empty bool // the cache holds no verdicts: no lookups

	before map[string]contentID // by cited path as written
	// by citation of prefetch's memories, in order (those Check lists):
	// the index of its path's name in beforeIDs, -1 for none
	order     []int32
	beforeIDs []contentID

	mu    sync.Mutex
	after map[string]contentID // named after reading, by cited path as written
}

type contentID struct {
	id string
	ok bool
}

type verdict struct {
	kind   Kind
	reason string
}

func newCitationCache(c *vcache.Cache, src source.Source) *citationCache {
	ids, ok := src.(source.Identifier)
	if c == nil || !ok {
		return nil
	}
	ids.ContentID("") // read what names content (the index) before any file
	n, _ := c.Len()
	return &citationCache{cache: c, ids: ids, empty: n == 0, before: map[string]contentID{}}
}

// nameAll names the content of paths, in parallel: for the working tree
// each name costs an lstat, as in git status.
func (cc *citationCache) nameAll(paths []string) []contentID {
	ids := make([]contentID, len(paths))
	var wg sync.WaitGroup
	workers := min(4*runtime.GOMAXPROCS(0), max(len(paths)/64, 1))
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for i := w; i < len(paths); i += workers {
				ids[i].id, ids[i].ok = cc.ids.ContentID(paths[i])
			}
		}(w)
	}
	wg.Wait()
	return ids
}

// prefetch names the content of every cited path of mems before reading.
func (cc *citationCache) prefetch(mems []*store.Memory) {
	if cc == nil || cc.empty {
		return
	}
	n := 0
	for _, m := range mems {
		if m.File != nil && !m.File.Exempt {
			n += len(m.File.Citations)
		}
	}
	seen := map[string]int32{}
	var paths []string
	order := make([]int32, 0, n)
	for _, m := range mems {
		if m.File == nil || m.File.Exempt {
			continue
		}
		for _, c := range m.File.Citations {
			at := int32(-1)
			if c.URL == "" && c.Path != "" {
				i, ok := seen[c.Path]
				if !ok {
					i = int32(len(paths))
					seen[c.Path] = i
					paths = append(paths, c.Path)
				}
				at = i
			}
			order = append(order, at)
		}
	}
	ids := cc.nameAll(paths)
	cc.before = make(map[string]contentID, len(paths))
	for i, p := range paths {
		cc.before[p] = ids[i]
	}
	cc.order, cc.beforeIDs = order, ids
}

// named names the content of the file just read, for store: the name
// taken after the read vouches for what was read.
func (cc *citationCache) named(p string, fd *fileData) contentID {
	if cc == nil || fd.kind != source.KindFile || fd.untracked {
		return contentID{}
	}
	var id contentID
	id.id, id.ok = cc.ids.ContentID(p)
	cc.mu.Lock()
	if cc.after == nil {
		cc.after = map[string]contentID{}
	}
	cc.after[p] = id
	cc.mu.Unlock()
	return id
}

// names returns the content names the run took, by cited path as
// written: those taken after a read win over those taken before.
func (cc *citationCache) names() map[string]string {
	if cc == nil {
		return nil
	}
	out := make(map[string]string, len(cc.before)+len(cc.after))
	for p, id := range cc.before {
		if id.ok {
			out[p] = id.id
		}
	}
	for p, id := range cc.after {
		if id.ok {
			out[p] = id.id
		} else {
			delete(out, p)
		}
	}
	return out
}

// lookupAll sets the kind and reason of the results whose verdict the
// cache holds (Skipped ones aside) and marks them in the slice returned;
// nil when the cache holds no verdicts. The keys are made in parallel and
// looked up in key order, in parallel: on a large store a lookup in
// citation order waits on memory more than it computes, while keys in
// order walk the cache's sorted records from front to back.
func (cc *citationCache) lookupAll(all []CitationResult) []bool {
	if cc == nil || cc.empty {
		return nil
	}
	type lookup struct {
		key vcache.Key
		at  int // in all; -1: nothing to look up
	}
	reqs := make([]lookup, len(all))
	workers.Ranges(len(all), func(lo, hi int) {
		for k := lo; k < hi; k++ {
			reqs[k].at = -1
			cr := &all[k]
			if cr.Status == Skipped || cr.Citation.Path == "" {
				continue
			}
			var id contentID
			if len(cc.order) == len(all) { // all is prefetch's citations, in order
				if at := cc.order[k]; at >= 0 {
					id = cc.beforeIDs[at]
				}
			} else {
				id = cc.before[cr.Citation.Path]
			}
			if id.ok {
				reqs[k] = lookup{vcache.CitationKey(id.id, *cr.Citation), k}
			}
		}
	})
	reqs = slices.DeleteFunc(reqs, func(r lookup) bool { return r.at < 0 })
	slices.SortFunc(reqs, func(a, b lookup) int {
		// the first 8 bytes of a SHA-256 decide almost always
		if c := cmp.Compare(binary.BigEndian.Uint64(a.key[:8]), binary.BigEndian.Uint64(b.key[:8])); c != 0 {
			return c
		}
		return bytes.Compare(a.key[8:], b.key[8:])
	})
	known := make([]bool, len(all))
	workers.Ranges(len(reqs), func(lo, hi int) {
		for _, r := range reqs[lo:hi] {
			v, ok := cc.cache.Verdict(r.key)
			if !ok || v.Kind < 0 || v.Kind >= len(kindNames) {
				continue
			}
			cr := &all[r.at]
			cr.Kind, cr.Reason = Kind(v.Kind), v.Reason // a tracked file: Untracked is false
			known[r.at] = true
		}
	})
	return known
}

// known returns c's verdict when the cache holds it.
func (cc *citationCache) known(c *memfile.Citation) (verdict, bool) {
	if cc == nil || cc.empty || c.Path == "" {
		return verdict{}, false
	}
	id := cc.before[c.Path]
	if !id.ok {
		return verdict{}, false
	}
	v, ok := cc.cache.Verdict(vcache.CitationKey(id.id, *c))
	if !ok || v.Kind < 0 || v.Kind >= len(kindNames) {
		return verdict{}, false
	}
	return verdict{Kind(v.Kind), v.Reason}, true
}

// store remembers a verdict that depends on nothing but the file's
// content and the citation: not one about reading errors, untracked files
// or anything the content's name does not cover.
func (cc *citationCache) store(id contentID, c *memfile.Citation, fd *fileData, kind Kind, reason string) {
	if cc == nil || !id.ok || fd.untracked || fd.statErr != nil || fd.readErr != nil || fd.kind != source.KindFile {
		return
	}
	switch kind {
	case KindNone, KindBinary, KindInvalidLine, KindInvalidRange, KindPastEOF, KindInvalidUTF8, KindSnippetMismatch:
	default:
		return
	}
	cc.cache.PutVerdict(vcache.CitationKey(id.id, *c), vcache.Verdict{Kind: int(kind), Reason: reason})
}

// KnownStale counts the stale citations of each of mems in src from
// cache alone, reading no cited file (hookrun.KnownStale): counts[i]
// is mems[i]'s, or -1 when a verdict of one of its citations is not
// cached (a count it is not sure of is not given). It returns nil when
// the cache knows nothing.
func KnownStale(src source.Source, mems []*store.Memory, cache *vcache.Cache) (counts []int) {
	cc := newCitationCache(cache, src)
	if cc == nil || cc.empty {
		return nil
	}
	cc.prefetch(mems)
	counts = make([]int, len(mems))
	for i, m := range mems {
		if m.File == nil || m.File.Exempt {
			continue
		}
		for j := range m.File.Citations {
			c := &m.File.Citations[j]
			if c.URL != "" {
				continue
			}
			v, ok := cc.known(c)
			if !ok {
				counts[i] = -1
				break
			}
			if v.kind != KindNone {
				counts[i]++
			}
		}
	}
	return counts
}
