package verify

import (
	"context"
	"runtime"
	"sync"

	"github.com/git-memcite/git-memcite/internal/memfile"
	"github.com/git-memcite/git-memcite/internal/source"
	"github.com/git-memcite/git-memcite/internal/store"
	"github.com/git-memcite/git-memcite/internal/vcache"
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
	after  map[string]contentID // of the files read
	hits   map[*memfile.Citation]verdict
}

type contentID struct {
	id string
	ok bool
}

type verdict struct {
	kind   Kind
	reason string
}

func newCitationCache(ctx context.Context, src source.Source) *citationCache {
	c := vcache.FromContext(ctx)
	ids, ok := src.(source.Identifier)
	if c == nil || !ok {
		return nil
	}
	ids.ContentID("") // read what names content (the index) before any file
	n, _ := c.Len()
	return &citationCache{cache: c, ids: ids, empty: n == 0, before: map[string]contentID{}, hits: map[*memfile.Citation]verdict{}}
}

// nameAll names the content of paths, in parallel: for the working tree
// each name costs an lstat, as in git status.
func (cc *citationCache) nameAll(paths []string) map[string]contentID {
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
	out := make(map[string]contentID, len(paths))
	for i, p := range paths {
		out[p] = ids[i]
	}
	return out
}

// prefetch names the content of every cited path of mems before reading.
func (cc *citationCache) prefetch(mems []*store.Memory) {
	if cc == nil || cc.empty {
		return
	}
	seen := map[string]bool{}
	var paths []string
	for _, m := range mems {
		if m.File == nil || m.File.Exempt {
			continue
		}
		for _, c := range m.File.Citations {
			if c.URL == "" && c.Path != "" && !seen[c.Path] {
				seen[c.Path] = true
				paths = append(paths, c.Path)
			}
		}
	}
	cc.before = cc.nameAll(paths)
}

// recheck names the content of the files just read.
func (cc *citationCache) recheck(files map[string]*fileData) {
	if cc == nil {
		return
	}
	paths := make([]string, 0, len(files))
	for p, fd := range files {
		if fd != nil && fd.kind == source.KindFile && !fd.untracked {
			paths = append(paths, p)
		}
	}
	cc.after = cc.nameAll(paths)
}

// known reports whether c's verdict is in the cache (and remembers it for
// lookup).
func (cc *citationCache) known(c *memfile.Citation) bool {
	if cc == nil || cc.empty || c.Path == "" {
		return false
	}
	id := cc.before[c.Path]
	if !id.ok {
		return false
	}
	v, ok := cc.cache.Verdict(vcache.CitationKey(id.id, *c))
	if !ok || v.Kind < 0 || v.Kind >= len(kindNames) {
		return false
	}
	cc.hits[c] = verdict{Kind(v.Kind), v.Reason}
	return true
}

// lookup returns the verdict known found for c.
func (cc *citationCache) lookup(c *memfile.Citation) (verdict, bool) {
	if cc == nil {
		return verdict{}, false
	}
	v, ok := cc.hits[c]
	return v, ok
}

// store remembers a verdict that depends on nothing but the file's
// content and the citation: not one about reading errors, untracked files
// or anything the content's name does not cover.
func (cc *citationCache) store(c memfile.Citation, fd *fileData, kind Kind, reason string) {
	if cc == nil || fd == nil || fd.untracked || fd.statErr != nil || fd.readErr != nil || fd.kind != source.KindFile {
		return
	}
	switch kind {
	case KindNone, KindBinary, KindInvalidLine, KindInvalidRange, KindPastEOF, KindInvalidUTF8, KindSnippetMismatch:
	default:
		return
	}
	id := cc.after[c.Path]
	if !id.ok {
		return // not named, or changed since the index recorded it
	}
	cc.cache.PutVerdict(vcache.CitationKey(id.id, c), vcache.Verdict{Kind: int(kind), Reason: reason})
}

// KnownStale counts the stale citations of each of mems in src from the
// cache in ctx alone, reading no cited file (hookrun.KnownStale): counts[i]
// is mems[i]'s, or -1 when a verdict of one of its citations is not
// cached (a count it is not sure of is not given). It returns nil when
// the cache knows nothing.
func KnownStale(ctx context.Context, src source.Source, mems []*store.Memory) (counts []int) {
	cc := newCitationCache(ctx, src)
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
			if !cc.known(c) {
				counts[i] = -1
				break
			}
			if cc.hits[c].kind != KindNone {
				counts[i]++
			}
		}
	}
	return counts
}
